/**
 * Housekeeping, run at start and every hour: expired sessions, old sign-in attempts and codes,
 * purge records older than 3 days and SMS older than 30 days go; operation logs are kept. The traffic
 * tables keep what TRAFFIC_RETENTION_DAYS says (src/server/stats/retention.ts).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { DB } from '../db';
import { PURGE_RECORD_DAYS } from '../../shared/purge';
import { purgeTraffic } from '../stats/retention';
import { tickOnce } from './once';

const DAY = 86_400_000;

export async function cleanup(db: DB, now = Date.now()): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  const run = async (name: string, q: { executeTakeFirst(): Promise<{ numDeletedRows: bigint }> }) => {
    counts[name] = Number((await q.executeTakeFirst()).numDeletedRows);
  };
  await run('sessions', db.deleteFrom('sessions').where('expires_at', '<', new Date(now)));
  await run('signin_attempts', db.deleteFrom('signin_attempts').where('created_at', '<', new Date(now - DAY)));
  // sign-in and register_check counters whose window (at most an hour) ended a day ago
  await run('rate_limits', db.deleteFrom('rate_limits').where('window_start', '<', new Date(now - DAY)));
  await run('verification_codes', db.deleteFrom('verification_codes').where('expires_at', '<', new Date(now - DAY)));
  await run('purge_tasks', db.deleteFrom('purge_tasks').where('created_at', '<', new Date(now - PURGE_RECORD_DAYS * DAY)));
  await run('sms_outbox', db.deleteFrom('sms_outbox').where('created_at', '<', new Date(now - 30 * DAY)));
  Object.assign(counts, await purgeTraffic(db, Math.floor(now / 1000)));
  return counts;
}

export function scheduleCleanup(db: DB, log: FastifyBaseLogger): () => void {
  // one server at a time (./once.ts)
  const tick = () => tickOnce(db, 'cleanup', () => cleanup(db)).then((c) => c && log.debug({ cleanup: c }, 'cleanup'), (e) => log.error(e, 'cleanup failed'));
  void tick();
  const timer = setInterval(tick, 3_600_000);
  timer.unref();
  return () => clearInterval(timer);
}
