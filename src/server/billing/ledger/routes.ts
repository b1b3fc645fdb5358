/**
 * The balance ledger (docs/billing-money.md "The ledger"):
 *   GET /api/billing/ledger  ?page&size&start_time&end_time&kind — the account's rows, newest first (收支明细),
 *                            with the balance and the ledger's sum, which are always equal
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { DB } from '../../db';
import { ok } from '../../http/envelope';
import type {} from './tables';
import { LEDGER_KINDS, LEDGER_PAGE_SIZE, type LedgerEntry, type LedgerKind } from '../../../shared/billing/ledger';

const bill = { access: 'parent' as const, needs: ['bill' as const] };

export function ledgerRoutes(app: FastifyInstance, db: DB): void {
  app.get<{ Querystring: { page: number; size: number; start_time?: number; end_time?: number; kind?: LedgerKind } }>(
    '/api/billing/ledger',
    {
      config: { ...bill, billing: { item: 'balance' }, openapi: { summary: '收支明细：余额的每一笔变动（充值、赠送、账单结算、余额支付、退款、调账），新的在前；余额等于明细合计' } },
      schema: {
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            page: { type: 'integer', minimum: 1, default: 1, errorMessage: '页码从 1 开始' },
            size: { type: 'integer', minimum: 1, maximum: 100, default: LEDGER_PAGE_SIZE, errorMessage: '每页 1 到 100 条' },
            start_time: { type: 'integer', minimum: 0, errorMessage: '开始时间为 Unix 秒' },
            end_time: { type: 'integer', minimum: 0, errorMessage: '结束时间为 Unix 秒' },
            kind: { type: 'string', enum: Object.keys(LEDGER_KINDS), errorMessage: '类型不正确' },
          },
        },
      },
    },
    async (req) => {
      const q = req.query;
      const accountId = req.user!.account_id;
      // the balance after each row in time order: the running sum of the account's rows by time (a row
      // written later for an earlier moment — a backdated settlement, a platform booking — takes its place
      // in the chain, so the column reads as a statement; the last one is the balance)
      const chain = db
        .selectFrom('balance_ledger')
        .where('account_id', '=', accountId)
        .select(['id', 'kind', 'amount', 'recharge', 'ref', 'memo', 'created_at', sql<string>`sum(amount) over (order by created_at, id)`.as('balance')])
        .as('l');
      let base = db.selectFrom(chain);
      if (q.start_time !== undefined) base = base.where('created_at', '>=', new Date(q.start_time * 1000));
      if (q.end_time !== undefined) base = base.where('created_at', '<', new Date(q.end_time * 1000));
      if (q.kind) base = base.where('kind', '=', q.kind);
      const [rows, count, totals] = await Promise.all([
        base.select(['id', 'kind', 'amount', 'recharge', 'balance', 'ref', 'memo', 'created_at']).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(q.size).offset((q.page - 1) * q.size).execute(),
        base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
        sql<{ money: string; s: string | null }>`select u.money, (select sum(amount) from balance_ledger where account_id = u.id) s from users u where u.id = ${accountId}`.execute(db),
      ]);
      const t = totals.rows[0]!;
      const entries: LedgerEntry[] = rows.map((r) => ({
        id: Number(r.id),
        kind: r.kind as LedgerKind,
        kind_label: LEDGER_KINDS[r.kind as LedgerKind] ?? r.kind,
        amount: Number(r.amount),
        recharge: Number(r.recharge),
        balance: Number(r.balance),
        ref: r.ref,
        memo: r.memo,
        created_at: Math.floor(new Date(r.created_at).getTime() / 1000),
      }));
      return ok({ entries, balance: Number(t.money), ledger_sum: Number(t.s ?? 0) }, { pager: { page: q.page, size: q.size, total: Number(count.n) } });
    },
  );
}
