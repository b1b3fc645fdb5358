/**
 * The platform's review of a rebate application (docs/billing-money.md "Reviewing a rebate"):
 *   npm run platform -- rebate-review --id 12 --approve
 *   npm run platform -- rebate-review --id 12 --cancel --reason "收款信息与实名信息不一致"
 *   npm run platform -- rebate-credit --account demo --amount 50 [--remark "推荐返利"]
 * Approving marks a pending application DONE (the money has been paid out); cancelling marks it CANCEL
 * with the reason, which returns the frozen amount. The account is told through the message centre.
 */
import type { DB } from '../../db';
import { notify } from '../../messages/notify';
import { required, type PlatformCommand } from '../../platform/command';
import type {} from '../money-tables';

export async function reviewRebate(db: DB, id: number, decision: { approve: true } | { approve: false; reason: string }): Promise<{ rebate_id: number; status: string }> {
  const row = await db.selectFrom('rebates').select(['id', 'account_id', 'status', 'sum']).where('id', '=', id).executeTakeFirst();
  if (!row) throw new Error(`返利申请 ${id} 不存在`);
  if (row.status !== 'INIT') throw new Error(`返利申请 ${id} 已处理（${row.status}）`);
  const status = decision.approve ? 'DONE' : 'CANCEL';
  await db.updateTable('rebates').set({ status, reason: decision.approve ? null : decision.reason, updated_at: new Date() }).where('id', '=', id).where('status', '=', 'INIT').execute();
  await notify(db, row.account_id, {
    category: 'billing',
    title: decision.approve ? '返利提现已完成' : '返利提现申请已取消',
    body: decision.approve ? `您申请提现的返利 ${row.sum} 元已打款，请注意查收。` : `您申请提现的返利 ${row.sum} 元未通过审核：${decision.reason}`,
    link: '/billing/rebateAmount/',
  });
  return { rebate_id: id, status };
}

export const rebateCommands: PlatformCommand[] = [
  {
    name: 'rebate-review',
    summary: '审核返利提现申请：通过（--approve）或取消（--cancel --reason 原因）',
    usage: '--id <申请编号> (--approve | --cancel --reason <原因>)',
    async run(db, args) {
      const id = Number(required(args, 'id'));
      if (args.approve === 'true') return reviewRebate(db, id, { approve: true });
      if (args.cancel === 'true') return reviewRebate(db, id, { approve: false, reason: required(args, 'reason') });
      throw new Error('请指定 --approve 或 --cancel --reason <原因>');
    },
  },
  {
    name: 'rebate-credit',
    summary: '为账号记入一笔返利金额',
    usage: '--account <账号名> --amount <元> [--remark <说明>]',
    async run(db, args) {
      const user = await db.selectFrom('users').select('id').where('username', '=', required(args, 'account')).where('parent_id', 'is', null).executeTakeFirst();
      if (!user) throw new Error('账号不存在');
      const amount = Number(required(args, 'amount'));
      if (!(amount > 0)) throw new Error('金额须大于 0');
      const row = await db.insertInto('rebate_credits').values({ account_id: user.id, amount: amount.toFixed(2), source: 'platform', remark: args.remark ?? null }).returning('id').executeTakeFirstOrThrow();
      return { credit_id: row.id };
    },
  },
];
