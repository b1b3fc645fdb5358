/**
 * Demo data of the billing centre's money (docs/billing-money.md): for `demo`, rebates credited over the
 * last months, three applications (a voucher conversion done, a withdrawal cancelled with its reason,
 * one pending review), one Alipay payee with its ID photos, and two paid recharges for the order history
 * and the invoicable amount.
 */
import { randomBytes } from 'node:crypto';
import type { DB } from '../db';
import { issueVoucher } from '../billing/vouchers/issue';
import type {} from '../billing/money-tables';
import { creditRecharge, ddosLedgerRef, debit, postLedger } from '../billing/ledger/ledger';
import type {} from '../ddos/tables';
import { rechargeGift } from '../../shared/billing-money';

/** A 1×1 PNG, the demo's ID photos. */
const PIXEL = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201ab8d0f1a0000000049454e44ae426082', 'hex');

const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000);

export async function seedBillingMoney(db: DB, accountId: number): Promise<void> {
  await db
    .insertInto('rebate_credits')
    .values([
      { account_id: accountId, amount: '120.00', source: 'referral', remark: '推荐客户消费返利', created_at: daysAgo(90) },
      { account_id: accountId, amount: '150.50', source: 'referral', remark: '推荐客户消费返利', created_at: daysAgo(60) },
      { account_id: accountId, amount: '98.00', source: 'referral', remark: '推荐客户消费返利', created_at: daysAgo(30) },
    ])
    .execute();
  const voucherId = await issueVoucher(db, accountId, { amount: 50, validDays: 365, source: 'rebate', remark: '返利转代金券' });
  const pics: string[] = [];
  for (let i = 0; i < 2; i++) {
    const id = randomBytes(16).toString('hex');
    await db.insertInto('billing_pictures').values({ id, account_id: accountId, mime: 'image/png', size: PIXEL.length, data: PIXEL }).execute();
    pics.push(`/accounts/invoice/pic/${id}`);
  }
  const payee = { receive_type: 'ALIPAY', name: '张小演', open_account: '13800138000', id_code: '110105199001011234', id_front_pic: pics[0], id_reverse_pic: pics[1] };
  await db.insertInto('rebate_infos').values({ account_id: accountId, ...payee, is_default: true }).execute();
  const none = { receive_type: null, name: null, open_account: null, id_code: null, id_front_pic: null, id_reverse_pic: null };
  await db
    .insertInto('rebates')
    .values([
      { account_id: accountId, user_id: accountId, sum: '50.00', draw_type: 'TICKET', ...none, status: 'DONE', reason: null, voucher_id: voucherId, created_at: daysAgo(58), updated_at: daysAgo(58) },
      { account_id: accountId, user_id: accountId, sum: '30.00', draw_type: 'WITHDRAWAL', ...payee, status: 'CANCEL', reason: '收款人姓名与实名认证信息不一致', voucher_id: null, created_at: daysAgo(25), updated_at: daysAgo(24) },
      { account_id: accountId, user_id: accountId, sum: '40.00', draw_type: 'WITHDRAWAL', ...payee, status: 'INIT', reason: null, voucher_id: null, created_at: daysAgo(3), updated_at: null },
    ])
    .execute();
  // the balance, as the ledger holds it (docs/billing-money.md "The ledger"), written in the order it
  // happened: 1,288.50 yuan, of which 1,000 recharged (two 500-yuan recharges) and 288.50 given; the DDoS
  // plan the demo holds (seed/ddos-live.ts) was paid from the balance after a bank transfer of its price
  const events: { at: Date; run: () => Promise<unknown> }[] = [
    { at: daysAgo(15), run: () => postLedger(db, accountId, { kind: 'gift', amount: 288.5, memo: '活动赠送金', at: daysAgo(15) }) },
    { at: daysAgo(40), run: () => seedRecharge(db, accountId, 500, daysAgo(40)) },
    { at: daysAgo(10), run: () => seedRecharge(db, accountId, 500, daysAgo(10)) },
  ];
  const ddos = await db.selectFrom('ddos_orders').select(['id', 'price', 'paid_at']).where('account_id', '=', accountId).where('status', '=', 'paid').execute();
  for (const o of ddos) {
    const at = new Date(o.paid_at ?? Date.now());
    events.push({
      at,
      run: async () => {
        // a bank transfer the platform booked (对公转账: no online order, so not in the order history)
        await postLedger(db, accountId, { kind: 'recharge', amount: Number(o.price), recharge: Number(o.price), ref: null, memo: '对公转账（平台入账）', at: new Date(at.getTime() - 3600_000) });
        await db.transaction().execute((trx) => debit(trx, accountId, Number(o.price), { kind: 'payment', ref: ddosLedgerRef(o.id), memo: `DDoS 高防 IP 订单 ${o.id}`, at }));
      },
    });
  }
  for (const e of events.sort((a, b) => a.at.getTime() - b.at.getTime())) await e.run();
}

/** A recharge paid through the sandbox Alipay on `at`: its order and its ledger rows, as markOrderPaid makes them. */
export async function seedRecharge(db: DB, accountId: number, amount: number, at: Date, gift = rechargeGift(amount)): Promise<string> {
  const order_no = `${randomBytes(8).toString('hex').toUpperCase()}`;
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('billing_orders')
      .values({ order_no, account_id: accountId, user_id: accountId, kind: 'recharge', title: '账户充值', amount: amount.toFixed(2), gift: gift.toFixed(2), pay_method: 'alipay', status: 'success', pay_token: null, detail: JSON.stringify({ provider: 'sandbox' }), created_at: at, paid_at: at })
      .execute();
    await creditRecharge(trx, accountId, amount, gift, { ref: order_no, at });
  });
  return order_no;
}

/** The other demo accounts' balances: demo2fa 100 yuan recharged; demokey 50,000 recharged with its 5 % gift (2,500). */
export async function seedOtherBalances(db: DB): Promise<void> {
  for (const [username, amount] of [['demo2fa', 100], ['demokey', 50000]] as const) {
    const u = await db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirst();
    if (u) await seedRecharge(db, u.id, amount, daysAgo(30));
  }
}
