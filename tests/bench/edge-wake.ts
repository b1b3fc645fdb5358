/**
 * The nodes' long polls woken by LISTEN/NOTIFY (src/server/edge/wake.ts, docs/edge.md "How it scales"), on
 * PostgreSQL (a scratch database on BENCH_DATABASE_URL, default postgres://root@127.0.0.1:5432/postgres, dropped
 * afterwards): three nodes wait on `GET /edge/v1/config?after=V&wait=20` over real HTTP; another connection
 * commits a change of one service; the figure is the time from the COMMIT's return to each poll's answer
 * (median and slowest over ROUNDS rounds × 3 polls). Then the version reads of three polls idle for 10 s.
 * Prints, asserts nothing. `npx tsx tests/bench/edge-wake.ts` runs it alone.
 */
import net from 'node:net';
import { openDatabase } from '../../src/server/db';
import { buildApp } from '../../src/server/app';
import { configFromEnv } from '../../src/server/config';
import { seedDemo } from '../../src/server/seed/demo';
import { loadRegistry } from '../../schemas/load';
import { currentVersion, registerNode } from '../../src/server/edge/repo';
import { edgeWakeOf, versionReads } from '../../src/server/edge/wake';
import { reachable as postgresUp, scratchPostgres } from './server-load';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];

export async function edgeWakeBench(): Promise<void> {
  console.log('\n== 多节点长轮询（LISTEN/NOTIFY，PostgreSQL）==');
  const base = process.env.BENCH_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/postgres';
  if (!(await postgresUp(base))) {
    console.log('  跳过：PostgreSQL 不可用');
    return;
  }
  const pg = await scratchPostgres(base);
  const db = await openDatabase({ databaseUrl: pg.url, dataDir: 'memory://' });
  const { Client } = await import('pg');
  const writer = new Client({ connectionString: pg.url });
  try {
    await seedDemo(db);
    const app = await buildApp({ db, config: { ...configFromEnv({}), databaseUrl: pg.url, dataDir: 'memory://', distDir: '/nonexistent', logSms: false, edge: { ...configFromEnv({}).edge, enabled: false } }, registry: loadRegistry(), logger: false });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(app.server.address() as net.AddressInfo).port}`;
    const keys = await Promise.all([1, 2, 3].map((i) => registerNode(db, `bench-node-${i}`)));
    await writer.connect();
    const wake = edgeWakeOf(db);
    for (let i = 0; i < 100 && !wake.listening; i++) await sleep(20);
    const poll = (key: string, after: number, wait: number) =>
      fetch(`${url}/edge/v1/config?after=${after}&wait=${wait}`, { headers: { authorization: `Bearer ${key}` } }).then(async (r) => ({ at: performance.now(), body: (await r.json()).data }));

    const rounds = Number(process.env.ROUNDS ?? 20);
    const times: number[] = [];
    const slowestOfRound: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const after = await currentVersion(db);
      const polls = keys.map((k) => poll(k, after, 20));
      for (let i = 0; i < 500 && wake.waiting < 3; i++) await sleep(2);
      await sleep(20);
      await writer.query(`update buckets set status = status where name = 'demo-www'`); // one autocommit change
      const committed = performance.now();
      const answers = await Promise.all(polls);
      const ms = answers.map((a) => a.at - committed);
      if (answers.some((a) => !(a.body.version > after))) console.log('  （本轮有轮询未见到新版本）');
      times.push(...ms);
      slowestOfRound.push(Math.max(...ms));
      await sleep(50);
    }
    console.log(`  提交 → 等待中的轮询应答（3 个节点 × ${rounds} 轮）：中位数 ${pct(times, 0.5).toFixed(1)} ms，最慢 ${Math.max(...times).toFixed(1)} ms；三个节点都应答：中位数 ${pct(slowestOfRound, 0.5).toFixed(1)} ms，最慢 ${Math.max(...slowestOfRound).toFixed(1)} ms`);

    const after = await currentVersion(db);
    const reads0 = versionReads.count;
    const t0 = Date.now();
    await Promise.all(keys.map((k) => poll(k, after, 10)));
    const secs = (Date.now() - t0) / 1000;
    console.log(`  空闲：3 个节点各等待 ${secs.toFixed(1)} s，共读取版本 ${versionReads.count - reads0} 次（每 50 ms 读一次时约 ${Math.round((3 * secs * 1000) / 50)} 次）`);
    await app.close();
  } finally {
    await writer.end().catch(() => undefined);
    await db.destroy();
    await pg.drop();
  }
}

if (require.main === module) {
  edgeWakeBench().then(
    () => process.exit(0),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
}
