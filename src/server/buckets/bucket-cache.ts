/**
 * A short-lived cache of services by name (issue 22): every request on a service (the settings read and
 * save, the live info, …) starts by finding its row (`bucketForUser`, ./repo.ts), and the row almost never
 * changes. Each process keeps it in memory for BUCKET_CACHE_MS (default 5 s; 0: not at all) and forgets it
 * at once, in every process, when it changes — the same machinery as the session cache
 * (../db/notified-cache.ts):
 *  - triggers on `buckets` (UPDATE of the columns a BucketRow holds, DELETE) send
 *    `NOTIFY bucket_cache, 'b<bucket id>'` with the change's COMMIT (migration 0201 below); each process
 *    LISTENs (on the connection the session cache listens on) and drops that service;
 *  - the process that sends such an UPDATE or DELETE empties its cache and answers from the database for a
 *    second; a lookup that began before a change cannot store what it read;
 *  - while the listening connection is down the cache is empty and off.
 * A name that is not found is never kept (a service created in another process is found at once). Only the
 * row is cached: whether a sub-account reaches the service is still asked of `child_buckets` each time.
 * One cache per database (the apps of a test that share a DB share it); it listens while an app is open.
 */
import type { FastifyInstance } from 'fastify';
import { type Kysely, type Migration, sql } from 'kysely';
import { NotifiedCache } from '../db/notified-cache';
import { notificationsOf } from '../db/notify';
import type { BucketRow } from './repo';

export const BUCKET_CACHE_CHANNEL = 'bucket_cache';
/** The columns of `buckets` a BucketRow is made of (./repo.ts): a change of one notifies (edge_version does not). */
export const BUCKET_COLUMNS = ['id', 'name', 'owner_id', 'kind', 'remark', 'status', 'storage_used', 'created_at'] as const;

export const bucketCacheMigrations: Record<string, Migration> = {
  '0201_bucket_cache_notify': {
    async up(db: Kysely<any>) {
      await sql`create function bucket_cache_notify() returns trigger language plpgsql as $$
        begin
          perform pg_notify('bucket_cache', 'b' || old.id);
          return null;
        end $$`.execute(db);
      await sql`create trigger buckets_cache_notify after update of ${sql.raw(BUCKET_COLUMNS.join(', '))} or delete on buckets for each row execute function bucket_cache_notify()`.execute(db);
    },
  },
};

/** Services by name (the lifetime, the notifications and the quiet time: ../db/notified-cache.ts). */
export class BucketCache extends NotifiedCache<BucketRow> {
  /** A notification: `b<id>` drops that service; anything else empties the cache. */
  notified(payload: string): void {
    const id = /^b(\d+)$/.exec(payload) ? Number(payload.slice(1)) : null;
    if (id === null) return this.clear('notification');
    this.drop((b) => b.id === id, id);
  }

  /** Whether a statement this process sends changes what the cache holds (DELETE of buckets, or an UPDATE naming a cached column). */
  static touches(table: string, statement: string): boolean {
    if (table !== 'buckets') return false;
    return /^\s*delete/i.test(statement) || BUCKET_COLUMNS.some((c) => c !== 'id' && statement.includes(c));
  }
}

interface Shared {
  cache: BucketCache;
  apps: number;
  stopWatching: () => void;
  unlisten?: () => Promise<void>;
}

const shared = new WeakMap<object, Shared>();

/** The bucket cache of a DB (none on a transaction, on a DB made without openDatabase, or with the cache off). */
export function bucketCacheOf(db: object): BucketCache | undefined {
  return shared.get(db)?.cache;
}

/** Starts the DB's bucket cache with this app (listening from onReady to onClose); `ttlMs` 0 leaves it off. */
export function registerBucketCache(app: FastifyInstance, db: object, ttlMs: number): void {
  const notifications = notificationsOf(db);
  if (!notifications || ttlMs <= 0) return;
  let s = shared.get(db);
  if (!s) {
    const cache = new BucketCache(ttlMs);
    const stopWatching = notifications.onWrite((table, statement) => {
      if (BucketCache.touches(table, statement)) cache.localWrite();
    });
    s = { cache, apps: 0, stopWatching };
    shared.set(db, s);
  }
  const mine = s;
  let started = false;
  app.addHook('onReady', async () => {
    started = true;
    if (mine.apps++ === 0) mine.unlisten = await notifications.listen(BUCKET_CACHE_CHANNEL, (payload) => mine.cache.notified(payload), (up) => mine.cache.setListening(up));
  });
  app.addHook('onClose', async () => {
    if (!started || --mine.apps > 0) return;
    mine.stopWatching();
    await mine.unlisten?.();
    if (shared.get(db) === mine) shared.delete(db);
  });
}
