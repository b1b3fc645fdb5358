/**
 * The session cache (src/server/accounts/session-cache.ts, issue 22): a session is answered from memory,
 * and forgotten at once when it ends or its user changes — through the database's own triggers and
 * LISTEN/NOTIFY, so also for a change made by another server process or straight in the database.
 * On PostgreSQL (DATABASE_URL) the second "process" is a second app with its own pool and its own
 * listening connection on the same database; on PGlite both apps share the one database.
 * The cache's lifetime is set to ten minutes here, so only the invalidation can explain a refusal.
 */
import type { FastifyInstance } from 'fastify';
import { SessionCache } from '../../src/server/accounts/session-cache';
import { startSecondApp, startTestServer, Client, type TestServer } from './helpers';

const LONG = 10 * 60 * 1000;

describe('session cache', () => {
  let t: TestServer;
  let second: Awaited<ReturnType<typeof startSecondApp>>;
  let other: FastifyInstance;

  beforeAll(async () => {
    t = await startTestServer({ config: { sessionCacheMs: LONG } });
    // a second server on the same database
    second = await startSecondApp(t, { sessionCacheMs: LONG });
    other = second.app;
  }, 60_000);

  afterAll(async () => {
    await second?.close();
    await t?.close();
  });

  const READ = '/api/settings/compression/?bucket_name=demo-www';

  /** Signs demo in on the first app, and reads once on each app (both now hold the session). */
  async function signedIn(): Promise<{ a: Client; b: Client }> {
    const a = await new Client(t.app).signIn('demo');
    const b = new Client(other);
    b.cookie = a.cookie;
    expect((await a.get(READ)).statusCode).toBe(200);
    expect((await b.get(READ)).statusCode).toBe(200);
    return { a, b };
  }

  /** Resolves when the app's cache has been told of a change by the database's notification (a trigger's NOTIFY). */
  function invalidation(app: FastifyInstance): Promise<unknown> {
    return new Promise((resolve) => {
      const seen = (why: string) => {
        if (why !== 'notification') return;
        app.sessionCache.off('invalidated', seen);
        resolve(why);
      };
      app.sessionCache.on('invalidated', seen);
    });
  }

  it('answers a known session from memory', async () => {
    await signedIn();
    expect(t.app.sessionCache.size).toBeGreaterThan(0);
    expect(other.sessionCache.size).toBeGreaterThan(0);
  });

  it('signing out on one server ends the session on the other at once', async () => {
    const { a, b } = await signedIn();
    const cookie = a.cookie;
    const told = invalidation(other);
    expect((await a.post('/accounts/signout/', {})).statusCode).toBe(200);
    await told; // the database's notification (immediate on PGlite, a LISTEN connection on PostgreSQL)
    const res = await b.get(READ);
    expect(res.statusCode).toBe(401);
    expect(res.json().error_code).toBe(21110);
    // and on the server that signed out, straight away
    const again = new Client(t.app);
    again.cookie = cookie;
    expect((await again.get(READ)).statusCode).toBe(401);
  });

  it('blocking the user in the database ends its cached sessions everywhere', async () => {
    const { a, b } = await signedIn();
    const told = invalidation(other);
    await t.db.updateTable('users').set({ status: 'blocked' }).where('username', '=', 'demo').execute();
    await told;
    try {
      const res = await b.get(READ);
      expect(res.statusCode).toBe(403);
      expect(res.json().error_code).toBe(21104);
      expect((await a.get(READ)).statusCode).toBe(401); // the blocked answer ended every session
    } finally {
      await t.db.updateTable('users').set({ status: 'normal' }).where('username', '=', 'demo').execute();
    }
  });

  it('a password change that ends the other sessions ends them in the cache too', async () => {
    const { b } = await signedIn();
    const told = invalidation(other);
    // what the security page does (src/server/accounts/security.ts): the other sessions of the user go
    const { sql } = await import('kysely');
    await sql`delete from sessions where user_id = (select id from users where username = 'demo')`.execute(t.db);
    await told;
    expect((await b.get(READ)).statusCode).toBe(401);
  });

  it("a change of the main account (its smart compression flag) reaches its sub-accounts' cached sessions", async () => {
    const parent = await new Client(t.app).signIn('demo');
    const made = await parent.put('/api/account/child/', { child_name: 'cache_child', password: 'secret123', permissions: ['cdn', 'stats'] });
    expect(made.statusCode).toBe(200);
    const www = await t.db.selectFrom('buckets').select('id').where('name', '=', 'demo-www').executeTakeFirstOrThrow();
    expect((await parent.put('/api/bucket/child/', { child_id: made.json().data.child_id, bucket_id: www.id })).statusCode).toBe(200);
    const child = await new Client(other).signIn('cache_child', 'secret123');
    expect((await child.get(READ)).statusCode).toBe(200); // now cached on the other server
    const told = invalidation(other);
    await t.db.updateTable('users').set({ smart_compression: false }).where('username', '=', 'demo').execute();
    await told;
    try {
      const res = await child.get(READ);
      expect(res.statusCode).toBe(403);
      expect(res.json().error_code).toBe(21216);
    } finally {
      await t.db.updateTable('users').set({ smart_compression: true }).where('username', '=', 'demo').execute();
    }
  });

  (process.env.DATABASE_URL ? it : it.skip)('is off while its LISTEN connection is down (PostgreSQL), and on again once it is back', async () => {
    const { b: reader } = await signedIn();
    // the sign-in's own notifications may reach this server after its first read was cached: read again
    // until the session is held (at most 5 s)
    for (let i = 0; i < 50 && other.sessionCache.size === 0; i++) {
      await new Promise((r) => setTimeout(r, 100));
      await reader.get(READ);
    }
    expect(other.sessionCache.size).toBeGreaterThan(0);
    const listenerEvent = () =>
      new Promise<void>((resolve) => {
        const seen = (why: string) => {
          if (why !== 'listener') return;
          other.sessionCache.off('invalidated', seen);
          resolve();
        };
        other.sessionCache.on('invalidated', seen);
      });
    // signed in before the connection goes: a sign-in (the password hash) can take longer than the second
    // after which the connection is back, and then the read below would be cached again
    const b = new Client(other);
    b.cookie = (await new Client(t.app).signIn('demo')).cookie;
    const down = listenerEvent();
    const { sql } = await import('kysely');
    await sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and query ilike 'listen %'`.execute(t.db);
    await down;
    expect(other.sessionCache.answering).toBe(false);
    expect(other.sessionCache.size).toBe(0);
    expect((await b.get(READ)).statusCode).toBe(200); // answered from the database meanwhile
    expect(other.sessionCache.size).toBe(0);
    await listenerEvent(); // reconnected (every second)
    expect(other.sessionCache.answering).toBe(true);
  });

  it('drops the sessions of a user and of its sub-accounts on a notification, and nothing else', () => {
    const cache = new SessionCache(LONG);
    cache.setListening(true);
    const user = (id: number, parent_id: number | null) => ({ id, parent_id, account_id: parent_id ?? id }) as any;
    const far = Date.now() + LONG;
    cache.put('k1', user(1, null), far, cache.begin());
    cache.put('k2', user(2, 1), far, cache.begin());
    cache.put('k3', user(3, null), far, cache.begin());
    cache.notified('u1');
    expect(cache.get('k1')).toBeUndefined();
    expect(cache.get('k2')).toBeUndefined();
    expect(cache.get('k3')?.id).toBe(3);
    // a lookup that began before a change cannot store what it read
    const before = cache.begin();
    cache.notified('u3');
    cache.put('k3', user(3, null), far, before);
    expect(cache.get('k3')).toBeUndefined();
  });

  it('answers nothing from memory while notifications cannot arrive, or just after a change sent by this process', () => {
    const cache = new SessionCache(LONG);
    const user = { id: 1, parent_id: null, account_id: 1 } as any;
    cache.put('k', user, Date.now() + LONG, cache.begin());
    expect(cache.get('k')).toBeUndefined(); // not listening yet
    cache.setListening(true);
    cache.put('k', user, Date.now() + LONG, cache.begin());
    expect(cache.get('k')?.id).toBe(1);
    cache.localWrite();
    expect(cache.get('k')).toBeUndefined();
    expect(SessionCache.touches('users', 'update "users" set "money" = $1 where "id" = $2')).toBe(false);
    expect(SessionCache.touches('users', 'update "users" set "status" = $1 where "id" = $2')).toBe(true);
    expect(SessionCache.touches('sessions', 'delete from "sessions" where "id" = $1')).toBe(true);
  });
});
