/**
 * The purge worker: the edge nodes do the tasks and report them (./outcome.ts, src/server/edge/purge.ts);
 * this pass settles what no report settles — without an edge (EDGE=off) a due task fails at once with
 * 本环境未运行边缘节点（EDGE=off），任务未执行, with no online node it fails with 没有在线的边缘节点，任务未执行,
 * and one no node finished within 10 minutes fails with the time-out. Nothing is marked done here.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { DB } from '../db';
import { settleDue } from './outcome';
import { tickOnce } from '../jobs/once';

/** Settles the due tasks no report settles; answers how many were finished. */
export async function processDue(db: DB, now = new Date(), opts: { edge: boolean } = { edge: true }): Promise<number> {
  return settleDue(db, now, opts.edge);
}

export function schedulePurgeWorker(db: DB, log: FastifyBaseLogger, opts: { edge: boolean } = { edge: true }, everyMs = 5000): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    tickOnce(db, 'purge', () => processDue(db, new Date(), opts)) // one server at a time (../jobs/once.ts)
      .then((n) => n && log.debug({ settled: n }, 'purge tasks settled'))
      .catch((e) => log.error(e, 'purge worker failed'))
      .finally(() => (running = false));
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
