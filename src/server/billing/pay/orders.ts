/**
 * Orders paid online (docs/billing-money.md "Orders"). Each kind of order says what happens when it is
 * paid (registerOrderKind); the recharge kind adds the amount and its gift to the balance.
 */
import type { Transaction } from 'kysely';
import type { DB } from '../../db';
import type { Database } from '../../db/schema';
import { ApiError } from '../../http/errors';
import { newOrderNo } from './confirm';
import { creditRecharge } from '../ledger/ledger';
import type {} from '../money-tables';

export interface PaidOrder {
  id: number;
  order_no: string;
  account_id: number;
  kind: string;
  amount: string;
  gift: string;
  detail: Record<string, unknown>;
}

type OnPaid = (trx: Transaction<Database>, order: PaidOrder) => Promise<void>;
const kinds = new Map<string, OnPaid>();

export function registerOrderKind(kind: string, onPaid: OnPaid): void {
  kinds.set(kind, onPaid);
}

registerOrderKind('recharge', async (trx, order) => {
  // a recharge row and a gift row in the ledger, applied to the balance (docs/billing-money.md "The ledger")
  await creditRecharge(trx, order.account_id, Number(order.amount), Number(order.gift), { ref: order.order_no });
});

/** Marks a pending order paid, once (a second call finds it paid and changes nothing). */
export async function markOrderPaid(
  db: DB,
  where: { token?: string; order_no?: string; account_id?: number },
  method: string,
  /** runs first in the same transaction (the balance debit of a balance payment) */
  before?: (trx: Transaction<Database>, order: PaidOrder) => Promise<unknown>,
): Promise<PaidOrder> {
  return db.transaction().execute(async (trx) => {
    let q = trx.selectFrom('billing_orders').select(['id', 'order_no', 'account_id', 'kind', 'amount', 'gift', 'detail', 'status']).forUpdate();
    q = where.token ? q.where('pay_token', '=', where.token) : q.where('order_no', '=', where.order_no ?? '');
    if (where.account_id !== undefined) q = q.where('account_id', '=', where.account_id);
    const order = await q.executeTakeFirst();
    if (!order || order.status === 'closed') throw new ApiError(22211, 404);
    if (order.status === 'success') throw new ApiError(22212, 400);
    if (before) await before(trx, order);
    await trx.updateTable('billing_orders').set({ status: 'success', pay_method: method, paid_at: new Date() }).where('id', '=', order.id).execute();
    const onPaid = kinds.get(order.kind);
    if (onPaid) await onPaid(trx, order);
    return order;
  });
}

/**
 * A pending order of another section (a resource package, a certificate, a DDoS plan) that the user pays
 * with POST /api/orders/pay: from the balance after the SMS code, or online through the provider.
 * Register the kind's delivery with registerOrderKind.
 */
export async function createOrder(db: DB, o: { account_id: number; user_id: number | null; kind: string; title: string; amount: number; detail?: Record<string, unknown> }): Promise<{ id: number; order_no: string }> {
  return db
    .insertInto('billing_orders')
    .values({ order_no: newOrderNo(), account_id: o.account_id, user_id: o.user_id, kind: o.kind, title: o.title, amount: o.amount.toFixed(2), pay_token: null, detail: JSON.stringify(o.detail ?? {}) })
    .returning(['id', 'order_no'])
    .executeTakeFirstOrThrow();
}
