/**
 * Retention of the traffic tables (docs/statistics.md "Retention"): each table drops the rows older
 * than its TRAFFIC_RETENTION_DAYS. When a fine tier (5-minute, hourly, hourly by region) loses rows
 * that a coarser tier still has, traffic_coverage records where the fine tier now begins, so the
 * queries answer older periods from the coarser rows instead of showing a hole.
 *
 * A delete by time reads the whole table once a day (the keys start with the domain); at a scale where
 * that matters the tables would be partitioned by day in PostgreSQL and a retention would drop
 * partitions. Both databases run the same statements here.
 */
import { sql } from 'kysely';
import type { DB } from '../db';
import { TRAFFIC_RETENTION_DAYS } from '../../shared/stats/constants';
import { DAY_S, midnightOf } from '../../shared/stats/time';

type Table = keyof typeof TRAFFIC_RETENTION_DAYS;
const TIME_COLUMN: Record<Table, string> = {
  traffic_ingest: 'slot',
  traffic_5m: 'slot',
  traffic_1h: 'hour',
  traffic_geo_1h: 'hour',
  traffic_1d: 'day',
  traffic_geo_1d: 'day',
};
/** the coverage tier a table is, and the coarser table that still reaches back further */
const TIERS: Partial<Record<Table, { tier: string; coarser: Table }>> = {
  traffic_5m: { tier: '5m', coarser: 'traffic_1d' },
  traffic_1h: { tier: '1h', coarser: 'traffic_1d' },
  traffic_geo_1h: { tier: 'geo_1h', coarser: 'traffic_geo_1d' },
};

/** The first instant a table keeps (midnight, UTC+8, of the oldest day kept). */
export function retentionCutoff(table: Table, nowS: number): number {
  return midnightOf(nowS) - (TRAFFIC_RETENTION_DAYS[table] - 1) * DAY_S;
}

export async function purgeTraffic(db: DB, nowS = Math.floor(Date.now() / 1000)): Promise<Record<string, number>> {
  const deleted: Record<string, number> = {};
  for (const table of Object.keys(TRAFFIC_RETENTION_DAYS) as Table[]) {
    const cutoff = new Date(retentionCutoff(table, nowS) * 1000);
    const tier = TIERS[table];
    await db.transaction().execute(async (trx) => {
      if (tier) {
        // every account whose coarser rows reach before the cutoff: the fine tier begins at the cutoff
        await sql`
          insert into traffic_coverage (account_id, tier, since)
          select distinct t.account_id, ${tier.tier}, ${cutoff}::timestamptz
          from ${sql.table(table)} t where t.${sql.ref(TIME_COLUMN[table])} < ${cutoff}
          on conflict (account_id, tier) do update set since = greatest(traffic_coverage.since, excluded.since)`.execute(trx);
      }
      const res = await sql`delete from ${sql.table(table)} where ${sql.ref(TIME_COLUMN[table])} < ${cutoff}`.execute(trx);
      deleted[table] = Number(res.numAffectedRows ?? 0);
    });
  }
  return deleted;
}
