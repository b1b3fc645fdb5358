/**
 * The nodes' long polls woken by LISTEN/NOTIFY (migration 0105, src/server/edge/wake.ts, docs/edge.md "How it
 * scales"): a waiting `GET /edge/v1/config?after=V&wait=S` answers at the commit of a change, woken by the
 * notification, and reads the version only a few times while nothing changes. No figure of speed is asserted:
 * the safety re-check is set longer than the poll's wait, so only the notification (or, for a version held
 * back by a running transaction, the short re-checks that follow it) can make a poll answer `changed: true`.
 * On PGlite and, in the PostgreSQL round (npm run test:pg), on PostgreSQL, where the listening connection is
 * also cut and must listen again.
 */
import type { InjectOptions } from 'fastify';
import { sql } from 'kysely';
import { currentVersion, registerNode } from '../../src/server/edge/repo';
import { edgeWakeOf, versionReads, WAKE_DEFAULTS } from '../../src/server/edge/wake';
import { startTestServer, Client, type TestServer } from './helpers';

const compression = (level: number) => ({ bucket_name: 'demo-www', status: 'enable', gzip: { disable: false, level }, br: { disable: true, level: 1 } });
const onPg = Boolean(process.env.DATABASE_URL);

describe('edge long polls woken by the database', () => {
  let t: TestServer;
  let a: Client;
  let key: string;

  beforeAll(async () => {
    t = await startTestServer();
    a = await new Client(t.app).signIn('demo');
    key = await registerNode(t.db, 'wake-test');
  }, 60_000);
  afterAll(async () => t?.close());
  afterEach(() => Object.assign(edgeWakeOf(t.db).opts, WAKE_DEFAULTS));

  const wake = () => edgeWakeOf(t.db);
  const poll = (after: number, wait: number) =>
    t.app.inject({ method: 'GET', url: `/edge/v1/config?after=${after}&wait=${wait}`, headers: { authorization: `Bearer ${key}` } } as InjectOptions).then((r) => r.json().data as { version: number; changed?: boolean; services: { name: string }[] });
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const until = async (what: () => boolean | Promise<boolean>, ms = 10_000) => {
    const end = Date.now() + ms;
    while (!(await what())) {
      if (Date.now() > end) throw new Error('条件未在时限内满足');
      await sleep(20);
    }
  };
  /** The current version once no transaction of the server's own holds it back (background jobs may run). */
  const settledVersion = async () => {
    let v = await currentVersion(t.db);
    for (let i = 0; i < 20; i++) {
      await sleep(50);
      const w = await currentVersion(t.db);
      if (w === v) return v;
      v = w;
    }
    return v;
  };

  /** A poll waits (the safety re-check longer than its wait), a save commits: the poll answers the change. */
  async function wokenBySave(level: number) {
    wake().opts.recheckMs = 60_000;
    const after = await settledVersion();
    const reads0 = versionReads.count;
    const answer = poll(after, 20);
    await until(() => wake().waiting >= 1);
    expect((await a.post('/api/settings/compression/', compression(level))).json().result).toBe(true);
    const got = await answer;
    expect(got.changed).not.toBe(false);
    expect(got.version).toBeGreaterThan(after);
    expect(got.services.map((s) => s.name)).toContain('demo-www');
    // one read when the poll came, one at the notification (a few more only if a transaction held the version back)
    expect(versionReads.count - reads0).toBeLessThanOrEqual(6);
  }

  it('listens on edge_config', async () => {
    await until(() => wake().listening);
  });

  it('a waiting poll answers a commit, woken by its notification', async () => {
    const heard = wake().heard;
    await wokenBySave(3);
    expect(wake().heard).toBeGreaterThan(heard);
  }, 30_000);

  it('while nothing changes, a waiting poll reads the version a few times, not every 50 ms', async () => {
    const after = await settledVersion();
    const reads0 = versionReads.count;
    const got = await poll(after, 3);
    // with the old 50 ms loop: about 60 reads in 3 s
    if (got.changed === false) expect(versionReads.count - reads0).toBeLessThanOrEqual(3);
    else expect(got.version).toBeGreaterThan(after); // a background job changed something meanwhile
  }, 30_000);

  it('a notification rolled back is never sent: a rolled-back change wakes nothing', async () => {
    const heard = wake().heard;
    await t.db
      .transaction()
      .execute(async (tx) => {
        await sql`update buckets set status = status where name = 'demo-www'`.execute(tx);
        throw new Error('rollback');
      })
      .catch(() => undefined);
    await sleep(300);
    expect(wake().heard).toBe(heard);
  });

  (onPg ? it : it.skip)(
    'PostgreSQL: the listening connection cut, the process listens again and polls are woken as before',
    async () => {
      await until(() => wake().listening);
      const { rows } = await sql<{ n: number }>`select count(pg_terminate_backend(pid))::int as n from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid() and query ilike 'listen %'`.execute(t.db);
      expect(rows[0].n).toBeGreaterThanOrEqual(1);
      await until(() => !wake().listening);
      await until(() => wake().listening, 15_000); // reconnects every second (src/server/db/notify.ts)
      await wokenBySave(4);
    },
    45_000,
  );

  (onPg ? it : it.skip)(
    'PostgreSQL: a version held back by a running transaction is re-checked shortly after its notification, and answered when that one ends',
    async () => {
      wake().opts.recheckMs = 60_000;
      const { Client: PgClient } = await import('pg');
      const held = new PgClient({ connectionString: t.databaseUrl });
      await held.connect();
      try {
        const after = await settledVersion();
        await held.query('begin');
        await held.query('select pg_current_xact_id()'); // an id of its own, no change of the edge: its commit notifies nothing
        const answer = poll(after, 20);
        let answered = false;
        void answer.then(() => (answered = true));
        await until(() => wake().waiting >= 1);
        const heard = wake().heard;
        expect((await a.post('/api/settings/compression/', compression(5))).json().result).toBe(true);
        await until(() => wake().heard > heard);
        await sleep(300);
        expect(answered).toBe(false); // the version cannot pass the running transaction
        expect(await currentVersion(t.db)).toBeLessThanOrEqual(after);
        await held.query('commit');
        // no notification comes now: only the short re-checks after the save's one can answer before the poll's 20 s end
        const got = await Promise.race([answer, sleep(10_000).then(() => null)]);
        if (!got) throw new Error('长轮询未在运行中的事务结束后应答');
        expect(got.version).toBeGreaterThan(after);
        expect(got.services.map((s) => s.name)).toContain('demo-www');
      } finally {
        await held.end();
      }
    },
    45_000,
  );
});
