/**
 * Service lists and service info (spec 000 §7 "Service search", "Bucket info used globally").
 */
import type { FastifyInstance } from 'fastify';
import type { DB } from '../db';
import { ok } from '../http/envelope';
import { SERVICE_KINDS, SERVICE_LIST_PAGE_SIZE } from '../../shared/services';
import type { CursorPager } from '../../shared/buckets';
import { bucketForUser, bucketInfo, domainsOf, type BucketRow } from './repo';

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
    limit: { type: 'integer', minimum: 1, maximum: 100, default: SERVICE_LIST_PAGE_SIZE, errorMessage: { type: '每页数量须为整数', minimum: '每页数量为 1 - 100', maximum: '每页数量为 1 - 100' } },
    business_type: { type: 'string', enum: [...SERVICE_KINDS], errorMessage: { enum: '不支持的服务类型' } },
    bucket_name: { type: 'string', maxLength: 100, errorMessage: { maxLength: '服务名称过长' } },
    since: { type: 'integer', minimum: 0, errorMessage: { type: '分页参数不正确', minimum: '分页参数不正确' } },
    max: { type: 'integer', minimum: 0, errorMessage: { type: '分页参数不正确', minimum: '分页参数不正确' } },
    with_domains: { type: 'boolean', default: false, errorMessage: { type: '参数 with_domains 须为 true 或 false' } },
  },
};

export function bucketRoutes(app: FastifyInstance, db: DB): void {
  app.get<{ Querystring: ListQuery }>('/api/buckets/', { config: { access: 'user' }, schema: { querystring: listQuerySchema } }, async (req) => {
    const q = req.query;
    const user = req.user!;
    let query = db.selectFrom('buckets').selectAll().where('owner_id', '=', user.account_id);
    if (q.business_type) query = query.where('kind', '=', q.business_type);
    if (q.bucket_name) query = query.where('name', 'ilike', `%${q.bucket_name.replace(/[\\%_]/g, (c) => '\\' + c)}%`);
    const backwards = q.since !== undefined && q.max === undefined;
    if (q.max !== undefined) query = query.where('id', '>', q.max);
    if (backwards) query = query.where('id', '<', q.since!);
    const rows = (await query.orderBy('id', backwards ? 'desc' : 'asc').limit(q.limit + 1).execute()) as BucketRow[];
    const more = rows.length > q.limit;
    const page = rows.slice(0, q.limit);
    if (backwards) page.reverse();
    const domains = q.with_domains ? await domainsOf(db, page.map((b) => b.id)) : undefined;
    const pager: CursorPager = {
      since: page.length && (backwards ? more : q.max !== undefined) ? page[0].id : null,
      max: page.length && (backwards ? true : more) ? page[page.length - 1].id : null,
    };
    return ok(
      page.map((b) => bucketInfo(b, domains ? (domains.get(b.id) ?? []) : undefined)),
      { pager },
    );
  });

  app.get<{ Querystring: { bucket_name: string } }>(
    '/api/buckets/info/',
    {
      config: { access: 'user' },
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
}
