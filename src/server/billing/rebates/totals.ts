/**
 * Rebate amounts (spec 001 §3): total withdrawable = rebates credited minus applications done; frozen =
 * applications pending review; actually withdrawable = total minus frozen. For the billing header too.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { yuan, type RebateTotals } from '../../../shared/billing-money';
import type {} from '../money-tables';

export async function rebateTotals(db: Kysely<Database>, accountId: number): Promise<RebateTotals> {
  const credit = await db.selectFrom('rebate_credits').select(sql<string>`coalesce(sum(amount), 0)`.as('n')).where('account_id', '=', accountId).executeTakeFirstOrThrow();
  const apps = await db
    .selectFrom('rebates')
    .select([sql<string>`coalesce(sum(sum) filter (where status = 'DONE'), 0)`.as('done'), sql<string>`coalesce(sum(sum) filter (where status = 'INIT'), 0)`.as('freeze')])
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  const total = yuan(Number(credit.n) - Number(apps.done));
  const freeze = yuan(Number(apps.freeze));
  return { total, freeze, available: Math.max(0, yuan(total - freeze)) };
}
