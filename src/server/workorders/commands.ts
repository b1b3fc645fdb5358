/**
 * Support's side of the work orders (npm run platform -- help):
 *
 *   work-order-list   [--status pending|replied|closed]      the orders waiting for support (default pending)
 *   work-order-reply  --id N --content TEXT [--name 技术支持] [--close]
 *
 * A reply sets the order to replied (or closed with --close) and tells the account in the message centre.
 */
import type { DB } from '../db';
import type { PlatformCommand } from '../platform/command';
import { required } from '../platform/command';
import { notify } from '../messages/notify';
import '../monitor/tables';

export async function supportReply(db: DB, orderId: number, content: string, name = '技术支持', close = false) {
  const order = await db.selectFrom('work_orders').select(['id', 'account_id', 'title', 'status']).where('id', '=', orderId).executeTakeFirst();
  if (!order) throw new Error(`工单 ${orderId} 不存在`);
  if (order.status === 'closed') throw new Error(`工单 ${orderId} 已关闭`);
  const status = close ? 'closed' : 'replied';
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('work_order_replies').values({ order_id: orderId, author: 'support', user_id: null, author_name: name, content }).execute();
    await trx.updateTable('work_orders').set({ status, updated_at: new Date(), ...(close ? { closed_at: new Date() } : {}) }).where('id', '=', orderId).execute();
  });
  await notify(db, order.account_id, { category: 'service', title: '您的工单有新回复', body: `工单 #${orderId}「${order.title}」：${content.slice(0, 200)}`, link: `/work/?id=${orderId}` });
  return { id: orderId, status };
}

export const workOrderCommands: PlatformCommand[] = [
  {
    name: 'work-order-list',
    summary: '列出工单（默认待处理），供技术支持回复',
    usage: '[--status pending|replied|closed]',
    async run(db, args) {
      const status = args.status ?? 'pending';
      return db
        .selectFrom('work_orders as o')
        .innerJoin('users as u', 'u.id', 'o.account_id')
        .select(['o.id', 'u.username as account', 'o.type', 'o.title', 'o.status', 'o.created_at'])
        .where('o.status', '=', status)
        .orderBy('o.id')
        .execute();
    },
  },
  {
    name: 'work-order-reply',
    summary: '以技术支持身份回复工单（状态变为已回复，--close 同时关闭），并给账号发消息',
    usage: '--id 工单号 --content 回复内容 [--name 技术支持] [--close]',
    async run(db, args) {
      const id = Number(required(args, 'id'));
      if (!Number.isInteger(id) || id < 1) throw new Error('--id 须为工单号');
      return supportReply(db, id, required(args, 'content'), args.name && args.name !== 'true' ? args.name : '技术支持', args.close === 'true');
    },
  },
];
