/**
 * Jobs run once across servers (issue 21 item 16, src/server/jobs/once.ts): two servers — two apps, each
 * with its own database pool — on one PostgreSQL database. While one runs a job the other skips it; a
 * month's settlement run by both at once, again and again, makes each bill and each ledger row once.
 *
 * PostgreSQL only: it runs in `npm run test:pg` (DATABASE_URL set); on PGlite there is one process per
 * data folder (tests/server/data-dir-lock.test.ts) and the job simply runs.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { openDatabase, type DB } from '../../src/server/db';
import { buildApp } from '../../src/server/app';
import { configFromEnv } from '../../src/server/config';
import { seedDemo } from '../../src/server/seed/demo';
import { loadRegistry } from '../../schemas/load';
import { runOnce, tickOnce } from '../../src/server/jobs/once';
import { billingJob } from '../../src/server/billing/bills/make';
import { dayStart } from '../../src/shared/stats/time';
import { setPriceConfig } from '../../src/server/billing/price';
import { parseLadder } from '../../src/server/billing/commands';

const base = process.env.DATABASE_URL;
const describePg = base ? describe : describe.skip;
if (!base) test('PostgreSQL only (npm run test:pg): skipped on PGlite', () => undefined);

jest.setTimeout(300_000);

describePg('two servers on one PostgreSQL', () => {
  let url: string;
  let dbName: string;
  const servers: { db: DB; app: FastifyInstance }[] = [];

  beforeAll(async () => {
    const { Client } = await import('pg');
    dbName = `console_jobs_${randomBytes(6).toString('hex')}`;
    const admin = new Client({ connectionString: base });
    await admin.connect();
    await admin.query(`create database ${dbName}`);
    await admin.end();
    const u = new URL(base!);
    u.pathname = `/${dbName}`;
    url = u.toString();
    const registry = loadRegistry();
    for (let i = 0; i < 2; i++) {
      const db = await openDatabase({ databaseUrl: url, dataDir: 'memory://' });
      if (i === 0) await seedDemo(db);
      const config = { ...configFromEnv({}), databaseUrl: url, dataDir: 'memory://', distDir: '/nonexistent', logSms: false };
      const app = await buildApp({ db, config, registry, logger: false });
      await app.ready();
      servers.push({ db, app });
    }
  });
  afterAll(async () => {
    for (const s of servers) {
      await s.app.close();
      await s.db.destroy();
    }
    const { Client } = await import('pg');
    const c = new Client({ connectionString: base });
    await c.connect();
    await c.query(`drop database if exists ${dbName} with (force)`);
    await c.end();
  });

  it('while one server runs a job the other skips it, and runs it once the first is done', async () => {
    const [a, b] = servers;
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    const first = runOnce(a.db, 'billing', async () => {
      started();
      await held;
      return 'a';
    });
    await running;
    expect(await runOnce(b.db, 'billing', async () => 'b')).toEqual({ ran: false });
    expect(await runOnce(a.db, 'billing', async () => 'a again')).toEqual({ ran: false }); // nor twice in one server
    expect(await runOnce(b.db, 'purge', async () => 'other job')).toEqual({ ran: true, value: 'other job' });
    release();
    expect(await first).toEqual({ ran: true, value: 'a' });
    expect(await runOnce(b.db, 'billing', async () => 'b')).toEqual({ ran: true, value: 'b' });
  });

  it('jobs running in both servers at once, more than the pool holds, all finish (one lock connection per server)', async () => {
    const jobs = ['billing', 'purge', 'monitor', 'certificatesAcme', 'certificateOrders', 'media', 'backup', 'costControl', 'referrals', 'cleanup', 'demoTraffic'] as const;
    const ran = await Promise.all(
      servers.flatMap((s) => jobs.map((j) => tickOnce(s.db, j, async () => (await s.db.selectFrom('users').select('id').limit(1).execute()).length))),
    );
    // each job ran in at least one server (both, when the first had finished before the second asked)
    for (let i = 0; i < jobs.length; i++) expect(ran[i] === 1 || ran[jobs.length + i] === 1).toBe(true);
  });

  it("a month's settlement run by both servers at once makes each bill and each ledger row once", async () => {
    const [a, b] = servers;
    const db = a.db;
    const demo = await db.selectFrom('users').select('id').where('username', '=', 'demo').executeTakeFirstOrThrow();
    const bucket = await db.selectFrom('buckets').select('id').where('owner_id', '=', demo.id).where('kind', '=', 'cdn').orderBy('id').executeTakeFirstOrThrow();
    const domain = await db.selectFrom('bucket_domains').select('id').where('bucket_id', '=', bucket.id).executeTakeFirstOrThrow();
    // March 2026: a day of CDN traffic every day (1 GB … 31 GB), so every day bill charges something
    for (let d = 1; d <= 31; d++) {
      const day = dayStart(`2026-03-${String(d).padStart(2, '0')}`) as number;
      const bytes = d * 1024 ** 3;
      await db.insertInto('traffic_5m').values({ account_id: demo.id, bucket_id: bucket.id, domain_id: domain.id, flow_type: 'cdn', direction: '', slot: new Date((day + 12 * 3600) * 1000), bytes }).execute();
      await db.insertInto('traffic_1d').values({ account_id: demo.id, bucket_id: bucket.id, domain_id: domain.id, flow_type: 'cdn', direction: '', day: new Date(day * 1000), bytes, peak_bytes: bytes, peak_at: new Date((day + 12 * 3600) * 1000) }).execute();
    }
    await db.deleteFrom('bills').execute();
    // daily traffic at 0.29 yuan per GB: every day's bill charges
    await setPriceConfig(db, demo.id, 'cdn', { amount_cal_type: 'DAILY', regions: { domestic: parseLadder('0-:0.29') } });
    // vouchers and traffic packages set aside: every bill is paid from the balance, one ledger row each
    await db.updateTable('vouchers').set({ remain: 0 as any }).where('account_id', '=', demo.id).execute();
    await db.updateTable('resource_packages').set({ remain: 0 as any }).where('account_id', '=', demo.id).execute();
    const money = async () => Number((await db.selectFrom('users').select('money').where('id', '=', demo.id).executeTakeFirstOrThrow()).money);
    const lastLedger = Number((await db.selectFrom('balance_ledger').select((eb) => eb.fn.max('id').as('m')).executeTakeFirst())?.m ?? 0);
    const moneyBefore = await money();

    const now = new Date((dayStart('2026-04-01') as number) * 1000 + 12 * 3600_000);
    const opts = { now, from: '2026-03-01' };
    let runs = 0;
    let skipped = 0;
    for (let round = 0; round < 3; round++) {
      const results = await Promise.all([billingJob(a.db, opts), billingJob(b.db, opts), billingJob(a.db, opts), billingJob(b.db, opts)]);
      runs += results.filter((r) => r !== undefined).length;
      skipped += results.filter((r) => r === undefined).length;
    }
    expect(runs).toBeGreaterThan(0);
    expect(skipped).toBeGreaterThan(0);

    const bills = await db.selectFrom('bills').select(['id', 'type', 'start_time', 'settlement']).where('account_id', '=', demo.id).execute();
    const dayBills = bills.filter((x) => x.type === 'DAY_BILL');
    const monthBills = bills.filter((x) => x.type === 'MONTH_BILL');
    expect(dayBills.length).toBe(31);
    expect(new Set(dayBills.map((x) => new Date(x.start_time as Date).getTime())).size).toBe(31);
    expect(monthBills.length).toBe(1);
    const charged = bills.filter((x) => Number(x.settlement) > 0);
    expect(charged.length).toBe(31);
    const rows = await db.selectFrom('balance_ledger').select(['kind', 'ref', 'amount']).where('account_id', '=', demo.id).where('id', '>', lastLedger as any).execute();
    const billRows = rows.filter((r) => r.kind === 'bill');
    // one ledger row per charged bill, none twice, each for what the bill charged
    expect(billRows.length).toBe(charged.length);
    expect(new Set(billRows.map((r) => r.ref)).size).toBe(billRows.length);
    const byBill = new Map(charged.map((x) => [x.id, Number(x.settlement)]));
    for (const r of billRows) expect([r.ref, -Number(r.amount)]).toEqual([r.ref, byBill.get(r.ref!)]);
    // and the balance moved by exactly those rows
    const total = billRows.reduce((t, r) => t + Number(r.amount), 0);
    expect(Math.round(((await money()) - moneyBefore) * 100)).toBe(Math.round(total * 100));
    console.log(`two servers, 3 rounds of 4 concurrent billing runs: ${runs} ran, ${skipped} skipped; bills ${dayBills.length} day + ${monthBills.length} month, ${billRows.length} ledger rows for ${charged.length} charged bills, none twice`);
  });
});
