/**
 * The statistics queries (docs/statistics.md "Which table answers"): each picks the finest table
 * that holds the period and never reads a finer one than the answer needs.
 *
 *   no region/carrier, points of 5 min or 1 h, 5-minute rows present  → traffic_5m (also the 95)
 *   no region/carrier otherwise                                        → traffic_1h / traffic_1d
 *   region or carrier, hourly rows present                             → traffic_geo_1h (hourly points)
 *   region or carrier otherwise                                        → traffic_geo_1d (daily points)
 *   shares (pies, rankings)                                            → traffic_geo_1d, traffic_1d
 */
import { sql, type RawBuilder } from 'kysely';
import type { DB } from '../db';
import type { Scope } from './scope';
import type { Granularity, StatsQuery } from '../../shared/stats/params';
import { DAY_S, HOUR_S, SLOT_S, floorTo, midnightOf } from '../../shared/stats/time';
import { pointTimes } from '../../shared/stats/series';
import { billing95 } from '../../shared/stats/percentile';
import { bandwidthOf } from '../../shared/stats/units';
import { BEFORE_COMPRESSION } from './ingest';

export type Tier = '5m' | '1h' | '1d' | 'geo_1h' | 'geo_1d';

export interface Series {
  granularity: Granularity;
  tier: Tier;
  times: number[];
  /** bits per second: the highest 5-minute bandwidth in each point (average over the point for region tiers) */
  bandwidth: number[];
  /** bytes per point */
  traffic: number[];
  /** requests per point */
  requests: number[];
  /** security CDN: attack inflow and filtered bandwidth, bits per second */
  attack?: number[];
  filtered?: number[];
  /** the 5-minute samples behind the series (only from traffic_5m) */
  slots?: { start: number; bytes: Float64Array };
}

const ids = (scope: Scope) => sql.join(scope.domainIds.map((id) => sql`${id}::int`));
const col = (name: string) => sql.raw(name);
const ts = (epoch: number) => sql`to_timestamp(${epoch})`;

/**
 * The earliest instant a fine tier holds for the account; null when the tier is complete (no row:
 * nothing older exists in a coarser tier either — only the demo seed leaves older days out).
 */
export async function coverage(db: DB, accountId: number, tier: '5m' | '1h' | 'geo_1h'): Promise<number | null> {
  const row = await db.selectFrom('traffic_coverage').select('since').where('account_id', '=', accountId).where('tier', '=', tier).executeTakeFirst();
  return row ? Math.floor(new Date(row.since).getTime() / 1000) : null;
}

function geoWhere(q: Pick<StatsQuery, 'region' | 'isp'>): RawBuilder<unknown> {
  const parts: RawBuilder<unknown>[] = [];
  if (q.region) parts.push(sql`and region = ${q.region}`);
  if (q.isp) parts.push(sql`and carrier = ${q.isp}`);
  return parts.length ? sql.join(parts, sql` `) : sql``;
}

/**
 * Sums per 5-minute slot over the scope's domains: one row per slot, whatever the number of
 * domains (the database adds them up). The heaviest read of the section (docs/statistics.md). The
 * counters are summed as float8: sum(bigint) would add in numeric, which took most of the time (a
 * slot's total stays far below 2^53, where float8 is exact).
 */
export async function slotSums(db: DB, scope: Scope, start: number, end: number, withAttack = false, withBeforeCompression = false) {
  const n = Math.max(0, Math.ceil((end - start) / SLOT_S));
  const bytes = new Float64Array(n);
  const reqs = new Float64Array(n);
  const attack = withAttack ? new Float64Array(n) : null;
  const filtered = withAttack ? new Float64Array(n) : null;
  const beforeCp = withBeforeCompression ? new Float64Array(n) : null;
  if (scope.domainIds.length && n) {
    const rows = await sql<{ t: number; b: number; r: number; a: number; f: number; c: number }>`
      select extract(epoch from slot)::float8 as t, sum(${col(scope.bytesCol)}::float8) as b, sum(${col(scope.reqsCol)}::float8) as r
             ${withAttack ? sql`, sum(attack_bytes::float8) as a, sum(filtered_bytes::float8) as f` : sql``}
             ${withBeforeCompression ? sql`, sum(${col(beforeCompressionCol(scope))}::float8) as c` : sql``}
      from traffic_5m
      where domain_id in (${ids(scope)}) and flow_type = ${scope.flowType} and direction = ${scope.direction}
        and slot >= ${ts(start)} and slot < ${ts(end)}
      group by slot`.execute(db);
    for (const r of rows.rows) {
      const i = Math.round((Number(r.t) - start) / SLOT_S);
      if (i < 0 || i >= n) continue;
      bytes[i] = Number(r.b);
      reqs[i] = Number(r.r);
      if (attack) attack[i] = Number(r.a);
      if (filtered) filtered[i] = Number(r.f);
      if (beforeCp) beforeCp[i] = Number(r.c);
    }
  }
  return { start, bytes, reqs, attack, filtered, beforeCp };
}

/**
 * The bytes before compression of the scope's byte column: only the edge's bytes are compressed by the
 * edge (the IPv6 part, back-to-origin and PCDN have no figure of their own: as sent).
 */
export const beforeCompressionCol = (scope: Scope) => (scope.bytesCol === 'bytes' ? BEFORE_COMPRESSION : scope.bytesCol);

function pointIndex(times: number[], step: number) {
  const first = times[0] ?? 0;
  return (t: number) => (step === DAY_S ? Math.round((midnightOf(t) - first) / DAY_S) : Math.floor((t - first) / step));
}

/** Today ends with the last whole 5-minute slot: the running one has no data yet. */
export function completeEnd(q: Pick<StatsQuery, 'start' | 'end'>): number {
  return Math.max(q.start + SLOT_S, Math.min(q.end, Math.floor(Date.now() / 1000 / SLOT_S) * SLOT_S));
}

/**
 * The end of the drawn points: the last whole slot, or the running one when the scope's traffic comes
 * from the edge, which reports while the slot runs: a domain of the scope is served by the edge and no
 * other domain of it has traffic from elsewhere in the last two whole slots (the demo's replay, a
 * pipeline, which send a slot after it has ended: the running point would drop by their missing part).
 * docs/statistics.md "Edge traffic".
 */
export async function drawnEnd(db: DB, scope: Scope, q: Pick<StatsQuery, 'start' | 'end'>): Promise<number> {
  const whole = completeEnd(q);
  if (q.end <= whole || !scope.domainIds.length) return whole;
  const r = await sql<{ edge: boolean; other: boolean }>`
    select exists (select 1 from edge_traffic_domains where domain_id in (${ids(scope)})) as edge,
           exists (select 1 from traffic_5m where domain_id in (${ids(scope)}) and slot >= ${ts(whole - 2 * SLOT_S)}
                   and domain_id not in (select domain_id from edge_traffic_domains)) as other`.execute(db);
  return r.rows[0]?.edge && !r.rows[0]?.other ? Math.min(q.end, whole + SLOT_S) : whole;
}

/** The series of a query at its granularity (or the `interval` of a download). */
export async function series(db: DB, scope: Scope, q: StatsQuery, opts: { interval?: Granularity | null; keepSlots?: boolean } = {}): Promise<Series> {
  let step: Granularity = opts.interval ?? q.granularity;
  const start = q.start;
  const end = await drawnEnd(db, scope, q);
  const geo = Boolean(q.region || q.isp);
  const scdn = scope.flowType === 'scdn';
  if (!geo && step <= HOUR_S) {
    const since = await coverage(db, scope.account_id, '5m');
    if (since === null || since <= start) {
      const s = await slotSums(db, scope, start, end, scdn);
      const times = pointTimes(start, end, step);
      const at = pointIndex(times, step);
      const out: Series = { granularity: step, tier: '5m', times, bandwidth: times.map(() => 0), traffic: times.map(() => 0), requests: times.map(() => 0) };
      if (scdn) {
        out.attack = times.map(() => 0);
        out.filtered = times.map(() => 0);
      }
      for (let i = 0; i < s.bytes.length; i++) {
        const t = start + i * SLOT_S;
        if (t >= end) break;
        const k = at(t);
        if (k < 0 || k >= times.length) continue;
        out.traffic[k] += s.bytes[i];
        out.requests[k] += s.reqs[i];
        const bw = bandwidthOf(s.bytes[i], SLOT_S);
        if (bw > out.bandwidth[k]) out.bandwidth[k] = bw;
        if (scdn) {
          out.attack![k] = Math.max(out.attack![k], bandwidthOf(s.attack![i], SLOT_S));
          out.filtered![k] = Math.max(out.filtered![k], bandwidthOf(s.filtered![i], SLOT_S));
        }
      }
      if (opts.keepSlots) out.slots = { start, bytes: s.bytes };
      return out;
    }
    if (step === SLOT_S) step = HOUR_S; // no 5-minute rows for that period: hourly points
  }
  let tier: Tier;
  if (geo) {
    const since = await coverage(db, scope.account_id, 'geo_1h');
    tier = step <= HOUR_S && (since === null || since <= start) ? 'geo_1h' : 'geo_1d';
    step = tier === 'geo_1h' ? HOUR_S : DAY_S;
  } else {
    // no hourly rows that far back (the demo seed keeps them for its 5-minute days): daily points
    if (step === HOUR_S) {
      const since = await coverage(db, scope.account_id, '1h');
      if (since !== null && since > start) step = DAY_S;
    }
    tier = step === DAY_S ? '1d' : '1h';
  }
  const table = { '1h': 'traffic_1h', '1d': 'traffic_1d', geo_1h: 'traffic_geo_1h', geo_1d: 'traffic_geo_1d', '5m': 'traffic_5m' }[tier];
  const timeCol = tier.endsWith('1h') ? 'hour' : 'day';
  const from = step === DAY_S ? midnightOf(start) : floorTo(start, step);
  const times = pointTimes(start, end, step);
  const at = pointIndex(times, step);
  const out: Series = { granularity: step, tier, times, bandwidth: times.map(() => 0), traffic: times.map(() => 0), requests: times.map(() => 0) };
  if (scdn) {
    out.attack = times.map(() => 0);
    out.filtered = times.map(() => 0);
  }
  if (!scope.domainIds.length || !times.length) return out;
  // peak_bytes is the edge total's: the other columns draw the point's average bandwidth
  const peak = !geo && scope.bytesCol === 'bytes';
  const rows = await sql<{ t: number; b: number; r: number; pk: number; a: number; f: number }>`
    select extract(epoch from ${col(timeCol)})::float8 as t, sum(${col(scope.bytesCol)}::float8) as b, sum(${col(scope.reqsCol)}::float8) as r
           ${peak ? sql`, sum(peak_bytes)::float8 as pk` : sql``}
           ${scdn && !geo ? sql`, max(attack_bytes)::float8 as a, max(filtered_bytes)::float8 as f` : sql``}
    from ${sql.table(table)}
    where domain_id in (${ids(scope)}) and flow_type = ${scope.flowType} and direction = ${scope.direction}
      and ${col(timeCol)} >= ${ts(from)} and ${col(timeCol)} < ${ts(end)} ${geo ? geoWhere(q) : sql``}
    group by ${col(timeCol)}`.execute(db);
  for (const r of rows.rows) {
    const k = at(Number(r.t));
    if (k < 0 || k >= times.length) continue;
    out.traffic[k] += Number(r.b);
    out.requests[k] += Number(r.r);
    out.bandwidth[k] = peak ? bandwidthOf(Number(r.pk), SLOT_S) : bandwidthOf(Number(r.b), step);
    if (scdn && !geo) {
      // the coarse tiers keep sums: the attack's mean bandwidth over the point
      out.attack![k] = bandwidthOf(Number(r.a), step);
      out.filtered![k] = bandwidthOf(Number(r.f), step);
    }
  }
  return out;
}

/**
 * The billing 95 of the scope over the period (null when the period has no 5-minute rows). It covers the
 * services the month bill's 95 prices — those of kind cdn (price type `cdn`); file services, also drawn
 * under flow type cdn, are billed by their own mode (`file`) and left out, so the line and the bill are
 * the same number (issue 19; docs/statistics.md "The 95th percentile").
 */
export async function bandwidth95(db: DB, scope: Scope, q: StatsQuery, slots?: { start: number; bytes: Float64Array }) {
  const bucketIds = [...new Set([...scope.names.values()].map((n) => n.bucket_id))];
  const cdn = new Set(bucketIds.length ? (await db.selectFrom('buckets').select('id').where('id', 'in', bucketIds).where('kind', '=', 'cdn').execute()).map((b) => b.id) : []);
  const billed = scope.domainIds.filter((id) => cdn.has(scope.names.get(id)?.bucket_id ?? -1));
  if (billed.length !== scope.domainIds.length) {
    scope = { ...scope, domainIds: billed };
    slots = undefined;
  }
  if (!slots) {
    const since = await coverage(db, scope.account_id, '5m');
    if (since !== null && since > q.start) return null;
    slots = await slotSums(db, scope, q.start, completeEnd(q));
  }
  // samples grouped by CST day: days without usage are not valid (provider facts)
  const days: number[][] = [];
  const dayStarts: number[] = [];
  for (let i = 0; i < slots.bytes.length; i++) {
    const t = slots.start + i * SLOT_S;
    if (t >= completeEnd(q)) break;
    const d = midnightOf(t);
    if (dayStarts[dayStarts.length - 1] !== d) {
      dayStarts.push(d);
      days.push([]);
    }
    days[days.length - 1].push(bandwidthOf(slots.bytes[i], SLOT_S));
  }
  const r = billing95(days);
  // the time of the billed sample
  let time: number | null = null;
  if (r.index >= 0) {
    let idx = r.index;
    for (const d of r.validDays) {
      if (idx < days[d].length) {
        time = dayStarts[d] + idx * SLOT_S;
        break;
      }
      idx -= days[d].length;
    }
  }
  return { bandwidth95: r.value, time, samples: r.count, dropped: r.dropped, valid_days: r.validDays.length };
}

export interface Breakdown {
  region: string;
  carrier: string;
  bytes: number;
  reqs: number;
}

/** Region × carrier totals over the period's days (traffic_geo_1d). */
export async function geoTotals(db: DB, scope: Scope, q: StatsQuery): Promise<Breakdown[]> {
  if (!scope.domainIds.length) return [];
  const rows = await sql<Breakdown>`
    select region, carrier, sum(${col(scope.bytesCol)})::float8 as bytes, sum(${col(scope.reqsCol)})::float8 as reqs
    from traffic_geo_1d
    where domain_id in (${ids(scope)}) and flow_type = ${scope.flowType} and direction = ${scope.direction}
      and day >= ${ts(midnightOf(q.start))} and day < ${ts(q.end)} ${geoWhere(q)}
    group by region, carrier`.execute(db);
  return rows.rows.map((r) => ({ region: r.region, carrier: r.carrier, bytes: Number(r.bytes), reqs: Number(r.reqs) }));
}

/** Totals by day and domain from traffic_1d: the amount history, the rankings, the origin shares. */
export async function dailyRows(db: DB, scope: Scope, q: StatsQuery) {
  if (!scope.domainIds.length) return [];
  const rows = await sql<Record<string, number>>`
    select domain_id, extract(epoch from day)::float8 as t,
      bytes::float8, reqs::float8, hit_reqs::float8, dyn_reqs::float8, https_reqs::float8, bytes_v6::float8, reqs_v6::float8,
      bs_bytes::float8, bs_reqs::float8, p_bytes::float8, p_reqs::float8, peak_bytes::float8, extract(epoch from peak_at)::float8 as peak_at,
      s2xx::float8, s3xx::float8, s4xx::float8, s5xx::float8, time_ms::float8, attack_bytes::float8, filtered_bytes::float8,
      xss::float8, sql_inj::float8, other_attack::float8, ${col(beforeCompressionCol(scope))}::float8 as bf_cp_bytes
    from traffic_1d
    where domain_id in (${ids(scope)}) and flow_type = ${scope.flowType} and direction = ${scope.direction}
      and day >= ${ts(midnightOf(q.start))} and day < ${ts(q.end)}
    order by day, domain_id`.execute(db);
  return rows.rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v === null ? null : Number(v)])) as Record<string, number>);
}

/**
 * The period's bytes of the whole services the selection belongs to (every domain of each selected
 * service, or of each selected domain's service): the flow history's service_flow_total, beside
 * flow_total, which counts the selected domains.
 */
export async function serviceBytes(db: DB, scope: Scope, q: StatsQuery): Promise<number> {
  const buckets = [...new Set([...scope.names.values()].map((n) => n.bucket_id))];
  if (!buckets.length) return 0;
  const row = await sql<{ total: number | null }>`
    select sum(${col(scope.bytesCol)})::float8 as total
    from traffic_1d
    where domain_id in (select id from bucket_domains where bucket_id in (${sql.join(buckets.map((id) => sql`${id}::int`))}))
      and flow_type = ${scope.flowType} and direction = ${scope.direction}
      and day >= ${ts(midnightOf(q.start))} and day < ${ts(q.end)}`.execute(db);
  return Number(row.rows[0]?.total ?? 0);
}

/** Hourly (or 5-minute) health and status rows without region: status history and health degree. */
export async function healthRows(db: DB, scope: Scope, q: StatsQuery, step: Granularity): Promise<{ t: number; reqs: number; bytes: number; hit: number; s2xx: number; s3xx: number; s4xx: number; s5xx: number; time_ms: number; xss: number; sql_inj: number; other_attack: number }[]> {
  if (step === HOUR_S) {
    const since = await coverage(db, scope.account_id, '1h');
    if (since !== null && since > q.start) return healthRows(db, scope, q, DAY_S);
  }
  const times = pointTimes(q.start, await drawnEnd(db, scope, q), step);
  const empty = () => ({ reqs: 0, bytes: 0, hit: 0, s2xx: 0, s3xx: 0, s4xx: 0, s5xx: 0, time_ms: 0, xss: 0, sql_inj: 0, other_attack: 0 });
  const points = times.map((t) => ({ t, ...empty() }));
  if (!scope.domainIds.length || !times.length) return points;
  let table = 'traffic_1h';
  let timeCol = 'hour';
  if (step === SLOT_S) {
    const since = await coverage(db, scope.account_id, '5m');
    if (since === null || since <= q.start) [table, timeCol] = ['traffic_5m', 'slot'];
    else return healthRows(db, scope, q, HOUR_S);
  } else if (step === DAY_S) [table, timeCol] = ['traffic_1d', 'day'];
  const from = step === DAY_S ? midnightOf(q.start) : floorTo(q.start, step);
  const rows = await sql<Record<string, number>>`
    select extract(epoch from ${col(timeCol)})::float8 as t, sum(reqs)::float8 as reqs, sum(bytes)::float8 as bytes, sum(hit_reqs)::float8 as hit,
      sum(s2xx)::float8 as s2xx, sum(s3xx)::float8 as s3xx, sum(s4xx)::float8 as s4xx, sum(s5xx)::float8 as s5xx, sum(time_ms)::float8 as time_ms,
      sum(xss)::float8 as xss, sum(sql_inj)::float8 as sql_inj, sum(other_attack)::float8 as other_attack
    from ${sql.table(table)}
    where domain_id in (${ids(scope)}) and flow_type = ${scope.flowType} and direction = ${scope.direction}
      and ${col(timeCol)} >= ${ts(from)} and ${col(timeCol)} < ${ts(q.end)}
    group by ${col(timeCol)}`.execute(db);
  const at = pointIndex(times, step);
  for (const r of rows.rows) {
    const k = at(Number(r.t));
    if (k < 0 || k >= points.length) continue;
    for (const key of Object.keys(empty()) as (keyof ReturnType<typeof empty>)[]) points[k][key] += Number(r[key]);
  }
  return points;
}

export { HOUR_S, DAY_S, SLOT_S };
