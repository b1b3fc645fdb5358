/**
 * The demo's log pipeline: the slots that pass after the seed are sent through the ingestion, replaying
 * the day before within ±5 %, once each, into every table the queries read.
 */
import { sql } from 'kysely';
import { startTestServer, type TestServer } from './helpers';
import { demoPipelineTick, DEMO_PIPELINE_CATCH_UP } from '../../src/server/seed/live-traffic';
import { DAY_S, SLOT_S, midnightOf } from '../../src/shared/stats/time';

let s: TestServer;
let demoId = 0;
// the seed ends at a slot boundary in the middle of a day (UTC+8), so the new slots stay within one day
const seedNow = midnightOf(Math.floor(Date.now() / 1000)) - DAY_S + 14 * 3600;
const lastSeeded = seedNow - SLOT_S;

beforeAll(async () => {
  s = await startTestServer({ traffic: { days: 2, fiveMinuteDays: 2, geoHourlyDays: 2, now: seedNow } });
  demoId = (await s.db.selectFrom('users').select('id').where('username', '=', 'demo').executeTakeFirstOrThrow()).id;
}, 120_000);
afterAll(() => s?.close());

const bytesAt = async (table: string, col: string, at: number) =>
  Number((await sql<{ b: number }>`select coalesce(sum(bytes), 0)::bigint as b from ${sql.table(table)} where account_id = ${demoId} and ${sql.ref(col)} = ${new Date(at * 1000)}`.execute(s.db)).rows[0].b);

const perDomain = async (at: number) =>
  new Map(
    (await sql<{ domain_id: number; direction: string; bytes: number }>`select domain_id, direction, bytes from traffic_5m where account_id = ${demoId} and slot = ${new Date(at * 1000)}`.execute(s.db)).rows.map((r) => [
      `${r.domain_id}/${r.direction}`,
      Number(r.bytes),
    ]),
  );

test('the slots after the seed are sent once, each the day before within ±5 %', async () => {
  const day = midnightOf(seedNow);
  const dayBefore = await bytesAt('traffic_1d', 'day', day);
  const geoBefore = await bytesAt('traffic_geo_1d', 'day', day);
  const sent = await demoPipelineTick(s.db, { now: seedNow + 3 * SLOT_S + 10 });
  expect(sent).toEqual([lastSeeded + SLOT_S, lastSeeded + 2 * SLOT_S, lastSeeded + 3 * SLOT_S]);

  let added = 0;
  for (const slot of sent) {
    const now = await perDomain(slot);
    const yesterday = await perDomain(slot - DAY_S);
    expect(now.size).toBe(yesterday.size);
    for (const [key, b] of yesterday) {
      const v = now.get(key)!;
      // rounding of the per-cell records adds at most a byte per cell
      expect(v).toBeGreaterThanOrEqual(Math.floor(b * 0.95) - 200);
      expect(v).toBeLessThanOrEqual(Math.ceil(b * 1.05) + 200);
      added += v;
    }
  }
  // the day and the region tables grew by exactly what the 5-minute rows hold
  expect(await bytesAt('traffic_1d', 'day', day)).toBe(dayBefore + added);
  expect(await bytesAt('traffic_geo_1d', 'day', day)).toBe(geoBefore + added);

  // nothing is sent twice
  expect(await demoPipelineTick(s.db, { now: seedNow + 3 * SLOT_S + 200 })).toEqual([]);
  // after a long stop only the last slots are sent; the gap stays
  const later = seedNow + 3 * SLOT_S + 2 * 3600;
  const caught = await demoPipelineTick(s.db, { now: later });
  expect(caught).toHaveLength(DEMO_PIPELINE_CATCH_UP);
  expect(caught[caught.length - 1]).toBe(Math.floor(later / SLOT_S) * SLOT_S - SLOT_S);
}, 120_000);

test('an account without seeded traffic gets nothing', async () => {
  expect(await demoPipelineTick(s.db, { username: 'demonew' })).toEqual([]);
  expect(await demoPipelineTick(s.db, { username: 'nobody' })).toEqual([]);
});
