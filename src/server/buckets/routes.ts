/**
 * Service lists and service info (spec 000 §7 "Service search", "Bucket info used globally").
 */
import type { FastifyInstance } from 'fastify';
import type { DB } from '../db';
import { ok } from '../http/envelope';
import { keysetQuery, limitProp, cursorProp } from '../http/keyset';
import { SERVICE_KINDS, SERVICE_LIST_PAGE_SIZE } from '../../shared/services';
import { bucketForUser, bucketInfo, domainsOf, visibleTo } from './repo';

interface ListQuery {
  limit: number;
  business_type?: string;
  bucket_name?: string;
  since?: number;
  max?: number;
  with_domains?: boolean;
}

const listQuerySchema = {
  type: 'object',
  properties: {
    limit: limitProp(SERVICE_LIST_PAGE_SIZE),
    business_type: { type: 'string', enum: [...SERVICE_KINDS], errorMessage: { enum: '不支持的服务类型' } },
    bucket_name: { type: 'string', maxLength: 100, errorMessage: { maxLength: '服务名称过长' } },
    since: cursorProp,
    max: cursorProp,
    with_domains: { type: 'boolean', default: false, errorMessage: { type: '参数 with_domains 须为 true 或 false' } },
  },
};

export function bucketRoutes(app: FastifyInstance, db: DB): void {
  app.get<{ Querystring: ListQuery }>('/api/buckets/', { config: { access: 'user' }, schema: { querystring: listQuerySchema } }, async (req) => {
    const q = req.query;
    const user = req.user!;
    const like = q.bucket_name ? `%${q.bucket_name.replace(/[\\%_]/g, (c) => '\\' + c)}%` : '';
    // the account's buckets matching the filters: a sub-account lists only the kinds it holds and,
    // with authorized_service, its granted buckets
    let base = visibleTo(db.selectFrom('buckets').selectAll(), user);
    if (q.business_type) base = base.where('kind', '=', q.business_type);
    if (like) base = base.where('name', 'ilike', like);
    const { items: page, pager } = await keysetQuery(base, 'buckets.id', { limit: q.limit, since: q.since, max: q.max });
    const domains = q.with_domains ? await domainsOf(db, page.map((b) => b.id)) : undefined;
    return ok(
      page.map((b) => bucketInfo(b, domains ? (domains.get(b.id) ?? []) : undefined)),
      { pager },
    );
  });

  /** Services per kind of the account (dashboard). */
  app.get('/api/buckets/summary/', { config: { access: 'user' } }, async (req) => {
    const rows = await visibleTo(db.selectFrom('buckets').select(['kind', db.fn.countAll<number>().as('n')]), req.user!)
      .groupBy('kind')
      .execute();
    const counts = Object.fromEntries(SERVICE_KINDS.map((k) => [k, 0])) as Record<string, number>;
    for (const r of rows) counts[r.kind] = Number(r.n);
    return ok(counts);
  });

  app.get<{ Querystring: { bucket_name: string } }>(
    '/api/buckets/info/',
    {
      config: { access: 'user', bucket: 'query' },
      schema: {
        querystring: {
          type: 'object',
          required: ['bucket_name'],
          properties: { bucket_name: { type: 'string', minLength: 1, errorMessage: { minLength: '请填写服务名称' } } },
          errorMessage: { required: { bucket_name: '请填写服务名称' } },
        },
      },
    },
    async (req) => {
      const b = await bucketForUser(db, req.user!, req.query.bucket_name);
      const domains = await domainsOf(db, [b.id]);
      return ok(bucketInfo(b, domains.get(b.id) ?? []));
    },
  );

  /** Changing a service's remark (spec 002 §7 "GET and POST /api/buckets/info/"; docs/service-tabs.md). */
  app.post<{ Body: { bucket_name: string; remark: string } }>(
    '/api/buckets/info/',
    {
      config: { access: 'user', bucket: 'body' },
      schema: {
        body: {
          type: 'object',
          required: ['bucket_name', 'remark'],
          additionalProperties: false,
          properties: {
            bucket_name: { type: 'string', minLength: 1, errorMessage: { type: '请填写服务名称', minLength: '请填写服务名称' } },
            remark: { type: 'string', maxLength: 60, errorMessage: { type: '备注须为文本', maxLength: '备注不能超过 60 个字符' } },
          },
          errorMessage: { type: '请求内容须为 JSON 对象', required: { bucket_name: '请填写服务名称', remark: '请填写备注' }, additionalProperties: '包含不支持的参数' },
        },
      },
    },
    async (req) => {
      const user = req.user!;
      const b = await bucketForUser(db, user, req.body.bucket_name);
      const remark = req.body.remark.trim() || null;
      await db.transaction().execute(async (trx) => {
        await trx.updateTable('buckets').set({ remark }).where('id', '=', b.id).execute();
        await trx
          .insertInto('operation_logs')
          .values({ account_id: user.account_id, user_id: user.id, action: 'bucket.remark', target: b.name, detail: JSON.stringify({ remark }), ip: req.ip })
          .execute();
      });
      const domains = await domainsOf(db, [b.id]);
      return ok(bucketInfo({ ...b, remark }, domains.get(b.id) ?? []));
    },
  );
}
