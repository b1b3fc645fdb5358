/**
 * Resource packages (spec 001 §7; docs/billing.md "Resource packages"):
 *   GET    /api/resources/specs/     kind → the purchase specs, with whether the promotional ones may be bought
 *   GET    /api/resource             what remains per kind (valid packages)
 *   GET    /api/resources/account/   the account's packages: kind, status, start_time, end_time, page, limit
 *   POST   /api/resources/account/   { spec, code } buys with the balance after the SMS pay code
 *                                    (22502 unknown spec, 22504 promotional limit, checked again under the
 *                                    account's row lock inside the payment; 22201 balance short, its top-up
 *                                    link back to /billing/{kind}/pay/?resource=…)
 *   PUT    /api/resources/account/   { id, auto_renew } renew from the balance when it expires
 *   DELETE /api/resources/account/   ?id= removes a package that is used up or expired (22505 otherwise)
 */
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../../db';
import type { Database } from '../../db/schema';
import { ok } from '../../http/envelope';
import { ApiError } from '../../http/errors';
import type {} from '../tables';
import { payWithBalance } from '../pay/confirm';
import { grantPackage } from './grant';
import { remainByKind } from './remain';
import { PROMO_MONTHS, RESOURCE_KINDS, RESOURCE_KIND_LABELS, findSpec, specsOf, type ResourceKind, type ResourcePackage } from '../../../shared/billing/resources';

const bill = { access: 'parent' as const, needs: ['bill' as const] };
const epoch = (d: Date | string) => Math.floor(new Date(d).getTime() / 1000);

/** Days from now to the same day `months` later (validity "3 months from the purchase day"). */
export function daysForMonths(months: number, now = new Date()): number {
  const end = new Date(now);
  end.setUTCMonth(end.getUTCMonth() + months);
  return Math.round((end.getTime() - now.getTime()) / 86400000);
}

type Row = { id: number; kind: string; spec: string; amount: string; remain: string; unit: string; price: string; auto_renew: boolean; starts_at: Date | string; expires_at: Date | string; created_at: Date | string };

export function packageOf(r: Row, now = Date.now()): ResourcePackage {
  const remain = Number(r.remain);
  const expired = new Date(r.expires_at).getTime() <= now;
  return {
    id: r.id,
    kind: r.kind as ResourceKind,
    spec: r.spec,
    name: findSpec(r.spec)?.name ?? (r.spec === 'gift' || r.spec === 'platform' ? `赠送 ${Number(r.amount)} ${r.unit}` : r.spec),
    amount: Number(r.amount),
    remain: Math.round(remain * 1000) / 1000,
    unit: r.unit,
    price: Number(r.price),
    auto_renew: r.auto_renew,
    starts_at: epoch(r.starts_at),
    expires_at: epoch(r.expires_at),
    created_at: epoch(r.created_at),
    status: expired ? 'EXPIRED' : remain <= 0 ? 'USED' : 'VALID',
  };
}

/** Whether the account may buy a promotional traffic package now (one of them per 3 months). */
export async function promoAvailable(db: Kysely<Database>, accountId: number): Promise<boolean> {
  const promos = specsOf('resources').filter((s) => s.promo).map((s) => s.id);
  const since = new Date();
  since.setUTCMonth(since.getUTCMonth() - PROMO_MONTHS);
  const r = await db.selectFrom('resource_packages').select('id').where('account_id', '=', accountId).where('spec', 'in', promos).where('created_at', '>', since).executeTakeFirst();
  return !r;
}

/**
 * The promotional limit again inside the payment's transaction, under the account's row lock: of two
 * purchases at once that both passed the first check, the second waits here for the first and is refused.
 */
export async function assertPromoAvailable(trx: Kysely<Database>, accountId: number): Promise<void> {
  await trx.selectFrom('users').select('id').where('id', '=', accountId).forUpdate().executeTakeFirst();
  if (!(await promoAvailable(trx, accountId))) throw new ApiError(22504, 400);
}

export function resourceRoutes(app: FastifyInstance, db: DB): void {
  app.get<{ Querystring: { kind?: ResourceKind } }>(
    '/api/resources/specs/',
    {
      config: { ...bill, openapi: { summary: '资源包规格：流量、转码、短信、一键登录、证书续期、区块链存证' } },
      schema: { querystring: { type: 'object', additionalProperties: false, properties: { kind: { type: 'string', enum: [...RESOURCE_KINDS], errorMessage: '资源包类型不正确' } } } },
    },
    async (req) => {
      const kinds = req.query.kind ? [req.query.kind] : [...RESOURCE_KINDS];
      const promo = await promoAvailable(db, req.user!.account_id);
      return ok(kinds.flatMap((k) => specsOf(k).map((s, index) => ({ ...s, index, kind_label: RESOURCE_KIND_LABELS[k], available: !s.promo || promo }))));
    },
  );

  app.get('/api/resource', { config: { ...bill, openapi: { summary: '各类资源包的剩余量（有效期内）' } } }, async (req) => {
    const remain = await remainByKind(db, req.user!.account_id);
    const units: Record<ResourceKind, string> = { resources: 'GB', transcode: '分钟', sms: '条', oneclicklogin: '次', sslpack: '张', blockchain: '次' };
    return ok(Object.fromEntries(RESOURCE_KINDS.map((k) => [k, { remain: Math.round((remain[k] ?? 0) * 1000) / 1000, unit: units[k] }])));
  });

  app.get<{ Querystring: { kind?: ResourceKind; status?: string; start_time?: number; end_time?: number; page: number; limit: number } }>(
    '/api/resources/account/',
    {
      config: { ...bill, openapi: { summary: '已购资源包：按类型、状态与购买时间筛选（结束日期由页面加一天）' } },
      schema: {
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            kind: { type: 'string', enum: [...RESOURCE_KINDS], errorMessage: '资源包类型不正确' },
            status: { type: 'string', enum: ['VALID', 'USED', 'EXPIRED'], errorMessage: '状态为 VALID、USED 或 EXPIRED' },
            start_time: { type: 'integer', minimum: 0, errorMessage: '开始时间为 Unix 秒' },
            end_time: { type: 'integer', minimum: 0, errorMessage: '结束时间为 Unix 秒' },
            page: { type: 'integer', minimum: 1, default: 1, errorMessage: '页码从 1 开始' },
            limit: { type: 'integer', minimum: 1, maximum: 100, default: 10, errorMessage: '每页 1 到 100 条' },
          },
        },
      },
    },
    async (req) => {
      const q = req.query;
      const now = new Date();
      let base = db.selectFrom('resource_packages').where('account_id', '=', req.user!.account_id);
      if (q.kind) base = base.where('kind', '=', q.kind);
      if (q.status === 'EXPIRED') base = base.where('expires_at', '<=', now);
      if (q.status === 'USED') base = base.where('expires_at', '>', now).where('remain', '<=', '0');
      if (q.status === 'VALID') base = base.where('expires_at', '>', now).where('remain', '>', '0');
      if (q.start_time !== undefined) base = base.where('created_at', '>=', new Date(q.start_time * 1000));
      if (q.end_time !== undefined) base = base.where('created_at', '<', new Date(q.end_time * 1000));
      const total = Number((await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
      const rows = await base.selectAll().orderBy('id', 'desc').limit(q.limit).offset((q.page - 1) * q.limit).execute();
      return ok(rows.map((r) => packageOf(r as Row, now.getTime())), { pager: { page: q.page, limit: q.limit, total } });
    },
  );

  app.post<{ Body: { spec: string; code?: string } }>(
    '/api/resources/account/',
    {
      config: { ...bill, openapi: { summary: '用余额购买资源包（先发送支付验证码），当日生效' } },
      schema: {
        body: {
          type: 'object',
          required: ['spec'],
          additionalProperties: false,
          properties: {
            spec: { type: 'string', maxLength: 40, errorMessage: '请选择资源包规格' },
            code: { type: 'string', pattern: '^(\\d{6})?$', errorMessage: '请输入 6 位数字验证码' },
          },
          errorMessage: { required: { spec: '请选择资源包规格' } },
        },
      },
    },
    async (req) => {
      const spec = findSpec(req.body.spec);
      if (!spec) throw new ApiError(22502, 400);
      const accountId = req.user!.account_id;
      if (spec.promo && !(await promoAvailable(db, accountId))) throw new ApiError(22504, 400);
      let packageId = 0;
      const paid = await payWithBalance(db, req.user!, {
        kind: 'resource',
        title: `${RESOURCE_KIND_LABELS[spec.kind]} ${spec.name}`,
        amount: spec.price,
        detail: { spec: spec.id },
        code: req.body.code,
        referer: `/billing/${spec.kind}/pay/?resource=${encodeURIComponent(spec.id)}`,
        deliver: async (trx) => {
          if (spec.promo) await assertPromoAvailable(trx, accountId);
          packageId = await grantPackage(trx, accountId, { kind: spec.kind, spec: spec.id, amount: spec.amount, unit: spec.unit, validDays: daysForMonths(spec.valid_months), price: spec.price });
        },
      });
      return ok({ id: packageId, order_no: paid.order_no, balance: paid.balance });
    },
  );

  app.put<{ Body: { id: number; auto_renew: boolean } }>(
    '/api/resources/account/',
    {
      config: { ...bill, openapi: { summary: '设置资源包到期自动续费（从余额扣费）' } },
      schema: {
        body: {
          type: 'object',
          required: ['id', 'auto_renew'],
          additionalProperties: false,
          properties: { id: { type: 'integer', minimum: 1, errorMessage: '资源包不存在' }, auto_renew: { type: 'boolean', errorMessage: '请选择是否自动续费' } },
        },
      },
    },
    async (req) => {
      const r = await db
        .updateTable('resource_packages')
        .set({ auto_renew: req.body.auto_renew })
        .where('id', '=', req.body.id)
        .where('account_id', '=', req.user!.account_id)
        .where('expires_at', '>', new Date())
        .returningAll()
        .executeTakeFirst();
      if (!r) throw new ApiError(22503, 404);
      return ok(packageOf(r as Row));
    },
  );

  app.delete<{ Querystring: { id: number } }>(
    '/api/resources/account/',
    {
      config: { ...bill, openapi: { summary: '删除已用完或已过期的资源包记录' } },
      schema: { querystring: { type: 'object', required: ['id'], additionalProperties: false, properties: { id: { type: 'integer', minimum: 1, errorMessage: '资源包不存在' } } } },
    },
    async (req) => {
      const r = await db.selectFrom('resource_packages').selectAll().where('id', '=', req.query.id).where('account_id', '=', req.user!.account_id).executeTakeFirst();
      if (!r) throw new ApiError(22503, 404);
      if (packageOf(r as Row).status === 'VALID') throw new ApiError(22505, 400);
      await db.deleteFrom('resource_packages').where('id', '=', r.id).execute();
      return ok({ id: r.id });
    },
  );
}
