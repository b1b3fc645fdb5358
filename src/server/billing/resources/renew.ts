/**
 * Auto-renewal (PUT /api/resources/account/ {auto_renew}): a package with the flag that has expired is
 * bought again with the same spec from the balance (an order row like any balance payment, no SMS code:
 * the flag is the consent), by the billing job. A short balance turns the flag off and tells the account.
 */
import type { DB } from '../../db';
import type { SmsSender } from '../../sms/outbox';
import type {} from '../tables';
import type {} from '../money-tables';
import { ApiError } from '../../http/errors';
import { notify } from '../../messages/notify';
import { debitBalance, newOrderNo } from '../pay/confirm';
import { grantPackage } from './grant';
import { daysForMonths } from './routes';
import { RESOURCE_KIND_LABELS, findSpec } from '../../../shared/billing/resources';

export async function renewPackages(db: DB, opts: { now?: Date; sms?: SmsSender; accountIds?: number[] } = {}): Promise<{ renewed: number[]; failed: number[] }> {
  const now = opts.now ?? new Date();
  let q = db.selectFrom('resource_packages').select(['id', 'account_id', 'spec']).where('auto_renew', '=', true).where('expires_at', '<=', now);
  if (opts.accountIds) q = q.where('account_id', 'in', opts.accountIds.length ? opts.accountIds : [-1]);
  const due = await q.orderBy('id').execute();
  const renewed: number[] = [];
  const failed: number[] = [];
  for (const p of due) {
    const spec = findSpec(p.spec);
    // the flag is used once: the renewal carries it on, a failure ends it
    const claimed = await db.updateTable('resource_packages').set({ auto_renew: false }).where('id', '=', p.id).where('auto_renew', '=', true).executeTakeFirst();
    if (!claimed.numUpdatedRows || !spec) continue;
    const title = `${RESOURCE_KIND_LABELS[spec.kind]} ${spec.name}`;
    try {
      const id = await db.transaction().execute(async (trx) => {
        const orderNo = newOrderNo();
        await debitBalance(trx, p.account_id, spec.price, undefined, { ref: orderNo, memo: `${title}（自动续费）` });
        await trx
          .insertInto('billing_orders')
          .values({ order_no: orderNo, account_id: p.account_id, user_id: null, kind: 'resource', title: `${title}（自动续费）`, amount: spec.price.toFixed(2), pay_method: 'balance', status: 'success', pay_token: null, detail: JSON.stringify({ spec: spec.id, renew_of: p.id }), paid_at: new Date() } as any)
          .execute();
        const nid = await grantPackage(trx, p.account_id, { kind: spec.kind, spec: spec.id, amount: spec.amount, unit: spec.unit, validDays: daysForMonths(spec.valid_months, now), price: spec.price });
        await trx.updateTable('resource_packages').set({ auto_renew: true }).where('id', '=', nid).execute();
        return nid;
      });
      renewed.push(id);
    } catch (e) {
      if (!(e instanceof ApiError) || e.code !== 22201) throw e;
      failed.push(p.id);
      await notify(db, p.account_id, { category: 'billing', title: '资源包自动续费失败', body: `${title}已到期，账户余额不足 ${spec.price.toFixed(2)} 元，自动续费未成功，请充值后重新购买。`, link: '/billing/charge/', sms: opts.sms });
    }
  }
  return { renewed, failed };
}
