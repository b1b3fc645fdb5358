/**
 * Opens the database: PGlite under DATA_DIR by default, PostgreSQL when DATABASE_URL is set.
 * Both go through kysely's PostgresDialect; migrations run on open.
 */
import fs from 'node:fs';
import { Kysely, Migrator, PostgresDialect } from 'kysely';
import type { Database } from './schema';
import { migrationProvider } from './migrations';
import { pglitePool } from './pglite-pool';

export type DB = Kysely<Database>;

export interface OpenOptions {
  databaseUrl?: string;
  /** A directory, or 'memory://' */
  dataDir: string;
}

export async function openDatabase(opts: OpenOptions): Promise<DB> {
  let dialect: PostgresDialect;
  if (opts.databaseUrl) {
    const pg = await import('pg');
    const { Pool, types } = pg.default ?? pg;
    types.setTypeParser(20, (v: string) => Number(v)); // bigint and count() as numbers, as PGlite returns them
    dialect = new PostgresDialect({ pool: new Pool({ connectionString: opts.databaseUrl, max: 10 }) });
  } else {
    const { PGlite } = await import('@electric-sql/pglite');
    if (!opts.dataDir.startsWith('memory://')) fs.mkdirSync(opts.dataDir, { recursive: true });
    const pg = new PGlite(opts.dataDir);
    await pg.waitReady;
    dialect = new PostgresDialect({ pool: pglitePool(pg) });
  }
  const db = new Kysely<Database>({ dialect });
  await migrate(db);
  return db;
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
