/**
 * The purge worker: tasks whose time has come are sent to the edge and marked done. This
 * installation has no edge network to call, so "sending" is recording the completion; a real
 * deployment replaces `dispatch` with the call to its CDN's purge API.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { DB } from '../db';

export type Dispatch = (task: { id: number; kind: string; target: string }) => Promise<boolean>;

const recordOnly: Dispatch = async () => true;

/** Processes every due task once; returns how many were done. */
export async function processDue(db: DB, now = new Date(), dispatch: Dispatch = recordOnly): Promise<number> {
  const due = await db.selectFrom('purge_tasks').select(['id', 'kind', 'target']).where('status', '=', 'waiting').where('run_at', '<=', now).orderBy('id').limit(500).execute();
  for (const t of due) {
    const okDone = await dispatch(t).catch(() => false);
    await db.updateTable('purge_tasks').set({ status: okDone ? 'success' : 'failed', finished_at: new Date() }).where('id', '=', t.id).where('status', '=', 'waiting').execute();
  }
  return due.length;
}

export function schedulePurgeWorker(db: DB, log: FastifyBaseLogger, everyMs = 5000): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    processDue(db)
      .then((n) => n && log.debug({ purged: n }, 'purge tasks done'))
      .catch((e) => log.error(e, 'purge worker failed'))
      .finally(() => (running = false));
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
