/**
 * The platform's work on an invoice request (docs/billing-money.md "Invoices", docs/billing.md
 * "Platform commands"):
 *   npm run platform -- invoice-review --id 12 --issue [--remark "顺丰 SF1234567890"]
 *   npm run platform -- invoice-review --id 12 --reject --reason "抬头与营业执照不一致"
 * Issuing marks a waiting invoice (INIT 待开具) DONE (已开具; its amount counts as invoiced); rejecting
 * marks it CANCEL (已取消) with the reason, which frees its amount for another request. Only a waiting
 * invoice can be reviewed. The account is told through the message centre.
 */
import type { DB } from '../../db';
import { notify } from '../../messages/notify';
import { required, type PlatformCommand } from '../../platform/command';
import type {} from '../money-tables';

export type InvoiceDecision = { issue: true; remark?: string } | { issue: false; reason: string };

export async function reviewInvoice(db: DB, id: number, decision: InvoiceDecision): Promise<{ invoice_id: number; status: string; reason: string | null }> {
  if (!Number.isInteger(id) || id <= 0) throw new Error('--id 应为发票申请编号');
  if (!decision.issue && !decision.reason.trim()) throw new Error('驳回须填写原因 --reason');
  const row = await db.selectFrom('invoices').select(['id', 'account_id', 'status', 'amount']).where('id', '=', id).executeTakeFirst();
  if (!row) throw new Error(`发票申请 ${id} 不存在`);
  if (row.status !== 'INIT') throw new Error(`发票申请 ${id} 已处理（${row.status}）`);
  const status = decision.issue ? 'DONE' : 'CANCEL';
  const reason = decision.issue ? decision.remark?.trim() || null : decision.reason.trim();
  const done = await db.updateTable('invoices').set({ status, reason, updated_at: new Date() }).where('id', '=', id).where('status', '=', 'INIT').executeTakeFirst();
  // reviewed by someone else in between
  if (!Number(done.numUpdatedRows)) throw new Error(`发票申请 ${id} 已处理`);
  await notify(db, row.account_id, {
    category: 'billing',
    title: decision.issue ? '发票已开具' : '发票申请已驳回',
    body: decision.issue ? `您申请的 ${Number(row.amount).toFixed(2)} 元发票已开具${reason ? `（${reason}）` : ''}。` : `您申请的 ${Number(row.amount).toFixed(2)} 元发票未能开具：${reason}。该金额已可重新申请开票。`,
    link: `/billing/invoicingDetail/${id}/`,
  });
  return { invoice_id: id, status, reason };
}

export const invoiceCommands: PlatformCommand[] = [
  {
    name: 'invoice-review',
    summary: '处理发票申请：开具（--issue）或驳回（--reject --reason 原因）',
    usage: '--id <发票申请编号> (--issue [--remark 快递单号等] | --reject --reason <原因>)',
    async run(db, args) {
      const id = Number(required(args, 'id'));
      if (args.issue === 'true' && args.reject === 'true') throw new Error('--issue 与 --reject 只能选一个');
      if (args.issue === 'true') return reviewInvoice(db, id, { issue: true, remark: args.remark && args.remark !== 'true' ? args.remark : undefined });
      if (args.reject === 'true') return reviewInvoice(db, id, { issue: false, reason: required(args, 'reason') });
      throw new Error('请指定 --issue 或 --reject --reason <原因>');
    },
  },
];
