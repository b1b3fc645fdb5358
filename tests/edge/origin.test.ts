import fs from 'node:fs';
import path from 'node:path';
/**
 * 回源配置 on the edge (docs/edge.md "Access control, paused services and origins"): real requests through
 * nginx reach the configured origin — the protocol (HTTP, HTTPS, 协议跟随), the 回源 Host (and SNI),
 * weights, backup servers and failover when a server is down.
 *
 * The customer saves through the API, where the demo origin is the only local address allowed; the
 * second origins here are on this machine too, so they are written as the operator writes the demo's
 * origins (src/server/seed/edge.ts: straight into service_settings), and the API's refusal of the same
 * value is shown beside them.
 */
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { TLSSocket } from 'node:tls';
import { startEdgeStack, freePort, selfSigned, type EdgeStack } from './harness';
import { startDemoOrigin, type DemoOrigin } from '../../src/origin/server';
import { writeSetting } from '../../src/server/settings/repo';
import originEdge from '../../schemas/settings/origin/edge';

let edge: EdgeStack;
let second: DemoOrigin;
let dual: { port: number; close(): Promise<void> };

interface Seen {
  tls: boolean;
  sni: string | null;
  host: string;
  uri: string;
}

/** An origin answering HTTP and HTTPS on one port (the first byte tells a TLS handshake), with what it saw. */
async function startDualOrigin(): Promise<{ port: number; close(): Promise<void> }> {
  const answer = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const sock = req.socket as TLSSocket;
    const seen: Seen = { tls: Boolean(sock.encrypted), sni: sock.encrypted ? (sock as any).servername || null : null, host: String(req.headers.host), uri: String(req.url) };
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Cache-Control', 'no-store');
    res.end(JSON.stringify(seen));
  };
  const pem = selfSigned('origin.example.com');
  const plain = http.createServer(answer);
  const secure = https.createServer({ key: pem.key, cert: pem.crt }, answer);
  const front = net.createServer((socket) => {
    socket.once('data', (first) => {
      socket.pause();
      socket.unshift(first);
      (first[0] === 0x16 ? secure : plain).emit('connection', socket);
      process.nextTick(() => socket.resume());
    });
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  const port = (front.address() as net.AddressInfo).port;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        plain.closeAllConnections();
        secure.closeAllConnections();
        front.close(() => resolve());
      }),
  };
}

beforeAll(async () => {
  edge = await startEdgeStack();
  second = await startDemoOrigin(0);
  dual = await startDualOrigin();
  await edge.waitLive();
}, 120_000);
afterAll(async () => {
  await second?.close();
  await dual?.close();
  await edge?.close();
});

const failover = { enable: true, timeout: 1, max_fails: 1 };
const srv = (port: number, weight = 10, backup = false) => ({ address: '127.0.0.1', port, weight, backup });
const origin = (servers: object[], more: object = {}) => ({ protocol: 'http', host: '', servers, failover, ...more });

/** Writes a service's origin as the operator does (not through the customer's API), and waits for the edge. */
async function operatorOrigin(bucket: string, value: object) {
  const db = edge.server.db;
  const b = await db.selectFrom('buckets').select(['id', 'owner_id']).where('name', '=', bucket).executeTakeFirstOrThrow();
  const u = await db.selectFrom('users').select('id').where('username', '=', 'demo').executeTakeFirstOrThrow();
  await writeSetting(db, b.id, 'origin', value, u.id);
  await edge.waitLive();
}

/** Which origin answered each of `n` uncacheable requests. */
async function spread(host: string, tag: string, n: number) {
  const out = { first: 0, second: 0, failed: 0 };
  for (let i = 0; i < n; i++) {
    const path = `/echo/${tag}/${i}`;
    const res = await edge.request(host, path);
    if (res.status !== 200) out.failed++;
    else if (second.hits.get(path)) out.second++;
    else if (edge.origin.hits.get(path)) out.first++;
  }
  return out;
}

describe('the customer saves through the API', () => {
  test('the demo origin with a 回源 Host: what reaches the origin is the path, the query and that Host', async () => {
    await edge.saveLive('demo-cdn-04', 'origin', origin([srv(edge.origin.port)], { host: 'origin-host.example.com' }));
    const res = await edge.request('act4.demo-example.com', '/echo/host?a=1');
    expect(res.status).toBe(200);
    const echo = JSON.parse(res.text);
    expect(echo.uri).toBe('/echo/host?a=1');
    expect(echo.headers.host).toBe('origin-host.example.com');
    await edge.saveLive('demo-cdn-04', 'origin', origin([srv(edge.origin.port)]));
    expect(JSON.parse((await edge.request('act4.demo-example.com', '/echo/host')).text).headers.host).toBe('act4.demo-example.com');
  });

  test('another port of this machine is refused (20011) and the edge keeps the origin it had', async () => {
    const res = await edge.client.post('/api/settings/origin/', { bucket_name: 'demo-cdn-04', ...origin([srv(edge.origin.port), srv(second.port, 10, true)]) });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error_code: 20011, message: '源站地址不能是本机、链路本地或元数据地址', errors: [{ path: '/servers/1/address' }] });
    await edge.waitLive();
    const after = await edge.request('act4.demo-example.com', '/echo/kept');
    expect(after.status).toBe(200);
    expect(edge.origin.hits.get('/echo/kept')).toBe(1);
    expect(second.hits.get('/echo/kept')).toBeUndefined();
  });

  test('failover: an unreachable primary is skipped for the demo origin, which answers', async () => {
    // 192.0.2.1 (TEST-NET-1) is not a local address: a customer may write it; nothing answers there
    await edge.saveLive('demo-cdn-05', 'origin', origin([{ address: '192.0.2.1', port: 81, weight: 10, backup: false }, srv(edge.origin.port, 10, true)]));
    for (let i = 0; i < 4; i++) {
      const res = await edge.request('act5.demo-example.com', `/echo/unreachable/${i}`);
      expect(res.status).toBe(200);
      expect(edge.origin.hits.get(`/echo/unreachable/${i}`)).toBe(1);
    }
  });
});

describe('servers: weights, backups, failover', () => {
  const HOST = 'act7.demo-example.com';

  test('weights 3:1 share the requests about 3:1', async () => {
    await operatorOrigin('demo-cdn-07', origin([srv(edge.origin.port, 30), srv(second.port, 10)]));
    const s = await spread(HOST, 'weights', 60);
    expect(s.failed).toBe(0);
    expect(s.first + s.second).toBe(60);
    // nginx's smooth weighted round robin, per worker (two workers): within a few of 45:15
    expect(Math.abs(s.first - 45)).toBeLessThanOrEqual(4);
  });

  test('a backup server gets nothing while the primary answers, everything while it is down', async () => {
    await operatorOrigin('demo-cdn-07', origin([srv(edge.origin.port), srv(second.port, 10, true)]));
    expect(await spread(HOST, 'backup-idle', 10)).toEqual({ first: 10, second: 0, failed: 0 });
    const closed = await freePort();
    await operatorOrigin('demo-cdn-07', origin([srv(closed), srv(second.port, 10, true)]));
    expect(await spread(HOST, 'backup-used', 10)).toEqual({ first: 0, second: 10, failed: 0 });
  });

  test('failover on: a server that is down is passed over; off: its share of the requests fails with 502', async () => {
    const closed = await freePort();
    await operatorOrigin('demo-cdn-07', origin([srv(closed), srv(second.port)]));
    expect(await spread(HOST, 'failover-on', 10)).toEqual({ first: 0, second: 10, failed: 0 });
    await operatorOrigin('demo-cdn-07', origin([srv(closed), srv(second.port)], { failover: { enable: false, timeout: 1, max_fails: 1 } }));
    const off = await spread(HOST, 'failover-off', 10);
    expect(off.failed).toBeGreaterThanOrEqual(2);
    expect(off.second).toBeGreaterThanOrEqual(2);
    expect(off.failed + off.second).toBe(10);
    const res = await edge.request(HOST, '/echo/failover-off/again');
    expect([200, 502]).toContain(res.status);
  });
});

describe('the protocol', () => {
  const HOST = 'act8.demo-example.com';
  const seen = async (path: string, useHttps = false): Promise<Seen> => {
    const res = await edge.request(HOST, path, { https: useHttps });
    expect(res.status).toBe(200);
    return JSON.parse(res.text);
  };

  beforeAll(async () => {
    await edge.enableHttps(HOST);
    await edge.waitLive();
  });

  test('HTTP: plain to the origin whatever the client used', async () => {
    await operatorOrigin('demo-cdn-08', origin([srv(dual.port)], { protocol: 'http' }));
    expect(await seen('/p/http-1')).toMatchObject({ tls: false, host: HOST, uri: '/p/http-1' });
    expect(await seen('/p/http-2', true)).toMatchObject({ tls: false, host: HOST });
  });

  test('HTTPS: TLS to the origin, the SNI name being the requested host or the 回源 Host', async () => {
    await operatorOrigin('demo-cdn-08', origin([srv(dual.port)], { protocol: 'https' }));
    expect(await seen('/p/https-1')).toEqual({ tls: true, sni: HOST, host: HOST, uri: '/p/https-1' });
    await operatorOrigin('demo-cdn-08', origin([srv(dual.port)], { protocol: 'https', host: 'origin.example.com' }));
    expect(await seen('/p/https-2', true)).toEqual({ tls: true, sni: 'origin.example.com', host: 'origin.example.com', uri: '/p/https-2' });
  });

  test('协议跟随: the client scheme to the origin', async () => {
    await operatorOrigin('demo-cdn-08', origin([srv(dual.port)], { protocol: 'follow' }));
    expect(await seen('/p/follow-1')).toMatchObject({ tls: false, host: HOST });
    expect(await seen('/p/follow-2', true)).toMatchObject({ tls: true, sni: HOST, host: HOST });
  });

  test('协议跟随 with an origin on port 80: the data the balancer reads (it asks HTTPS on 443, src/edge/lua/edge_fetch.lua)', () => {
    const ctx = { service: { id: 9, name: 'x', kind: 'cdn' as const, domains: ['x.example.com'] }, setting: () => undefined, ports: { http: 80, https: 443 } };
    const out = originEdge({ protocol: 'follow', host: '', servers: [{ address: '203.0.113.5', port: 80, weight: 10, backup: false }, { address: '203.0.113.6', port: 8080, weight: 5, backup: true }], failover }, ctx)!;
    expect(out.origin).toEqual({
      protocol: 'follow',
      host: undefined,
      servers: [
        { address: '203.0.113.5', port: 80, weight: 10, backup: false },
        { address: '203.0.113.6', port: 8080, weight: 5, backup: true },
      ],
      failover: true,
      timeout: 1,
      max_fails: 1,
    });
    const lua = fs.readFileSync(path.join(__dirname, '../../src/edge/lua/edge_fetch.lua'), 'utf8');
    expect(lua).toContain('if var.edge_up_scheme == "https" and o.protocol == "follow" and port == 80 then port = 443 end');
  });
});
