/**
 * The bucket cache (src/server/buckets/bucket-cache.ts, issue 22): a service's row is answered from memory
 * and forgotten at once when it changes — through the database's triggers and LISTEN/NOTIFY, so also for a
 * change made by another server process or straight in the database. On PostgreSQL (DATABASE_URL) the
 * second "process" is a second app with its own pool and listening connection on the same database; on
 * PGlite both apps share the one database (and its one cache). The cache's lifetime is ten minutes here,
 * so only the invalidation can explain a changed answer.
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { BucketCache, bucketCacheOf } from '../../src/server/buckets/bucket-cache';
import { startSecondApp, startTestServer, Client, type TestServer } from './helpers';

const LONG = 10 * 60 * 1000;

describe('bucket cache', () => {
  let t: TestServer;
  let second: Awaited<ReturnType<typeof startSecondApp>>;
  let other: FastifyInstance;
  let a: Client;
  let b: Client;

  beforeAll(async () => {
    t = await startTestServer({ config: { bucketCacheMs: LONG } });
    second = await startSecondApp(t, { bucketCacheMs: LONG });
    other = second.app;
    a = await new Client(t.app).signIn('demo');
    b = new Client(other);
    b.cookie = a.cookie;
  }, 60_000);

  afterAll(async () => {
    await second?.close();
    await t?.close();
  });

  const otherCache = () => bucketCacheOf(second.db)!;
  const info = (c: Client, name = 'demo-www') => c.get(`/api/buckets/info/?bucket_name=${name}`);

  /** Resolves when the other app's cache has been told by the database's notification that this service changed. */
  function told(bucketId: number): Promise<void> {
    return new Promise((resolve) => {
      const seen = (why: string, id: number | null) => {
        if (why !== 'notification' || id !== bucketId) return;
        otherCache().off('invalidated', seen);
        resolve();
      };
      otherCache().on('invalidated', seen);
    });
  }

  /** Reads the service on the other app until it is held in that app's cache (the sign-in's own notifications may come after the first read). */
  async function heldByOther(name = 'demo-www'): Promise<void> {
    for (let i = 0; i < 50 && !otherCache().get(name); i++) {
      expect((await info(b, name)).statusCode).toBe(200);
      if (!otherCache().get(name)) await new Promise((r) => setTimeout(r, 100));
    }
    expect(otherCache().get(name)).toBeDefined();
  }

  const wwwId = async () => (await t.db.selectFrom('buckets').select('id').where('name', '=', 'demo-www').executeTakeFirstOrThrow()).id;

  it('keeps a service read once, and a settings save (which moves the edge version of the service) does not drop it', async () => {
    await heldByOther();
    expect((await a.post('/api/settings/compression/', { bucket_name: 'demo-www', status: 'enable', gzip: { disable: false, level: 3 }, br: { disable: true, level: 1 } })).json().result).toBe(true);
    expect(otherCache().get('demo-www')).toBeDefined();
  });

  it('a remark changed on one server is answered by the other at once', async () => {
    await heldByOther();
    const id = await wwwId();
    const change = told(id);
    expect((await a.post('/api/buckets/info/', { bucket_name: 'demo-www', remark: '缓存测试' })).statusCode).toBe(200);
    await change;
    expect((await info(b)).json().data.remark).toBe('缓存测试');
  });

  it('a service moved to another account in the database is refused at once, and found again when moved back', async () => {
    await heldByOther();
    const id = await wwwId();
    const other2fa = await t.db.selectFrom('users').select('id').where('username', '=', 'demo2fa').executeTakeFirstOrThrow();
    const demo = await t.db.selectFrom('users').select('id').where('username', '=', 'demo').executeTakeFirstOrThrow();
    let change = told(id);
    await t.db.updateTable('buckets').set({ owner_id: other2fa.id }).where('id', '=', id).execute();
    await change;
    try {
      expect((await info(b)).json().error_code).toBe(21905);
      expect((await info(a)).json().error_code).toBe(21905); // and on the server that sent the change
    } finally {
      change = told(id);
      await t.db.updateTable('buckets').set({ owner_id: demo.id }).where('id', '=', id).execute();
      await change;
    }
    expect((await info(b)).statusCode).toBe(200);
  });

  it('a renamed service is not found under its old name', async () => {
    await heldByOther('demo-static');
    const row = await t.db.selectFrom('buckets').select('id').where('name', '=', 'demo-static').executeTakeFirstOrThrow();
    let change = told(row.id);
    await sql`update buckets set name = 'demo-static-2' where id = ${row.id}`.execute(t.db);
    await change;
    try {
      expect((await info(b, 'demo-static')).json().error_code).toBe(21905);
      expect((await info(b, 'demo-static-2')).json().data.bucket_name).toBe('demo-static-2');
    } finally {
      change = told(row.id);
      await sql`update buckets set name = 'demo-static' where id = ${row.id}`.execute(t.db);
      await change;
    }
  });

  it('drops only the service a notification names; a lookup that began before a change stores nothing', () => {
    const cache = new BucketCache(LONG);
    cache.setListening(true);
    const row = (id: number, name: string) => ({ id, name, owner_id: 1, kind: 'cdn', remark: null, status: 'NORMAL', storage_used: 0, created_at: new Date() });
    cache.put('x', row(1, 'x'), Infinity, cache.begin());
    cache.put('y', row(2, 'y'), Infinity, cache.begin());
    cache.notified('b1');
    expect(cache.get('x')).toBeUndefined();
    expect(cache.get('y')?.id).toBe(2);
    const before = cache.begin();
    cache.notified('b2');
    cache.put('y', row(2, 'y'), Infinity, before);
    expect(cache.get('y')).toBeUndefined();
  });

  it('is told of the statements that change what it holds, not of the edge version moving', () => {
    expect(BucketCache.touches('buckets', 'update "buckets" set "remark" = $1 where "id" = $2')).toBe(true);
    expect(BucketCache.touches('buckets', 'delete from "buckets" where "id" = $1')).toBe(true);
    expect(BucketCache.touches('buckets', 'update buckets set edge_version = edge_next_version() where id = b')).toBe(false);
    expect(BucketCache.touches('sessions', 'delete from "sessions" where "id" = $1')).toBe(false);
  });
});
