/** Access logs are kept ACCESS_LOG_DAYS (+1, so the oldest askable CST day is whole); run hourly by the monitor worker's timer. */
import type { DB } from '../db';
import { ACCESS_LOG_DAYS } from '../../shared/monitor';
import '../monitor/tables';

export async function purgeAccessLogs(db: DB, now = new Date()): Promise<number> {
  const res = await db.deleteFrom('access_logs').where('at', '<', new Date(now.getTime() - (ACCESS_LOG_DAYS + 1) * 86_400_000)).executeTakeFirst();
  return Number(res.numDeletedRows);
}
