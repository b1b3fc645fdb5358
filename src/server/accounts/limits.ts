/**
 * Counters in a fixed window, each taken and checked in one atomic statement (an upsert that returns
 * the new count), so concurrent requests cannot all pass a check before any of them is counted:
 * of 100 simultaneous attempts against a limit of 10, exactly 10 get a slot. docs/security.md
 */
import { sql } from 'kysely';
import type { DB } from '../db';
import type {} from './tables';

/**
 * Counts one attempt under `key` and answers whether it is within `limit` for the window of
 * `windowSeconds` that began with the first attempt counted (a window that has run out starts again).
 */
export async function takeSlot(db: DB, key: string, limit: number, windowSeconds: number): Promise<{ count: number; allowed: boolean }> {
  const expired = sql<boolean>`rate_limits.window_start <= now() - make_interval(secs => ${windowSeconds})`;
  const row = await db
    .insertInto('rate_limits')
    .values({ key, window_start: sql<Date>`now()`, count: 1 })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        count: sql<number>`case when ${expired} then 1 else rate_limits.count + 1 end`,
        window_start: sql<Date>`case when ${expired} then now() else rate_limits.window_start end`,
      }),
    )
    .returning('count')
    .executeTakeFirstOrThrow();
  return { count: row.count, allowed: row.count <= limit };
}

/** Gives back one slot (an attempt that turned out not to count: a right password, a refusal before any check). */
export async function releaseSlot(db: DB, key: string): Promise<void> {
  await db.updateTable('rate_limits').set({ count: sql<number>`greatest(count - 1, 0)` }).where('key', '=', key).execute();
}

/** Forgets a key (the owner signed in: the account's failures are over). */
export async function clearSlots(db: DB, key: string): Promise<void> {
  await db.deleteFrom('rate_limits').where('key', '=', key).execute();
}
