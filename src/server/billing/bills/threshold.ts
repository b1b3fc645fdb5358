/**
 * The bill threshold (GET, POST, DELETE /api/bill_threshold): when the balance falls below it, the
 * account is told once through the message centre and by SMS; it is told again only after the
 * balance has been back at or above the threshold (docs/billing.md "Bill threshold").
 */
import type { DB } from '../../db';
import type { SmsSender } from '../../sms/outbox';
import type {} from '../tables';
import { notify } from '../../messages/notify';

export const THRESHOLD_TITLE = '余额不足提醒';

export async function checkThreshold(db: DB, accountId: number, sms?: SmsSender): Promise<boolean> {
  const row = await db
    .selectFrom('bill_thresholds')
    .innerJoin('users', 'users.id', 'bill_thresholds.account_id')
    .select(['bill_thresholds.threshold', 'bill_thresholds.warned_at', 'users.money'])
    .where('bill_thresholds.account_id', '=', accountId)
    .executeTakeFirst();
  if (!row) return false;
  const money = Number(row.money);
  const threshold = Number(row.threshold);
  if (money >= threshold) {
    if (row.warned_at) await db.updateTable('bill_thresholds').set({ warned_at: null }).where('account_id', '=', accountId).execute();
    return false;
  }
  if (row.warned_at) return false;
  // mark first, so two settlements at once do not both warn
  const claimed = await db.updateTable('bill_thresholds').set({ warned_at: new Date() }).where('account_id', '=', accountId).where('warned_at', 'is', null).executeTakeFirst();
  if (!claimed.numUpdatedRows) return false;
  await notify(db, accountId, {
    category: 'balance',
    title: THRESHOLD_TITLE,
    body: `您的账户余额为 ${money.toFixed(2)} 元，已低于您设置的提醒阈值 ${threshold.toFixed(2)} 元，请及时充值，以免影响服务。`,
    link: '/billing/charge/',
    sms,
  });
  return true;
}
