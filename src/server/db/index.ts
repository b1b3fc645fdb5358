/**
 * Opens the database: PGlite under DATA_DIR by default, PostgreSQL when DATABASE_URL is set.
 * Both go through kysely's PostgresDialect; migrations run on open.
 *
 * An in-memory PGlite (DATA_DIR=memory://: every test file, the browser tests' server) starts from a
 * snapshot of a freshly migrated database when one exists for the current migrations, instead of
 * running them all again: the first open writes the snapshot (a tar of the data directory) to the
 * temporary directory, named by a hash of the migrations' names and code.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { Kysely, Migrator, PostgresDialect, sql } from 'kysely';
import type { Database } from './schema';
import { migrationProvider, migrationsFingerprint } from './migrations';
import { pglitePool, type PgliteQueueOptions } from './pglite-pool';
import { pgliteOnThread, type PgliteLike } from './pglite-thread';
import { attachNotifications, pgNotifications, type Notifications } from './notify';
import { lockDataDir } from './lock';

export type DB = Kysely<Database>;

export interface OpenOptions {
  databaseUrl?: string;
  /** A directory, or 'memory://' */
  dataDir: string;
  /** PGlite: how long a caller waits for the single connection and how many may wait (./pglite-pool.ts). */
  queue?: PgliteQueueOptions;
  /**
   * PGlite on a worker thread of its own (./pglite-thread.ts), so that its statements do not hold up the
   * server's event loop, which then stays free to accept new connections (docs/performance.md); default:
   * on, unless PGLITE_THREAD=off.
   */
  thread?: boolean;
}

/**
 * PostgreSQL's timeouts (issue 34 item 6), so that a database that is down or hung answers an error the
 * server turns into 503 (./faults.ts) instead of holding requests: a connection within DB_CONNECT_TIMEOUT_MS
 * (5 s), a lock within DB_LOCK_TIMEOUT_MS (5 s), a statement within DB_STATEMENT_TIMEOUT_MS (30 s; the demo's
 * traffic seed has the longest), and an answer at all within DB_QUERY_TIMEOUT_MS (the client's own limit, for a
 * server that stopped answering: 35 s). Migrations run on a pool of their own without these limits.
 */
export function dbTimeouts(env: NodeJS.ProcessEnv = process.env): { connectMs: number; lockMs: number; statementMs: number; queryMs: number } {
  const n = (v: string | undefined, d: number) => (v !== undefined && v !== '' && Number.isFinite(Number(v)) ? Number(v) : d);
  const statementMs = n(env.DB_STATEMENT_TIMEOUT_MS, 30000);
  return { connectMs: n(env.DB_CONNECT_TIMEOUT_MS, 5000), lockMs: n(env.DB_LOCK_TIMEOUT_MS, 5000), statementMs, queryMs: n(env.DB_QUERY_TIMEOUT_MS, statementMs > 0 ? statementMs + 5000 : 0) };
}

export async function openDatabase(opts: OpenOptions): Promise<DB> {
  let dialect: PostgresDialect;
  let notifications: Notifications;
  if (opts.databaseUrl) {
    const pg = await import('pg');
    const { Pool, types } = pg.default ?? pg;
    types.setTypeParser(20, (v: string) => Number(v)); // bigint and count() as numbers, as PGlite returns them
    const t = dbTimeouts();
    // migrations first, on a pool of their own: a migration may wait for its locks and take its time
    const migrations = new Kysely<Database>({ dialect: new PostgresDialect({ pool: new Pool({ connectionString: opts.databaseUrl, max: 2, connectionTimeoutMillis: t.connectMs }) }) });
    try {
      await withStartupLock(migrations, () => migrate(migrations));
    } finally {
      await migrations.destroy();
    }
    const pool = new Pool({
      connectionString: opts.databaseUrl,
      max: 10,
      connectionTimeoutMillis: t.connectMs,
      ...(t.statementMs > 0 ? { statement_timeout: t.statementMs } : {}),
      ...(t.lockMs > 0 ? { lock_timeout: t.lockMs } : {}),
      ...(t.queryMs > 0 ? { query_timeout: t.queryMs } : {}),
      keepAlive: true,
    });
    // an idle connection the server ends (a restart, an administrator, a dropped test database) is
    // reported on the pool; without a listener it would end the process (node-postgres' advice)
    pool.on('error', (e: Error) => console.warn(`PostgreSQL: an idle connection ended: ${e.message}`));
    // the pool listens on idle connections only: one lost while a request holds it (between its statements,
    // in a transaction) would end the process with an unhandled 'error' (issue 34 item 6); its statements
    // fail on their own and the request answers 503 (./faults.ts)
    pool.on('connect', (client: { on(event: 'error', cb: (e: Error) => void): void }) => client.on('error', (e: Error) => console.warn(`PostgreSQL: a connection in use ended: ${e.message}`)));
    notifications = pgNotifications(opts.databaseUrl, pool); // LISTEN/NOTIFY for the caches (./notify.ts)
    dialect = new PostgresDialect({ pool });
  } else {
    const memory = opts.dataDir.startsWith('memory://');
    if (!memory) fs.mkdirSync(opts.dataDir, { recursive: true });
    // one process per data folder (./lock.ts): refused before PGlite touches a page
    const unlock = memory ? () => undefined : lockDataDir(opts.dataDir);
    const snapshot = memory ? snapshotFile() : null;
    const hasTemplate = Boolean(snapshot && fs.existsSync(snapshot));
    let pg: PgliteLike;
    try {
      if (opts.thread ?? process.env.PGLITE_THREAD !== 'off') pg = await pgliteOnThread(opts.dataDir, hasTemplate ? snapshot : null);
      else {
        const { PGlite } = await import('@electric-sql/pglite');
        const template = hasTemplate ? readSnapshot(snapshot!) : null;
        const own = template ? new PGlite(opts.dataDir, { loadDataDir: template }) : new PGlite(opts.dataDir);
        await own.waitReady;
        pg = own as unknown as PgliteLike;
      }
    } catch (e) {
      unlock();
      throw e;
    }
    const pool = pglitePool(pg, opts.queue);
    const end = pool.end.bind(pool);
    pool.end = async () => {
      try {
        await end();
      } finally {
        unlock(); // db.destroy() at a clean shutdown
      }
    };
    dialect = new PostgresDialect({ pool });
    const db = new Kysely<Database>({ dialect });
    attachNotifications(db, pool);
    await migrate(db);
    if (snapshot && !hasTemplate) await writeSnapshot(snapshot, await pg.dumpDataDir('none'));
    return db;
  }
  const db = new Kysely<Database>({ dialect });
  attachNotifications(db, notifications);
  return db;
}

/** The advisory lock of a server's start ('STRT'): migrations and the demo's seed. */
export const STARTUP_LOCK = 0x53545254;

/**
 * Runs `fn` holding PostgreSQL's session advisory lock STARTUP_LOCK, waiting for it (issue 34 item 7): two
 * servers started at once on an empty database migrate and seed one after the other, and the second finds
 * the work done (the seed crashed on a duplicate key before). The lock lives on one connection set aside
 * for it; `fn` uses the rest of the pool. On PGlite (one process per data folder) `fn` just runs.
 */
export async function withStartupLock<T>(db: DB, fn: () => Promise<T>): Promise<T> {
  const version = (await sql<{ v: string }>`select version() as v`.execute(db)).rows[0]?.v ?? '';
  if (/PGlite/i.test(version)) return fn();
  return db.connection().execute(async (conn) => {
    // tried every 200 ms rather than waited for in one statement: the wait for the other server is no hung
    // database, and no statement or query timeout of the pool may cut it
    while (!(await sql<{ ok: boolean }>`select pg_try_advisory_lock(${STARTUP_LOCK}) as ok`.execute(conn)).rows[0]?.ok) {
      await new Promise((r) => setTimeout(r, 200));
    }
    try {
      return await fn();
    } finally {
      await sql`select pg_advisory_unlock(${STARTUP_LOCK})`.execute(conn);
    }
  });
}

function snapshotFile(): string {
  const key = createHash('sha256').update(migrationsFingerprint()).digest('hex').slice(0, 16);
  return path.join(os.tmpdir(), `cdn-console-pglite-${key}.tar`);
}

function readSnapshot(file: string): Blob | null {
  try {
    return new Blob([fs.readFileSync(file)]);
  } catch {
    return null;
  }
}

/** Written under a unique name and renamed, so parallel test workers never read half a file. */
async function writeSnapshot(file: string, dump: Blob): Promise<void> {
  const tmp = `${file}.${process.pid}.${Date.now()}`;
  try {
    fs.writeFileSync(tmp, Buffer.from(await dump.arrayBuffer()));
    fs.renameSync(tmp, file);
    // snapshots of earlier migrations go once they have not been written for an hour
    const dir = path.dirname(file);
    for (const f of fs.readdirSync(dir)) {
      const other = path.join(dir, f);
      if (f.startsWith('cdn-console-pglite-') && f.endsWith('.tar') && other !== file && Date.now() - fs.statSync(other).mtimeMs > 3_600_000) fs.rmSync(other, { force: true });
    }
  } catch {
    fs.rmSync(tmp, { force: true });
  }
}

export async function migrate(db: DB): Promise<void> {
  // several sections add migrations side by side (0003, 0004, …): a database that ran a later one
  // first still runs an earlier one added afterwards
  const migrator = new Migrator({ db, provider: migrationProvider, allowUnorderedMigrations: true });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error');
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${(error as Error).message ?? error}`);
  }
}
