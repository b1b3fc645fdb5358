/**
 * What remains of an account's packages: the header's traffic and transcode figures, and
 * users.resource_flow_remain (bytes, read by /api/accounts/v2/usage/) kept equal to the traffic left.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type {} from '../tables';

/** Valid (started, not expired) remaining amount per kind, in each kind's unit. */
export async function remainByKind(db: Kysely<Database>, accountId: number, now = new Date()): Promise<Record<string, number>> {
  const rows = await db
    .selectFrom('resource_packages')
    .select(['kind', (eb) => eb.fn.sum<string>('remain').as('remain')])
    .where('account_id', '=', accountId)
    .where('starts_at', '<=', now)
    .where('expires_at', '>', now)
    .groupBy('kind')
    .execute();
  return Object.fromEntries(rows.map((r) => [r.kind, Number(r.remain)]));
}

export async function syncFlowRemain(db: Kysely<Database>, accountId: number): Promise<void> {
  const gb = (await remainByKind(db, accountId)).resources ?? 0;
  await db.updateTable('users').set({ resource_flow_remain: sql`${Math.round(gb * 1024 ** 3)}::bigint` as any }).where('id', '=', accountId).execute();
}
