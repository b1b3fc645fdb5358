/**
 * Writing to the balance ledger (docs/billing-money.md "The ledger"). These are the only ways a
 * balance changes: the database refuses any other update of users.money / users.actual_charge, and a
 * ledger row is applied to the account by a trigger in the same statement, so a change and its row are
 * always in the same transaction.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { LedgerKind } from '../../../shared/billing/ledger';
import type {} from './tables';

const yuan = (n: number) => Math.round(n * 100) / 100;

/** The ledger reference of a paid DDoS order (ddos_orders keeps its own orders). */
export const ddosLedgerRef = (orderId: number) => `ddos-order-${orderId}`;

export interface LedgerPost {
  kind: LedgerKind;
  /** the change of the balance (users.money), yuan; negative for a charge */
  amount: number;
  /** the change of its recharged part (users.actual_charge); 0 by default */
  recharge?: number;
  ref?: string | null;
  memo?: string | null;
  /** when it happened (the seed's history); now by default */
  at?: Date;
}

/** Writes one row; the trigger applies it to the account. Answers the balance after it. */
export async function postLedger(db: Kysely<Database>, accountId: number, e: LedgerPost): Promise<{ balance: number; recharge_balance: number }> {
  const row = await db
    .insertInto('balance_ledger')
    .values({
      account_id: accountId,
      kind: e.kind,
      amount: yuan(e.amount).toFixed(2),
      recharge: yuan(e.recharge ?? 0).toFixed(2),
      ref: e.ref ?? null,
      memo: e.memo ?? null,
      ...(e.at ? { created_at: e.at } : {}),
    })
    .returning(['balance', 'recharge_balance'])
    .executeTakeFirstOrThrow();
  return { balance: Number(row.balance), recharge_balance: Number(row.recharge_balance) };
}

/**
 * Takes `amount` yuan from the balance, the gift (money − actual_charge) first, then the recharged part
 * (actual_charge never exceeds money, nor goes below 0). The caller decides whether the balance may go
 * below 0 (a bill may; a payment checks first). Locks the account's row. Answers the balance after it.
 */
export async function debit(trx: Kysely<Database>, accountId: number, amount: number, e: Omit<LedgerPost, 'amount' | 'recharge'>): Promise<number> {
  const u = await trx.selectFrom('users').select(['money', 'actual_charge']).where('id', '=', accountId).forUpdate().executeTakeFirstOrThrow();
  const money = Number(u.money);
  const actual = Number(u.actual_charge);
  const left = yuan(money - amount);
  const actualLeft = Math.max(Math.min(actual, left), 0);
  const r = await postLedger(trx, accountId, { ...e, amount: -amount, recharge: yuan(actualLeft - actual) });
  return r.balance;
}

/** Adds a recharge (the recharged part grows too) and, as a separate row, its gift. */
export async function creditRecharge(trx: Kysely<Database>, accountId: number, paid: number, gift: number, e: { ref?: string | null; memo?: string | null; at?: Date } = {}): Promise<number> {
  let r = await postLedger(trx, accountId, { kind: 'recharge', amount: paid, recharge: paid, ref: e.ref, memo: e.memo ?? '账户充值', at: e.at });
  if (gift > 0) r = await postLedger(trx, accountId, { kind: 'gift', amount: gift, ref: e.ref, memo: '充值赠送', at: e.at });
  return r.balance;
}

/** An operator's correction (platform command balance-adjust, tests): a positive amount is added as gift money. */
export async function adjustBalance(db: Kysely<Database>, accountId: number, amount: number, memo: string): Promise<number> {
  if (amount >= 0) return (await postLedger(db, accountId, { kind: 'adjust', amount, memo })).balance;
  return db.transaction().execute((trx) => debit(trx, accountId, -amount, { kind: 'adjust', memo }));
}

/** Sets an account's balance to `money` (of which `actual` recharged) by one adjust row; for tests and the platform. */
export async function setBalance(db: Kysely<Database>, accountId: number, money: number, actual = Math.max(money, 0), memo = '人工调账'): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const u = await trx.selectFrom('users').select(['money', 'actual_charge']).where('id', '=', accountId).forUpdate().executeTakeFirstOrThrow();
    await postLedger(trx, accountId, { kind: 'adjust', amount: money - Number(u.money), recharge: actual - Number(u.actual_charge), memo });
  });
}

export interface LedgerProblem {
  account_id: number;
  problem: string;
}

/**
 * What does not add up: an account whose balance differs from its ledger's sums, a settled bill that
 * paid from the balance without its ledger row (or with a row of another amount), a paid recharge
 * without its row. Empty when the money adds up.
 */
export async function ledgerProblems(db: Kysely<Database>, accountIds?: number[]): Promise<LedgerProblem[]> {
  const only = accountIds ? sql`and u.id = any(${accountIds})` : sql``;
  const balances = await sql<{ id: number; money: string; actual_charge: string; s: string | null; r: string | null }>`
    select u.id, u.money, u.actual_charge, l.s, l.r from users u
    left join (select account_id, sum(amount) s, sum(recharge) r from balance_ledger group by account_id) l on l.account_id = u.id
    where (u.money <> coalesce(l.s, 0) or u.actual_charge <> coalesce(l.r, 0)) ${only}`.execute(db);
  const out: LedgerProblem[] = balances.rows.map((b) => ({ account_id: b.id, problem: `余额 ${b.money}（充值部分 ${b.actual_charge}）与账本合计 ${b.s ?? 0}（${b.r ?? 0}）不符` }));
  const onlyBills = accountIds ? sql`and b.account_id = any(${accountIds})` : sql``;
  const bills = await sql<{ id: string; account_id: number; settlement: string; s: string | null }>`
    select b.id, b.account_id, b.settlement, l.s from bills b
    left join (select ref, sum(-amount) s from balance_ledger where kind = 'bill' group by ref) l on l.ref = b.id
    where b.status = 'SETTLED' and b.settlement <> coalesce(l.s, 0) ${onlyBills}`.execute(db);
  for (const b of bills.rows) out.push({ account_id: b.account_id, problem: `账单 ${b.id} 余额扣款 ${Number(b.settlement).toFixed(2)} 元，账本记录 ${b.s === null ? '无' : Number(b.s).toFixed(2)}` });
  const onlyOrders = accountIds ? sql`and o.account_id = any(${accountIds})` : sql``;
  const orders = await sql<{ order_no: string; account_id: number; amount: string; gift: string; s: string | null }>`
    select o.order_no, o.account_id, o.amount, o.gift, l.s from billing_orders o
    left join (select ref, sum(amount) s from balance_ledger where kind in ('recharge', 'gift') group by ref) l on l.ref = o.order_no
    where o.kind = 'recharge' and o.status = 'success' and o.amount + o.gift <> coalesce(l.s, 0) ${onlyOrders}`.execute(db);
  for (const o of orders.rows) out.push({ account_id: o.account_id, problem: `充值订单 ${o.order_no} ${o.amount} 元（赠送 ${o.gift}），账本记录 ${o.s ?? '无'}` });
  const paid = await sql<{ order_no: string; account_id: number; amount: string; s: string | null }>`
    select o.order_no, o.account_id, o.amount, l.s from billing_orders o
    left join (select ref, sum(-amount) s from balance_ledger where kind = 'payment' group by ref) l on l.ref = o.order_no
    where o.kind <> 'recharge' and o.status = 'success' and o.pay_method = 'balance' and o.amount <> coalesce(l.s, 0) ${onlyOrders}`.execute(db);
  for (const o of paid.rows) out.push({ account_id: o.account_id, problem: `余额支付订单 ${o.order_no} ${o.amount} 元，账本记录 ${o.s ?? '无'}` });
  const onlyDdos = accountIds ? sql`and o.account_id = any(${accountIds})` : sql``;
  const ddos = await sql<{ id: number; account_id: number; price: string; s: string | null }>`
    select o.id, o.account_id, o.price, l.s from ddos_orders o
    left join (select ref, sum(-amount) s from balance_ledger where kind = 'payment' group by ref) l on l.ref = 'ddos-order-' || o.id
    where o.status = 'paid' and o.price <> coalesce(l.s, 0) ${onlyDdos}`.execute(db);
  for (const o of ddos.rows) out.push({ account_id: o.account_id, problem: `DDoS 订单 ${o.id} ${o.price} 元，账本记录 ${o.s ?? '无'}` });
  return out;
}
