/**
 * The SQL one request sends (issue 22 item 1): every statement the settings read and save and the lists
 * a console page opens first send to the database, counted (and with QUERIES_SHOW=1 printed), on the
 * PostgreSQL of BENCH_DATABASE_URL (a scratch database, dropped afterwards). Counts, asserts nothing.
 * `npx tsx tests/bench/queries.ts` runs it alone.
 */
// first: stops at once on another Node.js than package.json engines.node (scripts/require-node.cjs)
import '../../scripts/require-node.cjs';
import { randomBytes } from 'node:crypto';

export async function queriesBench(): Promise<void> {
  const base = process.env.BENCH_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/postgres';
  const pgModule = await import('pg');
  const pg = (pgModule as any).default ?? pgModule;
  let admin;
  try {
    admin = new pg.Client({ connectionString: base });
    await admin.connect();
  } catch {
    console.log(`\n== 每个请求的 SQL ==\n  PostgreSQL 不可用（${base}），跳过`);
    return;
  }
  const name = `console_bench_${randomBytes(5).toString('hex')}`;
  await admin.query(`create database ${name}`);
  await admin.end();
  const u = new URL(base);
  u.pathname = `/${name}`;
  const seen: string[] = [];
  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: unknown, ...args: any[]) {
    const text = typeof args[0] === 'string' ? args[0] : args[0]?.text;
    if (text) seen.push(String(text));
    return original.apply(this, args);
  };
  const { openDatabase } = await import('../../src/server/db');
  const { buildApp } = await import('../../src/server/app');
  const { configFromEnv } = await import('../../src/server/config');
  const { seedDemo } = await import('../../src/server/seed/demo');
  const { seedDemoBills } = await import('../../src/server/seed/billing');
  const { loadRegistry } = await import('../../schemas/load');
  const db = await openDatabase({ databaseUrl: u.toString(), dataDir: 'memory://' });
  await seedDemo(db);
  await seedDemoBills(db); // the bills list has a page to show, as in the load bench
  const app = await buildApp({ db, config: { ...configFromEnv({}), databaseUrl: u.toString(), distDir: '/nonexistent', logSms: false }, registry: loadRegistry(), logger: false });
  const signin = await app.inject({ method: 'POST', url: '/accounts/signin/', payload: { username: 'demo', password: 'demo123456' } });
  const cookie = String(signin.headers['set-cookie']).split(';')[0];
  const show = process.env.QUERIES_SHOW === '1';
  const count = async (label: string, req: () => Promise<{ statusCode: number }>) => {
    await req(); // the first request may fill caches
    seen.length = 0;
    const res = await req();
    console.log(`  ${label.padEnd(44)} ${String(seen.length).padStart(3)} 条 SQL（HTTP ${res.statusCode}）`);
    if (show) for (const q of seen) console.log(`      ${q.replace(/\s+/g, ' ').slice(0, 220)}`);
  };
  try {
    console.log('\n== 每个请求发往数据库的 SQL（PostgreSQL，第二次请求） ==');
    await count('设置读取 GET /api/settings/compression/', () => app.inject({ method: 'GET', url: '/api/settings/compression/?bucket_name=demo-www', headers: { cookie } }));
    await count('设置保存 POST /api/settings/compression/', () =>
      app.inject({ method: 'POST', url: '/api/settings/compression/', headers: { cookie }, payload: { bucket_name: 'demo-www', status: 'enable', gzip: { disable: false, level: 5 }, br: { disable: false, level: 1 } } }),
    );
    await count('设置读取 GET /api/settings/cache_rules/', () => app.inject({ method: 'GET', url: '/api/settings/cache_rules/?bucket_name=demo-www', headers: { cookie } }));
    for (const [label, url] of [
      ['服务列表 GET /api/buckets/', '/api/buckets/?business_type=cdn&limit=10&with_domains=true'],
      ['统计选择器 GET /api/stats/buckets/', '/api/stats/buckets/?flow_type=cdn&limit=200'],
      ['消息中心 GET /api/messages/', '/api/messages/?page=1&limit=10'],
      ['操作日志 GET /api/logs/', '/api/logs/?limit=20'],
      ['账单 GET /api/bills/', '/api/bills/?page=1&limit=20'],
    ]) {
      await count(label, () => app.inject({ method: 'GET', url, headers: { cookie } }));
    }
  } finally {
    pg.Client.prototype.query = original;
    await app.close();
    await db.destroy();
    const c = new pg.Client({ connectionString: base });
    await c.connect();
    await c.query(`drop database if exists ${name} with (force)`);
    await c.end();
  }
}

if (require.main === module) queriesBench().catch((e) => { console.error(e); process.exit(1); });
