/**
 * Telling an account something: a row in the message centre and, when asked, an SMS to the account's
 * mobile through the same sender as the login codes (the sms_outbox table in the embedded default).
 * Every section that warns a user (bill threshold, monitor alarms, certificate expiry, rebate reviews)
 * calls this one function.
 */
import type { DB } from '../db';
import type { SmsSender } from '../sms/outbox';
import type { MessageCategory } from '../../shared/messages';

export interface Notice {
  category: MessageCategory;
  title: string;
  body: string;
  link?: string;
  /** also send the body as an SMS to the account's mobile, when it has one */
  sms?: SmsSender;
}

export async function notify(db: DB, accountId: number, notice: Notice): Promise<number> {
  const row = await db
    .insertInto('messages')
    .values({ account_id: accountId, category: notice.category, title: notice.title, body: notice.body, link: notice.link ?? null, read_at: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (notice.sms) {
    const user = await db.selectFrom('users').select(['mobile']).where('id', '=', accountId).executeTakeFirst();
    if (user?.mobile) await notice.sms.send({ userId: accountId, mobile: user.mobile }, `notice:${notice.category}`, `【${notice.title}】${notice.body}`);
  }
  return row.id;
}
