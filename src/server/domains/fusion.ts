/**
 * The fusion CDN variants of spec 002 §7 ("Fusion CDN: /api/fusion/buckets, /api/fusion/cdn/cache"): the
 * account's fusion services, and the cache rules of one — the same `cache_rules` declaration the settings
 * engine serves at /api/settings/cache_rules/, read and written here under the spec's path.
 */
import type { FastifyInstance } from 'fastify';
import type { DB } from '../db';
import type { SettingRegistry } from '../../../schemas/registry';
import type { ServiceKind } from '../../shared/services';
import { SERVICE_LIST_PAGE_SIZE } from '../../shared/services';
import { ok } from '../http/envelope';
import { ApiError, VALIDATION_ERROR } from '../http/errors';
import { keysetQuery, pagingProps } from '../http/keyset';
import { bucketForUser, bucketInfo, domainsOf, visibleTo } from '../buckets/repo';
import { readSetting, writeSetting } from '../settings/repo';
import { assertNotLocked } from '../settings/routes';
import { writeLog } from '../accounts/oplog';

const CACHE = 'cache_rules';
const nameProp = { type: 'string', minLength: 1, maxLength: 100, errorMessage: { type: '请填写服务名称', minLength: '请填写服务名称', maxLength: '服务名称过长' } };

export function fusionRoutes(app: FastifyInstance, db: DB, registry: SettingRegistry): void {
  app.get<{ Querystring: { limit: number; since?: number; max?: number; bucket_name?: string } }>(
    '/api/fusion/buckets',
    {
      config: { access: 'user' },
      schema: {
        querystring: {
          type: 'object',
          properties: {
            ...pagingProps(SERVICE_LIST_PAGE_SIZE),
            bucket_name: { type: 'string', maxLength: 100, errorMessage: { maxLength: '服务名称过长' } },
          },
        },
      },
    },
    async (req) => {
      const q = req.query;
      const like = q.bucket_name ? `%${q.bucket_name.replace(/[\\%_]/g, (c) => '\\' + c)}%` : '';
      let base = visibleTo(db.selectFrom('buckets').selectAll(), req.user!).where('kind', '=', 'fusion');
      if (like) base = base.where('name', 'ilike', like);
      const { items, pager } = await keysetQuery(base, 'buckets.id', { limit: q.limit, since: q.since, max: q.max });
      const domains = await domainsOf(db, items.map((b) => b.id));
      return ok(items.map((b) => bucketInfo(b, domains.get(b.id) ?? [])), { pager });
    },
  );

  async function fusionBucket(user: Parameters<typeof bucketForUser>[1], name: string) {
    const b = await bucketForUser(db, user, name);
    if (b.kind !== 'fusion') throw new ApiError(21201, 400);
    return b;
  }

  app.get<{ Querystring: { bucket_name: string } }>(
    '/api/fusion/cdn/cache',
    { config: { access: 'user', bucket: 'query' }, schema: { querystring: { type: 'object', required: ['bucket_name'], properties: { bucket_name: nameProp }, errorMessage: { required: { bucket_name: '请填写服务名称' } } } } },
    async (req) => {
      const b = await fusionBucket(req.user!, req.query.bucket_name);
      const value = await readSetting(db, registry, b.id, CACHE);
      return ok(value, { summary: registry.summary(CACHE, value)?.label ?? null });
    },
  );

  app.post<{ Body: { bucket_name: string } & Record<string, unknown> }>(
    '/api/fusion/cdn/cache',
    { config: { access: 'user', bucket: 'body' }, schema: { body: { type: 'object', required: ['bucket_name'], properties: { bucket_name: nameProp }, errorMessage: { type: '请求内容须为 JSON 对象', required: { bucket_name: '请填写服务名称' } } } } },
    async (req) => {
      const user = req.user!;
      const b = await fusionBucket(user, req.body.bucket_name);
      assertNotLocked(user);
      const { bucket_name: _omit, ...payload } = req.body;
      const result = await registry.validate(CACHE, payload, {
        kind: b.kind as ServiceKind,
        bucketName: b.name,
        read: (other) => readSetting(db, registry, b.id, other),
        bucket: async () => null,
      });
      if (!result.ok) throw new ApiError(result.errors.find((e) => e.code)?.code ?? VALIDATION_ERROR, 400, result.errors);
      await db.transaction().execute(async (trx) => {
        await writeSetting(trx, b.id, CACHE, result.value, user.id);
        await writeLog(trx, req, { action: 'setting.update', target: `${b.name}/${CACHE}`, detail: { value: result.value } });
      });
      return ok(result.value, { summary: registry.summary(CACHE, result.value)?.label ?? null });
    },
  );
}
