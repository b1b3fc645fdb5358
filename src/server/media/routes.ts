/**
 * Media processing of file services (spec 002 §7; docs/files-and-media.md).
 *
 *   POST /av/pretreatment         the declaration schemas/forms/av_pretreatment/ → a waiting task
 *   GET  /av/tasklist             ?bucket_name&status&limit&since&max   the service's tasks, newest first
 *   GET  /av/task                 ?task_id                               one task with progress, result or error
 *   GET  /api/logs/av/query/      ?bucket_name&start&end&limit&since&max  finished tasks as log records (log permission)
 *   GET  /api/logs/stream/query   ?start&end                             the media usage per day and usage key (log permission)
 *
 * Refusals: 20001 the declaration's messages; 27201 a source not in the service; 27203 the output is a
 * source; 27202 a task that is not the user's; 27106 / 27108 as file management; 21905 a service out of reach.
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import avSchema from '../../../schemas/forms/av_pretreatment/schema.json';
import type { DB } from '../db';
import type { SessionUser } from '../accounts/session';
import { ApiError } from '../http/errors';
import { ok } from '../http/envelope';
import { keysetQuery } from '../http/keyset';
import { childReaches, visibleTo } from '../buckets/repo';
import { fileBucketFor, segmentsOr27101 } from '../files/repo';
import { MEDIA_FIELDS, MEDIA_TASK_PAGE_SIZE, type MediaTask, type MediaTaskType } from '../../shared/media';
import '../files/tables';

type TaskRow = {
  id: number;
  bucket_name: string;
  type: string;
  params: any;
  status: string;
  progress: number;
  error: string | null;
  result: any;
  usage_key: string | null;
  minutes: string | number | null;
  created_at: Date | string;
  finished_at: Date | string | null;
};

export function taskOf(r: TaskRow): MediaTask {
  return {
    task_id: r.id,
    bucket_name: r.bucket_name,
    type: r.type as MediaTaskType,
    params: r.params,
    status: r.status as MediaTask['status'],
    progress: r.progress,
    error: r.error,
    result: r.result,
    usage_key: r.usage_key,
    minutes: r.minutes === null ? null : Number(r.minutes),
    created_at: new Date(r.created_at).toISOString(),
    finished_at: r.finished_at ? new Date(r.finished_at).toISOString() : null,
  };
}

const taskColumns = ['t.id', 'b.name as bucket_name', 't.type', 't.params', 't.status', 't.progress', 't.error', 't.result', 't.usage_key', 't.minutes', 't.created_at', 't.finished_at'] as const;

const pageQuery = {
  limit: { type: 'integer', minimum: 1, maximum: 100, default: MEDIA_TASK_PAGE_SIZE },
  since: { type: 'integer', minimum: 0 },
  max: { type: 'integer', minimum: 0 },
};
const dateField = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$', errorMessage: { pattern: '日期格式应为 YYYY-MM-DD' } };

/** [start, end] dates → [start 00:00, the day after end 00:00), local time; default the last 7 days. */
function range(start?: string, end?: string): [Date, Date] {
  const today = new Date();
  const s = start ? new Date(`${start}T00:00:00`) : new Date(today.getFullYear(), today.getMonth(), today.getDate() - 6);
  const e = end ? new Date(`${end}T00:00:00`) : new Date(today.getFullYear(), today.getMonth(), today.getDate());
  return [s, new Date(e.getFullYear(), e.getMonth(), e.getDate() + 1)];
}
const dayText = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

export function mediaRoutes(app: FastifyInstance, db: DB): void {
  const file = { access: 'user' as const, needs: ['file' as const] };

  app.post<{ Body: Record<string, any> }>('/av/pretreatment', { config: { ...file, bucket: 'body' }, schema: { body: avSchema } }, async (req) => {
    const user = req.user!;
    const b = await fileBucketFor(db, user, req.body.bucket_name);
    const type = req.body.type as MediaTaskType;
    const params: Record<string, unknown> = {};
    for (const f of MEDIA_FIELDS[type]) if (req.body[f] !== undefined) params[f] = req.body[f];
    const sources: string[] = (params.sources as string[] | undefined) ?? [params.source as string];
    const field = params.sources ? (i: number) => `/sources/${i}` : () => '/source';
    for (const [i, s] of sources.entries()) {
      segmentsOr27101(s);
      const row = await db.selectFrom('file_objects').select('id').where('bucket_id', '=', b.id).where('path', '=', s).where('is_folder', '=', false).executeTakeFirst();
      if (!row) throw new ApiError(27201, 400, [{ path: field(i), message: `源文件不存在：${s}` }]);
    }
    if (params.save_as !== undefined) {
      segmentsOr27101(String(params.save_as));
      if (sources.includes(String(params.save_as))) throw new ApiError(27203, 400, [{ path: '/save_as', message: '输出文件不能与源文件相同' }]);
    }
    const row = await db
      .insertInto('media_tasks')
      .values({ account_id: user.account_id, bucket_id: b.id, user_id: user.id, type, params: JSON.stringify(params), error: null, result: null, usage_key: null, started_at: null, finished_at: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    return ok({ task_id: row.id });
  });

  app.get<{ Querystring: { bucket_name: string; status?: string; limit: number; since?: number; max?: number } }>(
    '/av/tasklist',
    {
      config: { ...file, bucket: 'query' },
      schema: {
        querystring: {
          type: 'object',
          required: ['bucket_name'],
          properties: { bucket_name: { type: 'string', minLength: 1 }, status: { type: 'string', enum: ['waiting', 'processing', 'success', 'failed'] }, ...pageQuery },
        },
      },
    },
    async (req) => {
      const b = await fileBucketFor(db, req.user!, req.query.bucket_name);
      let base = db.selectFrom('media_tasks as t').innerJoin('buckets as b', 'b.id', 't.bucket_id').select(taskColumns).where('t.bucket_id', '=', b.id);
      if (req.query.status) base = base.where('t.status', '=', req.query.status);
      const { items, pager } = await keysetQuery(base, 't.id', { limit: req.query.limit, since: req.query.since, max: req.query.max, order: 'desc' });
      return ok(items.map(taskOf), { pager });
    },
  );

  app.get<{ Querystring: { task_id: number } }>(
    '/av/task',
    { config: file, schema: { querystring: { type: 'object', required: ['task_id'], properties: { task_id: { type: 'integer', minimum: 1 } } } } },
    async (req) => {
      const user = req.user!;
      const row = await db
        .selectFrom('media_tasks as t')
        .innerJoin('buckets as b', 'b.id', 't.bucket_id')
        .select([...taskColumns, 'b.kind', 't.bucket_id'])
        .where('t.id', '=', req.query.task_id)
        .where('t.account_id', '=', user.account_id)
        .executeTakeFirst();
      if (!row || !(await childReaches(db, user, { id: row.bucket_id, kind: row.kind }))) throw new ApiError(27202, 404);
      return ok(taskOf(row as unknown as TaskRow));
    },
  );

  /** The tasks of the services the user reaches, finished within the dates, as log records. */
  app.get<{ Querystring: { bucket_name?: string; start?: string; end?: string; limit: number; since?: number; max?: number } }>(
    '/api/logs/av/query/',
    {
      config: { access: 'user', needs: ['log'], bucket: 'query' },
      schema: { querystring: { type: 'object', properties: { bucket_name: { type: 'string', minLength: 1 }, start: dateField, end: dateField, ...pageQuery } } },
    },
    async (req) => {
      const user = req.user!;
      const [from, to] = range(req.query.start, req.query.end);
      const reachable = visibleTo(db.selectFrom('buckets').select('buckets.id'), user as SessionUser);
      let base = db
        .selectFrom('media_tasks as t')
        .innerJoin('buckets as b', 'b.id', 't.bucket_id')
        .select(taskColumns)
        .where('t.account_id', '=', user.account_id)
        .where('t.bucket_id', 'in', reachable)
        .where('t.status', 'in', ['success', 'failed'])
        .where('t.finished_at', '>=', from)
        .where('t.finished_at', '<', to);
      if (req.query.bucket_name) base = base.where('b.name', '=', req.query.bucket_name);
      const { items, pager } = await keysetQuery(base, 't.id', { limit: req.query.limit, since: req.query.since, max: req.query.max, order: 'desc' });
      return ok(items.map(taskOf), { pager, start: dayText(from), end: dayText(new Date(to.getTime() - 86400_000)) });
    },
  );

  /** Media usage per day and usage key (the figures billing reads from media_usage). */
  app.get<{ Querystring: { start?: string; end?: string } }>(
    '/api/logs/stream/query',
    { config: { access: 'user', needs: ['log'] }, schema: { querystring: { type: 'object', properties: { start: dateField, end: dateField } } } },
    async (req) => {
      const [from, to] = range(req.query.start, req.query.end);
      const rows = await db
        .selectFrom('media_usage')
        .select([sql<string>`to_char(day, 'YYYY-MM-DD')`.as('day'), 'usage_key', 'minutes', 'tasks'])
        .where('account_id', '=', req.user!.account_id)
        .where('day', '>=', dayText(from))
        .where('day', '<', dayText(to))
        .orderBy('day')
        .orderBy('usage_key')
        .execute();
      const data = rows.map((r) => ({ day: r.day, usage_key: r.usage_key, minutes: Number(r.minutes), tasks: Number(r.tasks) }));
      const totals: Record<string, { minutes: number; tasks: number }> = {};
      for (const r of data) {
        const t = (totals[r.usage_key] ??= { minutes: 0, tasks: 0 });
        t.minutes = Math.round((t.minutes + r.minutes) * 1000) / 1000;
        t.tasks += r.tasks;
      }
      return ok(data, { summary: totals, start: dayText(from), end: dayText(new Date(to.getTime() - 86400_000)) });
    },
  );
}
