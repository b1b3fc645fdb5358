/**
 * PGlite's bounded line (issue 21 item 21, src/server/db/pglite-pool.ts): while a long transaction holds
 * the single connection, a request that cannot have the database within the wait is answered 503 with
 * 网络似乎不稳定，刷新试试 and Retry-After, a request finding the line full is answered so at once, nothing
 * is changed by a refused save, and once the database is free the same requests succeed.
 * PGlite only (on PostgreSQL the pool has ten connections and no such line).
 */
import type { FastifyInstance } from 'fastify';
import { openDatabase, type DB } from '../../src/server/db';
import { buildApp } from '../../src/server/app';
import { configFromEnv } from '../../src/server/config';
import { seedDemo } from '../../src/server/seed/demo';
import { loadRegistry } from '../../schemas/load';
import { HTTP_5XX_TEXT, SERVER_BUSY_CODE } from '../../src/shared/errors';

const maybe = process.env.DATABASE_URL ? describe.skip : describe;

maybe('PGlite: the bounded wait for the database', () => {
  let db: DB;
  let app: FastifyInstance;
  let cookie: string;
  const WAITING = 4;

  beforeAll(async () => {
    db = await openDatabase({ dataDir: 'memory://', queue: { waitMs: 300, maxWaiting: WAITING } });
    await seedDemo(db);
    // the session cache off: every request needs the database, the session lookup first
    app = await buildApp({ db, config: { ...configFromEnv({}), dataDir: 'memory://', distDir: '/nonexistent', logSms: false, sessionCacheMs: 0 }, registry: loadRegistry(), logger: false });
    await app.ready();
    const signin = await app.inject({ method: 'POST', url: '/accounts/signin/', payload: { username: 'demo', password: 'demo123456' } });
    cookie = String(signin.headers['set-cookie']).split(';')[0];
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await db?.destroy();
  });

  const read = () => app.inject({ method: 'GET', url: '/api/settings/compression/?bucket_name=demo-www', headers: { cookie } });
  const save = (level: number) =>
    app.inject({ method: 'POST', url: '/api/settings/compression/', headers: { cookie }, payload: { bucket_name: 'demo-www', status: 'enable', gzip: { disable: false, level }, br: { disable: false, level: 1 } } });

  /** What a refused save must not have changed. */
  async function rows() {
    const setting = await db.selectFrom('service_settings').select(['value']).where('setting_id', '=', 'compression').execute();
    const logs = await db.selectFrom('operation_logs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return { setting: JSON.stringify(setting), logs: Number(logs.n) };
  }

  /** Runs `fn` while a transaction holds the database. */
  async function whileHeld<T>(fn: () => Promise<T>): Promise<T> {
    let free!: () => void;
    const held = new Promise<void>((r) => (free = r));
    let started!: () => void;
    const holding = new Promise<void>((r) => (started = r));
    const tx = db.transaction().execute(async (trx) => {
      await trx.selectFrom('users').select('id').limit(1).execute();
      started();
      await held;
    });
    await holding;
    try {
      return await fn();
    } finally {
      free();
      await tx;
    }
  }

  it('answers 503 with the message and Retry-After when the wait runs out, and when the line is full; a refused save changes nothing', async () => {
    expect((await save(3)).statusCode).toBe(200);
    const before = await rows();
    const answers = await whileHeld(() => Promise.all([read(), save(7), ...Array.from({ length: WAITING + 4 }, read)]));
    for (const res of answers) {
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('1');
      expect(res.json()).toEqual({ result: false, error_code: SERVER_BUSY_CODE, message: HTTP_5XX_TEXT });
    }
    expect(HTTP_5XX_TEXT).toBe('网络似乎不稳定，刷新试试');
    expect(await rows()).toEqual(before);
  });

  it('serves again once the database is free', async () => {
    const [r, s] = await Promise.all([read(), save(5)]);
    expect(r.statusCode).toBe(200);
    expect(s.statusCode).toBe(200);
    expect(s.json().data.gzip.level).toBe(5);
  });
});
