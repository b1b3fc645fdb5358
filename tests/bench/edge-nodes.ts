/**
 * Three edge nodes on one control plane on PostgreSQL (issue 33's goal: commit → the change on all three,
 * median ≤ 300 ms): a database of its own (dropped after), the server, the demo origin and three agents with
 * their nginx; 20 saves of demo-www's 回源 Host through the API, each timed from its answer (配置成功) until a
 * real request to every node shows the new Host. Prints, asserts nothing. Alone: `npx tsx tests/bench/edge-nodes.ts`.
 */
import '../../scripts/require-node.cjs';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { freePorts } from '../ports';
import { Client } from '../server/helpers';
import { openDatabase } from '../../src/server/db';
import { buildApp } from '../../src/server/app';
import { configFromEnv } from '../../src/server/config';
import { seedDemo } from '../../src/server/seed/demo';
import { seedDemoOrigins } from '../../src/server/seed/edge';
import { loadRegistry } from '../../schemas/load';
import { currentVersion, registerNode } from '../../src/server/edge/repo';
import { startDemoOrigin } from '../../src/origin/server';
import { EdgeAgent } from '../../src/edge/agent';
import { NGINX_BIN } from '../../src/edge/nginx';

const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/postgres';
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function hostAt(port: number, p: string): Promise<string> {
  return new Promise((resolve) => {
    const req = http.request({ host: '127.0.0.1', port, path: p, headers: { host: 'www.demo-example.com' }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        try {
          resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')).headers.host);
        } catch {
          resolve('');
        }
      });
    });
    req.on('error', () => resolve(''));
    req.end();
  });
}

export async function edgeNodesBench(): Promise<void> {
  if (!fs.existsSync(NGINX_BIN)) return console.log('\n== 三个边缘节点 ==\n  跳过：需要 nginx');
  const { Client: PgClient } = await import('pg');
  const name = `edge_nodes_bench_${randomBytes(4).toString('hex')}`;
  const admin = new PgClient({ connectionString: ADMIN_URL });
  try {
    await admin.connect();
  } catch {
    return console.log('\n== 三个边缘节点 ==\n  跳过：需要 PostgreSQL（127.0.0.1:5432）');
  }
  await admin.query(`create database ${name}`);
  const u = new URL(ADMIN_URL);
  u.pathname = `/${name}`;
  const origin = await startDemoOrigin(0);
  const db = await openDatabase({ databaseUrl: u.toString(), dataDir: 'memory://' });
  const agents: EdgeAgent[] = [];
  const dirs: string[] = [];
  const base = configFromEnv({});
  const app = await buildApp({ db, config: { ...base, databaseUrl: u.toString(), dataDir: 'memory://', distDir: '/nonexistent', logSms: false, edge: { ...base.edge, enabled: true, nodeKey: undefined, demoOrigin: `127.0.0.1:${origin.port}` } }, registry: loadRegistry(), logger: false });
  try {
    await seedDemo(db);
    await seedDemoOrigins(db, `127.0.0.1:${origin.port}`);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(app.server.address() as net.AddressInfo).port}`;
    const client = await new Client(app).signIn('demo');
    const ports = await freePorts(6);
    for (let i = 0; i < 3; i++) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), `edge-bench-node${i + 1}-`));
      dirs.push(dir);
      agents.push(new EdgeAgent({ controlUrl: url, nodeKey: await registerNode(db, `node${i + 1}`), nodeName: `node${i + 1}`, dir, ports: { http: ports[2 * i], https: ports[2 * i + 1] }, workers: 1, log: () => undefined }));
    }
    await Promise.all(agents.map((a) => a.start()));
    const v = await currentVersion(db);
    await Promise.all(agents.map((a) => a.waitForVersion(v, 60_000)));
    const times: number[] = [];
    for (let i = 0; i < 20; i++) {
      const host = `nodes-${i}.origin.example`;
      const res = await client.post('/api/settings/origin/', { bucket_name: 'demo-www', protocol: 'http', host, servers: [{ address: '127.0.0.1', port: origin.port, weight: 10, backup: false }], failover: { enable: true, timeout: 10, max_fails: 3 } });
      if (res.statusCode !== 200) throw new Error(`保存失败：${res.body}`);
      const t = performance.now();
      await Promise.all(
        ports.filter((_, k) => k % 2 === 0).map(async (port) => {
          while ((await hostAt(port, `/echo/n${i}-${Math.random()}`)) !== host) {
            if (performance.now() - t > 20_000) throw new Error('20 秒内未在三个节点上生效');
          }
        }),
      );
      times.push(performance.now() - t);
    }
    console.log(`\n== 三个边缘节点（PostgreSQL 上的一个控制面，LISTEN/NOTIFY 唤醒长轮询）：从“配置成功”到三个节点都生效（回源 Host，真实请求轮询） ==`);
    console.log(`  20 次：中位数 ${median(times).toFixed(0)} ms，最慢 ${Math.max(...times).toFixed(0)} ms（目标：中位数 ≤ 300 ms；1 分钟平均负载 ${os.loadavg()[0].toFixed(2)}）`);
  } finally {
    await Promise.all(agents.map((a) => a.stop().catch(() => undefined)));
    app.server.closeAllConnections();
    await app.close();
    await db.destroy();
    await origin.close();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  }
}

if (require.main === module) {
  edgeNodesBench().then(
    () => process.exit(0),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
}
