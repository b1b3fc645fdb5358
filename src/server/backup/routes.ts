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
 *   POST   /api/third_backup/run/          { id }       立即备份: queue a run now (./worker.ts copies)
 *
 * Permission: file (the source is a cloud-storage service the user must reach). Refusals: 20001;
 * 21905 a service out of reach; 26401 unknown configuration; 26402 more than 20; 26403 a duplicate;
 * 26404 a run already waiting or running; 26405 a disabled configuration; 26406 a local endpoint.
 * Every configuration answers with its latest run (progress and result).
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import backupSchema from '../../../schemas/forms/third_backup/schema.json';
import type { DB } from '../db';
import type { ServerConfig } from '../config';
import type { SessionUser } from '../accounts/session';
import { ApiError } from '../http/errors';
import { ok } from '../http/envelope';
import { bucketForUser, dataScopeTo } from '../buckets/repo';
import { encryptSecret, decryptSecret } from './crypto';
import { endpointRefused } from './worker';
import { BACKUP_ACTION_LABELS, BACKUP_MAX_CONFIGS, BACKUP_RUN_STATUS, backupEndpoint, maskSecret, type BackupAction, type BackupConfig, type BackupLog, type BackupPlatform, type BackupRun, type BackupRunStatus } from '../../shared/monitor';
import '../monitor/tables';
import { limitProp } from '../http/keyset';

interface ConfigBody {
  name: string;
  bucket_name: string;
  platform: BackupPlatform;
  region: string;
  target_bucket: string;
  prefix?: string;
  endpoint?: string;
  access_key_id: string;
  access_key_secret?: string;
}

type RunRow = { id: number; trigger: string; status: string; files_total: number; files_done: number; files_copied: number; files_skipped: number; bytes_copied: number | string; error: string | null; created_at: Date | string; started_at: Date | string | null; finished_at: Date | string | null };
const runView = (r: RunRow): BackupRun => ({
  id: r.id,
  trigger: r.trigger as BackupRun['trigger'],
  status: r.status as BackupRunStatus,
  status_text: BACKUP_RUN_STATUS[r.status as BackupRunStatus] ?? r.status,
  files_total: r.files_total,
  files_done: r.files_done,
  files_copied: r.files_copied,
  files_skipped: r.files_skipped,
  bytes_copied: Number(r.bytes_copied),
  error: r.error,
  created_at: new Date(r.created_at).toISOString(),
  started_at: r.started_at ? new Date(r.started_at).toISOString() : null,
  finished_at: r.finished_at ? new Date(r.finished_at).toISOString() : null,
});

const iso = (d: Date | string) => new Date(d).toISOString();
const idProp = { type: 'integer', minimum: 1, errorMessage: { type: '请指定备份配置', minimum: '请指定备份配置' } };
const idOnly = { type: 'object', required: ['id'], properties: { id: idProp }, errorMessage: { required: { id: '请指定备份配置' } } };
const changeSchema = {
  ...backupSchema,
  required: ['id', ...backupSchema.required],
  properties: { id: idProp, ...backupSchema.properties },
  errorMessage: { ...backupSchema.errorMessage, required: { id: '请指定备份配置', ...backupSchema.errorMessage.required } },
};

export function backupRoutes(app: FastifyInstance, db: DB, config?: Pick<ServerConfig, 'backup'>): void {
  const allowLocal = Boolean(config?.backup?.allowLocalEndpoints);
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

  /** The latest run of each configuration. */
  const lastRuns = async (ids: number[]) => {
    if (!ids.length) return new Map<number, BackupRun>();
    const rows = await db
      .selectFrom('third_backup_runs')
      .selectAll()
      .where('id', 'in', (eb) => eb.selectFrom('third_backup_runs').select((e) => e.fn.max('id').as('id')).where('config_id', 'in', ids).groupBy('config_id'))
      .execute();
    return new Map(rows.map((r) => [r.config_id, runView(r as RunRow)]));
  };
  const viewAll = async (rows: any[]) => {
    const runs = await lastRuns(rows.map((r) => r.id));
    return rows.map((r) => view(r, runs.get(r.id) ?? null));
  };
  const viewOne = async (r: any) => (await viewAll([r]))[0]!;

  const view = (r: any, lastRun: BackupRun | null): BackupConfig => {
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
      endpoint: r.endpoint ?? '',
      endpoint_used: backupEndpoint({ platform: r.platform, region: r.region, endpoint: r.endpoint }),
      access_key_id: r.access_key_id,
      last_run: lastRun,
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
  const assertEndpoint = async (b: ConfigBody) => {
    const endpoint = backupEndpoint({ platform: b.platform, region: b.region, endpoint: b.endpoint });
    if (await endpointRefused(endpoint, allowLocal)) throw new ApiError(26406, 400, [{ path: '/endpoint', message: '目标地址不能是本机、链路本地或云服务器元数据地址' }]);
  };
  const sourceOf = async (user: SessionUser, name: string) => {
    const bucket = await bucketForUser(db, user, name);
    if (bucket.kind !== 'file') throw new ApiError(20001, 400, [{ path: '/bucket_name', message: '请选择需要备份的云存储服务' }]);
    return bucket;
  };

  app.get('/api/third_backup/list/', { config: file }, async (req) => {
    const rows = await scoped(req.user!).orderBy('c.id', 'desc').execute();
    return ok(await viewAll(rows), { limit: BACKUP_MAX_CONFIGS });
  });

  app.post<{ Body: ConfigBody }>('/api/third_backup/', { config: fileBody, schema: { body: backupSchema } }, async (req) => {
    const user = req.user!;
    const b = req.body;
    if (!b.access_key_secret) throw new ApiError(20001, 400, [{ path: '/access_key_secret', message: '请填写 AccessKey Secret' }]);
    const bucket = await sourceOf(user, b.bucket_name);
    const n = await db.selectFrom('third_backup_configs').select(sql<number>`count(*)::int`.as('n')).where('account_id', '=', user.account_id).executeTakeFirstOrThrow();
    if (Number(n.n) >= BACKUP_MAX_CONFIGS) throw new ApiError(26402, 400);
    await assertUnique(user, bucket.id, b);
    await assertEndpoint(b);
    const row = await db
      .insertInto('third_backup_configs')
      .values({ account_id: user.account_id, bucket_id: bucket.id, name: b.name.trim(), platform: b.platform, region: b.region, target_bucket: b.target_bucket, prefix: b.prefix ?? '', endpoint: b.endpoint ?? '', access_key_id: b.access_key_id, secret_enc: encryptSecret(b.access_key_secret) })
      .returning('id')
      .executeTakeFirstOrThrow();
    await logAction(user, row.id, b.name.trim(), 'create', `${b.bucket_name} → ${b.platform}:${b.target_bucket}`);
    return ok(await viewOne(await owned(user, row.id)));
  });

  app.get<{ Querystring: { id: number } }>('/api/third_backup/configure/', { config: file, schema: { querystring: idOnly } }, async (req) => ok(await viewOne(await owned(req.user!, req.query.id))));

  app.post<{ Body: ConfigBody & { id: number } }>('/api/third_backup/configure/', { config: fileBody, schema: { body: changeSchema } }, async (req) => {
    const user = req.user!;
    const b = req.body;
    const before = await owned(user, b.id);
    const bucket = await sourceOf(user, b.bucket_name);
    await assertUnique(user, bucket.id, b, b.id);
    await assertEndpoint(b);
    // another source or target: the next run copies every file again
    const moved =
      before.bucket_id !== bucket.id ||
      before.platform !== b.platform ||
      before.region !== b.region ||
      before.target_bucket !== b.target_bucket ||
      before.prefix !== (b.prefix ?? '') ||
      (before as any).endpoint !== (b.endpoint ?? '');
    if (moved) await db.deleteFrom('third_backup_objects').where('config_id', '=', b.id).execute();
    await db
      .updateTable('third_backup_configs')
      .set({
        bucket_id: bucket.id,
        name: b.name.trim(),
        platform: b.platform,
        region: b.region,
        target_bucket: b.target_bucket,
        prefix: b.prefix ?? '',
        endpoint: b.endpoint ?? '',
        access_key_id: b.access_key_id,
        ...(b.access_key_secret ? { secret_enc: encryptSecret(b.access_key_secret) } : {}),
        updated_at: new Date(),
      })
      .where('id', '=', b.id)
      .execute();
    await logAction(user, b.id, b.name.trim(), 'change', b.access_key_secret ? '已更新 AccessKey Secret' : '');
    return ok(await viewOne(await owned(user, b.id)));
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
      return ok(await viewOne(await owned(user, row.id)));
    },
  );

  app.post<{ Body: { id: number } }>('/api/third_backup/run/', { config: file, schema: { body: { ...idOnly, additionalProperties: false } } }, async (req) => {
    const user = req.user!;
    const row = await owned(user, req.body.id);
    if (!row.enabled) throw new ApiError(26405, 409);
    await db.transaction().execute(async (trx) => {
      // one waiting or running run per configuration: the row lock serialises two clicks
      await trx.selectFrom('third_backup_configs').select('id').where('id', '=', row.id).forUpdate().execute();
      const busy = await trx.selectFrom('third_backup_runs').select('id').where('config_id', '=', row.id).where('status', 'in', ['queued', 'running']).executeTakeFirst();
      if (busy) throw new ApiError(26404, 409);
      await trx.insertInto('third_backup_runs').values({ config_id: row.id, trigger: 'manual' }).execute();
      await trx.insertInto('third_backup_logs').values({ account_id: user.account_id, config_id: row.id, config_name: row.name, user_id: user.id, action: 'run', detail: '立即备份：已加入备份队列' }).execute();
    });
    return ok(await viewOne(await owned(user, row.id)));
  });

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
