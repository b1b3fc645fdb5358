/**
 * Service lists and service info (spec 000 §7 "Service search", "Bucket info used globally").
 */
import type { FastifyInstance } from 'fastify';
import type { DB } from '../db';
import { ok } from '../http/envelope';
import { SERVICE_KINDS, SERVICE_LIST_PAGE_SIZE } from '../../shared/services';
import type { CursorPager } from '../../shared/buckets';
import { bucketForUser, bucketInfo, domainsOf, visibleTo, type BucketRow } from './repo';

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
    const like = q.bucket_name ? `%${q.bucket_name.replace(/[\\%_]/g, (c) => '\\' + c)}%` : '';
    /** The account's buckets matching the filters, before paging. */
    const scoped = () => {
      // a sub-account lists only the kinds it holds and, with authorized_service, its granted buckets
      let query = visibleTo(db.selectFrom('buckets').selectAll(), user);
      if (q.business_type) query = query.where('kind', '=', q.business_type);
      if (like) query = query.where('name', 'ilike', like);
      return query;
    };
    const exists = async (op: '<' | '>', id: number) => Boolean(await scoped().where('id', op, id).limit(1).executeTakeFirst());
    const backwards = q.since !== undefined && q.max === undefined;
    let query = scoped();
    if (q.max !== undefined) query = query.where('id', '>', q.max);
    if (backwards) query = query.where('id', '<', q.since!);
    const rows = (await query.orderBy('id', backwards ? 'desc' : 'asc').limit(q.limit + 1).execute()) as BucketRow[];
    const more = rows.length > q.limit;
    const page = rows.slice(0, q.limit);
    if (backwards) page.reverse();
    const domains = q.with_domains ? await domainsOf(db, page.map((b) => b.id)) : undefined;
    // a cursor is given only when there really is something that way
    const pager: CursorPager = { since: null, max: null };
    if (page.length) {
      const first = page[0].id;
      const last = page[page.length - 1].id;
      if (backwards ? more : await exists('<', first)) pager.since = first;
      if (backwards ? await exists('>', last) : more) pager.max = last;
    } else if (backwards && (await exists('>', q.since! - 1))) {
      pager.max = q.since! - 1;
    }
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
}
