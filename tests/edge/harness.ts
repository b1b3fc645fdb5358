/**
 * A whole edge on this machine for a test file: the control plane (a real server on a real database,
 * listening on a free port), the demo origin, and an edge agent with its own nginx, prefix and ports.
 * Settings are saved through the API as a customer would; requests go to the edge as a client would.
 */
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import http2 from 'node:http2';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { randomBytes, X509Certificate } from 'node:crypto';
import { startTestServer, Client, type TestServer } from '../server/helpers';
import { startDemoOrigin, type DemoOrigin } from '../../src/origin/server';
import { EdgeAgent, type AgentOptions } from '../../src/edge/agent';
import { registerNode, currentVersion } from '../../src/server/edge/repo';
import { seedDemoOrigins } from '../../src/server/seed/edge';
import { configFromEnv, type ServerConfig } from '../../src/server/config';
import { freePorts } from '../ports';

export const nginxInstalled = fs.existsSync('/usr/sbin/nginx');

export { freePort } from '../ports';

export interface EdgeAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  text: string;
  /** For HTTPS: the negotiated protocol (TLSv1.2 …) and ALPN (h2, http/1.1). */
  tls?: { protocol: string | null; alpn: string | false | null };
}

export interface RequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  https?: boolean;
  /** TLS: min and max protocol the client offers. */
  minVersion?: 'TLSv1' | 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3';
  maxVersion?: 'TLSv1' | 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3';
  /** ALPN protocols the client offers (HTTPS). */
  alpn?: string[];
  /** Bind the client socket to this local address (127.0.0.2 … for address-based rules). */
  localAddress?: string;
}

export interface EdgeStack {
  server: TestServer;
  /** The control plane's base URL. */
  url: string;
  origin: DemoOrigin;
  agent: EdgeAgent;
  dir: string;
  ports: { http: number; https: number };
  /** The node's key (to start another agent on the same node). */
  key: string;
  /** demo, signed in. */
  client: Client;
  /** Saves a setting through the API as the customer (throws with the answer when refused). */
  save(bucket: string, setting: string, value: Record<string, unknown>): Promise<void>;
  /** Saves through the API and waits until the edge runs the change. */
  saveLive(bucket: string, setting: string, value: Record<string, unknown>): Promise<void>;
  /** Waits until the edge runs the control plane's current version. */
  waitLive(ms?: number): Promise<void>;
  /** One request to the edge with the Host (and SNI) of `host`. */
  request(host: string, path: string, opts?: RequestOptions): Promise<EdgeAnswer>;
  /** An HTTP/2 request over TLS (ALPN h2), collecting pushed paths. */
  h2(host: string, path: string, headers?: Record<string, string>): Promise<EdgeAnswer & { pushed: string[] }>;
  /** Makes a self-signed certificate for `domain`, binds it and turns HTTPS on for the domain. */
  enableHttps(domain: string, opts?: { forceHttps?: boolean; certificate?: { crt: string; key: string } }): Promise<number>;
  close(): Promise<void>;
}

export function selfSigned(domain: string): { crt: string; key: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edge-cert-'));
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${dir}/k.pem`, '-out', `${dir}/c.pem`, '-days', '30', '-subj', `/CN=${domain}`, '-addext', `subjectAltName=DNS:${domain}`], { stdio: 'ignore' });
  const out = { crt: fs.readFileSync(`${dir}/c.pem`, 'utf8'), key: fs.readFileSync(`${dir}/k.pem`, 'utf8') };
  fs.rmSync(dir, { recursive: true, force: true });
  return out;
}

export async function startEdgeStack(opts: { config?: Partial<ServerConfig>; agentLog?: boolean; agent?: Partial<AgentOptions> } = {}): Promise<EdgeStack> {
  // the demo origin first: the server allows its address as the demo's origin (config.edge.demoOrigin)
  const origin = await startDemoOrigin(0);
  const base = configFromEnv({});
  // the node's key and ports first: the server sends the rule tester's real requests to this edge, with its key
  const nodeKey = randomBytes(18).toString('base64url');
  const [httpPort, httpsPort] = await freePorts(2);
  const ports = { http: httpPort, https: httpsPort };
  const server = await startTestServer({ config: { ...opts.config, edge: { ...base.edge, ...opts.config?.edge, demoOrigin: `127.0.0.1:${origin.port}`, nodeName: 'test', nodeKey, httpUrl: `http://127.0.0.1:${ports.http}` } } });
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(server.app.server.address() as net.AddressInfo).port}`;
  await seedDemoOrigins(server.db, `127.0.0.1:${origin.port}`);
  const key = await registerNode(server.db, 'test', nodeKey);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edge-'));
  const agent = new EdgeAgent({ controlUrl: url, nodeKey: key, nodeName: 'test', dir, ports, pollWait: 5, log: opts.agentLog ? undefined : () => undefined, ...opts.agent });
  await agent.start();
  const client = await new Client(server.app).signIn('demo');

  const waitLive = async (ms = 15_000) => {
    const v = await currentVersion(server.db);
    if (!(await agent.waitForVersion(v, ms))) throw new Error(`边缘未在 ${ms} ms 内应用版本 ${v}（当前 ${agent.runningVersion}）`);
  };
  const save = async (bucket: string, setting: string, value: Record<string, unknown>) => {
    const res = await client.post(`/api/settings/${setting}/`, { bucket_name: bucket, ...value });
    if (res.statusCode !== 200) throw new Error(`保存 ${setting} 失败：${res.body}`);
  };

  const request = (host: string, p: string, o: RequestOptions = {}): Promise<EdgeAnswer> =>
    new Promise((resolve, reject) => {
      const base = { host: '127.0.0.1', path: p, method: o.method ?? 'GET', headers: { host, ...(o.headers ?? {}) }, localAddress: o.localAddress, agent: false as const };
      const onRes = (res: http.IncomingMessage) => {
        const chunks: Buffer[] = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          const sock = res.socket as import('node:tls').TLSSocket;
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body,
            text: body.toString('utf8'),
            ...(o.https ? { tls: { protocol: sock.getProtocol?.() ?? null, alpn: sock.alpnProtocol ?? null } } : {}),
          });
        });
        res.on('error', reject);
      };
      const req = o.https
        ? https.request({ ...base, port: ports.https, servername: host, rejectUnauthorized: false, minVersion: o.minVersion ?? 'TLSv1', maxVersion: o.maxVersion ?? 'TLSv1.3', ...(o.alpn ? { ALPNProtocols: o.alpn } : {}), ciphers: 'DEFAULT:@SECLEVEL=0' } as https.RequestOptions, onRes)
        : http.request({ ...base, port: ports.http }, onRes);
      req.on('error', reject);
      if (o.body) req.write(o.body);
      req.end();
    });

  const h2 = (host: string, p: string, headers: Record<string, string> = {}) =>
    new Promise<EdgeAnswer & { pushed: string[] }>((resolve, reject) => {
      const session = http2.connect(`https://127.0.0.1:${ports.https}`, { servername: host, rejectUnauthorized: false });
      const pushed: string[] = [];
      session.on('stream', (_s, h) => pushed.push(String(h[':path'])));
      session.on('error', reject);
      const req = session.request({ ':path': p, ':authority': host, ...headers });
      const chunks: Buffer[] = [];
      let resHeaders: http2.IncomingHttpHeaders = {};
      req.on('response', (h) => (resHeaders = h));
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        // pushed streams arrive before the response ends; give the last ones a moment
        setTimeout(() => {
          session.close();
          resolve({ status: Number(resHeaders[':status']), headers: resHeaders as http.IncomingHttpHeaders, body, text: body.toString('utf8'), pushed, tls: { protocol: null, alpn: session.alpnProtocol ?? null } });
        }, 50);
      });
      req.on('error', reject);
      req.end();
    });

  const enableHttps = async (domain: string, o: { forceHttps?: boolean; certificate?: { crt: string; key: string } } = {}) => {
    const pem = o.certificate ?? selfSigned(domain);
    const d = await server.db.selectFrom('bucket_domains as d').innerJoin('buckets as b', 'b.id', 'd.bucket_id').select(['d.id', 'b.owner_id']).where('d.domain', '=', domain).executeTakeFirstOrThrow();
    let x: X509Certificate | null = null;
    try {
      x = new X509Certificate(pem.crt);
    } catch {
      /* a broken certificate on purpose */
    }
    const cert = await server.db
      .insertInto('certificates')
      .values({
        account_id: d.owner_id,
        common_name: domain,
        domains: JSON.stringify([domain]),
        issuer: x?.issuer ?? 'test',
        serial: x?.serialNumber ?? randomBytes(8).toString('hex'),
        fingerprint: x?.fingerprint256 ?? randomBytes(16).toString('hex'),
        valid_from: x ? new Date(x.validFrom) : new Date(),
        valid_to: x ? new Date(x.validTo) : new Date(Date.now() + 86400_000),
        certificate: pem.crt,
        private_key: pem.key,
      } as any)
      .returning('id')
      .executeTakeFirstOrThrow();
    await server.db
      .insertInto('domain_https')
      .values({ domain_id: d.id, certificate_id: cert.id, https: true, force_https: !!o.forceHttps, updated_at: new Date() })
      .onConflict((oc) => oc.column('domain_id').doUpdateSet({ certificate_id: cert.id, https: true, force_https: !!o.forceHttps, updated_at: new Date() }))
      .execute();
    return cert.id;
  };

  return {
    server,
    url,
    origin,
    agent,
    dir,
    ports,
    key,
    client,
    save,
    saveLive: async (b, s, v) => {
      await save(b, s, v);
      await waitLive();
    },
    waitLive,
    request,
    h2,
    enableHttps,
    async close() {
      await agent.stop();
      server.app.server.closeAllConnections();
      await origin.close();
      await server.close();
      // EDGE_KEEP=1 keeps the node's folder (its logs/error.log) for a look after a failure
      if (process.env.EDGE_KEEP) console.log(`边缘节点目录保留在 ${dir}`);
      else fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
