/**
 * Invoices (spec 001 §7; fields not in the spec, ours: docs/billing-money.md "Invoices").
 *
 *   GET    /api/account/invoice/consume/     what may be invoiced: cash received (paid recharges and orders
 *                                            paid online), minus invoices waiting (freeze) and issued
 *   PUT    /api/account/invoice              { amount, info_id, address_id, remark? } → status INIT (待开具)
 *   GET    /api/account/invoices             ?page&size list;  GET /api/account/invoice ?invoice_id detail
 *   DELETE /api/account/invoice              { invoice_id } while not issued (22302)
 *   GET, PUT, POST, DELETE /api/account/invoice/info and /api/account/invoice/address  (declarations
 *                                            schemas/forms/invoice_info, invoice_address; 10 of each); the
 *                                            info's qualification_pic (一般纳税人资格证明, optional) must be a
 *                                            picture this account uploaded (22411)
 */
import type { FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import infoSchema from '../../../../schemas/forms/invoice_info/schema.json';
import addressSchema from '../../../../schemas/forms/invoice_address/schema.json';
import type { DB } from '../../db';
import type { Database } from '../../db/schema';
import { ApiError, VALIDATION_ERROR } from '../../http/errors';
import { ok } from '../../http/envelope';
import { assertOwnPictures } from './pictures';
import { INVOICE_AMOUNT_TEXT, INVOICE_PAGE_SIZE, MAX_INVOICE_ADDRESSES, MAX_INVOICE_INFOS, hasAtMostTwoDecimals, yuan, type InvoiceConsume } from '../../../shared/billing-money';
import type {} from '../money-tables';

/** Invoice management, hidden for the listed accounts (docs/billing.md "Listed accounts"); the detail is a redirected page too. */
const bill = { access: 'parent' as const, needs: ['bill' as const], billing: { item: 'invoicing' as const } };
const detail = { ...bill, billing: { item: 'invoicing' as const, detail: true } };
const seconds = (d: Date | string | null) => (d ? Math.floor(new Date(d).getTime() / 1000) : null);

export async function invoiceConsume(db: Kysely<Database>, accountId: number): Promise<InvoiceConsume> {
  const cash = await db
    .selectFrom('billing_orders')
    .select(sql<string>`coalesce(sum(amount), 0)`.as('n'))
    .where('account_id', '=', accountId)
    .where('status', '=', 'success')
    .where((eb) => eb.or([eb('kind', '=', 'recharge'), eb('pay_method', '=', 'alipay')]))
    .executeTakeFirstOrThrow();
  const inv = await db
    .selectFrom('invoices')
    .select([sql<string>`coalesce(sum(amount) filter (where status = 'INIT'), 0)`.as('freeze'), sql<string>`coalesce(sum(amount) filter (where status = 'DONE'), 0)`.as('done')])
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  const total = Number(cash.n);
  const freeze = Number(inv.freeze);
  const invoiced = Number(inv.done);
  return { total, freeze, invoiced, available: Math.max(0, yuan(total - freeze - invoiced)) };
}

function toInvoice(r: { id: number; amount: string; info: unknown; address: unknown; remark: string | null; status: string; reason: string | null; created_at: Date | string; updated_at: Date | string | null }) {
  return { invoice_id: r.id, amount: Number(r.amount), info: r.info, address: r.address, remark: r.remark, status: r.status, reason: r.reason, create_at: seconds(r.created_at), update_at: seconds(r.updated_at) };
}

/** Info and address: the same four calls over a jsonb value validated by the declaration. */
function valueRoutes(app: FastifyInstance, db: DB, opts: { url: string; table: 'invoice_infos' | 'invoice_addresses'; idKey: 'info_id' | 'address_id'; schema: object; max: number; tooMany: number; missing: number; listKey: string; pictures?: string[] }) {
  /** Picture fields, when filled, must hold pictures this account uploaded (22411, as the payees' photos). */
  const ownPictures = (accountId: number, v: Record<string, unknown>) =>
    assertOwnPictures(db, accountId, Object.fromEntries((opts.pictures ?? []).filter((k) => typeof v[k] === 'string' && v[k]).map((k) => [`/${k}`, v[k] as string])));
  const idBody = { type: 'object', required: [opts.idKey], properties: { [opts.idKey]: { type: 'integer', minimum: 1, errorMessage: '记录不存在' } }, errorMessage: { required: { [opts.idKey]: '记录不存在' } } };
  const withoutId = (v: Record<string, unknown>) => Object.fromEntries(Object.entries(v).filter(([k]) => k !== opts.idKey));
  app.get(opts.url, { config: bill }, async (req) => {
    const rows = await db.selectFrom(opts.table).select(['id', 'value', 'created_at']).where('account_id', '=', req.user!.account_id).orderBy('id').execute();
    return ok({ [opts.listKey]: rows.map((r) => ({ ...r.value, [opts.idKey]: r.id })) });
  });
  app.put<{ Body: Record<string, unknown> }>(opts.url, { config: bill, schema: { body: opts.schema } }, async (req) => {
    await ownPictures(req.user!.account_id, req.body);
    const n = Number((await db.selectFrom(opts.table).select(sql<number>`count(*)::int`.as('n')).where('account_id', '=', req.user!.account_id).executeTakeFirstOrThrow()).n);
    if (n >= opts.max) throw new ApiError(opts.tooMany, 400);
    const row = await db.insertInto(opts.table).values({ account_id: req.user!.account_id, value: JSON.stringify(withoutId(req.body)) }).returning('id').executeTakeFirstOrThrow();
    return ok({ [opts.idKey]: row.id });
  });
  app.post<{ Body: Record<string, unknown> }>(opts.url, { config: bill, schema: { body: { ...opts.schema, required: [...((opts.schema as { required: string[] }).required ?? []), opts.idKey] } } }, async (req) => {
    await ownPictures(req.user!.account_id, req.body);
    const res = await db
      .updateTable(opts.table)
      .set({ value: JSON.stringify(withoutId(req.body)) })
      .where('id', '=', Number(req.body[opts.idKey]))
      .where('account_id', '=', req.user!.account_id)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) === 0) throw new ApiError(opts.missing, 404);
    return ok({ [opts.idKey]: req.body[opts.idKey] });
  });
  app.delete<{ Body: Record<string, number> }>(opts.url, { config: bill, schema: { body: idBody } }, async (req) => {
    const res = await db.deleteFrom(opts.table).where('id', '=', req.body[opts.idKey]).where('account_id', '=', req.user!.account_id).executeTakeFirst();
    if (Number(res.numDeletedRows) === 0) throw new ApiError(opts.missing, 404);
    return ok();
  });
}

export function invoiceRoutes(app: FastifyInstance, db: DB): void {
  app.get('/api/account/invoice/consume/', { config: bill }, async (req) => ok(await invoiceConsume(db, req.user!.account_id)));

  app.put<{ Body: { amount: number; info_id: number; address_id: number; remark?: string } }>(
    '/api/account/invoice',
    {
      config: bill,
      schema: {
        body: {
          type: 'object',
          required: ['amount', 'info_id', 'address_id'],
          additionalProperties: false,
          properties: {
            amount: { type: 'number', exclusiveMinimum: 0, errorMessage: { type: '请填写开票金额', exclusiveMinimum: '开票金额须大于 0' } },
            info_id: { type: 'integer', minimum: 1, errorMessage: '请选择发票抬头' },
            address_id: { type: 'integer', minimum: 1, errorMessage: '请选择收件地址' },
            remark: { type: 'string', maxLength: 200, errorMessage: '备注不超过 200 个字符' },
          },
          errorMessage: { required: { amount: '请填写开票金额', info_id: '请选择发票抬头', address_id: '请选择收件地址' }, additionalProperties: '包含不支持的配置项' },
        },
      },
    },
    async (req) => {
      const accountId = req.user!.account_id;
      const b = req.body;
      // more than 2 decimals is refused with the apply page's own text, as /api/bill_threshold does
      if (!hasAtMostTwoDecimals(b.amount)) throw new ApiError(VALIDATION_ERROR, 400, [{ path: '/amount', message: INVOICE_AMOUNT_TEXT }]);
      const id = await db.transaction().execute(async (trx) => {
        // one invoice at a time per account: the amounts are read and written under the account's row lock
        await trx.selectFrom('users').select('id').where('id', '=', accountId).forUpdate().executeTakeFirst();
        const info = await trx.selectFrom('invoice_infos').select('value').where('id', '=', b.info_id).where('account_id', '=', accountId).executeTakeFirst();
        if (!info) throw new ApiError(22304, 400, [{ path: '/info_id', message: '发票抬头不存在，请重新选择' }]);
        const address = await trx.selectFrom('invoice_addresses').select('value').where('id', '=', b.address_id).where('account_id', '=', accountId).executeTakeFirst();
        if (!address) throw new ApiError(22305, 400, [{ path: '/address_id', message: '收件地址不存在，请重新选择' }]);
        const consume = await invoiceConsume(trx, accountId);
        if (b.amount > consume.available) throw new ApiError(22301, 400, [{ path: '/amount', message: `最多可开票 ${consume.available.toFixed(2)} 元` }], { available: consume.available });
        const row = await trx
          .insertInto('invoices')
          .values({ account_id: accountId, amount: b.amount.toFixed(2), info: JSON.stringify(info.value), address: JSON.stringify(address.value), remark: b.remark ?? null })
          .returning('id')
          .executeTakeFirstOrThrow();
        return row.id;
      });
      return ok({ invoice_id: id });
    },
  );

  app.get<{ Querystring: { page: number; size: number } }>(
    '/api/account/invoices',
    { config: bill, schema: { querystring: { type: 'object', properties: { page: { type: 'integer', minimum: 1, default: 1, errorMessage: '页码须为正整数' }, size: { type: 'integer', minimum: 1, maximum: 100, default: INVOICE_PAGE_SIZE, errorMessage: '每页条数为 1 - 100' } } } } },
    async (req) => {
      const base = db.selectFrom('invoices').where('account_id', '=', req.user!.account_id);
      const total = Number((await base.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow()).n);
      const rows = await base.selectAll().orderBy('id', 'desc').limit(req.query.size).offset((req.query.page - 1) * req.query.size).execute();
      return ok({ invoices: rows.map(toInvoice) }, { pager: { total, page: req.query.page, size: req.query.size } });
    },
  );

  const idQuery = { type: 'object', required: ['invoice_id'], properties: { invoice_id: { type: 'integer', minimum: 1, errorMessage: '发票不存在或无权访问' } }, errorMessage: { required: { invoice_id: '发票不存在或无权访问' } } };
  app.get<{ Querystring: { invoice_id: number } }>('/api/account/invoice', { config: detail, schema: { querystring: idQuery } }, async (req) => {
    const row = await db.selectFrom('invoices').selectAll().where('id', '=', req.query.invoice_id).where('account_id', '=', req.user!.account_id).executeTakeFirst();
    if (!row) throw new ApiError(22303, 404);
    return ok(toInvoice(row));
  });
  app.delete<{ Body: { invoice_id: number } }>('/api/account/invoice', { config: bill, schema: { body: idQuery } }, async (req) => {
    const row = await db.selectFrom('invoices').select(['id', 'status']).where('id', '=', req.body.invoice_id).where('account_id', '=', req.user!.account_id).executeTakeFirst();
    if (!row) throw new ApiError(22303, 404);
    if (row.status === 'DONE') throw new ApiError(22302, 400);
    await db.deleteFrom('invoices').where('id', '=', row.id).execute();
    return ok();
  });

  valueRoutes(app, db, { url: '/api/account/invoice/info', table: 'invoice_infos', idKey: 'info_id', schema: infoSchema, max: MAX_INVOICE_INFOS, tooMany: 22306, missing: 22304, listKey: 'infos', pictures: ['qualification_pic'] });
  valueRoutes(app, db, { url: '/api/account/invoice/address', table: 'invoice_addresses', idKey: 'address_id', schema: addressSchema, max: MAX_INVOICE_ADDRESSES, tooMany: 22307, missing: 22305, listKey: 'addresses' });
}
