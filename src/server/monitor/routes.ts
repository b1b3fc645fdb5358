/**
 * Monitor alarms (spec 002 "Other tools" and §7 Monitor). The /monitor/ page (permission monitor)
 * reads the tasks and their incidents; the alarm page under the toolbox (permission monitor_alarm)
 * manages them. The task form is the declaration schemas/forms/monitor_task.
 *
 *   GET    /api/monitor/          ?visible=1                     tasks with their last state
 *   PUT    /api/monitor/          { task }                       create (spec: PUT creates)
 *   POST   /api/monitor/          { id, task }                   edit (spec: POST edits)
 *   DELETE /api/monitor/          { id }                         delete
 *   POST   /api/monitor/visible/  { id, visible }                shown on /monitor/ or hidden
 *   GET    /api/monitor/alerts/   ?limit                         recent incidents
 *
 * Refusals: 20001 the declaration's messages; 26101 an unknown task; 26102 more than 50 tasks;
 * 26103 a service the user does not reach. The worker (./worker.ts) evaluates the tasks.
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import taskSchema from '../../../schemas/forms/monitor_task/schema.json';
import type { DB } from '../db';
import type { SessionUser } from '../accounts/session';
import { ApiError } from '../http/errors';
import { ok } from '../http/envelope';
import { dataScopeTo } from '../buckets/repo';
import { writeLog } from '../accounts/oplog';
import { MONITOR_MAX_TASKS, type MonitorAlert, type MonitorMetric, type MonitorOperator, type MonitorState, type MonitorTask } from '../../shared/monitor';
import './tables';
import { limitProp } from '../http/keyset';

interface TaskBody {
  name: string;
  metric: MonitorMetric;
  operator: MonitorOperator;
  threshold: number;
  period: number;
  buckets: string[];
  notify_message?: boolean;
  notify_sms?: boolean;
}

const idProp = { type: 'integer', minimum: 1, errorMessage: { type: '请指定告警任务', minimum: '请指定告警任务' } };
const editSchema = {
  ...taskSchema,
  required: ['id', ...taskSchema.required],
  properties: { id: idProp, ...taskSchema.properties },
  errorMessage: { ...taskSchema.errorMessage, required: { id: '请指定告警任务', ...taskSchema.errorMessage.required } },
};
const idBody = { type: 'object', required: ['id'], properties: { id: idProp }, errorMessage: { required: { id: '请指定告警任务' } } };

const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);

export function toTask(r: any): MonitorTask {
  return {
    id: r.id,
    name: r.name,
    metric: r.metric,
    operator: r.operator,
    threshold: Number(r.threshold),
    period: r.period,
    buckets: typeof r.buckets === 'string' ? JSON.parse(r.buckets) : r.buckets,
    notify_message: r.notify_message,
    notify_sms: r.notify_sms,
    visible: r.visible,
    state: r.state as MonitorState,
    last_value: r.last_value === null ? null : Number(r.last_value),
    checked_at: iso(r.checked_at),
    created_at: iso(r.created_at)!,
  };
}

/** Every named service must be one the user reaches (26103, with the field's path). */
async function assertBuckets(db: DB, user: SessionUser, names: string[]): Promise<void> {
  const scope = dataScopeTo(db.selectFrom('buckets').select('buckets.name'), user);
  const found = new Set((await scope.where('buckets.name', 'in', names).execute()).map((r) => r.name));
  const i = names.findIndex((n) => !found.has(n));
  if (i >= 0) throw new ApiError(26103, 400, [{ path: `/buckets/${i}`, message: `${names[i]} 不是本账号下的服务` }]);
}

export function monitorRoutes(app: FastifyInstance, db: DB): void {
  const view = { access: 'user' as const, needs: ['monitor' as const, 'monitor_alarm' as const] };
  const manage = { access: 'user' as const, needs: ['monitor_alarm' as const] };

  const owned = async (user: SessionUser, id: number) => {
    const row = await db.selectFrom('monitor_tasks').selectAll().where('id', '=', id).where('account_id', '=', user.account_id).executeTakeFirst();
    if (!row) throw new ApiError(26101, 404);
    return row;
  };
  const values = (b: TaskBody) => ({
    name: b.name.trim(),
    metric: b.metric,
    operator: b.operator,
    threshold: b.threshold,
    period: b.period,
    buckets: JSON.stringify(b.buckets),
    notify_message: b.notify_message ?? true,
    notify_sms: b.notify_sms ?? false,
  });

  app.get<{ Querystring: { visible?: number } }>(
    '/api/monitor/',
    { config: view, schema: { querystring: { type: 'object', properties: { visible: { type: 'integer', enum: [0, 1], errorMessage: { type: 'visible 只能是 0 或 1', enum: 'visible 只能是 0 或 1' } } } } } },
    async (req) => {
      let q = db.selectFrom('monitor_tasks').selectAll().where('account_id', '=', req.user!.account_id);
      if (req.query.visible !== undefined) q = q.where('visible', '=', req.query.visible === 1);
      const rows = await q.orderBy('id', 'desc').execute();
      return ok(rows.map(toTask), { limit: MONITOR_MAX_TASKS });
    },
  );

  app.put<{ Body: TaskBody }>('/api/monitor/', { config: manage, schema: { body: taskSchema } }, async (req) => {
    const user = req.user!;
    await assertBuckets(db, user, req.body.buckets);
    const n = await db.selectFrom('monitor_tasks').select(sql<number>`count(*)::int`.as('n')).where('account_id', '=', user.account_id).executeTakeFirstOrThrow();
    if (Number(n.n) >= MONITOR_MAX_TASKS) throw new ApiError(26102, 400);
    const row = await db.transaction().execute(async (trx) => {
      const created = await trx.insertInto('monitor_tasks').values({ account_id: user.account_id, ...values(req.body) }).returningAll().executeTakeFirstOrThrow();
      await writeLog(trx, req, { action: 'monitor.create', target: created.name });
      return created;
    });
    return ok(toTask(row));
  });

  app.post<{ Body: TaskBody & { id: number } }>('/api/monitor/', { config: manage, schema: { body: editSchema } }, async (req) => {
    const user = req.user!;
    await owned(user, req.body.id);
    await assertBuckets(db, user, req.body.buckets);
    const row = await db.transaction().execute(async (trx) => {
      const saved = await trx
        .updateTable('monitor_tasks')
        .set({ ...values(req.body), updated_at: new Date() })
        .where('id', '=', req.body.id)
        .where('account_id', '=', user.account_id)
        .returningAll()
        .executeTakeFirstOrThrow();
      await writeLog(trx, req, { action: 'monitor.update', target: saved.name });
      return saved;
    });
    return ok(toTask(row));
  });

  app.delete<{ Body: { id: number } }>('/api/monitor/', { config: manage, schema: { body: idBody } }, async (req) => {
    const user = req.user!;
    const row = await owned(user, req.body.id);
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('monitor_tasks').where('id', '=', row.id).execute();
      await writeLog(trx, req, { action: 'monitor.delete', target: row.name });
    });
    return ok({ id: row.id });
  });

  app.post<{ Body: { id: number; visible: boolean } }>(
    '/api/monitor/visible/',
    {
      config: manage,
      schema: {
        body: {
          type: 'object',
          required: ['id', 'visible'],
          properties: { id: idProp, visible: { type: 'boolean', errorMessage: { type: 'visible 须为 true 或 false' } } },
          errorMessage: { required: { id: '请指定告警任务', visible: '请指定是否显示' } },
        },
      },
    },
    async (req) => {
      const user = req.user!;
      await owned(user, req.body.id);
      const row = await db.updateTable('monitor_tasks').set({ visible: req.body.visible }).where('id', '=', req.body.id).returningAll().executeTakeFirstOrThrow();
      return ok(toTask(row));
    },
  );

  app.get<{ Querystring: { limit: number; task_id?: number } }>(
    '/api/monitor/alerts/',
    {
      config: view,
      schema: {
        querystring: {
          type: 'object',
          properties: {
            limit: limitProp(20),
            task_id: { type: 'integer', minimum: 1, errorMessage: { type: '请指定告警任务', minimum: '请指定告警任务' } },
          },
        },
      },
    },
    async (req) => {
      let q = db
        .selectFrom('monitor_alerts as a')
        .innerJoin('monitor_tasks as t', 't.id', 'a.task_id')
        .select(['a.id', 'a.task_id', 't.name as task_name', 't.metric', 'a.value', 'a.threshold', 'a.started_at', 'a.recovered_at'])
        .where('a.account_id', '=', req.user!.account_id);
      if (req.query.task_id) q = q.where('a.task_id', '=', req.query.task_id);
      const rows = await q.orderBy('a.id', 'desc').limit(req.query.limit).execute();
      const data: MonitorAlert[] = rows.map((r) => ({
        id: r.id,
        task_id: r.task_id,
        task_name: r.task_name,
        metric: r.metric as MonitorMetric,
        value: Number(r.value),
        threshold: Number(r.threshold),
        started_at: iso(r.started_at)!,
        recovered_at: iso(r.recovered_at),
      }));
      return ok(data);
    },
  );
}
