/**
 * POST /accounts/app/usage  (public: the external product's server, Authorization: Bearer <product key>)
 *   { product, report_id, account_id, quantity } → UsageReportResult
 *
 *
 * GET /api/resources/usage?kind=sms|oneclicklogin|blockchain|sslpack&days=30  (main accounts and `bill`)
 *   → [{ day, quantity, covered, charged }] per CST day, newest first: what used the kind's packages
 *
 * GET /api/billing/other?month=YYYY-MM  (main accounts and `bill`) → OtherServiceMonth[] for /billing/other/
 *
 * The account id is the `user_id` the partner learnt from the token exchange (POST /accounts/app/,
 * docs/external-products.md). Keys are made by `npm run platform -- product-key --product sms`.
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type {} from '../../certificates/tables';
import type { DB } from '../../db';
import { ok } from '../../http/envelope';
import { ApiError } from '../../http/errors';
import { CONSUMED_PRODUCTS, CONSUMED_PRODUCT_INFO, MONTH_FIELD, REPORT_FIELDS, USAGE_DAYS_MAX, type ConsumedProduct, type OtherServiceMonth } from '../../../shared/billing/consumption';
import { productOfKey, receiveReport } from './report';
import { addDays, dayOf, dayStart } from '../../../shared/stats/time';
import { monthDays } from '../bills/compute';
import { remainByKind } from '../resources/remain';
import { round3 } from '../../../shared/billing/bills';
import type {} from '../tables';

export function consumptionRoutes(app: FastifyInstance, db: DB): void {
  app.get<{ Querystring: { month?: string } }>(
    '/api/billing/other',
    {
      config: { access: 'parent', needs: ['bill'], openapi: { summary: '其他服务：短信、一键登录、区块链存证某月的用量、资源包抵扣与费用' } },
      schema: { querystring: { type: 'object', additionalProperties: false, properties: { month: MONTH_FIELD } } },
    },
    async (req) => {
      const accountId = req.user!.account_id;
      const today = dayOf(Math.floor(Date.now() / 1000));
      const month = req.query.month ?? today.slice(0, 7);
      const { first, days } = monthDays(`${month}-01`);
      const last = addDays(first, days - 1);
      const used = await db
        .selectFrom('external_usage')
        .select(['product', sql<number>`sum(quantity)::int`.as('q'), sql<number>`sum(covered)::int`.as('c')])
        .where('account_id', '=', accountId)
        .where('day', '>=', sql<any>`${first}::date`)
        .where('day', '<=', sql<any>`${last}::date`)
        .groupBy('product')
        .execute();
      // the month's day bills: what each product was charged, and the last day billed
      const bills = await db
        .selectFrom('bills')
        .select([sql<string>`to_char(start_time at time zone 'Asia/Shanghai', 'YYYY-MM-DD')`.as('day'), sql<any>`detail->'used'`.as('used')])
        .where('account_id', '=', accountId)
        .where('type', '=', 'DAY_BILL')
        .where('start_time', '>=', new Date((dayStart(first) as number) * 1000))
        .where('start_time', '<', new Date(((dayStart(last) as number) + 86400) * 1000))
        .execute();
      const billed = new Set(bills.map((b) => b.day));
      const unbilled = await db
        .selectFrom('external_usage')
        .select(['product', sql<string>`to_char(day, 'YYYY-MM-DD')`.as('d'), sql<number>`sum(quantity - covered)::int`.as('n')])
        .where('account_id', '=', accountId)
        .where('day', '>=', sql<any>`${first}::date`)
        .where('day', '<=', sql<any>`${last}::date`)
        .groupBy(['product', 'day'])
        .execute();
      const remain = await remainByKind(db, accountId);
      const out: OtherServiceMonth[] = CONSUMED_PRODUCTS.map((product) => {
        const u = used.find((r) => r.product === product);
        const quantity = Number(u?.q ?? 0);
        const covered = Number(u?.c ?? 0);
        const amount = bills.reduce((a, b) => a + Number(b.used?.[product]?.total ?? 0), 0);
        return {
          product,
          unit: CONSUMED_PRODUCT_INFO[product].unit,
          quantity,
          covered,
          charged_quantity: quantity - covered,
          amount: round3(amount),
          unbilled_quantity: unbilled.filter((r) => r.product === product && !billed.has(r.d)).reduce((a, r) => a + Number(r.n), 0),
          remain: remain[product] ?? 0,
        };
      });
      return ok(out, { month });
    },
  );

  app.get<{ Querystring: { kind: ConsumedProduct | 'sslpack'; days: number } }>(
    '/api/resources/usage',
    {
      config: { access: 'parent', needs: ['bill'], openapi: { summary: '资源包的用量记录（短信、一键登录、区块链存证按上报，免费证书续期包按证书申请），按日汇总' } },
      schema: {
        querystring: {
          type: 'object',
          required: ['kind'],
          additionalProperties: false,
          properties: { kind: { type: 'string', enum: [...CONSUMED_PRODUCTS, 'sslpack'] }, days: { type: 'integer', minimum: 1, maximum: USAGE_DAYS_MAX, default: 30 } },
        },
      },
    },
    async (req) => {
      const accountId = req.user!.account_id;
      const { kind, days } = req.query;
      // the CST day `days` − 1 days before today
      const since = sql<any>`${addDays(dayOf(Math.floor(Date.now() / 1000)), -(days - 1))}::date`;
      const rows =
        kind === 'sslpack'
          ? await db
              .selectFrom('certificate_applications')
              .select([sql<string>`to_char(created_at at time zone 'Asia/Shanghai', 'YYYY-MM-DD')`.as('day'), sql<number>`count(*)::int`.as('quantity'), sql<number>`count(*)::int`.as('covered')])
              .where('account_id', '=', accountId)
              .where('pack_id', 'is not', null)
              .where(sql<any>`(created_at at time zone 'Asia/Shanghai')::date`, '>=', since)
              .groupBy(sql`1`)
              .orderBy(sql`1`, 'desc')
              .execute()
          : await db
              .selectFrom('external_usage')
              .select([sql<string>`to_char(day, 'YYYY-MM-DD')`.as('day'), sql<number>`sum(quantity)::int`.as('quantity'), sql<number>`sum(covered)::int`.as('covered')])
              .where('account_id', '=', accountId)
              .where('product', '=', kind)
              .where('day', '>=', since)
              .groupBy('day')
              .orderBy('day', 'desc')
              .execute();
      return ok(rows.map((r) => ({ day: r.day, quantity: Number(r.quantity), covered: Number(r.covered), charged: Number(r.quantity) - Number(r.covered) })));
    },
  );

  app.post<{ Body: { product: ConsumedProduct; report_id: string; account_id: number; quantity: number } }>(
    '/accounts/app/usage',
    {
      config: {
        access: 'public',
        openapi: {
          summary: '外部产品上报用量（短信、一键登录、区块链存证；Authorization: Bearer 产品密钥）',
          description: '先由账号的同类资源包抵扣，其余计入当日日账单；同一 report_id 重复上报时返回首次的结果，不重复抵扣。',
          errors: { 401: '27606 产品密钥缺失或无效', 403: '27607 该密钥不能上报此产品的用量', 404: '27608 账号不存在或不是主账号', 409: '27609 该编号的用量报告已收到，内容与本次不同' },
        },
      },
      schema: {
        body: {
          type: 'object',
          required: ['product', 'report_id', 'account_id', 'quantity'],
          additionalProperties: false,
          properties: REPORT_FIELDS,
        },
      },
    },
    async (req) => {
      const product = await productOfKey(db, req.headers.authorization);
      if (product !== req.body.product) throw new ApiError(27607, 403);
      return ok(await receiveReport(db, req.body));
    },
  );
}
