/**
 * Counting a package down at the moment something is used (docs/billing.md "Usage reported by the
 * external products", "Free-certificate extension packages"): SMS, one-click login and blockchain
 * reports, and free certificates beyond the 20 free ones. Traffic and transcode packages are counted
 * down by the bills instead (bills/make.ts).
 *
 * The packages of the kind that are valid now are locked (`for update`) and taken from the earliest
 * expiry on, so two concurrent reports never spend the same unit. `trx` must be a transaction.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type {} from '../tables';

export interface Taken {
  covered: number;
  /** what each package gave */
  taken: { id: number; take: number }[];
  /** what the kind's valid packages hold after this */
  remain: number;
}

export async function consumePackages(trx: Kysely<Database>, accountId: number, kind: string, quantity: number, now = new Date()): Promise<Taken> {
  const rows = await trx
    .selectFrom('resource_packages')
    .select(['id', 'remain'])
    .where('account_id', '=', accountId)
    .where('kind', '=', kind)
    .where('remain', '>', '0')
    .where('starts_at', '<=', now)
    .where('expires_at', '>', now)
    .orderBy('expires_at')
    .orderBy('id')
    .forUpdate()
    .execute();
  let left = quantity;
  const taken: Taken['taken'] = [];
  let held = 0;
  for (const r of rows) {
    const have = Number(r.remain);
    const take = Math.min(left, have);
    held += have - take;
    if (take <= 0) continue;
    left -= take;
    taken.push({ id: r.id, take });
    await trx.updateTable('resource_packages').set({ remain: sql`remain - ${take}::numeric` as any }).where('id', '=', r.id).execute();
  }
  return { covered: quantity - left, taken, remain: held };
}

/** Gives units back to the package they came from (a free certificate that failed), if it is still valid. */
export async function returnToPackage(db: Kysely<Database>, packageId: number, amount: number, now = new Date()): Promise<boolean> {
  const r = await db
    .updateTable('resource_packages')
    .set({ remain: sql`least(amount, remain + ${amount}::numeric)` as any })
    .where('id', '=', packageId)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(r.numUpdatedRows ?? 0) > 0;
}
