/**
 * Two servers started at once on an empty PostgreSQL database both start (issue 34 item 7: one crashed
 * with a duplicate key from the demo seed). Migrations and the demo's seed run under one advisory lock
 * (`withStartupLock`, src/server/db/index.ts): the second waits for the first, then finds the database
 * migrated and seeded and starts. Real `src/server/main.ts` processes on a scratch database, dropped after.
 *
 * PostgreSQL only: it runs with DATABASE_URL set (npm run test:pg); on PGlite one process holds a data folder.
 */
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';

const base = process.env.DATABASE_URL;
const testPg = base ? test : test.skip;
if (!base) test('PostgreSQL only (npm run test:pg): skipped on PGlite', () => undefined);

jest.setTimeout(300_000);
const root = path.resolve(__dirname, '../..');

interface Started { code: number | null; out: string; up: boolean; ms: number }

function start(url: string, port: number): { child: ChildProcess; done: Promise<Started> } {
  const env: NodeJS.ProcessEnv = {
    ...process.env, DATABASE_URL: url, PORT: String(port), HOST: '127.0.0.1', SEED_DEMO: '1', SEED_TRAFFIC: '0', DEMO_TRAFFIC_LIVE: '0', EDGE: '0', LOG_LEVEL: 'info',
  };
  const t0 = Date.now();
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'src/server/main.ts')], { cwd: root, env });
  let out = '';
  const done = new Promise<Started>((resolve) => {
    const seen = (c: Buffer) => {
      out += c.toString();
      if (out.includes('控制台已启动')) resolve({ code: null, out, up: true, ms: Date.now() - t0 });
    };
    child.stdout!.on('data', seen);
    child.stderr!.on('data', seen);
    child.on('exit', (code) => resolve({ code, out, up: false, ms: Date.now() - t0 }));
  });
  return { child, done };
}

testPg('two servers started at once on an empty database both start, with one demo seed', async () => {
  const { Client } = await import('pg');
  const dbName = `console_race_${randomBytes(6).toString('hex')}`;
  const admin = new Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  const u = new URL(base!);
  u.pathname = `/${dbName}`;
  const children: ChildProcess[] = [];
  try {
    const a = start(u.toString(), 18931);
    const b = start(u.toString(), 18932);
    children.push(a.child, b.child);
    const [ra, rb] = await Promise.all([a.done, b.done]);
    for (const r of [ra, rb]) if (!r.up) console.log(r.out.slice(-3000));
    expect([ra.up, rb.up]).toEqual([true, true]);
    console.log(`两个服务端同时启动：${ra.ms} ms、${rb.ms} ms`);
    // one seed: the demo account once, its services once
    const c = new Client({ connectionString: u.toString() });
    await c.connect();
    const users = await c.query(`select username, count(*)::int as n from users where username in ('demo', 'demo2fa') group by username order by username`).finally(() => c.end());
    expect(users.rows).toEqual([{ username: 'demo', n: 1 }, { username: 'demo2fa', n: 1 }]);
    // both answer (an API call signed out: 401)
    for (const port of [18931, 18932]) expect((await fetch(`http://127.0.0.1:${port}/api/account/domains/`)).status).toBe(401);
  } finally {
    for (const ch of children) if (ch.exitCode === null) ch.kill('SIGKILL');
    await new Promise((r) => setTimeout(r, 500));
    await admin.query(`select pg_terminate_backend(pid) from pg_stat_activity where datname = $1`, [dbName]);
    await admin.query(`drop database if exists ${dbName}`);
    await admin.end();
  }
});
