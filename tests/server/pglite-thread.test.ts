/**
 * PGlite on a worker thread (src/server/db/pglite-thread.ts, the default; PGLITE_THREAD=off keeps it on the server's thread): the same database calls
 * as on the server's own thread — parameters and rows, PostgreSQL's error fields, LISTEN/NOTIFY, the data
 * directory's dump, closing — and the server working on it.
 */
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { sql } from 'kysely';
import { pgliteOnThread } from '../../src/server/db/pglite-thread';
import { startTestServer, Client, type TestServer } from './helpers';

describe('PGlite on a worker thread', () => {
  it('answers rows, PostgreSQL errors with their fields, notifications and a dump, and refuses calls once closed', async () => {
    const pg = await pgliteOnThread('memory://', null);
    try {
      await pg.query('create table t (id int primary key, at timestamptz, b bytea, j jsonb)');
      const when = new Date('2026-11-26T10:00:00Z');
      await pg.query('insert into t values ($1, $2, $3, $4)', [1, when, new Uint8Array([1, 2, 3]), JSON.stringify({ a: [1] })]);
      const { rows } = await pg.query<{ id: number; at: Date; b: Uint8Array; j: unknown }>('select * from t');
      expect(rows).toHaveLength(1);
      expect(rows[0].id).toBe(1);
      expect(Object.prototype.toString.call(rows[0].at)).toBe('[object Date]'); // (a Date of another realm under jest)
      expect(rows[0].at.toISOString()).toBe(when.toISOString());
      expect([...rows[0].b]).toEqual([1, 2, 3]);
      expect(rows[0].j).toEqual({ a: [1] });
      expect((await pg.query('update t set id = id where id = 1')).affectedRows).toBe(1);

      const dup = await pg.query('insert into t (id) values (1)').catch((e: unknown) => e as Error & { code?: string; constraint?: string; table?: string });
      expect(dup).toHaveProperty('message');
      expect(dup).toMatchObject({ code: '23505', constraint: 't_pkey', table: 't' });

      const heard: string[] = [];
      const off = await pg.listen('t_changes', (p) => heard.push(p));
      await pg.query(`select pg_notify('t_changes', 'one')`);
      for (let i = 0; i < 50 && !heard.length; i++) await new Promise((r) => setTimeout(r, 20));
      expect(heard).toEqual(['one']);
      await off();
      await pg.query(`select pg_notify('t_changes', 'two')`);
      await new Promise((r) => setTimeout(r, 100));
      expect(heard).toEqual(['one']);

      const dump = await pg.dumpDataDir('none');
      expect(dump.size).toBeGreaterThan(1_000_000);
    } finally {
      await pg.close();
    }
    expect(pg.closed).toBe(true);
    await expect(pg.query('select 1')).rejects.toThrow();
  }, 60_000);

  it('does not keep the process alive once no call waits for it (a database left open still lets the process end)', () => {
    const script = `const { pgliteOnThread } = require(${JSON.stringify(path.resolve(__dirname, '../../src/server/db/pglite-thread.ts'))});
      pgliteOnThread('memory://', null).then((pg) => pg.query('select 41 + 1 as n')).then((r) => console.log('answer', r.rows[0].n));`;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], { encoding: 'utf8', timeout: 50_000 });
    expect(run.stdout).toContain('answer 42');
    expect(run.status).toBe(0); // ended by itself: the time-out would have killed it (status null)
  }, 60_000);

  // on its own thread by default; PGLITE_THREAD=off keeps it on the server's thread
  describe.each(['on', 'off'])('the server with PGLITE_THREAD=%s', (setting) => {
    let t: TestServer;
    const before = process.env.PGLITE_THREAD;
    beforeAll(async () => {
      process.env.PGLITE_THREAD = setting;
      t = await startTestServer();
    }, 60_000);
    afterAll(async () => {
      if (before === undefined) delete process.env.PGLITE_THREAD;
      else process.env.PGLITE_THREAD = before;
      await t?.close();
    });

    it('signs in, saves and reads a setting, and refuses a bad one with its message', async () => {
      const { rows } = await sql<{ v: string }>`select version() as v`.execute(t.db);
      expect(rows[0].v).toMatch(/PGlite|PostgreSQL/);
      const c = await new Client(t.app).signIn('demo');
      const value = { bucket_name: 'demo-www', status: 'enable', gzip: { disable: false, level: 7 }, br: { disable: true, level: 1 } };
      expect((await c.post('/api/settings/compression/', value)).json().result).toBe(true);
      expect((await c.get('/api/settings/compression/?bucket_name=demo-www')).json().data.gzip.level).toBe(7);
      const bad = (await c.post('/api/settings/compression/', { ...value, gzip: { disable: false, level: 99 } })).json();
      expect(bad.result).toBe(false);
      expect(bad.error_code).toBeDefined();
      expect((await c.get('/api/settings/compression/?bucket_name=demo-www')).json().data.gzip.level).toBe(7);
    });
  });
});
