/**
 * Receiving a usage report of an external product (docs/billing.md "Usage reported by the external
 * products"). Idempotent per (product, report_id): a repeated report answers what the first one did
 * and deducts nothing again; the same id with different content is refused (27609).
 */
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { DB } from '../../db';
import { ApiError } from '../../http/errors';
import { addDays, dayOf } from '../../../shared/stats/time';
import { billId } from '../../../shared/billing/bills';
import type { ConsumedProduct, UsageReportResult } from '../../../shared/billing/consumption';
import { consumePackages } from '../resources/consume';
import { remainByKind } from '../resources/remain';
import type {} from './tables';

export const hashKey = (key: string) => createHash('sha256').update(key).digest('hex');

/** The product a key belongs to, or 27606. */
export async function productOfKey(db: DB, authorization: string | undefined): Promise<string> {
  const m = /^Bearer\s+(\S+)$/i.exec(String(authorization ?? ''));
  const row = m ? await db.selectFrom('external_product_keys').select('product').where('key_hash', '=', hashKey(m[1]!)).executeTakeFirst() : undefined;
  if (!row) throw new ApiError(27606, 401);
  await db.updateTable('external_product_keys').set({ last_used_at: new Date() }).where('product', '=', row.product).execute();
  return row.product;
}

export interface UsageReport {
  product: ConsumedProduct;
  report_id: string;
  account_id: number;
  quantity: number;
}

export async function receiveReport(db: DB, r: UsageReport, now = new Date()): Promise<UsageReportResult> {
  const account = await db.selectFrom('users').select(['id', 'parent_id']).where('id', '=', r.account_id).executeTakeFirst();
  if (!account || account.parent_id !== null) throw new ApiError(27608, 404);
  let day = dayOf(Math.floor(now.getTime() / 1000));
  // the job bills a day after it ends; should its bill exist already (a clock behind), the next day's bill carries the report
  while (await db.selectFrom('bills').select('id').where('id', '=', billId(day, 'DAY_BILL', r.account_id)).executeTakeFirst()) day = addDays(day, 1);
  const stored = await db.transaction().execute(async (trx) => {
    // the report's row first: a concurrent duplicate waits on the unique key, then finds it taken
    const row = await trx
      .insertInto('external_usage')
      .values({ product: r.product, report_id: r.report_id, account_id: r.account_id, quantity: r.quantity, covered: 0, day, packages: '[]' })
      .onConflict((oc) => oc.columns(['product', 'report_id']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!row) return null;
    const t = await consumePackages(trx, r.account_id, r.product, r.quantity, now);
    await trx.updateTable('external_usage').set({ covered: t.covered, packages: JSON.stringify(t.taken) }).where('id', '=', row.id).execute();
    return { covered: t.covered, remain: t.remain, day };
  });
  if (stored) return { ...r, covered: stored.covered, charged_quantity: r.quantity - stored.covered, bill_day: day, remain: stored.remain, duplicate: false };
  const first = await db
    .selectFrom('external_usage')
    .select(['account_id', 'quantity', 'covered', sql<string>`to_char(day, 'YYYY-MM-DD')`.as('d')])
    .where('product', '=', r.product)
    .where('report_id', '=', r.report_id)
    .executeTakeFirstOrThrow();
  if (first.account_id !== r.account_id || first.quantity !== r.quantity) throw new ApiError(27609, 409);
  const remain = (await remainByKind(db, r.account_id, now))[r.product] ?? 0;
  return { ...r, covered: first.covered, charged_quantity: first.quantity - first.covered, bill_day: first.d, remain, duplicate: true };
}
