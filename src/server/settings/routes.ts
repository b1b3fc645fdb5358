/**
 * Every declared setting is read and written through two routes; the registry supplies the
 * schema, the rules and the service kinds it applies to, so a new folder under schemas/settings
 * needs no code here.
 *
 *   GET  /api/settings/{id}/?bucket_name=…   → data: the value (stored, or the schema defaults), summary
 *   POST /api/settings/{id}/  { bucket_name, …payload } → data: the stored value
 */
import type { FastifyInstance } from 'fastify';
import type { DB } from '../db';
import type { SettingRegistry } from '../../../schemas/registry';
import type { ServiceKind } from '../../shared/services';
import { ApiError, VALIDATION_ERROR } from '../http/errors';
import { ok } from '../http/envelope';
import { bucketForUser } from '../buckets/repo';
import { readSetting, writeSetting } from './repo';

const bucketNameProp = { type: 'string', minLength: 1, errorMessage: { type: '请填写服务名称', minLength: '请填写服务名称' } };

export function settingRoutes(app: FastifyInstance, db: DB, registry: SettingRegistry): void {
  function declarationOf(id: string, kind: string) {
    const d = registry.get(id);
    if (!d) throw new ApiError(21202, 404);
    if (!d.meta.kinds.includes(kind as ServiceKind)) throw new ApiError(21201, 400);
    return d;
  }

  app.get<{ Params: { id: string }; Querystring: { bucket_name: string } }>(
    '/api/settings/:id/',
    {
      config: { access: 'user' },
      schema: {
        querystring: { type: 'object', required: ['bucket_name'], properties: { bucket_name: bucketNameProp }, errorMessage: { required: { bucket_name: '请填写服务名称' } } },
      },
    },
    async (req) => {
      if (!registry.get(req.params.id)) throw new ApiError(21202, 404);
      const bucket = await bucketForUser(db, req.user!, req.query.bucket_name);
      declarationOf(req.params.id, bucket.kind);
      const value = await readSetting(db, registry, bucket.id, req.params.id);
      return ok(value, { summary: registry.summary(req.params.id, value)?.label ?? null });
    },
  );

  app.post<{ Params: { id: string }; Body: { bucket_name: string } & Record<string, unknown> }>(
    '/api/settings/:id/',
    {
      config: { access: 'user' },
      schema: {
        body: { type: 'object', required: ['bucket_name'], properties: { bucket_name: bucketNameProp }, errorMessage: { type: '请求内容须为 JSON 对象', required: { bucket_name: '请填写服务名称' } } },
      },
    },
    async (req) => {
      const id = req.params.id;
      if (!registry.get(id)) throw new ApiError(21202, 404);
      const user = req.user!;
      const bucket = await bucketForUser(db, user, req.body.bucket_name);
      declarationOf(id, bucket.kind);
      const { bucket_name: _omit, ...payload } = req.body;
      const result = await registry.validate(id, payload, {
        kind: bucket.kind as ServiceKind,
        read: (other) => readSetting(db, registry, bucket.id, other),
      });
      if (!result.ok) throw new ApiError(VALIDATION_ERROR, 400, result.errors);
      await db.transaction().execute(async (trx) => {
        await writeSetting(trx, bucket.id, id, result.value, user.id);
        await trx
          .insertInto('operation_logs')
          .values({ account_id: user.account_id, user_id: user.id, action: 'setting.update', target: `${bucket.name}/${id}`, detail: JSON.stringify({ value: result.value }), ip: req.ip })
          .execute();
      });
      return ok(result.value, { summary: registry.summary(id, result.value)?.label ?? null });
    },
  );

  /** The declarations themselves, for the console's panels and the schema gallery. */
  app.get('/api/settings/', { config: { access: 'user' } }, async () =>
    ok(registry.list().map((d) => ({ id: d.meta.id, title: d.meta.title, kinds: d.meta.kinds, tab: d.meta.tab }))),
  );
}
