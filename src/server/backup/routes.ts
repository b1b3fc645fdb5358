/**
 * Cross-platform disaster-recovery backup (spec 002 "Other tools", §7 Backup): a cloud-storage
 * service copied to a bucket on another platform. The configuration form is the declaration
 * schemas/forms/third_backup; the secret is stored encrypted (./crypto.ts) and answered only masked.
 *
 *   GET    /api/third_backup/list/         the configurations of the services the user reaches
 *   POST   /api/third_backup/              create (secret required)
 *   GET    /api/third_backup/configure/    ?id          one configuration
 *   POST   /api/third_backup/configure/    { id, … }    change (an empty secret keeps the stored one)
 *   PUT    /api/third_backup/configure/    { id, enabled }   enable or disable
 *   DELETE /api/third_backup/configure/    { id }
 *   GET    /api/third_backup/logs/         ?id&limit    what happened to the configurations
 *
 * Permission: file (the source is a cloud-storage service the user must reach). Refusals: 20001;
 * 21905 a service out of reach; 26401 unknown configuration; 26402 more than 20; 26403 a duplicate.
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import backupSchema from '../../../schemas/forms/third_backup/schema.json';
import type { DB } from '../db';
import type { SessionUser } from '../accounts/session';
import { ApiError } from '../http/errors';
import { ok } from '../http/envelope';
import { bucketForUser, dataScopeTo } from '../buckets/repo';
import { encryptSecret, decryptSecret } from './crypto';
import { BACKUP_ACTION_LABELS, BACKUP_MAX_CONFIGS, maskSecret, type BackupAction, type BackupConfig, type BackupLog, type BackupPlatform } from '../../shared/monitor';
import '../monitor/tables';
import { limitProp } from '../http/keyset';

interface ConfigBody {
  name: string;
  bucket_name: string;
  platform: BackupPlatform;
  region: string;
  target_bucket: string;
  prefix?: string;
  access_key_id: string;
  access_key_secret?: string;
}

const iso = (d: Date | string) => new Date(d).toISOString();
const idProp = { type: 'integer', minimum: 1, errorMessage: { type: '请指定备份配置', minimum: '请指定备份配置' } };
const idOnly = { type: 'object', required: ['id'], properties: { id: idProp }, errorMessage: { required: { id: '请指定备份配置' } } };
const changeSchema = {
  ...backupSchema,
  required: ['id', ...backupSchema.required],
  properties: { id: idProp, ...backupSchema.properties },
  errorMessage: { ...backupSchema.errorMessage, required: { id: '请指定备份配置', ...backupSchema.errorMessage.required } },
};

export function backupRoutes(app: FastifyInstance, db: DB): void {
  const file = { access: 'user' as const, needs: ['file' as const] };
  /** the hook checks the source service named by bucket_name (21905 out of reach) */
  const fileBody = { ...file, bucket: 'body' as const };

  /** The configurations joined with their service, limited to the services the user reaches. */
  const scoped = (user: SessionUser) =>
    dataScopeTo(
      db
        .selectFrom('third_backup_configs as c')
        .innerJoin('buckets', 'buckets.id', 'c.bucket_id')
        .selectAll('c')
        .select('buckets.name as bucket_name')
        .where('c.account_id', '=', user.account_id) as any,
      user,
    ) as ReturnType<typeof base>;
  const base = () => db.selectFrom('third_backup_configs as c').innerJoin('buckets', 'buckets.id', 'c.bucket_id').selectAll('c').select('buckets.name as bucket_name');

  const view = (r: any): BackupConfig => {
    let masked = '****';
    try {
      masked = maskSecret(decryptSecret(r.secret_enc));
    } catch {
      /* a key change leaves old secrets unreadable: shown as stars, to be entered again */
    }
    return {
      id: r.id,
      name: r.name,
      bucket_name: r.bucket_name,
      platform: r.platform,
      region: r.region,
      target_bucket: r.target_bucket,
      prefix: r.prefix,
      access_key_id: r.access_key_id,
      secret_masked: masked,
      enabled: r.enabled,
      created_at: iso(r.created_at),
      updated_at: iso(r.updated_at),
    };
  };
  const owned = async (user: SessionUser, id: number) => {
    const row = await scoped(user).where('c.id', '=', id).executeTakeFirst();
    if (!row) throw new ApiError(26401, 404);
    return row;
  };
  const logAction = (user: SessionUser, configId: number, name: string, action: BackupAction, detail = '') =>
    db.insertInto('third_backup_logs').values({ account_id: user.account_id, config_id: configId, config_name: name, user_id: user.id, action, detail }).execute();
  const assertUnique = async (user: SessionUser, bucketId: number, b: ConfigBody, exceptId = 0) => {
    const dup = await db
      .selectFrom('third_backup_configs')
      .select('id')
      .where('account_id', '=', user.account_id)
      .where('bucket_id', '=', bucketId)
      .where('platform', '=', b.platform)
      .where('target_bucket', '=', b.target_bucket)
      .where('prefix', '=', b.prefix ?? '')
      .where('id', '<>', exceptId)
      .executeTakeFirst();
    if (dup) throw new ApiError(26403, 400);
  };
  const sourceOf = async (user: SessionUser, name: string) => {
    const bucket = await bucketForUser(db, user, name);
    if (bucket.kind !== 'file') throw new ApiError(20001, 400, [{ path: '/bucket_name', message: '请选择需要备份的云存储服务' }]);
    return bucket;
  };

  app.get('/api/third_backup/list/', { config: file }, async (req) => {
    const rows = await scoped(req.user!).orderBy('c.id', 'desc').execute();
    return ok(rows.map(view), { limit: BACKUP_MAX_CONFIGS });
  });

  app.post<{ Body: ConfigBody }>('/api/third_backup/', { config: fileBody, schema: { body: backupSchema } }, async (req) => {
    const user = req.user!;
    const b = req.body;
    if (!b.access_key_secret) throw new ApiError(20001, 400, [{ path: '/access_key_secret', message: '请填写 AccessKey Secret' }]);
    const bucket = await sourceOf(user, b.bucket_name);
    const n = await db.selectFrom('third_backup_configs').select(sql<number>`count(*)::int`.as('n')).where('account_id', '=', user.account_id).executeTakeFirstOrThrow();
    if (Number(n.n) >= BACKUP_MAX_CONFIGS) throw new ApiError(26402, 400);
    await assertUnique(user, bucket.id, b);
    const row = await db
      .insertInto('third_backup_configs')
      .values({ account_id: user.account_id, bucket_id: bucket.id, name: b.name.trim(), platform: b.platform, region: b.region, target_bucket: b.target_bucket, prefix: b.prefix ?? '', access_key_id: b.access_key_id, secret_enc: encryptSecret(b.access_key_secret) })
      .returning('id')
      .executeTakeFirstOrThrow();
    await logAction(user, row.id, b.name.trim(), 'create', `${b.bucket_name} → ${b.platform}:${b.target_bucket}`);
    return ok(view(await owned(user, row.id)));
  });

  app.get<{ Querystring: { id: number } }>('/api/third_backup/configure/', { config: file, schema: { querystring: idOnly } }, async (req) => ok(view(await owned(req.user!, req.query.id))));

  app.post<{ Body: ConfigBody & { id: number } }>('/api/third_backup/configure/', { config: fileBody, schema: { body: changeSchema } }, async (req) => {
    const user = req.user!;
    const b = req.body;
    await owned(user, b.id);
    const bucket = await sourceOf(user, b.bucket_name);
    await assertUnique(user, bucket.id, b, b.id);
    await db
      .updateTable('third_backup_configs')
      .set({
        bucket_id: bucket.id,
        name: b.name.trim(),
        platform: b.platform,
        region: b.region,
        target_bucket: b.target_bucket,
        prefix: b.prefix ?? '',
        access_key_id: b.access_key_id,
        ...(b.access_key_secret ? { secret_enc: encryptSecret(b.access_key_secret) } : {}),
        updated_at: new Date(),
      })
      .where('id', '=', b.id)
      .execute();
    await logAction(user, b.id, b.name.trim(), 'change', b.access_key_secret ? '已更新 AccessKey Secret' : '');
    return ok(view(await owned(user, b.id)));
  });

  app.put<{ Body: { id: number; enabled: boolean } }>(
    '/api/third_backup/configure/',
    {
      config: file,
      schema: {
        body: {
          type: 'object',
          required: ['id', 'enabled'],
          properties: { id: idProp, enabled: { type: 'boolean', errorMessage: { type: 'enabled 须为 true 或 false' } } },
          errorMessage: { required: { id: '请指定备份配置', enabled: '请指定启用或停用' } },
        },
      },
    },
    async (req) => {
      const user = req.user!;
      const row = await owned(user, req.body.id);
      if (row.enabled !== req.body.enabled) {
        await db.updateTable('third_backup_configs').set({ enabled: req.body.enabled, updated_at: new Date() }).where('id', '=', row.id).execute();
        await logAction(user, row.id, row.name, req.body.enabled ? 'enable' : 'disable');
      }
      return ok(view(await owned(user, row.id)));
    },
  );

  app.delete<{ Body: { id: number } }>('/api/third_backup/configure/', { config: file, schema: { body: idOnly } }, async (req) => {
    const user = req.user!;
    const row = await owned(user, req.body.id);
    await db.deleteFrom('third_backup_configs').where('id', '=', row.id).execute();
    await logAction(user, row.id, row.name, 'delete');
    return ok({ id: row.id });
  });

  app.get<{ Querystring: { id?: number; limit: number } }>(
    '/api/third_backup/logs/',
    {
      config: file,
      schema: {
        querystring: {
          type: 'object',
          properties: {
            id: idProp,
            limit: limitProp(20),
          },
        },
      },
    },
    async (req) => {
      let q = db.selectFrom('third_backup_logs').selectAll().where('account_id', '=', req.user!.account_id);
      if (req.query.id) q = q.where('config_id', '=', req.query.id);
      const rows = await q.orderBy('id', 'desc').limit(req.query.limit).execute();
      const data: BackupLog[] = rows.map((r) => ({ id: r.id, config_id: r.config_id, config_name: r.config_name, action: r.action as BackupAction, detail: r.detail || BACKUP_ACTION_LABELS[r.action as BackupAction], created_at: iso(r.created_at) }));
      return ok(data);
    },
  );
}
