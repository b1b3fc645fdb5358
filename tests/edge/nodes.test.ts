/**
 * Several nodes in step (issue 33, docs/edge.md "How it scales"): one control plane on PostgreSQL (a database
 * of its own, edge_nodes_test_<random>, dropped afterwards) and three edge nodes, each an EdgeAgent with its own
 * nginx, ports and folder. Only the agent's public interface (constructor, start, stop, waitForVersion,
 * runningVersion) and real HTTP requests are used, so the test holds whatever the data plane inside becomes.
 *
 *  - a setting saved through the console's API (CORS, Access-Control-Allow-Origin on the answer) shows on all
 *    three nodes, and going back off shows on all three;
 *  - a node stopped while a change is made catches up when it starts again (a new agent on its folder);
 *  - a purge task stays 等待 while one online node has not reported it, and is settled when it has.
 *
 * Skipped when nginx or PostgreSQL (127.0.0.1:5432, or TEST_DATABASE_URL) is missing.
 */
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { nginxInstalled } from './harness';
import { freePorts } from '../ports';
import { Client } from '../server/helpers';
import { openDatabase, type DB } from '../../src/server/db';
import { buildApp } from '../../src/server/app';
import { configFromEnv } from '../../src/server/config';
import { seedDemo } from '../../src/server/seed/demo';
import { seedDemoOrigins } from '../../src/server/seed/edge';
import { loadRegistry } from '../../schemas/load';
import { currentVersion, registerNode } from '../../src/server/edge/repo';
import { startDemoOrigin, type DemoOrigin } from '../../src/origin/server';
import { EdgeAgent, type AgentOptions } from '../../src/edge/agent';

const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/postgres';

async function postgresReachable(): Promise<boolean> {
  const { hostname, port } = new URL(ADMIN_URL);
  return new Promise((resolve) => {
    const s = net.connect({ host: hostname, port: Number(port || 5432) });
    s.setTimeout(2000);
    s.on('connect', () => (s.destroy(), resolve(true)));
    s.on('error', () => resolve(false));
    s.on('timeout', () => (s.destroy(), resolve(false)));
  });
}

const SITE = 'www.demo-example.com';
const CORS_ON = { enable: true, allow_origins: ['*'], allow_methods: ['GET', 'POST'], allow_headers: [], expose_headers: [], max_age: 0, allow_credentials: false };
const CORS_OFF = { enable: false, allow_origins: ['*'], allow_methods: ['GET', 'POST', 'HEAD'], allow_headers: [], expose_headers: [], max_age: 600, allow_credentials: false };

interface Node {
  name: string;
  opts: AgentOptions;
  agent: EdgeAgent;
}

/** A plain-HTTP request to a node with the Host of `host`. */
function get(node: Node, host: string, p: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: node.opts.ports.http, path: p, headers: { host, ...headers }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let available = false;
beforeAll(async () => {
  available = nginxInstalled && (await postgresReachable());
  if (!available) console.log('跳过三节点测试：需要 nginx（/usr/sbin/nginx）与 PostgreSQL（127.0.0.1:5432）');
});

describe('three edge nodes on one control plane on PostgreSQL', () => {
  let dbName = '';
  let db: DB;
  let app: FastifyInstance;
  let url = '';
  let origin: DemoOrigin;
  let client: Client;
  const nodes: Node[] = [];
  const dirs: string[] = [];

  const test = (name: string, fn: () => Promise<void>, ms?: number) => it(name, async () => (available ? fn() : undefined), ms);

  beforeAll(async () => {
    if (!available) return;
    const { Client: PgClient } = await import('pg');
    dbName = `edge_nodes_test_${randomBytes(5).toString('hex')}`;
    const admin = new PgClient({ connectionString: ADMIN_URL });
    await admin.connect();
    await admin.query(`create database ${dbName}`);
    await admin.end();
    const u = new URL(ADMIN_URL);
    u.pathname = `/${dbName}`;
    const databaseUrl = u.toString();

    origin = await startDemoOrigin(0);
    db = await openDatabase({ databaseUrl, dataDir: 'memory://' });
    await seedDemo(db);
    await seedDemoOrigins(db, `127.0.0.1:${origin.port}`);
    const base = configFromEnv({});
    app = await buildApp({ db, config: { ...base, databaseUrl, dataDir: 'memory://', distDir: '/nonexistent', logSms: false, edge: { ...base.edge, enabled: true, nodeKey: undefined, demoOrigin: `127.0.0.1:${origin.port}` } }, registry: loadRegistry(), logger: false });
    await app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(app.server.address() as net.AddressInfo).port}`;
    client = await new Client(app).signIn('demo');

    const ports = await freePorts(6);
    for (let i = 0; i < 3; i++) {
      const name = `node${i + 1}`;
      const key = await registerNode(db, name);
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), `edge-${name}-`));
      dirs.push(dir);
      const opts: AgentOptions = { controlUrl: url, nodeKey: key, nodeName: name, dir, ports: { http: ports[2 * i], https: ports[2 * i + 1] }, workers: 1, pollWait: 5, log: () => undefined };
      nodes.push({ name, opts, agent: new EdgeAgent(opts) });
    }
    await Promise.all(nodes.map((n) => n.agent.start()));
    const v = await currentVersion(db);
    for (const n of nodes) if (!(await n.agent.waitForVersion(v, 60_000))) throw new Error(`${n.name} 未应用版本 ${v}（当前 ${n.agent.runningVersion}）`);
  }, 180_000);

  afterAll(async () => {
    if (!available) return;
    await Promise.all(nodes.map((n) => n.agent.stop().catch(() => undefined)));
    app?.server.closeAllConnections();
    await app?.close();
    await db?.destroy();
    await origin?.close();
    const { Client: PgClient } = await import('pg');
    const admin = new PgClient({ connectionString: ADMIN_URL });
    await admin.connect();
    await admin.query(`drop database if exists ${dbName} with (force)`);
    await admin.end();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  }, 60_000);

  const save = async (setting: string, value: Record<string, unknown>) => {
    const res = await client.post(`/api/settings/${setting}/`, { bucket_name: 'demo-www', ...value });
    if (res.statusCode !== 200 || res.json().result !== true) throw new Error(`保存 ${setting} 失败：${res.body}`);
  };
  /** The control plane's version once no transaction holds it back, and each given node running it. */
  const live = async (on: Node[], ms = 20_000): Promise<number> => {
    let v = await currentVersion(db);
    for (let i = 0; i < 20; i++) {
      await sleep(25);
      const w = await currentVersion(db);
      if (w === v) break;
      v = w;
    }
    for (const n of on) if (!(await n.agent.waitForVersion(v, ms))) throw new Error(`${n.name} 未在 ${ms} ms 内应用版本 ${v}（当前 ${n.agent.runningVersion}）`);
    return v;
  };
  const corsOn = async (n: Node, p: string) => (await get(n, SITE, p, { origin: 'https://app.example.com' })).headers['access-control-allow-origin'];
  /** The header as the node answers it, once five answers in a row agree (old workers may answer right after a change). */
  const settled = async (n: Node, want: string | undefined, ms = 10_000) => {
    const end = Date.now() + ms;
    let seen: string | string[] | undefined;
    for (;;) {
      let agree = 0;
      for (let i = 0; i < 5; i++) if ((seen = await corsOn(n, `/echo/${Math.random()}`)) === want) agree++;
      if (agree === 5 || Date.now() > end) return seen;
      await sleep(50);
    }
  };

  test('every node answers the demo domain from the origin', async () => {
    for (const n of nodes) {
      const res = await get(n, SITE, '/echo/hello');
      expect(res.status).toBe(200);
      expect(JSON.parse(res.text).headers.host).toBeTruthy();
    }
  });

  test('a saved setting shows on all three nodes, and so does turning it off', async () => {
    for (const n of nodes) expect(await corsOn(n, '/echo/before')).toBeUndefined();
    const t0 = Date.now();
    await save('cors', CORS_ON);
    const v = await live(nodes);
    const ms = Date.now() - t0;
    for (const n of nodes) expect(n.agent.runningVersion).toBeGreaterThanOrEqual(v);
    for (const n of nodes) expect(await settled(n, '*')).toBe('*');
    console.log(`三个节点：配置成功 → 三个节点都运行新版本 ${ms} ms`);
    await save('cors', CORS_OFF);
    await live(nodes);
    for (const n of nodes) expect(await settled(n, undefined)).toBeUndefined();
  }, 60_000);

  test('a node stopped while a change is made catches up when it starts again', async () => {
    const [a, b, c] = nodes;
    await b.agent.stop();
    await expect(get(b, SITE, '/echo/stopped')).rejects.toThrow(); // its nginx went with it
    await save('cors', CORS_ON);
    await live([a, c]);
    expect(await settled(a, '*')).toBe('*');
    expect(await settled(c, '*')).toBe('*');
    b.agent = new EdgeAgent(b.opts); // the same key and folder: the node comes back
    await b.agent.start();
    await live([b], 30_000);
    expect(await settled(b, '*')).toBe('*');
    await save('cors', CORS_OFF);
    await live(nodes);
    for (const n of nodes) expect(await settled(n, undefined)).toBeUndefined();
  }, 90_000);

  test('a purge task is settled only once every online node has reported it', async () => {
    const p = `/css/site.css?t=nodes-${Date.now()}`;
    for (const n of nodes) {
      await get(n, SITE, p);
      expect((await get(n, SITE, p)).headers['x-cache']).toBe('HIT');
    }
    const [a, b, c] = nodes;
    // c stops, still online for the control plane (seen within the last 120 s): the task must wait for it
    await c.agent.stop();
    const res = await client.post('/api/purge/', { urls: [`https://${SITE}${p}`] });
    expect(res.statusCode).toBe(200);
    const [id] = res.json().data.task_ids as number[];
    const reporters = async () => (await db.selectFrom('purge_task_nodes as r').innerJoin('edge_nodes as n', 'n.id', 'r.node_id').select('n.name').where('r.task_id', '=', id).execute()).map((r) => r.name).sort();
    const status = async () => (await db.selectFrom('purge_tasks').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
    const end = Date.now() + 20_000;
    while ((await reporters()).length < 2 && Date.now() < end) await sleep(50);
    expect(await reporters()).toEqual([a.name, b.name]);
    for (const n of [a, b]) expect((await get(n, SITE, p)).headers['x-cache']).toBe('MISS');
    await sleep(1500); // the purge worker's passes (src/server/purge/worker.ts) settle nothing either
    expect(await status()).toBe('waiting');

    c.agent = new EdgeAgent(c.opts);
    await c.agent.start();
    const end2 = Date.now() + 30_000;
    while ((await status()) === 'waiting' && Date.now() < end2) await sleep(50);
    expect(await status()).toBe('success');
    expect(await reporters()).toEqual([a.name, b.name, c.name]);
    expect((await get(c, SITE, p)).headers['x-cache']).toBe('MISS');
  }, 90_000);
});
