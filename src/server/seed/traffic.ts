/**
 * The demo's traffic (docs/statistics.md "The demo seed"): about 182 days of believable statistics
 * for the services of the account demo — a daily curve with an evening bump, a weekly rhythm, slow
 * growth, regions and carriers in realistic shares, a few spikes and DDoS attacks on the security
 * CDN. Separate from seedDemo so tests that do not ask for it stay fast.
 *
 * Everything is generated inside the database (INSERT … SELECT over generate_series), in one
 * transaction: 5-minute rows only for the last `fiveMinuteDays` days with their hourly and daily
 * rollups, daily rows generated directly for the older days, and the region × carrier tables (hourly
 * for the last `geoHourlyDays` days, daily for all). traffic_coverage records where the 5-minute and
 * hourly rows begin, so older periods are answered from the daily rows. On PGlite the default (182 days) takes
 * about 10 s; SEED_TRAFFIC_DAYS makes it shorter (the browser tests use 8).
 */
import { sql } from 'kysely';
import type { DB } from '../db';
import { KIND_FLOW_TYPE } from '../../shared/stats/constants';
import { DAY_S, HOUR_S, SLOT_S, midnightOf } from '../../shared/stats/time';
import type { ServiceKind } from '../../shared/services';
import { ROLLUP_COLUMNS, ROLLUP_SUMS } from '../stats/ingest';

export interface TrafficSeedOptions {
  /** the account whose services get traffic (default demo) */
  username?: string;
  /** days of history, today included (default 182) */
  days?: number;
  /** days with 5-minute rows (default 32, at most `days`) */
  fiveMinuteDays?: number;
  /** days with hourly region × carrier rows (default 5) */
  geoHourlyDays?: number;
  /** the end of the data (default now); rows stop at the last whole 5-minute slot before it */
  now?: number;
  /** random seed, for reproducible data */
  seed?: number;
  /** told how many of the days are generated, as the seed goes (npm start prints it) */
  onProgress?: (daysDone: number, days: number) => void;
}

export interface TrafficSeedResult {
  seeded: boolean;
  ms: number;
  rows: Record<string, number>;
}

/** A small deterministic PRNG (mulberry32), so the same seed gives the same profiles. */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The daily means of the curve's two parts (shapeSql), for rows that stand for a whole day. */
const MEAN_D = (() => {
  let t = 0;
  for (let i = 0; i < 288; i++) t += 0.16 + 0.84 * Math.pow((1 - Math.cos((2 * Math.PI * (i / 12 - 4.5)) / 24)) / 2, 1.6);
  return +(t / 288).toFixed(6);
})();
const MEAN_EV = (() => {
  let t = 0;
  for (let i = 0; i < 288; i++) t += Math.exp(-Math.pow(i / 12 - 21, 2) / 3);
  return +(t / 288).toFixed(6);
})();

/** Mainland audience shares (roughly the provinces' share of internet users). */
const REGION_WEIGHTS: [string, number][] = [
  ['guangdong', 12], ['jiangsu', 7.5], ['shandong', 7], ['zhejiang', 6.5], ['henan', 6], ['sichuan', 5.5], ['hebei', 5],
  ['beijing', 4.5], ['shanghai', 4.5], ['hubei', 4.2], ['hunan', 4], ['fujian', 3.8], ['anhui', 3.5], ['liaoning', 3],
  ['shaanxi', 2.8], ['guangxi', 2.8], ['jiangxi', 2.6], ['chongqing', 2.4], ['yunnan', 2.2], ['tianjin', 1.8],
];
const OVERSEAS_REGIONS: [string, number][] = [['asia_pacific', 45], ['north_america', 25], ['europe', 20], ['oceania', 4], ['south_america', 3], ['africa', 3]];
/** Northern provinces lean to China Unicom, southern ones to China Telecom; mobile is everywhere. */
const NORTH = new Set(['beijing', 'tianjin', 'hebei', 'shandong', 'henan', 'liaoning', 'shanxi', 'jilin', 'heilongjiang', 'neimenggu']);

interface Profile {
  domain_id: number;
  bucket_id: number;
  account_id: number;
  flow_type: string;
  direction: string;
  /** average edge bytes per 5-minute slot at the daily peak */
  scale: number;
  avg_size: number;
  hit: number;
  dyn: number;
  https: number;
  v6: number;
  bs: number;
  pcdn: number;
  evening: number;
  weekend: number;
  ms: number;
  /** bytes before compression ÷ bytes sent − 1: what the edge's gzip and Brotli saved (text pages much, video nothing) */
  cp: number;
}

/** The profile of a domain's traffic by the kind of its service. */
function profileFor(kind: ServiceKind, name: string, rand: () => number): Omit<Profile, 'domain_id' | 'bucket_id' | 'account_id' | 'flow_type' | 'direction'> {
  return { ...trafficOf(kind, name, rand), cp: COMPRESSED[kind] };
}

/** Bytes before compression ÷ bytes sent − 1 by kind (fixed: the seed's random sequence stays the same). */
const COMPRESSED: Record<ServiceKind, number> = { cdn: 0.22, scdn: 0.28, overseas: 0.18, file: 0.03, fusion: 0.02, live: 0, websocket: 0 };

function trafficOf(kind: ServiceKind, name: string, rand: () => number): Omit<Profile, 'domain_id' | 'bucket_id' | 'account_id' | 'flow_type' | 'direction' | 'cp'> {
  const r = (a: number, b: number) => a + (b - a) * rand();
  const GB = 1024 ** 3;
  const base = { avg_size: 80 * 1024, hit: r(0.9, 0.97), dyn: r(0.02, 0.08), https: r(0.6, 0.85), v6: r(0.1, 0.25), bs: r(0.04, 0.1), pcdn: 0, evening: 0.15, weekend: 0.88, ms: r(60, 140) };
  switch (kind) {
    case 'file':
      return { ...base, scale: r(0.6, 1.2) * GB, avg_size: 300 * 1024, weekend: 0.8 };
    case 'cdn':
      if (name === 'demo-www' || name === 'demo-static') return { ...base, scale: r(3, 6) * GB, pcdn: r(0.12, 0.2) };
      return { ...base, scale: r(0.25, 1.5) * GB };
    case 'fusion':
      return { ...base, scale: r(2, 4) * GB, avg_size: 1.5 * 1024 * 1024, pcdn: r(0.25, 0.4), evening: 0.35, weekend: 1.15 };
    case 'scdn':
      return { ...base, scale: r(0.8, 1.6) * GB, dyn: r(0.15, 0.3), https: 0.98 };
    case 'live':
      return { ...base, scale: r(2, 5) * GB, avg_size: 1.2 * 1024 * 1024, hit: 0.99, dyn: 0, bs: 0.02, evening: 0.5, weekend: 1.2 };
    case 'websocket':
      return { ...base, scale: r(0.05, 0.2) * GB, avg_size: 4 * 1024, hit: 0, dyn: 1, bs: 0.9, evening: 0.1 };
    case 'overseas':
      return { ...base, scale: r(0.3, 0.8) * GB, v6: r(0.2, 0.35), evening: 0 };
  }
}

/** Region × carrier weights of a domain, summing to 1. */
function geoFor(flowType: string, rand: () => number): [string, string, number][] {
  if (flowType === 'overseas') {
    const cells = OVERSEAS_REGIONS.map(([r, w]) => [r, 'other', w * (0.8 + 0.4 * rand())] as [string, string, number]);
    const total = cells.reduce((a, c) => a + c[2], 0);
    return cells.map(([r, c, w]) => [r, c, w / total]);
  }
  // the 8 largest provinces always, 2 more of the rest, each weight perturbed by ±30 %
  const rest = REGION_WEIGHTS.slice(8).sort(() => rand() - 0.5).slice(0, 2);
  const regions = [...REGION_WEIGHTS.slice(0, 8), ...rest];
  const cells: [string, string, number][] = [];
  for (const [region, w0] of regions) {
    const w = w0 * (0.7 + 0.6 * rand());
    const north = NORTH.has(region);
    const split: [string, number][] = north
      ? [['ctn', 0.25], ['cmn', 0.35], ['cun', 0.34], ['small_operator', 0.06]]
      : [['ctn', 0.42], ['cmn', 0.36], ['cun', 0.16], ['small_operator', 0.06]];
    for (const [carrier, s] of split) cells.push([region, carrier, w * s * (0.85 + 0.3 * rand())]);
  }
  const total = cells.reduce((a, c) => a + c[2], 0);
  return cells.map(([r, c, w]) => [r, c, w / total]);
}

/**
 * The traffic seed's switches from the environment: SEED_TRAFFIC=0 skips it, SEED_TRAFFIC_DAYS
 * shortens the history (the browser tests' server uses 8 days to start fast).
 */
export function trafficSeedFromEnv(env: NodeJS.ProcessEnv = process.env): TrafficSeedOptions | null {
  const off = ['0', 'false', 'no', 'off'].includes((env.SEED_TRAFFIC ?? '').trim().toLowerCase());
  if (off) return null;
  const days = Number(env.SEED_TRAFFIC_DAYS);
  return Number.isFinite(days) && days > 0 ? { days: Math.floor(days) } : {};
}

export async function seedStatsSettings(db: DB, username = 'demo'): Promise<void> {
  const user = await db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirst();
  if (!user) return;
  await db.updateTable('users').set({ pcdn_open: true, mingmou: true }).where('id', '=', user.id).execute();
  await db
    .insertInto('account_price_config')
    .values({ account_id: user.id, service_type: 'cdn', amount_cal_type: 'MONTHLY_95' })
    .onConflict((oc) => oc.columns(['account_id', 'service_type']).doNothing())
    .execute();
  // demo2fa is billed by daily peak bandwidth: it never sees the 95 line
  const other = await db.selectFrom('users').select('id').where('username', '=', 'demo2fa').executeTakeFirst();
  if (other) {
    await db
      .insertInto('account_price_config')
      .values({ account_id: other.id, service_type: 'cdn', amount_cal_type: 'DAILY_BANDWIDTH' })
      .onConflict((oc) => oc.columns(['account_id', 'service_type']).doNothing())
      .execute();
  }
}

export async function seedTraffic(db: DB, opts: TrafficSeedOptions = {}): Promise<TrafficSeedResult> {
  const t0 = performance.now();
  const username = opts.username ?? 'demo';
  const days = Math.max(1, Math.min(182, opts.days ?? 182));
  const fiveDays = Math.max(1, Math.min(days, opts.fiveMinuteDays ?? 32));
  const geoHourDays = Math.max(1, Math.min(days, opts.geoHourlyDays ?? 5));
  const now = opts.now ?? Math.floor(Date.now() / 1000);
  const rand = prng(opts.seed ?? 20260101);

  const user = await db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirst();
  if (!user) return { seeded: false, ms: 0, rows: {} };
  const existing = await db.selectFrom('traffic_1d').select('domain_id').where('account_id', '=', user.id).limit(1).executeTakeFirst();
  if (existing) return { seeded: false, ms: 0, rows: {} };
  await seedStatsSettings(db, username);

  const domains = await db
    .selectFrom('bucket_domains as d')
    .innerJoin('buckets as b', 'b.id', 'd.bucket_id')
    .select(['d.id as domain_id', 'b.id as bucket_id', 'b.name', 'b.kind', 'b.status'])
    .where('b.owner_id', '=', user.id)
    .orderBy('d.id')
    .execute();
  const profiles: Profile[] = [];
  const geo: [number, string, string, string, number][] = [];
  for (const d of domains) {
    if (d.status !== 'NORMAL') continue;
    const kind = d.kind as ServiceKind;
    const flowType = KIND_FLOW_TYPE[kind];
    const prof = profileFor(kind, d.name, rand);
    const dirs = flowType === 'live' ? ['down', 'up'] : [''];
    const cells = geoFor(flowType, rand);
    for (const direction of dirs) {
      // live: the upstream (streamers) is a tenth of the downstream
      const scale = direction === 'up' ? prof.scale / 10 : prof.scale;
      profiles.push({ ...prof, scale, domain_id: d.domain_id, bucket_id: d.bucket_id, account_id: user.id, flow_type: flowType, direction });
      for (const [region, carrier, w] of cells) geo.push([d.domain_id, direction, region, carrier, w]);
    }
  }
  if (profiles.length === 0) return { seeded: false, ms: 0, rows: {} };

  const end = Math.floor(now / SLOT_S) * SLOT_S; // the last whole slot starts before `end`
  const today0 = midnightOf(now);
  const start = today0 - (days - 1) * DAY_S;
  const fiveStart = today0 - (fiveDays - 1) * DAY_S;
  const geoHourStart = today0 - (geoHourDays - 1) * DAY_S;

  // spikes: a few evenings with 2–3.5 × the usual traffic on some CDN domains; attacks on the security CDN
  const spikes: [number, string, number, number, number][] = [];
  const pick = <T,>(list: T[]) => list[Math.floor(rand() * list.length)];
  const spikeable = profiles.filter((p) => ['cdn', 'live', 'mingmou'].includes(p.flow_type) && p.direction !== 'up');
  const used = new Set<string>();
  for (let i = 0; i < Math.max(3, Math.round(days / 15)); i++) {
    const p = pick(spikeable);
    const day = today0 - Math.floor(rand() * days) * DAY_S;
    if (used.has(`${p.domain_id}/${day}`)) continue; // spikes never overlap
    used.add(`${p.domain_id}/${day}`);
    const from = day + (19 + Math.floor(rand() * 3)) * HOUR_S;
    spikes.push([p.domain_id, 'spike', from, from + (1 + Math.floor(rand() * 2)) * HOUR_S, 2 + rand() * 1.5]);
  }
  // the security CDN: an attack two days ago in the afternoon (visible in the default views) and older ones
  for (const p of profiles.filter((x) => x.flow_type === 'scdn')) {
    const dayBack = [Math.min(2, days - 1), Math.min(17, days - 1), Math.min(60, days - 1)];
    for (const back of [...new Set(dayBack)]) {
      const from = today0 - back * DAY_S + (14 + Math.floor(rand() * 4)) * HOUR_S + 1800;
      spikes.push([p.domain_id, 'attack', from, from + (90 + Math.floor(rand() * 90)) * 60, 40 + rand() * 60]);
    }
  }

  const rows: Record<string, number> = {};
  await db.transaction().execute(async (trx) => {
    const run = async (name: string, text: string) => {
      const t = performance.now();
      if (process.env.SEED_TRAFFIC_EXPLAIN === name) console.log((await sql.raw('explain analyze ' + text).execute(trx)).rows.map((r: any) => r['QUERY PLAN']).join('\n'));
      const res = await sql.raw(text).execute(trx);
      if (text.startsWith('insert into traffic_')) {
        const table = /^insert into (\w+)/.exec(text)![1];
        rows[table] = (rows[table] ?? 0) + Number(res.numAffectedRows ?? 0);
      }
      if (process.env.SEED_TRAFFIC_DEBUG) console.log(`  ${name}: ${Math.round(performance.now() - t)} ms`);
    };
    await sql`select setseed(0.2026)`.execute(trx);
    await sql`create temp table seed_profile (domain_id int, bucket_id int, account_id int, flow_type text, direction text, scale float8, avg_size float8, hit float8, dyn float8, https float8, v6 float8, bs float8, pcdn float8, evening float8, weekend float8, ms float8, cp float8) on commit drop`.execute(trx);
    await sql`create temp table seed_geo (domain_id int, direction text, region text, carrier text, w float8) on commit drop`.execute(trx);
    await sql`create temp table seed_spike (domain_id int, kind text, t0 bigint, t1 bigint, factor float8) on commit drop`.execute(trx);
    const values = profiles.map(
      (p) => sql`(${p.domain_id}::int, ${p.bucket_id}::int, ${p.account_id}::int, ${p.flow_type}, ${p.direction}, ${p.scale}::float8, ${p.avg_size}::float8, ${p.hit}::float8, ${p.dyn}::float8, ${p.https}::float8, ${p.v6}::float8, ${p.bs}::float8, ${p.pcdn}::float8, ${p.evening}::float8, ${p.weekend}::float8, ${p.ms}::float8, ${p.cp}::float8)`,
    );
    await sql`insert into seed_profile values ${sql.join(values)}`.execute(trx);
    for (let i = 0; i < geo.length; i += 500) {
      await sql`insert into seed_geo values ${sql.join(geo.slice(i, i + 500).map(([d, dir, r, c, w]) => sql`(${d}::int, ${dir}, ${r}, ${c}, ${w}::float8)`))}`.execute(trx);
    }
    await sql`insert into seed_spike values ${sql.join(spikes.map(([d, k, a, b, f]) => sql`(${d}::int, ${k}, ${a}::bigint, ${b}::bigint, ${f}::float8)`))}`.execute(trx);

    // the metrics of a row from its edge bytes `x.b` (and the slot count `n` it stands for)
    const metricCols = ROLLUP_COLUMNS;
    const metricSelect = (n: string) => `p.account_id, p.bucket_id, x.b, x.r,
      round(x.r * least(0.995, p.hit * (0.98 + 0.04 * x.q)))::bigint,
      round(x.r * p.dyn)::bigint,
      round(x.r * p.https)::bigint,
      round(x.b * p.v6 * (0.9 + 0.2 * x.q))::bigint,
      round(x.r * p.v6 * (0.9 + 0.2 * x.q))::bigint,
      round(x.b * p.bs * (0.8 + 0.4 * x.q))::bigint,
      round(x.r * (1 - least(0.995, p.hit * (0.98 + 0.04 * x.q))))::bigint,
      round(x.b * p.pcdn)::bigint,
      round(x.r * p.pcdn)::bigint,
      round(x.r * 0.93)::bigint, round(x.r * 0.045)::bigint, round(x.r * 0.02)::bigint,
      x.r - round(x.r * 0.93)::bigint - round(x.r * 0.045)::bigint - round(x.r * 0.02)::bigint,
      round(x.r * p.ms * (0.85 + 0.3 * x.q))::bigint,
      x.att, round(x.att * (case when x.att > x.b then 0.985 else 0.9 end))::bigint,
      case when p.flow_type = 'scdn' then round(${n} * (2 + 6 * x.q) * greatest(1, x.att / greatest(x.b, 1)))::bigint else 0 end,
      case when p.flow_type = 'scdn' then round(${n} * (1 + 3 * x.q))::bigint else 0 end,
      case when p.flow_type = 'scdn' then round(${n} * (3 + 10 * x.q) * greatest(1, x.att / greatest(x.b, 1)))::bigint else 0 end,
      round(x.b * (1 + p.cp * (0.9 + 0.2 * x.q)))::bigint`;
    /**
     * Edge bytes of every profile at each instant of [from, to] every `stepS` seconds (each standing
     * for `n` slots), with noise, spikes and (security CDN) attack bytes, into the temporary table
     * seed_x — computed once, then read by the INSERT that derives the other metrics. The curve is
     * computed per instant (seed_t), the spikes per instant they touch (seed_s): the big join is
     * plain arithmetic.
     */
    const base = async (name: string, from: number, to: number, stepS: number, n: number) => {
      for (const t of ['seed_x', 'seed_t', 'seed_s']) await sql`drop table if exists ${sql.table(t)}`.execute(trx);
      const h = `(((e + 28800) % 86400) / 3600.0)`;
      const dayN = `((e + 28800) / 86400)`;
      // a daily point stands for the whole day: the curve's daily means
      const d = stepS === DAY_S ? String(MEAN_D) : `0.16 + 0.84 * power((1 - cos(2 * pi() * (${h} - 4.5) / 24)) / 2, 1.6)`;
      const ev = stepS === DAY_S ? String(MEAN_EV) : `exp(-power(${h} - 21, 2) / 3.0)`;
      await run(`${name} curve`, `create temp table seed_t on commit drop as
        select e, ${d} as d, ${ev} as ev,
               ((${dayN}) + 4) % 7 in (0, 6) as wkend, 1 + 0.35 * ((${dayN}) - ${start / DAY_S}) / 182.0 as tr
        from generate_series(${from}::bigint, ${to}::bigint, ${stepS}::bigint) e`);
      await run(`${name} spikes`, `create temp table seed_s on commit drop as
        select domain_id, e, 1 + coalesce(max((factor - 1) * f) filter (where kind = 'spike'), 0) as sp, coalesce(max(factor * f) filter (where kind = 'attack'), 0) as atk
        from (
          select domain_id, kind, factor, e, (least(t1, e + ${stepS}) - greatest(t0, e))::float8 / ${stepS} as f
          from seed_spike cross join generate_series(((t0 + 28800) / ${stepS}) * ${stepS} - 28800, t1 - 1, ${stepS}::bigint) e
        ) w
        group by domain_id, e`);
      await run(`${name} base`, `create temp table seed_x on commit drop as
        select y.domain_id, y.direction, y.e, y.b, y.q,
               round(y.b / y.avg_size)::bigint + (case when y.b > 0 then 1 else 0 end) as r,
               case when y.flow_type = 'scdn' then round(y.b * 0.01 + y.atk * y.scale * ${n} * (0.85 + 0.3 * y.q))::bigint else 0 end as att
        from (
          select w.*, round(w.f * (0.9 + 0.2 * w.q))::bigint as b
          from (
            select p.domain_id, p.direction, p.flow_type, p.avg_size, p.scale, t.e, random() as q, coalesce(s.atk, 0) as atk,
                   p.scale * ${n} * (t.d + p.evening * t.ev) * (case when t.wkend then p.weekend else 1 end) * t.tr * coalesce(s.sp, 1) as f
            from seed_profile p
            cross join seed_t t
            left join seed_s s on s.domain_id = p.domain_id and s.e = t.e
          ) w
        ) y`);
    };

    // 1. 5-minute rows for the recent days, a few days at a time (progress for npm start)
    const chunkDays = 8;
    for (let from = fiveStart; from <= end - SLOT_S; from += chunkDays * DAY_S) {
      await base('5m', from, Math.min(from + chunkDays * DAY_S, end) - SLOT_S, SLOT_S, 1);
      await run('5m', `insert into traffic_5m (domain_id, flow_type, direction, slot, ${metricCols})
           select p.domain_id, p.flow_type, p.direction, to_timestamp(x.e), ${metricSelect('1')}
           from seed_x x join seed_profile p on p.domain_id = x.domain_id and p.direction = x.direction`);
      opts.onProgress?.(Math.min(fiveDays, Math.round((from + chunkDays * DAY_S - fiveStart) / DAY_S)), days);
    }
    // 2. hourly rollup of those 5-minute rows (peak = the largest slot, and when)
    const sums = ROLLUP_SUMS;
    await run('1h rollup', `insert into traffic_1h (domain_id, flow_type, direction, hour, ${metricCols}, peak_bytes, peak_at)
         select domain_id, flow_type, direction, date_trunc('hour', slot), min(account_id), min(bucket_id), ${sums},
                max(bytes), to_timestamp((max(array[bytes, -extract(epoch from slot)::bigint]))[2] * -1)
         from traffic_5m where slot >= to_timestamp(${fiveStart}) and domain_id in (select domain_id from seed_profile)
         group by domain_id, flow_type, direction, date_trunc('hour', slot)`);
    // 4. daily rollup of the hourly rows (CST days)
    const cstDay = (col: string) => `(date_trunc('day', ${col} + interval '8 hours') - interval '8 hours')`;
    await run('1d', `insert into traffic_1d (domain_id, flow_type, direction, day, ${metricCols}, peak_bytes, peak_at)
         select domain_id, flow_type, direction, ${cstDay('hour')}, min(account_id), min(bucket_id), ${sums},
                max(peak_bytes), to_timestamp((max(array[peak_bytes, -extract(epoch from peak_at)::bigint]))[2] * -1)
         from traffic_1h where domain_id in (select domain_id from seed_profile) and hour >= to_timestamp(${start})
         group by domain_id, flow_type, direction, ${cstDay('hour')}`);
    // 3. daily rows generated directly for the older days: the day's total from the curve's daily mean,
    //    the peak a 5-minute slot of the late afternoon or evening
    if (fiveStart > start) {
      await base('1d old', start, fiveStart - DAY_S, DAY_S, 288);
      await run('1d old', `insert into traffic_1d (domain_id, flow_type, direction, day, ${metricCols}, peak_bytes, peak_at)
           select p.domain_id, p.flow_type, p.direction, to_timestamp(x.e), ${metricSelect('288')},
                  round(x.b / 288.0 * (1.0 + p.evening * 0.6) / (${MEAN_D} + p.evening * ${MEAN_EV}) * (0.95 + 0.1 * x.q))::bigint,
                  to_timestamp(x.e + (16 + floor(x.q * 6)) * 3600 + floor(x.q * 12) * 300)
           from seed_x x join seed_profile p on p.domain_id = x.domain_id and p.direction = x.direction`);
    }
    opts.onProgress?.(days, days);
    // 5. region × carrier: each cell's share perturbed by hour of day (hourly rows) or day of week
    //    (daily rows), renormalised so that the cells of a row add up to its total
    // the region tables get the columns the region queries read (hit, dynamic and HTTPS counts stay 0 there)
    const geoCols = `account_id, bucket_id, bytes, reqs, bytes_v6, reqs_v6, bs_bytes, bs_reqs, p_bytes, p_reqs`;
    for (const [table, k] of [['seed_geo_h', 24], ['seed_geo_d', 7]] as const) {
      await run(table, `create temp table ${table} on commit drop as
        select domain_id, direction, k, region, carrier, w2 / sum(w2) over (partition by domain_id, direction, k) as s
        from (select g.*, k, g.w * (0.8 + 0.4 * random()) as w2 from seed_geo g cross join generate_series(0, ${k - 1}) k) z`);
    }
    const split = (src: string, time: string, pattern: string, key: string, from: number, to: number | null) => `
      select t.domain_id, t.flow_type, t.direction, t.${time}, g.region, g.carrier, t.account_id, t.bucket_id,
        round(t.bytes * g.s)::bigint, round(t.reqs * g.s)::bigint, round(t.bytes_v6 * g.s)::bigint, round(t.reqs_v6 * g.s)::bigint, round(t.bs_bytes * g.s)::bigint,
        round(t.bs_reqs * g.s)::bigint, round(t.p_bytes * g.s)::bigint, round(t.p_reqs * g.s)::bigint
      from ${src} t
      join ${pattern} g on g.domain_id = t.domain_id and g.direction = t.direction and g.k = ${key}
      where t.domain_id in (select domain_id from seed_profile) and t.${time} >= to_timestamp(${from})${to === null ? '' : ` and t.${time} < to_timestamp(${to})`}`;
    await run('geo_1h', `insert into traffic_geo_1h (domain_id, flow_type, direction, hour, region, carrier, ${geoCols}) ${split('traffic_1h', 'hour', 'seed_geo_h', "((extract(epoch from t.hour)::bigint + 28800) % 86400) / 3600", geoHourStart, null)}`);
    await run('geo_1d recent', `insert into traffic_geo_1d (domain_id, flow_type, direction, day, region, carrier, ${geoCols})
         select domain_id, flow_type, direction, ${cstDay('hour')}, region, carrier, min(account_id), min(bucket_id),
                sum(bytes), sum(reqs), sum(bytes_v6), sum(reqs_v6), sum(bs_bytes), sum(bs_reqs), sum(p_bytes), sum(p_reqs)
         from traffic_geo_1h where domain_id in (select domain_id from seed_profile) and hour >= to_timestamp(${geoHourStart})
         group by domain_id, flow_type, direction, ${cstDay('hour')}, region, carrier`);
    if (geoHourStart > start) {
      await run('geo_1d old', `insert into traffic_geo_1d (domain_id, flow_type, direction, day, region, carrier, ${geoCols}) ${split('traffic_1d', 'day', 'seed_geo_d', "((extract(epoch from t.day)::bigint + 28800) / 86400 + 4) % 7", start, geoHourStart)}`);
    }
  });
  // a fine tier that starts later than the history says so; one that holds the whole history needs no row
  for (const [tier, since] of [['5m', fiveStart], ['1h', fiveStart], ['geo_1h', geoHourStart]] as const) {
    if (since <= start) continue;
    await db
      .insertInto('traffic_coverage')
      .values({ account_id: user.id, tier, since: new Date(since * 1000) })
      .onConflict((oc) => oc.columns(['account_id', 'tier']).doUpdateSet({ since: new Date(since * 1000) }))
      .execute();
  }
  return { seeded: true, ms: Math.round(performance.now() - t0), rows };
}
