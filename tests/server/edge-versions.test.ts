/**
 * Edge versions by transaction (migration 0102, docs/edge.md "Versions"): a change's version is its
 * transaction's id, no writer waits for another, and the version a node is given never passes a
 * transaction still running — so a node that has read version V has seen every change up to V.
 * The part with a transaction held open runs on PostgreSQL only (PGlite is one connection: nothing runs
 * beside a held transaction there).
 */
import { sql } from 'kysely';
import { configSnapshot, currentVersion, trimChanges } from '../../src/server/edge/repo';
import { startTestServer, Client, type TestServer } from './helpers';

const compression = (level: number) => ({ bucket_name: 'demo-www', status: 'enable', gzip: { disable: false, level }, br: { disable: true, level: 1 } });

describe('edge versions', () => {
  let t: TestServer;
  let a: Client;

  beforeAll(async () => {
    t = await startTestServer();
    a = await new Client(t.app).signIn('demo');
  }, 60_000);
  afterAll(async () => t?.close());

  const bucketVersion = async (name: string) =>
    Number((await t.db.selectFrom('buckets').select(sql<string>`edge_version::text`.as('v')).where('name', '=', name).executeTakeFirstOrThrow()).v);

  /** The current version once it has reached `at` (other transactions of the server may still be running for a moment). */
  async function versionReaching(at: number): Promise<number> {
    let v = await currentVersion(t.db);
    for (let i = 0; i < 100 && v < at; i++) {
      await new Promise((r) => setTimeout(r, 50));
      v = await currentVersion(t.db);
    }
    return v;
  }

  it('a save moves its service and the current version past every version before it', async () => {
    const before = await currentVersion(t.db);
    expect(before).toBeGreaterThan(0);
    expect((await a.post('/api/settings/compression/', compression(4))).json().result).toBe(true);
    const saved = await bucketVersion('demo-www');
    expect(saved).toBeGreaterThan(before);
    expect(await versionReaching(saved)).toBeGreaterThanOrEqual(saved);
    const answer = await configSnapshot(t.db, t.registry, before);
    expect(answer.services.map((s) => s.name)).toContain('demo-www');
    const www = answer.services.find((s) => s.name === 'demo-www')!;
    expect(www.setting_versions.compression).toBe(saved);
    expect((await configSnapshot(t.db, t.registry, answer.version)).services.map((s) => s.name)).not.toContain('demo-www');
  });

  it('a deleted service moves the version too (its id leaves the answer)', async () => {
    const before = await currentVersion(t.db);
    const id = (await t.db.selectFrom('buckets').select('id').where('name', '=', 'demo-static').executeTakeFirstOrThrow()).id;
    await t.db.transaction().execute(async (tx) => {
      await tx.deleteFrom('service_settings').where('bucket_id', '=', id).execute();
      await tx.deleteFrom('bucket_domains').where('bucket_id', '=', id).execute();
      await tx.deleteFrom('edge_rules').where('bucket_id', '=', id).execute();
      await sql`delete from buckets where id = ${id}`.execute(tx);
    });
    expect(await t.db.selectFrom('buckets').select('id').where('id', '=', id).executeTakeFirst()).toBeUndefined();
    const after = await versionReaching(before + 1);
    expect(after).toBeGreaterThan(before);
    expect((await configSnapshot(t.db, t.registry, before)).ids).not.toContain(id);
  });

  it('forgets the changes below the current version and keeps the current one', async () => {
    expect((await a.post('/api/settings/compression/', compression(5))).json().result).toBe(true);
    const v = await versionReaching(await bucketVersion('demo-www'));
    await trimChanges(t.db, Date.now() + 3_600_000);
    const left = await t.db.selectFrom('edge_changes').select(sql<string>`min(version)::text`.as('m')).executeTakeFirstOrThrow();
    expect(Number(left.m)).toBeGreaterThanOrEqual(v);
    expect(await currentVersion(t.db)).toBeGreaterThanOrEqual(v);
  });

  (process.env.DATABASE_URL ? it : it.skip)(
    'a save does not wait for another transaction that changed the edge, and the version stays below that one until it ends',
    async () => {
      const { Client: PgClient } = await import('pg');
      const held = new PgClient({ connectionString: t.databaseUrl });
      await held.connect();
      try {
        const v0 = await versionReaching(await bucketVersion('demo-www'));
        await held.query('begin');
        await held.query(`update buckets set status = status where name = 'demo-assets'`);
        const heldVersion = Number((await held.query(`select edge_version::text as v from buckets where name = 'demo-assets'`)).rows[0].v);
        expect(heldVersion).toBeGreaterThan(v0);

        // with one counter row this save waited for the held transaction (and timed out here)
        const saved = await Promise.race([
          a.post('/api/settings/compression/', compression(6)),
          new Promise<never>((_, reject) => setTimeout(() => reject(new Error('保存等待了另一个事务')), 5_000)),
        ]);
        expect(saved.json().result).toBe(true);
        const wwwVersion = await bucketVersion('demo-www');
        expect(wwwVersion).toBeGreaterThan(heldVersion);

        // the node is not told a version at or above the running transaction, but is sent the committed save
        const v1 = await currentVersion(t.db);
        expect(v1).toBeLessThan(heldVersion);
        const first = await configSnapshot(t.db, t.registry, v0);
        expect(first.version).toBeLessThan(heldVersion);
        expect(first.services.map((s) => s.name)).toContain('demo-www');
        expect(first.services.map((s) => s.name)).not.toContain('demo-assets');

        await held.query('commit');
        const v2 = await versionReaching(wwwVersion);
        expect(v2).toBeGreaterThanOrEqual(wwwVersion);
        // from the version it was given, the node now gets both: the held change and the save again
        const second = await configSnapshot(t.db, t.registry, first.version);
        expect(second.services.map((s) => s.name)).toEqual(expect.arrayContaining(['demo-assets', 'demo-www']));
        expect((await configSnapshot(t.db, t.registry, second.version)).services.map((s) => s.name)).toEqual([]);
      } finally {
        await held.end();
      }
    },
    30_000,
  );
});
