/**
 * The selector lists of the statistics screen (spec 001 §2.4, §4 "Selector paging"): services of a
 * flow type's kinds and their accelerated domains, searched by part of the name, 10 a page with the
 * cursor pager of /api/buckets/ (previous: since; next: max; a cursor only when there is a page).
 */
import type { FastifyInstance } from 'fastify';
import type { DB } from '../db';
import type { Need } from '../../shared/permissions';
import { ok } from '../http/envelope';
import { keysetQuery } from '../http/keyset';
import { dataScopeTo, DOMAIN_LIST_SQL } from '../buckets/repo';
import { malformed } from './scope';
import { followingBuckets } from './follow';
import { ApiError } from '../http/errors';
import { FLOW_TYPES, FLOW_TYPE_KINDS, SELECTOR_PAGE_SIZE, type FlowType } from '../../shared/stats/constants';

interface ListQuery {
  flow_type?: string;
  search?: string;
  bucket_name?: string;
  domain?: string;
  limit?: string;
  since?: string;
  max?: string;
}

function listParams(q: ListQuery) {
  const flowType = (q.flow_type || 'cdn') as FlowType;
  if (!FLOW_TYPES.includes(flowType)) throw malformed([{ path: '/flow_type', message: '不支持的流量类型' }]);
  const int = (v: string | undefined, name: string) => {
    if (v === undefined || v === '') return undefined;
    if (!/^\d+$/.test(v)) throw malformed([{ path: '/' + name, message: '分页参数不正确' }]);
    return Number(v);
  };
  const limit = int(q.limit, 'limit') ?? SELECTOR_PAGE_SIZE;
  if (limit < 1 || limit > 200) throw malformed([{ path: '/limit', message: '每页数量为 1 - 200' }]);
  return { flowType, limit, since: int(q.since, 'since'), max: int(q.max, 'max') };
}

const like = (s: string) => `%${s.replace(/[\\%_]/g, (c) => '\\' + c)}%`;

export function listRoutes(app: FastifyInstance, db: DB): void {
  const config = { access: 'user' as const, needs: ['stats'] as Need[] };
  app.get<{ Querystring: ListQuery }>('/api/stats/buckets/', { config: { ...config, openapi: { summary: '统计选择器：某流量类型的服务（分页、按名称搜索）' } } }, async (req) => {
    const { flowType, limit, since, max } = listParams(req.query);
    const search = (req.query.search ?? req.query.bucket_name ?? '').trim();
    // each service's domains in the same statement (in the order they were added), as the service list does
    let base = dataScopeTo(db.selectFrom('buckets').select(['buckets.id', 'buckets.name', 'buckets.kind', 'buckets.remark', DOMAIN_LIST_SQL.as('domain_list')]), req.user!).where(
      'buckets.kind',
      'in',
      FLOW_TYPE_KINDS[flowType],
    );
    if (search) base = base.where('buckets.name', 'ilike', like(search));
    const { items, pager } = await keysetQuery(base, 'buckets.id', { limit, since, max });
    return ok(
      items.map((b) => ({ bucket_id: b.id, bucket_name: b.name, kind: b.kind, type: b.kind === 'file' ? 'file' : 'ucdn', remark: b.remark, domains: (b.domain_list ?? []).map((d) => ({ domain: d.domain })) })),
      { pager },
    );
  });

  app.get<{ Querystring: ListQuery }>('/api/domains/buckets', { config: { ...config, openapi: { summary: '统计选择器：某流量类型的加速域名（分页、按域名搜索，可限定服务）' } } }, async (req) => {
    const { flowType, limit, since, max } = listParams(req.query);
    const search = (req.query.search ?? req.query.domain ?? '').trim();
    const bucket = (req.query.bucket_name ?? '').trim();
    // dataScopeTo is typed for a query on buckets alone; the join keeps the columns it filters on
    const joined = db.selectFrom('bucket_domains as d').innerJoin('buckets', 'buckets.id', 'd.bucket_id').select(['d.id', 'd.domain', 'buckets.name', 'buckets.kind']);
    let base = (dataScopeTo(joined as any, req.user!) as typeof joined).where('buckets.kind', 'in', FLOW_TYPE_KINDS[flowType]);
    if (search) base = base.where('d.domain', 'ilike', like(search));
    if (bucket) base = base.where('buckets.name', '=', bucket);
    const { items, pager } = await keysetQuery(base, 'd.id', { limit, since, max });
    return ok(
      items.map((d) => ({ domain: d.domain, bucket_name: d.name, type: d.kind === 'file' ? 'file' : 'ucdn', status: 'NORMAL' })),
      { pager },
    );
  });

  // the domain-follow check of spec 001 §4, for the console to reset a domain selection in backsource mode
  app.get<{ Querystring: { query_value?: string } }>(
    '/api/flow/backsource/follow/',
    { config: { ...config, openapi: { summary: '回源统计：所选域名所属服务的回源 Host 是否跟随加速域名' } } },
    async (req) => {
      const names = String(req.query.query_value ?? '').split(',').map((s) => s.trim()).filter(Boolean);
      if (names.length > 200) throw malformed([{ path: '/query_value', message: '选择的服务或域名过多' }]);
      const rows: { domain: string; id: number; name: string }[] = names.length
        ? await (dataScopeTo(db.selectFrom('bucket_domains as d').innerJoin('buckets', 'buckets.id', 'd.bucket_id').select(['d.domain', 'buckets.id', 'buckets.name']) as any, req.user!) as any)
            .where('d.domain', 'in', names)
            .execute()
        : [];
      if (rows.length !== names.length) throw new ApiError(21905, 404);
      const following = await followingBuckets(db, [...new Set(rows.map((r) => r.id))]);
      return ok(rows.map((r) => ({ domain: r.domain, bucket_name: r.name, follows: following.has(r.id) })));
    },
  );
}
