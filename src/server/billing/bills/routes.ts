/**
 * Bills and the bill threshold (spec 001 §7; docs/billing.md):
 *   GET    /api/bills/          type, start_time, end_time (unix seconds, end exclusive), page, limit
 *   GET    /api/bill/           id → the bill with its detail (22501 when not the account's)
 *   GET    /api/bill_threshold  the threshold (null when none) and the balance
 *   POST   /api/bill_threshold  { threshold } yuan; checked at once and after every settlement
 *   DELETE /api/bill_threshold
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { DB } from '../../db';
import type { SmsSender } from '../../sms/outbox';
import { ok } from '../../http/envelope';
import { ApiError, VALIDATION_ERROR } from '../../http/errors';
import type {} from '../tables';
import { BILL_ID_RE, BILL_TYPES, BILLS_PAGE_SIZE, DAY_BILLS_LIMIT, type BillDetail, type BillFull, type BillSummary } from '../../../shared/billing/bills';
import { checkThreshold } from './threshold';
import thresholdSchema from '../../../../schemas/forms/bill_threshold/schema.json';

/** More than 2 decimals is refused with the declaration's own text. */
const THRESHOLD_MESSAGE = thresholdSchema.properties.threshold.errorMessage.type;

const bill = { access: 'parent' as const, needs: ['bill' as const] };
/** Bill management, hidden for the listed accounts (docs/billing.md "Listed accounts"); the detail is a redirected page too. */
const bills = { ...bill, billing: { item: 'bills' as const } };
const billDetail = { ...bill, billing: { item: 'bills' as const, detail: true } };
const epoch = (d: Date | string) => Math.floor(new Date(d).getTime() / 1000);

/** The daily bandwidth detail of a month (spec 001 §2.6): each bill's billed Mbps per service type. */
function bandwidthOf(detail: BillDetail | undefined): Record<string, number> {
  const bandwidth: Record<string, number> = {};
  for (const [t, sb] of Object.entries(detail?.used ?? {})) if (typeof sb?.used?.bandwidth === 'number') bandwidth[t] = sb.used.bandwidth;
  return bandwidth;
}

/**
 * The same, computed by the database (the list, issue 22): a bill's detail is a few kilobytes of usage lines
 * and price ladders, and reading twenty of them to keep a number per service type cost most of the list's
 * time (parsing the JSON and collecting it afterwards).
 */
const BANDWIDTH_SQL = sql<Record<string, number>>`(case when jsonb_typeof(detail->'used') = 'object' then (select coalesce(jsonb_object_agg(u.key, u.value->'used'->'bandwidth'), '{}'::jsonb) from jsonb_each(detail->'used') as u where jsonb_typeof(u.value->'used'->'bandwidth') = 'number') else '{}'::jsonb end)`;

export function summaryOf(r: { id: string; type: string; start_time: Date | string; end_time: Date | string; original: string; voucher_deduct: string; settlement: string; status: string; detail?: BillDetail; bandwidth?: Record<string, number> }): BillSummary {
  const bandwidth = r.bandwidth ?? bandwidthOf(r.detail);
  return {
    bandwidth,
    id: r.id,
    type: r.type as BillSummary['type'],
    start_time: epoch(r.start_time),
    end_time: epoch(r.end_time),
    original: Number(r.original),
    voucher_deduct: Number(r.voucher_deduct),
    settlement: Number(r.settlement),
    status: r.status,
  };
}

export function billRoutes(app: FastifyInstance, db: DB, sms: SmsSender): void {
  app.get<{ Querystring: { type?: string; start_time?: number; end_time?: number; page: number; limit: number } }>(
    '/api/bills/',
    {
      config: { ...bills, openapi: { summary: '账单列表：按类型与时间段筛选，月账单以 type=DAY_BILL、limit=31 取其日账单' } },
      schema: {
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            type: { type: 'string', enum: [...BILL_TYPES], errorMessage: '账单类型为 DAY_BILL 或 MONTH_BILL' },
            start_time: { type: 'integer', minimum: 0, errorMessage: '开始时间为 Unix 秒' },
            end_time: { type: 'integer', minimum: 0, errorMessage: '结束时间为 Unix 秒' },
            page: { type: 'integer', minimum: 1, default: 1, errorMessage: '页码从 1 开始' },
            limit: { type: 'integer', minimum: 1, maximum: 100, default: BILLS_PAGE_SIZE, errorMessage: '每页 1 到 100 条' },
          },
        },
      },
    },
    async (req) => {
      const q = req.query;
      let base = db.selectFrom('bills').where('account_id', '=', req.user!.account_id);
      if (q.type) base = base.where('type', '=', q.type);
      if (q.start_time !== undefined) base = base.where('start_time', '>=', new Date(q.start_time * 1000));
      if (q.end_time !== undefined) base = base.where('start_time', '<', new Date(q.end_time * 1000));
      // a month's daily breakdown asks for type=DAY_BILL in its period: oldest first, at most 31
      const daily = q.type === 'DAY_BILL' && q.start_time !== undefined && q.end_time !== undefined && q.limit <= DAY_BILLS_LIMIT;
      // the page and the total in one statement (count over the whole filter); a page past the end counts apart
      const rows = await base
        .select(['id', 'type', 'start_time', 'end_time', 'original', 'voucher_deduct', 'settlement', 'status', BANDWIDTH_SQL.as('bandwidth'), sql<number>`count(*) over ()`.as('total')])
        .orderBy('start_time', daily ? 'asc' : 'desc')
        .orderBy('type', 'desc')
        .limit(q.limit)
        .offset((q.page - 1) * q.limit)
        .execute();
      const total = rows.length ? Number(rows[0].total) : Number((await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
      return ok(rows.map(summaryOf), { pager: { page: q.page, limit: q.limit, total } });
    },
  );

  app.get<{ Querystring: { id: string } }>(
    '/api/bill/',
    {
      config: { ...billDetail, openapi: { summary: '账单详情：每项服务的用量、阶梯、计费的 5 分钟采样点与价格配置' } },
      schema: { querystring: { type: 'object', required: ['id'], additionalProperties: false, properties: { id: { type: 'string', maxLength: 40, errorMessage: '请提供账单编号' } } } },
    },
    async (req) => {
      if (!BILL_ID_RE.test(req.query.id)) throw new ApiError(22501, 404);
      const r = await db.selectFrom('bills').selectAll().where('id', '=', req.query.id).where('account_id', '=', req.user!.account_id).executeTakeFirst();
      if (!r) throw new ApiError(22501, 404);
      const full: BillFull = { ...summaryOf(r), detail: r.detail };
      return ok(full);
    },
  );

  app.get('/api/bill_threshold', { config: { ...bills, openapi: { summary: '余额提醒阈值' } } }, async (req) => {
    const id = req.user!.account_id;
    const row = await db.selectFrom('bill_thresholds').select(['threshold', 'warned_at']).where('account_id', '=', id).executeTakeFirst();
    const user = await db.selectFrom('users').select(['money']).where('id', '=', id).executeTakeFirstOrThrow();
    return ok({ threshold: row ? Number(row.threshold) : null, warned: Boolean(row?.warned_at), money: Number(user.money) });
  });

  app.post<{ Body: { threshold: number } }>(
    '/api/bill_threshold',
    {
      config: { ...bills, openapi: { summary: '设置余额提醒阈值：余额低于它时通过消息中心与短信提醒一次' } },
      // the declaration of the console's threshold form (schemas/forms/bill_threshold/)
      schema: { body: thresholdSchema },
    },
    async (req) => {
      const id = req.user!.account_id;
      const cents = req.body.threshold * 100;
      if (Math.abs(cents - Math.round(cents)) > 1e-6) throw new ApiError(VALIDATION_ERROR, 400, [{ path: '/threshold', message: THRESHOLD_MESSAGE }]);
      const threshold = req.body.threshold.toFixed(2);
      await db
        .insertInto('bill_thresholds')
        .values({ account_id: id, threshold, warned_at: null })
        .onConflict((oc) => oc.column('account_id').doUpdateSet({ threshold, warned_at: null, updated_at: new Date() }))
        .execute();
      const warned = await checkThreshold(db, id, sms);
      return ok({ threshold: Number(threshold), warned });
    },
  );

  app.delete('/api/bill_threshold', { config: { ...bills, openapi: { summary: '取消余额提醒' } } }, async (req) => {
    await db.deleteFrom('bill_thresholds').where('account_id', '=', req.user!.account_id).execute();
    return ok({ threshold: null });
  });
}
