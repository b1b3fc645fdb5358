/**
 * A purge or preheat task's outcome is what the edge did: each online edge node pulls the task over the
 * edge API (src/server/edge/purge.ts), acts on its own cache and reports; the task is finished when
 * every online node has reported — 成功 when all of them succeeded, else 失败 with their reasons.
 * docs/operations-tools.md "Purge and preheat".
 */
import { sql } from 'kysely';
import type { DB } from '../db';
import { PURGE_KIND_LABELS, PURGE_NODE_ALIVE_SECONDS, PURGE_NOTICE, PURGE_TEXTS, PURGE_TASK_TIMEOUT_MINUTES, type PurgeKind } from '../../shared/purge';
import { formatAt } from '../../shared/format';
import { notify } from '../messages/notify';
import './tables';

/**
 * nofi = 1: once every task of a submission has ended, one message (服务消息) says how many succeeded
 * and failed; the batch mark is cleared in the same transaction, so it is sent once.
 */
export async function notifyFinished(db: DB): Promise<number> {
  const batches = await db
    .selectFrom('purge_tasks')
    .select(['notify_batch', 'account_id', 'kind', sql<number>`count(*)::int`.as('total'), sql<number>`count(*) filter (where status = 'failed')::int`.as('failed'), sql<Date>`min(created_at)`.as('at'), sql<string>`min(target)`.as('first')])
    .where('notify_batch', 'is not', null)
    .groupBy(['notify_batch', 'account_id', 'kind'])
    .having(sql<boolean>`bool_and(status <> 'waiting')`)
    .execute();
  let n = 0;
  for (const b of batches) {
    const sent = await db.transaction().execute(async (trx) => {
      const r = await trx.updateTable('purge_tasks').set({ notify_batch: null }).where('notify_batch', '=', b.notify_batch).executeTakeFirst();
      if (!Number(r.numUpdatedRows)) return false; // another pass sent it
      const label = PURGE_KIND_LABELS[b.kind as PurgeKind] ?? b.kind;
      await notify(trx as unknown as DB, b.account_id, { category: 'service', title: PURGE_NOTICE.title(label), body: PURGE_NOTICE.body(label, formatAt(b.at), Number(b.total), Number(b.failed), b.first), link: '/purge/purge_log/' });
      return true;
    });
    if (sent) n++;
  }
  return n;
}

/** The edge nodes that called the edge API lately. */
export async function onlineNodes(db: DB, now = new Date()): Promise<{ id: number; name: string }[]> {
  return db
    .selectFrom('edge_nodes')
    .select(['id', 'name'])
    .where('last_seen_at', '>', new Date(now.getTime() - PURGE_NODE_ALIVE_SECONDS * 1000))
    .orderBy('id')
    .execute();
}

/** Sets the final state of the given waiting tasks whose online nodes have all reported; answers how many. */
export async function settle(db: DB, taskIds: number[], now = new Date()): Promise<number> {
  if (!taskIds.length) return 0;
  const online = await onlineNodes(db, now);
  const reports = await db
    .selectFrom('purge_task_nodes as r')
    .innerJoin('edge_nodes as n', 'n.id', 'r.node_id')
    .select(['r.task_id', 'r.node_id', 'n.name', 'r.ok', 'r.message', 'r.removed'])
    .where('r.task_id', 'in', taskIds)
    .orderBy('r.node_id')
    .execute();
  const byTask = new Map<number, typeof reports>();
  for (const r of reports) byTask.set(r.task_id, [...(byTask.get(r.task_id) ?? []), r]);
  let n = 0;
  for (const [taskId, rs] of byTask) {
    const reported = new Set(rs.map((r) => r.node_id));
    if (!online.every((o) => reported.has(o.id))) continue;
    const failed = rs.filter((r) => !r.ok);
    const several = rs.length > 1;
    const message = failed.length ? failed.map((r) => (several ? PURGE_TEXTS.onNode(r.name, r.message ?? '') : r.message ?? '')).join('；') : null;
    const removed = rs.reduce((a, r) => a + Number(r.removed), 0);
    const done = await db
      .updateTable('purge_tasks')
      .set({ status: failed.length ? 'failed' : 'success', message, removed, finished_at: now })
      .where('id', '=', taskId)
      .where('status', '=', 'waiting')
      .executeTakeFirst();
    n += Number(done.numUpdatedRows);
  }
  if (n) await notifyFinished(db);
  return n;
}

/** Records one node's outcomes (tasks since deleted are skipped) and settles the tasks. */
export async function recordOutcomes(db: DB, nodeId: number, results: { id: number; ok: boolean; message?: string; removed?: number }[], now = new Date()): Promise<number> {
  if (!results.length) return 0;
  const existing = new Set((await db.selectFrom('purge_tasks').select('id').where('id', 'in', results.map((r) => r.id)).execute()).map((r) => r.id));
  const rows = results
    .filter((r) => existing.has(r.id))
    .map((r) => ({ task_id: r.id, node_id: nodeId, ok: r.ok, message: r.ok ? null : (r.message ?? '').slice(0, 1000), removed: r.removed ?? 0, finished_at: now }));
  if (!rows.length) return 0;
  await db
    .insertInto('purge_task_nodes')
    .values(rows)
    .onConflict((oc) => oc.columns(['task_id', 'node_id']).doUpdateSet({ ok: sql`excluded.ok`, message: sql`excluded.message`, removed: sql`excluded.removed`, finished_at: sql`excluded.finished_at` }))
    .execute();
  return settle(db, rows.map((r) => r.task_id), now);
}

/**
 * The worker's pass over due tasks that are still waiting: without an edge (EDGE=off) they fail at once
 * (nothing was purged); with one, tasks every online node has done are settled (a node that went away
 * stops blocking), tasks no online node can take fail, and tasks older than the time-out fail.
 */
export async function settleDue(db: DB, now: Date, edge: boolean): Promise<number> {
  const due = await db.selectFrom('purge_tasks').select(['id', 'run_at']).where('status', '=', 'waiting').where('run_at', '<=', now).orderBy('id').limit(2000).execute();
  if (!due.length) return 0;
  const fail = async (ids: number[], message: string) => {
    if (!ids.length) return 0;
    const r = await db.updateTable('purge_tasks').set({ status: 'failed', message, finished_at: now }).where('id', 'in', ids).where('status', '=', 'waiting').executeTakeFirst();
    return Number(r.numUpdatedRows);
  };
  const n = await settleDueTasks(db, due, now, edge, fail);
  if (n) await notifyFinished(db);
  return n;
}

async function settleDueTasks(db: DB, due: { id: number; run_at: unknown }[], now: Date, edge: boolean, fail: (ids: number[], message: string) => Promise<number>): Promise<number> {
  if (!edge) return fail(due.map((t) => t.id), PURGE_TEXTS.noEdge);
  let n = await settle(db, due.map((t) => t.id), now);
  const still = await db.selectFrom('purge_tasks').select(['id', 'run_at']).where('id', 'in', due.map((t) => t.id)).where('status', '=', 'waiting').execute();
  if (!still.length) return n;
  const reported = new Set((await db.selectFrom('purge_task_nodes').select('task_id').where('task_id', 'in', still.map((t) => t.id)).execute()).map((r) => r.task_id));
  if (!(await onlineNodes(db, now)).length) n += await fail(still.filter((t) => !reported.has(t.id)).map((t) => t.id), PURGE_TEXTS.noNode);
  const late = new Date(now.getTime() - PURGE_TASK_TIMEOUT_MINUTES * 60_000);
  n += await fail(still.filter((t) => new Date(t.run_at as any) < late).map((t) => t.id), PURGE_TEXTS.timeout);
  return n;
}
