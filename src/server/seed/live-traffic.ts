/**
 * The demo's log pipeline (docs/statistics.md "New traffic after start"): while the server runs, each
 * whole 5-minute slot that passes is sent for the demo's services through the same ingestion as a
 * real pipeline (ingestSlot: raw rows → 5-minute → hour → day → region tables), so the charts of the
 * demo keep moving. A slot replays the same slot of the day before — its traffic, region and carrier
 * shares, back-to-origin, IPv6 and PCDN parts — scaled by a noise factor of ±5 %, which keeps the
 * daily curve and the seed's profile of each domain without a jump where the seed ends. Attacks are
 * not replayed.
 *
 * Domains whose traffic comes from the edge (edge_traffic_domains, src/server/edge/traffic.ts) are not
 * replayed any more once the edge has reported them: the chart never mixes invented and real points.
 *
 * Only slots after the account's last 5-minute row (of the domains not served by the edge) are sent
 * (the seed's own slots have no raw rows to replace), at most DEMO_PIPELINE_CATCH_UP slots at a time:
 * after a long stop the gap stays, as it would for a real pipeline.
 */
import { sql } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { DB } from '../db';
import { BEFORE_COMPRESSION, ingestSlot } from '../stats/ingest';
import { DAY_S, HOUR_S, SLOT_S } from '../../shared/stats/time';
import { tickOnce } from '../jobs/once';

export const DEMO_PIPELINE_CATCH_UP = 12;

interface Slot5m {
  domain: string;
  flow_type: string;
  direction: string;
  [counter: string]: string | number;
}

const EDGE = ['hit_reqs', 'dyn_reqs', 'https_reqs'] as const;
const STATUS = ['s2xx', 's3xx', 's4xx', 's5xx', 'time_ms'] as const;

/** The records of one slot for one account: yesterday's same slot of each domain, times its factor. */
async function recordsFor(db: DB, accountId: number, slot: number, noise: () => number) {
  const prev = new Date((slot - DAY_S) * 1000);
  const hour = new Date((Math.floor((slot - DAY_S) / HOUR_S) * HOUR_S) * 1000);
  const rows = (
    await sql<Slot5m>`
      select d.domain, t.flow_type, t.direction, t.bytes, t.reqs, t.hit_reqs, t.dyn_reqs, t.https_reqs, t.bytes_v6, t.reqs_v6, t.bs_bytes, t.bs_reqs,
             t.p_bytes, t.p_reqs, t.s2xx, t.s3xx, t.s4xx, t.s5xx, t.time_ms, t.attack_bytes, ${sql.raw(BEFORE_COMPRESSION)} as bf_cp_bytes
      from traffic_5m t join bucket_domains d on d.id = t.domain_id
      where t.account_id = ${accountId} and t.slot = ${prev}
        -- a domain served by the edge has real traffic: nothing invented beside it from then on
        and t.domain_id not in (select domain_id from edge_traffic_domains)`.execute(db)
  ).rows;
  const cells = (
    await sql<{ domain: string; direction: string; region: string; carrier: string; bytes: number }>`
      select d.domain, g.direction, g.region, g.carrier, g.bytes
      from traffic_geo_1h g join bucket_domains d on d.id = g.domain_id
      where g.account_id = ${accountId} and g.hour = ${hour} and g.bytes > 0`.execute(db)
  ).rows;
  const records: Record<string, unknown>[] = [];
  for (const r of rows) {
    const n = (k: string) => Number(r[k]);
    const f = noise();
    const mine = cells.filter((c) => c.domain === r.domain && c.direction === r.direction);
    const total = mine.reduce((a, c) => a + Number(c.bytes), 0);
    const shares = total > 0 ? mine.map((c) => ({ region: c.region, isp: c.carrier, w: Number(c.bytes) / total })) : [{ region: 'other', isp: 'other', w: 1 }];
    const v4Bytes = n('bytes') - n('bytes_v6');
    const v4Reqs = n('reqs') - n('reqs_v6');
    const v4Part = n('reqs') > 0 ? v4Reqs / n('reqs') : 1;
    // what compression saved, as yesterday
    const beforeCp = n('bytes') > 0 ? n('bf_cp_bytes') / n('bytes') : 1;
    const base = { domain: r.domain, flow_type: r.flow_type, ...(r.direction ? { direction: r.direction } : {}) };
    const scaled = (v: number, w: number) => Math.max(0, Math.round(v * w * f));
    for (const { region, isp, w } of shares) {
      const cell = { ...base, region, isp };
      // edge IPv4 carries the status codes and response times; hits, dynamic and HTTPS requests split with the requests
      records.push({
        ...cell, flow_source: 'cdn', ip_type: 'ipv4', bytes: scaled(v4Bytes, w), bf_cp_bytes: scaled(v4Bytes * beforeCp, w), reqs: scaled(v4Reqs, w),
        ...Object.fromEntries(EDGE.map((k) => [k, scaled(n(k) * v4Part, w)])),
        ...Object.fromEntries(STATUS.map((k) => [k, scaled(n(k), w)])),
        // an attack is not replayed: the background level of a security CDN is about 1 % of its traffic
        ...(r.flow_type === 'scdn' ? { attack_bytes: scaled(Math.min(n('attack_bytes'), n('bytes') * 0.01), w), filtered_bytes: scaled(Math.min(n('attack_bytes'), n('bytes') * 0.01) * 0.9, w) } : {}),
      });
      if (n('bytes_v6') > 0) {
        records.push({ ...cell, flow_source: 'cdn', ip_type: 'ipv6', bytes: scaled(n('bytes_v6'), w), bf_cp_bytes: scaled(n('bytes_v6') * beforeCp, w), reqs: scaled(n('reqs_v6'), w), ...Object.fromEntries(EDGE.map((k) => [k, scaled(n(k) * (1 - v4Part), w)])) });
      }
      if (n('bs_bytes') > 0) records.push({ ...cell, flow_source: 'backsource', ip_type: 'ipv4', bytes: scaled(n('bs_bytes'), w), reqs: scaled(n('bs_reqs'), w) });
      if (n('p_bytes') > 0) records.push({ ...cell, flow_source: 'pcdn', ip_type: 'ipv4', bytes: scaled(n('p_bytes'), w), reqs: scaled(n('p_reqs'), w) });
    }
  }
  return records;
}

/** Sends the slots that passed since the account's last 5-minute row; returns the slots sent. */
export async function demoPipelineTick(db: DB, opts: { username?: string; now?: number; random?: () => number } = {}): Promise<number[]> {
  const user = await db.selectFrom('users').select('id').where('username', '=', opts.username ?? 'demo').executeTakeFirst();
  if (!user) return [];
  // the edge's domains fill their running slot as it runs: the replay follows the other domains' last slot
  const last = await db
    .selectFrom('traffic_5m')
    .select(sql<number>`extract(epoch from max(slot))::bigint`.as('s'))
    .where('account_id', '=', user.id)
    .where(sql<boolean>`domain_id not in (select domain_id from edge_traffic_domains)`)
    .executeTakeFirst();
  if (!last?.s) return []; // no demo traffic was seeded
  const now = opts.now ?? Math.floor(Date.now() / 1000);
  const lastWhole = Math.floor(now / SLOT_S) * SLOT_S - SLOT_S; // the newest slot that has ended
  const random = opts.random ?? Math.random;
  const sent: number[] = [];
  const first = Math.max(Number(last.s) + SLOT_S, lastWhole - (DEMO_PIPELINE_CATCH_UP - 1) * SLOT_S);
  for (let slot = first; slot <= lastWhole; slot += SLOT_S) {
    const records = await recordsFor(db, user.id, slot, () => 0.95 + 0.1 * random());
    if (!records.length) continue;
    await ingestSlot(db, user.id, slot, records as never);
    sent.push(slot);
  }
  return sent;
}

/** Runs the demo pipeline at start and every minute (a slot is sent once it has ended). */
export function scheduleDemoPipeline(db: DB, log: FastifyBaseLogger): () => void {
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      const sent = await tickOnce(db, 'demoTraffic', () => demoPipelineTick(db)); // one server at a time (../jobs/once.ts)
      if (sent?.length) log.debug({ slots: sent.length }, 'demo traffic sent');
    } catch (e) {
      log.error(e, 'demo traffic failed');
    } finally {
      running = false;
    }
  };
  void tick();
  const timer = setInterval(tick, 60_000);
  timer.unref();
  return () => clearInterval(timer);
}
