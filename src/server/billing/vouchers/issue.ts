/**
 * Giving an account a voucher (docs/billing.md "Vouchers"): rebates converted to a voucher (valid one
 * year, spec 001 §9), compensation, platform gifts. `db` may be a transaction.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type {} from '../tables';

export interface VoucherGrant {
  /** yuan, up to 2 decimals, > 0 */
  amount: number;
  /** days from now until it expires */
  validDays: number;
  /** rebate | platform | compensation | activation … */
  source: string;
  remark?: string;
}

export async function issueVoucher(db: Kysely<Database>, accountId: number, grant: VoucherGrant): Promise<number> {
  if (!(grant.amount > 0) || !Number.isInteger(grant.validDays) || grant.validDays < 1) throw new Error('issueVoucher: amount > 0 and validDays ≥ 1 required');
  const amount = grant.amount.toFixed(2);
  const row = await db
    .insertInto('vouchers')
    .values({
      account_id: accountId,
      ticket_id: null,
      value: amount,
      remain: amount,
      valid_days: grant.validDays,
      source: grant.source,
      remark: grant.remark ?? null,
      activated_at: sql<Date>`now()`,
      expired_at: sql<Date>`now() + make_interval(days => ${grant.validDays})`,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * An unbound voucher code that an account activates with POST /api/ticket/ (platform command). Until
 * then `expired_at` is the last moment it can be activated; activation sets it to now + validDays.
 */
export async function createVoucherCode(db: Kysely<Database>, ticketId: string, grant: VoucherGrant & { activateDays?: number }): Promise<number> {
  if (!(grant.amount > 0) || !Number.isInteger(grant.validDays) || grant.validDays < 1) throw new Error('createVoucherCode: amount > 0 and validDays ≥ 1 required');
  const amount = grant.amount.toFixed(2);
  const row = await db
    .insertInto('vouchers')
    .values({ account_id: null, ticket_id: ticketId, value: amount, remain: amount, valid_days: grant.validDays, source: grant.source, remark: grant.remark ?? null, activated_at: null, expired_at: sql<Date>`now() + make_interval(days => ${grant.activateDays ?? 365})` })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
