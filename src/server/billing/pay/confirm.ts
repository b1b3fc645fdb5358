/**
 * The pay confirmation (spec 001 §7 "pay confirmation with an SMS code"; docs/billing-money.md): any
 * section that takes money from the balance (resource packages, paid certificates, DDoS orders, …)
 * asks for a 6-digit code sent to the main account's mobile, then debits the balance.
 *
 *   sendPayCode(db, sms, accountId)            POST /api/accounts/transaction/captcha: one SMS a minute (23701)
 *   payCodeState(db, accountId)                GET  /api/accounts/transaction/captcha: masked mobile, seconds to wait
 *   checkPayCode(db, accountId, code)          22216 no code, 21102 wrong (5 tries), 21103 expired; marks it used
 *   verifyPayCode / usePayCode                 the same in two steps: check (a wrong try counts at once),
 *                                              then mark it used inside the payment's transaction
 *   debitBalance(trx, accountId, amount, referer?)  22201 with data { need, balance, link } when the balance
 *                                              is short; link /billing/charge/?amount=N&referer=<the pay page>
 *   payWithBalance(db, user, order)            all of the above plus a paid order row, in one transaction,
 *                                              with the caller's `deliver(trx, order)` inside it: a refusal
 *                                              there (22201, the caller's own) leaves the code usable
 */
import { randomInt, randomBytes } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../../db';
import type { Database } from '../../db/schema';
import type { SmsSender } from '../../sms/outbox';
import { assertSmsAllowed } from '../../sms/outbox';
import { ApiError } from '../../http/errors';
import { hashCode } from '../../accounts/passwords';
import { maskMobile } from '../../../shared/account';
import { CHARGE_PATH, PAY_CODE_MAX_ATTEMPTS, PAY_CODE_RESEND_SECONDS, PAY_CODE_TTL_SECONDS, yuan } from '../../../shared/billing-money';
import type {} from '../money-tables';
import { debit } from '../ledger/ledger';

export const PAY_PURPOSE = 'pay';

async function mobileOf(db: Kysely<Database>, accountId: number): Promise<string> {
  const mobile = (await db.selectFrom('users').select('mobile').where('id', '=', accountId).executeTakeFirst())?.mobile;
  if (!mobile) throw new ApiError(22215, 400);
  return mobile;
}

export async function payCodeState(db: DB, accountId: number): Promise<{ mobile: string; resend_in: number }> {
  const mobile = await mobileOf(db, accountId);
  const last = await db
    .selectFrom('verification_codes')
    .select('created_at')
    .where('user_id', '=', accountId)
    .where('purpose', '=', PAY_PURPOSE)
    .orderBy('id', 'desc')
    .executeTakeFirst();
  const since = last ? (Date.now() - new Date(last.created_at).getTime()) / 1000 : Infinity;
  return { mobile: maskMobile(mobile) ?? '', resend_in: Math.max(0, Math.ceil(PAY_CODE_RESEND_SECONDS - since)) };
}

export async function sendPayCode(db: DB, sms: SmsSender, accountId: number): Promise<{ mobile: string; resend_in: number }> {
  const mobile = await mobileOf(db, accountId);
  await assertSmsAllowed(db, mobile);
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  await db
    .insertInto('verification_codes')
    .values({ user_id: accountId, purpose: PAY_PURPOSE, code_hash: hashCode(code), expires_at: new Date(Date.now() + PAY_CODE_TTL_SECONDS * 1000) })
    .execute();
  await sms.send({ userId: accountId, mobile }, PAY_PURPOSE, `【云控制台】您的支付验证码为 ${code}，5 分钟内有效。请勿将验证码告诉他人。`);
  return { mobile: maskMobile(mobile) ?? '', resend_in: PAY_CODE_RESEND_SECONDS };
}

/** Checks the latest unused pay code of the account and marks it used. */
export async function checkPayCode(db: Kysely<Database>, accountId: number, code: string | undefined): Promise<void> {
  await usePayCode(db, await verifyPayCode(db, accountId, code));
}

/**
 * Checks the latest unused pay code of the account without using it up; returns its id for usePayCode.
 * A wrong code counts against the 5 tries at once (outside any transaction a refusal rolls back).
 */
export async function verifyPayCode(db: Kysely<Database>, accountId: number, code: string | undefined): Promise<number> {
  if (!code) throw new ApiError(22216, 400);
  const row = await db
    .selectFrom('verification_codes')
    .selectAll()
    .where('user_id', '=', accountId)
    .where('purpose', '=', PAY_PURPOSE)
    .where('used_at', 'is', null)
    .orderBy('id', 'desc')
    .executeTakeFirst();
  if (!row || row.attempts >= PAY_CODE_MAX_ATTEMPTS) throw new ApiError(21102, 400);
  if (new Date(row.expires_at).getTime() < Date.now()) throw new ApiError(21103, 400);
  if (row.code_hash !== hashCode(code)) {
    await db.updateTable('verification_codes').set({ attempts: sql`attempts + 1` }).where('id', '=', row.id).execute();
    throw new ApiError(21102, 400);
  }
  return row.id;
}

/** Marks a verified pay code used; 21102 when another payment used it meanwhile. Call inside the payment's transaction. */
export async function usePayCode(trx: Kysely<Database>, id: number): Promise<void> {
  const r = await trx.updateTable('verification_codes').set({ used_at: new Date() }).where('id', '=', id).where('used_at', 'is', null).executeTakeFirst();
  if (Number(r.numUpdatedRows) === 0) throw new ApiError(21102, 400);
}

/** What an insufficient-balance refusal carries: the amount to top up and where (spec 001 §2.6, §2.5 charge/ with amount and referer). */
export interface TopUp {
  need: number;
  balance: number;
  link: string;
}

/**
 * Takes `amount` yuan from the balance, gift money first (actual_charge never exceeds money).
 * Refuses with 22201 and { need, balance, link } when the balance is short; `referer` (the console page
 * that pays, e.g. /billing/resources/pay/?resource=…) rides on the link so the charge page can send the
 * person back. Call inside a transaction.
 */
export async function debitBalance(trx: Kysely<Database>, accountId: number, amount: number, referer?: string, entry: { ref?: string | null; memo?: string | null } = {}): Promise<number> {
  const row = await trx.selectFrom('users').select(['money']).where('id', '=', accountId).forUpdate().executeTakeFirstOrThrow();
  const balance = Number(row.money);
  if (balance < amount) {
    const need = yuan(amount - balance);
    throw new ApiError(22201, 400, undefined, { need, balance, link: chargeLink(need, referer) } satisfies TopUp);
  }
  // one ledger row, applied to the balance in the same statement (docs/billing-money.md "The ledger")
  return debit(trx, accountId, amount, { kind: 'payment', ref: entry.ref ?? null, memo: entry.memo ?? null });
}

/** The top-up link: /billing/charge/?amount=N[&referer=<the paying page>]. */
export function chargeLink(need: number, referer?: string): string {
  return `${CHARGE_PATH}?amount=${Math.ceil(need)}${referer ? `&referer=${encodeURIComponent(referer)}` : ''}`;
}

export function newOrderNo(): string {
  const d = new Date();
  const stamp = `${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, '0')}${String(d.getUTCDate()).padStart(2, '0')}`;
  return `${stamp}${randomBytes(6).toString('hex').toUpperCase()}`;
}

export interface BalanceOrder {
  kind: string;
  title: string;
  amount: number;
  detail?: Record<string, unknown>;
  /** the SMS code the user typed */
  code?: string;
  /** the console page that pays (path and query), carried on the 22201 top-up link as `referer` */
  referer?: string;
  /** what the caller delivers once paid, inside the same transaction (grant a package, issue a certificate) */
  deliver?: (trx: Transaction<Database>, order: { id: number; order_no: string }) => Promise<void>;
}

/** Pays an order from the balance after the SMS confirmation: the order row, the debit and the delivery in one transaction. */
export async function payWithBalance(db: DB, user: { id: number; account_id: number }, order: BalanceOrder): Promise<{ order_no: string; balance: number }> {
  const codeId = await verifyPayCode(db, user.account_id, order.code);
  return db.transaction().execute(async (trx) => {
    const orderNo = newOrderNo();
    const balance = await debitBalance(trx, user.account_id, order.amount, order.referer, { ref: orderNo, memo: order.title });
    const row = await trx
      .insertInto('billing_orders')
      .values({
        order_no: orderNo,
        account_id: user.account_id,
        user_id: user.id,
        kind: order.kind,
        title: order.title,
        amount: order.amount.toFixed(2),
        pay_method: 'balance',
        status: 'success',
        pay_token: null,
        detail: JSON.stringify(order.detail ?? {}),
        paid_at: new Date(),
      })
      .returning(['id', 'order_no'])
      .executeTakeFirstOrThrow();
    if (order.deliver) await order.deliver(trx, row);
    // the code is used up last, in the same transaction: a 22201 or the caller's refusal leaves it usable
    await usePayCode(trx, codeId);
    return { order_no: row.order_no, balance };
  });
}
