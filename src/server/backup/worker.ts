/**
 * The backup worker (docs/operations-tools.md "Cross-platform backup"): every enabled configuration
 * gets a run every BACKUP_INTERVAL_MINUTES, and 立即备份 queues one at once. A run copies the source
 * service's files (file_objects, the bytes from the storage) to the configured S3-compatible target,
 * `<prefix><path>`, only those new or changed since this configuration last copied them
 * (third_backup_objects: size and time), recording its progress on the run as it goes; the result
 * (succeeded with counts, or failed with the reason) stays on the run and in the configuration's log.
 * Files deleted from the service stay on the target (a backup keeps what it copied).
 *
 * The target is reached with the configuration's own keys; an endpoint that is this machine, a
 * link-local or a metadata address is refused (26406) unless BACKUP_ALLOW_LOCAL_ENDPOINTS is set (tests).
 */
import { lookup } from 'node:dns/promises';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { FastifyBaseLogger } from 'fastify';
import type { DB } from '../db';
import type { Storage } from '../storage';
import { storageKey } from '../files/repo';
import { decryptSecret } from './crypto';
import { BACKUP_ENDPOINTS, BACKUP_INTERVAL_MINUTES, backupEndpoint, type BackupPlatform } from '../../shared/monitor';
import { errorText } from '../../shared/errors';
import { isLocalOriginAddress } from '../../shared/origins';
import '../monitor/tables';
import '../files/tables';
import { tickOnce } from '../jobs/once';

export interface BackupWorkerOptions {
  /** connect to endpoints on this machine (tests against s3rver) */
  allowLocalEndpoints?: boolean;
  /** how often an enabled configuration runs by itself */
  intervalMinutes?: number;
  /** progress is written at most this often */
  progressEveryMs?: number;
}

/** A failure whose message is for the customer. */
class RunFailure extends Error {}

/** Whether the endpoint's host is one the server must not connect to on a customer's behalf. */
export async function endpointRefused(endpoint: string, allowLocal = false): Promise<boolean> {
  if (allowLocal) return false;
  let host: string;
  try {
    host = new URL(endpoint).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return true;
  }
  if (isLocalOriginAddress(host)) return true;
  try {
    const addrs = await lookup(host, { all: true });
    return addrs.some((a) => isLocalOriginAddress(a.address));
  } catch {
    return false; // a name that does not resolve fails when the run connects, with that reason
  }
}

/** Queues a run for each enabled configuration whose last run is older than the interval (none waiting or running). */
export async function queueDueRuns(db: DB, intervalMinutes = BACKUP_INTERVAL_MINUTES): Promise<number> {
  const due = await db
    .selectFrom('third_backup_configs as c')
    .select('c.id')
    .where('c.enabled', '=', true)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('third_backup_runs as r')
            .select('r.id')
            .whereRef('r.config_id', '=', 'c.id')
            .where((w) => w.or([w('r.status', 'in', ['queued', 'running']), w('r.created_at', '>', new Date(Date.now() - intervalMinutes * 60_000))])),
        ),
      ),
    )
    .execute();
  if (!due.length) return 0;
  await db
    .insertInto('third_backup_runs')
    .values(due.map((d) => ({ config_id: d.id, trigger: 'schedule' })))
    .execute();
  return due.length;
}

async function claim(db: DB) {
  return db.transaction().execute(async (trx) => {
    const next = await trx.selectFrom('third_backup_runs').select('id').where('status', '=', 'queued').orderBy('id').limit(1).forUpdate().skipLocked().executeTakeFirst();
    if (!next) return null;
    return trx.updateTable('third_backup_runs').set({ status: 'running', started_at: new Date() }).where('id', '=', next.id).returningAll().executeTakeFirstOrThrow();
  });
}

/** Runs the queued runs until none is left (or `max`); returns how many ran. */
export async function runBackups(db: DB, storage: Storage, opts: BackupWorkerOptions = {}, max = Infinity): Promise<number> {
  let n = 0;
  while (n < max) {
    const run = await claim(db);
    if (!run) break;
    n++;
    await runOne(db, storage, run.id, run.config_id, opts);
  }
  return n;
}

const mb = (bytes: number) => `${(bytes / 1048576).toFixed(2)} MB`;

async function runOne(db: DB, storage: Storage, runId: number, configId: number, opts: BackupWorkerOptions) {
  const config = await db
    .selectFrom('third_backup_configs as c')
    .innerJoin('buckets as b', 'b.id', 'c.bucket_id')
    .selectAll('c')
    .select('b.name as bucket_name')
    .where('c.id', '=', configId)
    .executeTakeFirst();
  const counts = { files_total: 0, files_done: 0, files_copied: 0, files_skipped: 0, bytes_copied: 0 };
  let client: S3Client | null = null;
  try {
    if (!config) throw new RunFailure(errorText(26401));
    if (!config.enabled) throw new RunFailure(errorText(26405));
    const endpoint = backupEndpoint({ platform: config.platform as BackupPlatform, region: config.region, endpoint: config.endpoint });
    if (await endpointRefused(endpoint, opts.allowLocalEndpoints)) throw new RunFailure(errorText(26406));
    let secret: string;
    try {
      secret = decryptSecret(config.secret_enc);
    } catch {
      throw new RunFailure('无法读取保存的 AccessKey Secret，请修改配置重新填写');
    }
    client = new S3Client({
      endpoint,
      region: config.region,
      forcePathStyle: BACKUP_ENDPOINTS[config.platform as BackupPlatform]?.pathStyle ?? true,
      credentials: { accessKeyId: config.access_key_id, secretAccessKey: secret },
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: 2,
    });
    const files = await db.selectFrom('file_objects').select(['path', 'size', 'content_type', 'updated_at']).where('bucket_id', '=', config.bucket_id).where('is_folder', '=', false).orderBy('path').execute();
    const copied = new Map(
      (await db.selectFrom('third_backup_objects').select(['path', 'size', 'source_updated_at']).where('config_id', '=', configId).execute()).map((o) => [o.path, o]),
    );
    counts.files_total = files.length;
    await db.updateTable('third_backup_runs').set({ files_total: files.length }).where('id', '=', runId).execute();
    let lastSaved = Date.now();
    for (const f of files) {
      const updated = new Date(f.updated_at);
      const prev = copied.get(f.path);
      if (prev && Number(prev.size) === Number(f.size) && new Date(prev.source_updated_at).getTime() === updated.getTime()) {
        counts.files_skipped++;
      } else {
        const obj = await storage.get(storageKey(config.bucket_id, f.path));
        if (!obj) throw new RunFailure(`源文件 /${f.path} 已不存在，请稍后重试`);
        try {
          await client.send(new PutObjectCommand({ Bucket: config.target_bucket, Key: `${config.prefix}${f.path}`, Body: obj.body, ContentLength: obj.size, ContentType: f.content_type ?? undefined }));
        } catch (e: any) {
          obj.body.destroy();
          throw new RunFailure(`复制 /${f.path} 失败：${targetReason(e)}`);
        }
        await db
          .insertInto('third_backup_objects')
          .values({ config_id: configId, path: f.path, size: Number(f.size), source_updated_at: updated })
          .onConflict((oc) => oc.columns(['config_id', 'path']).doUpdateSet({ size: Number(f.size), source_updated_at: updated, copied_at: new Date() }))
          .execute();
        counts.files_copied++;
        counts.bytes_copied += Number(f.size);
      }
      counts.files_done++;
      if (Date.now() - lastSaved >= (opts.progressEveryMs ?? 500)) {
        lastSaved = Date.now();
        await db.updateTable('third_backup_runs').set(counts).where('id', '=', runId).execute();
      }
    }
    const detail = `复制 ${counts.files_copied} 个文件（${mb(counts.bytes_copied)}），${counts.files_skipped} 个未变化的文件已跳过`;
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('third_backup_runs').set({ ...counts, status: 'succeeded', finished_at: new Date() }).where('id', '=', runId).execute();
      await trx.insertInto('third_backup_logs').values({ account_id: config.account_id, config_id: configId, config_name: config.name, user_id: null, action: 'run', detail: `备份成功：${detail}` }).execute();
    });
  } catch (e: any) {
    const reason = e instanceof RunFailure ? e.message : `备份失败：${String(e?.message ?? e).slice(0, 500)}`;
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('third_backup_runs').set({ ...counts, status: 'failed', error: reason, finished_at: new Date() }).where('id', '=', runId).execute();
      if (config) await trx.insertInto('third_backup_logs').values({ account_id: config.account_id, config_id: configId, config_name: config.name, user_id: null, action: 'run', detail: `备份失败：${reason}` }).execute();
    });
  } finally {
    client?.destroy();
  }
}

/** What the target said, in words for the customer (the S3 error code is kept for support). */
function targetReason(e: any): string {
  const code = e?.Code ?? e?.name ?? '';
  const known: Record<string, string> = {
    NoSuchBucket: '目标存储桶不存在',
    AccessDenied: '没有写入目标存储桶的权限',
    InvalidAccessKeyId: 'AccessKey ID 不正确',
    SignatureDoesNotMatch: 'AccessKey Secret 不正确',
    ECONNREFUSED: '无法连接目标服务地址',
    ENOTFOUND: '目标服务地址无法解析',
  };
  const errno = e?.code ?? e?.cause?.code;
  if (known[code]) return `${known[code]}（${code}）`;
  if (errno && known[errno]) return `${known[errno]}（${errno}）`;
  return `${String(e?.message ?? e).slice(0, 300)}${code ? `（${code}）` : ''}`;
}

/** Started by main.ts: queues due runs and runs what is queued. */
export function scheduleBackupWorker(db: DB, storage: Storage, log: FastifyBaseLogger, opts: BackupWorkerOptions = {}, everyMs = 5000): () => void {
  let running = false;
  let stopped = false;
  // a run left running for an hour by a stopped server is queued again
  void db.updateTable('third_backup_runs').set({ status: 'queued' }).where('status', '=', 'running').where('started_at', '<', new Date(Date.now() - 3600_000)).execute().catch(() => undefined);
  const timer = setInterval(() => {
    if (running || stopped) return;
    running = true;
    tickOnce(db, 'backup', () => queueDueRuns(db, opts.intervalMinutes).then(() => runBackups(db, storage, opts, 5))) // one server at a time (../jobs/once.ts)
      .then((n) => n && log.debug({ backups: n }, 'backup runs done'))
      .catch((e) => log.error(e, 'backup worker failed'))
      .finally(() => (running = false));
  }, everyMs);
  timer.unref();
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
