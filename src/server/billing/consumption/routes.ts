/**
 * POST /accounts/app/usage  (public: the external product's server, Authorization: Bearer <product key>)
 *   { product, report_id, account_id, quantity } → UsageReportResult
 *
 *
 * GET /api/resources/usage?kind=sms|oneclicklogin|blockchain|sslpack&days=30  (main accounts and `bill`)
 *   → [{ day, quantity, covered, charged }] per CST day, newest first: what used the kind's packages
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
import { CONSUMED_PRODUCTS, REPORT_ID_PATTERN, REPORT_MAX_QUANTITY, USAGE_DAYS_MAX, type ConsumedProduct } from '../../../shared/billing/consumption';
import { productOfKey, receiveReport } from './report';
import { addDays, dayOf } from '../../../shared/stats/time';

export function consumptionRoutes(app: FastifyInstance, db: DB): void {
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
          properties: {
            product: { type: 'string', enum: [...CONSUMED_PRODUCTS] },
            report_id: { type: 'string', pattern: REPORT_ID_PATTERN, errorMessage: { pattern: '报告编号仅限 1-64 位英文、数字、下划线和中划线' } },
            account_id: { type: 'integer', minimum: 1 },
            quantity: { type: 'integer', minimum: 1, maximum: REPORT_MAX_QUANTITY, errorMessage: { type: '用量须为正整数', minimum: '用量须为正整数', maximum: `单次上报的用量不超过 ${REPORT_MAX_QUANTITY}` } },
          },
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
