/**
 * Retention of the traffic tables: rows older than TRAFFIC_RETENTION_DAYS go, and a fine tier that
 * loses rows its coarser tier still has records where it now begins (traffic_coverage), so old
 * periods are still answered — from the coarser rows.
 */
import { sql } from 'kysely';
import { startTestServer, type TestServer } from './helpers';
import { purgeTraffic, retentionCutoff } from '../../src/server/stats/retention';
import { coverage } from '../../src/server/stats/query';
import { TRAFFIC_RETENTION_DAYS } from '../../src/shared/stats/constants';
import { DAY_S, midnightOf } from '../../src/shared/stats/time';

let s: TestServer;
let demoId = 0;
const now = Math.floor(Date.now() / 1000);

beforeAll(async () => {
  s = await startTestServer({ traffic: { days: 2, fiveMinuteDays: 2, geoHourlyDays: 2 } });
  demoId = (await s.db.selectFrom('users').select('id').where('username', '=', 'demo').executeTakeFirstOrThrow()).id;
});
afterAll(() => s.close());

const count = async (table: string, col: string, before: number) =>
  Number((await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)} where ${sql.ref(col)} < ${new Date(before * 1000)}`.execute(s.db)).rows[0].n);

/**
 * Copies the last 24 hours' rows of a table `daysBack` days into the past (the last 24 hours, not since
 * midnight: right after midnight (UTC+8) today has no rows yet — a CI rehearsal at 16:00 UTC found none).
 */
async function ageRows(table: string, col: string, daysBack: number) {
  const cols = (await sql<{ column_name: string }>`select column_name from information_schema.columns where table_name = ${table} order by ordinal_position`.execute(s.db)).rows.map((r) => r.column_name);
  const list = sql.join(cols.map((c) => sql.ref(c)));
  const select = sql.join(cols.map((c) => (c === col ? sql`${sql.ref(c)} - ${sql.lit(`${daysBack} days`)}::interval` : sql.ref(c))));
  const from = new Date((now - DAY_S) * 1000);
  await sql`insert into ${sql.table(table)} (${list}) select ${select} from ${sql.table(table)} where ${sql.ref(col)} >= ${from}`.execute(s.db);
}

test('each table drops what is older than its retention, and nothing newer', async () => {
  await ageRows('traffic_5m', 'slot', 100); // beyond 93 days
  await ageRows('traffic_5m', 'slot', 50); // within
  await ageRows('traffic_1d', 'day', 100); // the daily rows still reach there
  await ageRows('traffic_geo_1h', 'hour', 10); // beyond 7 days
  const cut5m = retentionCutoff('traffic_5m', now);
  expect(cut5m).toBe(midnightOf(now) - (TRAFFIC_RETENTION_DAYS.traffic_5m - 1) * DAY_S);
  const kept5m = (await count('traffic_5m', 'slot', now + DAY_S)) - (await count('traffic_5m', 'slot', cut5m));
  expect(await count('traffic_5m', 'slot', cut5m)).toBeGreaterThan(0);
  expect(await coverage(s.db, demoId, '5m')).toBeNull();

  const deleted = await purgeTraffic(s.db, now);
  expect(deleted.traffic_5m).toBeGreaterThan(0);
  expect(deleted.traffic_geo_1h).toBeGreaterThan(0);
  expect(deleted.traffic_1d).toBe(0);
  expect(await count('traffic_5m', 'slot', cut5m)).toBe(0);
  expect(await count('traffic_5m', 'slot', now + DAY_S)).toBe(kept5m);
  expect(await count('traffic_geo_1h', 'hour', retentionCutoff('traffic_geo_1h', now))).toBe(0);
  // the 5-minute and hourly-by-region tiers now begin at their cutoffs; the hourly tier lost nothing
  expect(await coverage(s.db, demoId, '5m')).toBe(cut5m);
  expect(await coverage(s.db, demoId, 'geo_1h')).toBe(retentionCutoff('traffic_geo_1h', now));
  expect(await coverage(s.db, demoId, '1h')).toBeNull();
  // a second run deletes nothing and keeps the coverage
  const again = await purgeTraffic(s.db, now);
  expect(Object.values(again).every((n) => n === 0)).toBe(true);
  expect(await coverage(s.db, demoId, '5m')).toBe(cut5m);
});
