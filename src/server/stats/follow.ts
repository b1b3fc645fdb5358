/**
 * The domain-follow check of spec 001 §4: back-to-origin statistics by domain need the domain's service
 * to send the accelerated domain as origin Host — its origin setting's `host` empty (the default, also
 * when the service has no origin setting). A service with a fixed origin Host fails it.
 */
import { sql } from 'kysely';
import type { DB } from '../db';

/** The ids among `bucketIds` whose origin Host follows the domain. */
export async function followingBuckets(db: DB, bucketIds: number[]): Promise<Set<number>> {
  if (!bucketIds.length) return new Set();
  const fixed = await db
    .selectFrom('service_settings')
    .select('bucket_id')
    .where('setting_id', '=', 'origin')
    .where('bucket_id', 'in', bucketIds)
    .where(sql<boolean>`coalesce(value->>'host', '') <> ''`)
    .execute();
  const failing = new Set(fixed.map((r) => r.bucket_id));
  return new Set(bucketIds.filter((id) => !failing.has(id)));
}
