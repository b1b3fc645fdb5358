/**
 * The alarm worker: every minute each task is evaluated against the stored statistics (traffic_5m,
 * docs/statistics.md) over its period of whole 5-minute slots. Crossing the threshold opens an
 * incident (a monitor_alerts row; a unique index allows one open incident per task) and only the
 * opening alerts — by message (notify(), category alarm) and/or SMS. While the incident stays open
 * nothing more is sent (the cool-down); when the value comes back the incident is closed with a
 * recovery message, and a later crossing is a new incident that alerts again.
 */
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { DB } from '../db';
import type { SmsSender } from '../sms/outbox';
import { notify } from '../messages/notify';
import { formatMetric, MONITOR_EVERY_MS, MONITOR_METRICS, MONITOR_OPERATORS, MONITOR_SLOT_S, type MonitorMetric, type MonitorOperator } from '../../shared/monitor';
import { toTask } from './routes';
import { purgeAccessLogs } from '../loganalysis/retention';
import { tickOnce } from '../jobs/once';

interface SlotSums {
  bytes: number;
  reqs: number;
  hit_reqs: number;
  s4xx: number;
  s5xx: number;
}

/** The metric of a window's per-slot sums; null when there is nothing to judge. */
export function metricValue(metric: MonitorMetric, slots: SlotSums[]): number | null {
  if (slots.length === 0) return null;
  const total = (k: keyof SlotSums) => slots.reduce((a, s) => a + Number(s[k]), 0);
  const reqs = total('reqs');
  switch (metric) {
    case 'bandwidth':
      return Math.max(...slots.map((s) => (Number(s.bytes) * 8) / MONITOR_SLOT_S / 1e6));
    case 'requests':
      return reqs;
    case 'status_4xx':
      return reqs ? (total('s4xx') / reqs) * 100 : null;
    case 'status_5xx':
      return reqs ? (total('s5xx') / reqs) * 100 : null;
    case 'hit_rate':
      return reqs ? (total('hit_reqs') / reqs) * 100 : null;
  }
}

export const breaches = (operator: MonitorOperator, value: number, threshold: number) => (operator === 'gt' ? value > threshold : value < threshold);

export interface EvaluateResult {
  checked: number;
  alerted: number;
  recovered: number;
}

/** Evaluates every task once at `now`. */
export async function evaluateTasks(db: DB, sms: SmsSender | undefined, now = new Date()): Promise<EvaluateResult> {
  const result: EvaluateResult = { checked: 0, alerted: 0, recovered: 0 };
  const end = Math.floor(now.getTime() / 1000 / MONITOR_SLOT_S) * MONITOR_SLOT_S; // the running slot has no data yet
  const rows = await db.selectFrom('monitor_tasks').selectAll().orderBy('id').execute();
  for (const row of rows) {
    const task = toTask(row);
    const start = end - task.period * 60;
    // the domains of the task's services: traffic_5m's key starts with the domain
    const domains = task.buckets.length
      ? await db
          .selectFrom('bucket_domains as d')
          .innerJoin('buckets as b', 'b.id', 'd.bucket_id')
          .select('d.id')
          .where('b.owner_id', '=', row.account_id)
          .where('b.name', 'in', task.buckets)
          .execute()
      : [];
    const slots = domains.length
      ? await db
          .selectFrom('traffic_5m')
          .select([
            'slot',
            sql<number>`sum(bytes)`.as('bytes'),
            sql<number>`sum(reqs)`.as('reqs'),
            sql<number>`sum(hit_reqs)`.as('hit_reqs'),
            sql<number>`sum(s4xx)`.as('s4xx'),
            sql<number>`sum(s5xx)`.as('s5xx'),
          ])
          .where('domain_id', 'in', domains.map((d) => d.id))
          .where('slot', '>=', new Date(start * 1000))
          .where('slot', '<', new Date(end * 1000))
          .groupBy('slot')
          .execute()
      : [];
    const value = metricValue(task.metric, slots);
    result.checked++;
    if (value === null) {
      await db.updateTable('monitor_tasks').set({ state: 'no_data', last_value: null, checked_at: now }).where('id', '=', task.id).execute();
      continue;
    }
    const shown = formatMetric(task.metric, value);
    const label = MONITOR_METRICS[task.metric].label;
    if (breaches(task.operator, value, task.threshold)) {
      // opens the incident unless one is open: only the opening alerts
      const opened = await db
        .insertInto('monitor_alerts')
        .values({ account_id: row.account_id, task_id: task.id, value, threshold: task.threshold, started_at: now, recovered_at: null })
        .onConflict((oc) => oc.column('task_id').where('recovered_at', 'is', null).doNothing())
        .returning('id')
        .executeTakeFirst();
      await db.updateTable('monitor_tasks').set({ state: 'alarm', last_value: value, checked_at: now }).where('id', '=', task.id).execute();
      if (opened) {
        result.alerted++;
        const title = `监控告警：${task.name}`;
        const body = `${task.buckets.join('、')} 最近 ${task.period} 分钟${label}为 ${shown}，${MONITOR_OPERATORS[task.operator]}阈值 ${formatMetric(task.metric, task.threshold)}。`;
        await send(db, sms, row.account_id, task.notify_message, task.notify_sms, title, body);
      }
    } else {
      const closed = await db
        .updateTable('monitor_alerts')
        .set({ recovered_at: now })
        .where('task_id', '=', task.id)
        .where('recovered_at', 'is', null)
        .returning('id')
        .executeTakeFirst();
      await db.updateTable('monitor_tasks').set({ state: 'normal', last_value: value, checked_at: now }).where('id', '=', task.id).execute();
      if (closed) {
        result.recovered++;
        if (task.notify_message) {
          await notify(db, row.account_id, { category: 'alarm', title: `告警恢复：${task.name}`, body: `${task.buckets.join('、')} 最近 ${task.period} 分钟${label}为 ${shown}，已恢复正常。`, link: '/monitor/' });
        }
      }
    }
  }
  return result;
}

/** The message centre (with the SMS when asked), or the SMS alone when messages are off. */
async function send(db: DB, sms: SmsSender | undefined, accountId: number, byMessage: boolean, bySms: boolean, title: string, body: string) {
  if (byMessage) {
    await notify(db, accountId, { category: 'alarm', title, body, link: '/monitor/', sms: bySms ? sms : undefined });
    return;
  }
  if (bySms && sms) {
    const user = await db.selectFrom('users').select('mobile').where('id', '=', accountId).executeTakeFirst();
    if (user?.mobile) await sms.send({ userId: accountId, mobile: user.mobile }, 'notice:alarm', `【${title}】${body}`);
  }
}

export function scheduleMonitorWorker(db: DB, log: FastifyBaseLogger, sms: SmsSender, everyMs = MONITOR_EVERY_MS): () => void {
  let running = false;
  let purgedAt = 0;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    // one server at a time (../jobs/once.ts): the retention and the alarms (an SMS sent once)
    tickOnce(db, 'monitor', async () => {
      // hourly: access logs past their days (docs/operations-tools.md)
      if (Date.now() - purgedAt > 3_600_000) {
        purgedAt = Date.now();
        purgeAccessLogs(db).catch((e) => log.error(e, 'access log retention failed'));
      }
      return evaluateTasks(db, sms);
    })
      .then((r) => r && (r.alerted || r.recovered) && log.info(r, 'monitor alarms evaluated'))
      .catch((e) => log.error(e, 'monitor worker failed'))
      .finally(() => (running = false));
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
