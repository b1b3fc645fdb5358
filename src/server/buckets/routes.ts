/**
 * Service lists and service info (spec 000 §7 "Service search", "Bucket info used globally").
 */
import type { FastifyInstance } from 'fastify';
import type { DB } from '../db';
import { ok } from '../http/envelope';
import { keysetQuery, limitProp, cursorProp } from '../http/keyset';
import { SERVICE_KINDS, SERVICE_LIST_PAGE_SIZE } from '../../shared/services';
import { writeLog } from '../accounts/oplog';
import { bucketForUser, bucketInfo, DOMAIN_LIST_SQL, domainsOf, typesOfKind, visibleTo } from './repo';
import { bucketInfoAnswer, bucketListAnswer, bucketListV2Answer, bucketSummaryAnswer } from './answer';

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
  app.get<{ Querystring: ListQuery }>('/api/buckets/', { config: { access: 'user' }, schema: { querystring: listQuerySchema, response: bucketListAnswer } }, async (req) => {
    const q = req.query;
    const user = req.user!;
    const like = q.bucket_name ? `%${q.bucket_name.replace(/[\\%_]/g, (c) => '\\' + c)}%` : '';
    // the account's buckets matching the filters: a sub-account lists only the kinds it holds and,
    // with authorized_service, its granted buckets
    let base = visibleTo(db.selectFrom('buckets').selectAll(), user);
    if (q.business_type) base = base.where('kind', '=', q.business_type);
    if (like) base = base.where('name', 'ilike', like);
    // with_domains: each service's domains in the same statement (in the order they were added)
    const listed = q.with_domains ? base.select(DOMAIN_LIST_SQL.as('domain_list')) : base;
    const { items: page, pager } = await keysetQuery(listed as typeof base, 'buckets.id', { limit: q.limit, since: q.since, max: q.max });
    return ok(
      page.map((b) => bucketInfo(b, q.with_domains ? ((b as { domain_list?: { domain: string; cname: string }[] }).domain_list ?? []) : undefined)),
      { pager },
    );
  });

  /**
   * spec 002 §7 "Query buckets v2": a page-numbered list for selectors — type (file | ucdn) and
   * business_type (file | live) as BucketInfo derives them, bucket_name a search, infrequent_access
   * true to include services of the infrequent-access storage class (this installation has one class,
   * standard, so it only widens nothing; docs/api.md). Answers data { buckets, pager { total, page, pages } }.
   */
  app.get<{ Querystring: { type?: 'file' | 'ucdn'; business_type?: 'file' | 'live'; infrequent_access: boolean; bucket_name?: string; page: number; perPage: number } }>(
    '/api/buckets/v2/',
    {
      config: { access: 'user' },
      schema: {
        response: bucketListV2Answer,
        querystring: {
          type: 'object',
          properties: {
            type: { type: 'string', enum: ['file', 'ucdn'], errorMessage: { enum: '不支持的服务类型' } },
            business_type: { type: 'string', enum: ['file', 'live'], errorMessage: { enum: '不支持的业务类型' } },
            infrequent_access: { type: 'boolean', default: false, errorMessage: { type: '参数 infrequent_access 须为 true 或 false' } },
            bucket_name: { type: 'string', maxLength: 100, errorMessage: { maxLength: '服务名称过长' } },
            page: { type: 'integer', minimum: 1, maximum: 100000, default: 1, errorMessage: { type: '页码须为正整数', minimum: '页码须为正整数', maximum: '页码过大' } },
            perPage: { type: 'integer', minimum: 1, maximum: 100, default: SERVICE_LIST_PAGE_SIZE, errorMessage: { type: '每页条数须为 1 - 100 的整数', minimum: '每页条数须为 1 - 100 的整数', maximum: '每页条数须为 1 - 100 的整数' } },
          },
        },
      },
    },
    async (req) => {
      const q = req.query;
      const kinds = SERVICE_KINDS.filter((k) => {
        const t = typesOfKind(k);
        return (!q.type || t.type === q.type) && (!q.business_type || t.business_type === q.business_type);
      });
      if (!kinds.length) return ok({ buckets: [], pager: { total: 0, page: q.page, pages: 0 } });
      let base = visibleTo(db.selectFrom('buckets').selectAll(), req.user!).where('kind', 'in', kinds);
      if (q.bucket_name) base = base.where('name', 'ilike', `%${q.bucket_name.replace(/[\\%_]/g, (c) => '\\' + c)}%`);
      // every file service here is of the standard class: infrequent_access only says whether the other class may be listed
      const total = Number((await base.clearSelect().select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);
      const rows = await base.orderBy('buckets.id', 'desc').limit(q.perPage).offset((q.page - 1) * q.perPage).execute();
      return ok({
        buckets: rows.map((b) => ({ ...bucketInfo(b), storage_class: 'standard' as const })),
        pager: { total, page: q.page, pages: Math.ceil(total / q.perPage) },
      });
    },
  );

  /** Services per kind of the account (dashboard). */
  app.get('/api/buckets/summary/', { config: { access: 'user' }, schema: { response: bucketSummaryAnswer } }, async (req) => {
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
        response: bucketInfoAnswer,
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
        await writeLog(trx, req, { action: 'bucket.remark', target: b.name, detail: { remark } });
      });
      const domains = await domainsOf(db, [b.id]);
      return ok(bucketInfo({ ...b, remark }, domains.get(b.id) ?? []));
    },
  );
}
