/**
 * Rebates and payees (spec 001 §2.5–§2.6, §3–§5, §7; docs/billing-money.md "Rebates").
 *
 *   GET    /api/account/rebate         ?page&size(20)&start_time&end_time → { rebates, amounts }, pager.total
 *   PUT    /api/account/rebate         { sum, draw_type, rebate_info_id? } (declaration rebate_apply):
 *                                      TICKET → a voucher valid one year at once (DONE, cannot be undone);
 *                                      WITHDRAWAL → INIT (待审核) with the payee copied, for the platform's review
 *   DELETE /api/account/rebate         { rebate_id } unless DONE (22405)
 *   GET, PUT, POST, DELETE /api/account/rebate/info   payees (declaration payee): at most 6 (22406),
 *                                      the method cannot be switched when editing (22410), photos must be
 *                                      pictures this account uploaded (22411)
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import applySchema from '../../../../schemas/forms/rebate_apply/schema.json';
import payeeSchema from '../../../../schemas/forms/payee/schema.json';
import { ruleErrors as applyRuleErrors } from '../../../../schemas/forms/rebate_apply/rules';
import { METHOD_SWITCH, ruleErrors as payeeRuleErrors, type PayeeForm } from '../../../../schemas/forms/payee/rules';
import type { DB } from '../../db';
import { ApiError } from '../../http/errors';
import { ok } from '../../http/envelope';
import { issueVoucher } from '../vouchers/issue';
import { assertOwnPictures } from '../invoices/pictures';
import { daysForMonths } from '../resources/routes';
import { rebateTotals } from './totals';
import { MAX_PAYEES, REBATE_PAGE_SIZE, REBATE_VOUCHER_MONTHS, yuan, type PayeeInfo, type RebateRecord } from '../../../shared/billing-money';
import type {} from '../money-tables';

const bill = { access: 'parent' as const, needs: ['bill' as const] };
const seconds = (d: Date | string | null) => (d ? Math.floor(new Date(d).getTime() / 1000) : null);

type RebateRow = { id: number; created_at: Date | string; updated_at: Date | string | null; sum: string; draw_type: string; receive_type: string | null; status: string; reason: string | null; name: string | null; open_account: string | null; id_code: string | null };
const toRebate = (r: RebateRow): RebateRecord => ({
  rebate_id: r.id,
  create_at: seconds(r.created_at)!,
  update_at: seconds(r.updated_at),
  sum: Number(r.sum),
  draw_type: r.draw_type as RebateRecord['draw_type'],
  receive_type: r.receive_type as RebateRecord['receive_type'],
  status: r.status as RebateRecord['status'],
  reason: r.reason,
  name: r.name,
  open_account: r.open_account,
  id_code: r.id_code,
});

type PayeeRow = { id: number; receive_type: string; name: string; open_account: string; id_code: string; id_front_pic: string; id_reverse_pic: string; is_default: boolean };
const toPayee = (r: PayeeRow): PayeeInfo => ({
  rebate_info_id: r.id,
  receive_type: r.receive_type as PayeeInfo['receive_type'],
  name: r.name,
  open_account: r.open_account,
  id_code: r.id_code,
  id_front_pic: r.id_front_pic,
  id_reverse_pic: r.id_reverse_pic,
  default: r.is_default,
});

export function rebateRoutes(app: FastifyInstance, db: DB): void {
  app.get<{ Querystring: { page: number; size: number; start_time?: number; end_time?: number } }>(
    '/api/account/rebate',
    {
      config: bill,
      schema: {
        querystring: {
          type: 'object',
          properties: {
            page: { type: 'integer', minimum: 1, default: 1, errorMessage: '页码须为正整数' },
            size: { type: 'integer', minimum: 1, maximum: 100, default: REBATE_PAGE_SIZE, errorMessage: '每页条数为 1 - 100' },
            start_time: { type: 'integer', minimum: 0, errorMessage: '开始时间须为 unix 秒' },
            end_time: { type: 'integer', minimum: 0, errorMessage: '结束时间须为 unix 秒' },
          },
        },
      },
    },
    async (req) => {
      const q = req.query;
      let base = db.selectFrom('rebates').where('account_id', '=', req.user!.account_id);
      if (q.start_time !== undefined) base = base.where('created_at', '>=', new Date(q.start_time * 1000));
      if (q.end_time !== undefined) base = base.where('created_at', '<', new Date(q.end_time * 1000));
      const total = Number((await base.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow()).n);
      const rows = await base.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(q.size).offset((q.page - 1) * q.size).execute();
      return ok({ rebates: rows.map(toRebate), amounts: await rebateTotals(db, req.user!.account_id) }, { pager: { total, page: q.page, size: q.size } });
    },
  );

  app.put<{ Body: { sum: number; draw_type: 'TICKET' | 'WITHDRAWAL'; rebate_info_id?: number } }>('/api/account/rebate', { config: bill, schema: { body: applySchema } }, async (req) => {
    const user = req.user!;
    const body = { ...req.body, sum: yuan(req.body.sum) };
    const id = await db.transaction().execute(async (trx) => {
      // one application at a time per account: the amounts are read under the account's row lock
      await trx.selectFrom('users').select('id').where('id', '=', user.account_id).forUpdate().executeTakeFirst();
      const totals = await rebateTotals(trx, user.account_id);
      const errors = applyRuleErrors(body, { available: totals.available });
      if (errors.length) throw new ApiError(20001, 400, errors, { amounts: totals });
      if (body.draw_type === 'TICKET') {
        const voucherId = await issueVoucher(trx, user.account_id, { amount: body.sum, validDays: daysForMonths(REBATE_VOUCHER_MONTHS), source: 'rebate', remark: '返利转代金券' });
        const row = await trx
          .insertInto('rebates')
          .values({ account_id: user.account_id, user_id: user.id, sum: body.sum.toFixed(2), draw_type: 'TICKET', receive_type: null, name: null, open_account: null, id_code: null, id_front_pic: null, id_reverse_pic: null, status: 'DONE', reason: null, voucher_id: voucherId, updated_at: new Date() })
          .returning('id')
          .executeTakeFirstOrThrow();
        return row.id;
      }
      const payee = await trx.selectFrom('rebate_infos').selectAll().where('id', '=', body.rebate_info_id!).where('account_id', '=', user.account_id).executeTakeFirst();
      if (!payee) throw new ApiError(22407, 400, [{ path: '/rebate_info_id', message: '收款信息不存在或无权访问' }]);
      const row = await trx
        .insertInto('rebates')
        .values({
          account_id: user.account_id,
          user_id: user.id,
          sum: body.sum.toFixed(2),
          draw_type: 'WITHDRAWAL',
          receive_type: payee.receive_type,
          name: payee.name,
          open_account: payee.open_account,
          id_code: payee.id_code,
          id_front_pic: payee.id_front_pic,
          id_reverse_pic: payee.id_reverse_pic,
          reason: null,
          voucher_id: null,
          updated_at: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    });
    return ok({ rebate_id: id, amounts: await rebateTotals(db, user.account_id) });
  });

  const rebateIdBody = { type: 'object', required: ['rebate_id'], properties: { rebate_id: { type: 'integer', minimum: 1, errorMessage: '返利记录不存在或无权访问' } }, errorMessage: { required: { rebate_id: '返利记录不存在或无权访问' } } };
  app.delete<{ Body: { rebate_id: number } }>('/api/account/rebate', { config: bill, schema: { body: rebateIdBody } }, async (req) => {
    const row = await db.selectFrom('rebates').select(['id', 'status']).where('id', '=', req.body.rebate_id).where('account_id', '=', req.user!.account_id).executeTakeFirst();
    if (!row) throw new ApiError(22404, 404);
    if (row.status === 'DONE') throw new ApiError(22405, 400);
    await db.deleteFrom('rebates').where('id', '=', row.id).where('status', '<>', 'DONE').execute();
    return ok();
  });

  // ---- payees ----
  const listPayees = (accountId: number) => db.selectFrom('rebate_infos').selectAll().where('account_id', '=', accountId).orderBy('id').execute();

  app.get('/api/account/rebate/info', { config: bill }, async (req) => ok({ rebate_infos: (await listPayees(req.user!.account_id)).map(toPayee), max: MAX_PAYEES }));

  async function save(accountId: number, body: PayeeForm, id?: number) {
    await assertOwnPictures(db, accountId, { '/id_front_pic': body.id_front_pic!, '/id_reverse_pic': body.id_reverse_pic! });
    const values = {
      receive_type: body.receive_type!,
      name: body.name!,
      open_account: body.open_account!,
      id_code: body.id_code!.toUpperCase(),
      id_front_pic: body.id_front_pic!,
      id_reverse_pic: body.id_reverse_pic!,
      is_default: Boolean(body.default),
    };
    return db.transaction().execute(async (trx) => {
      await trx.selectFrom('users').select('id').where('id', '=', accountId).forUpdate().executeTakeFirst();
      if (values.is_default) await trx.updateTable('rebate_infos').set({ is_default: false }).where('account_id', '=', accountId).execute();
      if (id !== undefined) {
        await trx.updateTable('rebate_infos').set(values).where('id', '=', id).where('account_id', '=', accountId).execute();
        return id;
      }
      const n = Number((await trx.selectFrom('rebate_infos').select(sql<number>`count(*)::int`.as('n')).where('account_id', '=', accountId).executeTakeFirstOrThrow()).n);
      if (n >= MAX_PAYEES) throw new ApiError(22406, 400);
      return (await trx.insertInto('rebate_infos').values({ account_id: accountId, ...values }).returning('id').executeTakeFirstOrThrow()).id;
    });
  }

  app.put<{ Body: PayeeForm }>('/api/account/rebate/info', { config: bill, schema: { body: payeeSchema } }, async (req) => {
    const { rebate_info_id: _ignored, ...body } = req.body;
    return ok({ rebate_info_id: await save(req.user!.account_id, body) });
  });

  app.post<{ Body: PayeeForm }>('/api/account/rebate/info', { config: bill, schema: { body: { ...payeeSchema, required: [...payeeSchema.required, 'rebate_info_id'] } } }, async (req) => {
    const accountId = req.user!.account_id;
    const held = await db.selectFrom('rebate_infos').select(['id', 'receive_type']).where('id', '=', req.body.rebate_info_id!).where('account_id', '=', accountId).executeTakeFirst();
    if (!held) throw new ApiError(22407, 404);
    const refused = payeeRuleErrors(req.body, { held_receive_type: held.receive_type as PayeeForm['receive_type'] });
    if (refused.length) throw new ApiError(METHOD_SWITCH.code, 400, refused);
    return ok({ rebate_info_id: await save(accountId, req.body, held.id) });
  });

  app.delete<{ Body: { rebate_info_id: number } }>(
    '/api/account/rebate/info',
    { config: bill, schema: { body: { type: 'object', required: ['rebate_info_id'], properties: { rebate_info_id: { type: 'integer', minimum: 1, errorMessage: '收款信息不存在或无权访问' } }, errorMessage: { required: { rebate_info_id: '收款信息不存在或无权访问' } } } } },
    async (req) => {
      const res = await db.deleteFrom('rebate_infos').where('id', '=', req.body.rebate_info_id).where('account_id', '=', req.user!.account_id).executeTakeFirst();
      if (Number(res.numDeletedRows) === 0) throw new ApiError(22407, 404);
      return ok();
    },
  );
}
