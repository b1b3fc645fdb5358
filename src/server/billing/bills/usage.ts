/**
 * The stored usage a bill is computed from (docs/billing.md "Where usage comes from"): statistics'
 * traffic tables, summed per service type (the account's services of one kind) and CST day. Totals
 * come from traffic_1d; the 5-minute samples from traffic_5m where it still holds the day (else the
 * day's peak from traffic_1d stands for it); storage from the services' stored bytes.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type {} from '../tables';
import type {} from '../storage/tables';
import type { DB } from '../../db';
import { DAY_S, SLOT_S, dayOf } from '../../../shared/stats/time';
import { OVERSEAS_OTHER_REGIONS, type PriceServiceType } from '../../../shared/billing/price';
import { SLOTS_PER_DAY, type DayUsage } from './compute';
import { packageOf } from '../../../shared/ddos';
import { isConsumedProduct } from '../../../shared/billing/consumption';

/** Price service types that come from a service kind's traffic. */
const KIND_TYPES = ['file', 'cdn', 'fusion', 'scdn', 'live', 'websocket', 'overseas'] as const;

export interface AccountUsage {
  /** per kind (and https, ucdn, storage): one DayUsage per day of the period, in order */
  byType: Map<PriceServiceType, DayUsage[]>;
  /** the kinds the account has services of */
  kinds: Set<string>;
  /** where the 5-minute samples came from */
  source?: 'traffic_5m' | 'bill_day_samples';
}

const emptyDay = (day: number): DayUsage => ({ day, bytes: 0, cheap_bytes: 0, up_bytes: 0, https_reqs: 0, dyn_reqs: 0, slots: null, cheap_slots: null, peak: { bytes: 0, at: day }, cheap_peak: { bytes: 0, at: day }, storage_bytes: 0 });

/** Usage of an account over `nDays` days from the CST midnight `start`. */
export async function loadUsage(db: DB, accountId: number, start: number, nDays: number, opts: { stored?: boolean } = {}): Promise<AccountUsage> {
  const end = start + nDays * DAY_S;
  const buckets = await db.selectFrom('buckets').select(['id', 'name', 'kind', 'storage_used', 'created_at']).where('owner_id', '=', accountId).execute();
  const kinds = new Set(buckets.map((b) => b.kind));
  const byType = new Map<PriceServiceType, DayUsage[]>();
  const table = (t: PriceServiceType) => {
    let v = byType.get(t);
    if (!v) byType.set(t, (v = Array.from({ length: nDays }, (_, i) => emptyDay(start + i * DAY_S))));
    return v;
  };
  for (const k of KIND_TYPES) if (kinds.has(k)) table(k);
  if (kinds.has('file')) await loadStorage(db, buckets.filter((b) => b.kind === 'file'), start, nDays, table('storage'));
  await loadMediaUsage(db, accountId, start, nDays, () => table('media'));
  await loadDdosAttacks(db, accountId, start, nDays, () => table('ddos'));
  await loadReported(db, accountId, start, nDays, table);
  if (!buckets.length) return { byType: dropIdle(byType), kinds };

  const domains = await db.selectFrom('bucket_domains').select(['id', 'bucket_id', 'created_at']).where('bucket_id', 'in', buckets.map((b) => b.id)).execute();
  // overseas guaranteed domains: the overseas services' domains that existed at the end of each day
  const overseas = new Set(buckets.filter((b) => b.kind === 'overseas').map((b) => b.id));
  if (overseas.size) {
    for (const d of table('overseas')) {
      const endOfDay = (d.day + DAY_S) * 1000;
      d.domains = domains.filter((x) => overseas.has(x.bucket_id) && new Date(x.created_at).getTime() < endOfDay).length;
    }
  }
  if (!domains.length) return { byType: dropIdle(byType), kinds };
  const ids = sql.join(domains.map((d) => sql`${d.id}::int`));
  const nameOf = new Map(buckets.map((b) => [b.id, b.name]));
  const dayIndex = (t: number) => Math.floor((t - start) / DAY_S);

  // daily totals and peaks (the sum of the domains' own 5-minute peaks: exact for one domain)
  // summed per kind in the database (one row per kind, direction and day, not per service); sums of
  // bigint are numeric in PostgreSQL and slow, float8 sums are exact below 2^53 bytes
  const daily = await sql<{ k: string; direction: string; t: number; b: number; p: number; h: number; d: number; pk: number; pat: number | null }>`
    select b.kind as k, t.direction, extract(epoch from t.day)::float8 as t, sum(t.bytes::float8) as b, sum(t.p_bytes::float8) as p,
           sum(t.https_reqs::float8) as h, sum(t.dyn_reqs::float8) as d, sum(t.peak_bytes::float8) as pk, extract(epoch from max(t.peak_at))::float8 as pat
    from traffic_1d t join buckets b on b.id = t.bucket_id
    where t.domain_id in (${ids}) and t.day >= to_timestamp(${start}) and t.day < to_timestamp(${end})
    group by b.kind, t.direction, t.day`.execute(db);
  for (const r of daily.rows) {
    const kind = r.k as PriceServiceType | undefined;
    const i = dayIndex(Number(r.t));
    if (!kind || i < 0 || i >= nDays) continue;
    const d = table(kind)[i];
    if (kind === 'live' && r.direction === 'up') {
      d.up_bytes += Number(r.b);
    } else {
      d.bytes += Number(r.b);
      d.cheap_bytes += Number(r.p);
      d.peak.bytes += Number(r.pk);
      if (r.pat) d.peak.at = Math.floor(Number(r.pat) / SLOT_S) * SLOT_S;
    }
    const hs = table('https')[i];
    hs.https_reqs += Number(r.h);
    const dy = table('ucdn')[i];
    dy.dyn_reqs += Number(r.d);
  }

  // overseas: the part of each day's traffic from Europe, the Americas and Africa pays the `other` ladder
  // (docs/billing.md "Regions"); the region tables keep the statistics' world regions
  const overseasDays = byType.get('overseas');
  if (overseasDays) {
    const others = await sql<{ t: number; b: number }>`
      select extract(epoch from g.day)::float8 as t, sum(g.bytes::float8) as b
      from traffic_geo_1d g join buckets b on b.id = g.bucket_id
      where g.domain_id in (${ids}) and b.kind = 'overseas' and g.direction <> 'up' and g.region in (${sql.join(OVERSEAS_OTHER_REGIONS.map((r) => sql`${r}`))})
        and g.day >= to_timestamp(${start}) and g.day < to_timestamp(${end})
      group by g.day`.execute(db);
    for (const r of others.rows) {
      const i = dayIndex(Number(r.t));
      if (i >= 0 && i < nDays) overseasDays[i].other_bytes = Number(r.b);
    }
  }

  // 5-minute samples where traffic_5m still holds the days
  const cov = await db.selectFrom('traffic_coverage').select('since').where('account_id', '=', accountId).where('tier', '=', '5m').executeTakeFirst();
  // the first whole day the 5-minute rows hold
  const since = cov ? new Date(cov.since).getTime() / 1000 : 0;
  const from = since > start ? start + Math.ceil((since - start) / DAY_S) * DAY_S : start;
  // a month bill reads the samples its day bills stored, when they cover every day and kind
  if (from < end && opts.stored) {
    const kindsHere = KIND_TYPES.filter((k) => byType.has(k));
    const rows = await db
      .selectFrom('bill_day_samples')
      .select(['service_type', 'day', 'slots', 'cheap_slots', 'attacks'])
      .where('account_id', '=', accountId)
      .where('day', '>=', new Date(from * 1000))
      .where('day', '<', new Date(end * 1000))
      .execute();
    const need = (end - from) / DAY_S;
    if (kindsHere.every((k) => rows.filter((r) => r.service_type === k).length === need)) {
      for (const r of rows) {
        const days = byType.get(r.service_type as PriceServiceType);
        const i = dayIndex(Math.round(new Date(r.day).getTime() / 1000));
        if (!days || i < 0 || i >= nDays) continue;
        const d = days[i];
        d.slots = r.slots ? Float64Array.from(r.slots) : new Float64Array(SLOTS_PER_DAY);
        d.cheap_slots = r.cheap_slots ? Float64Array.from(r.cheap_slots) : new Float64Array(SLOTS_PER_DAY);
        if (r.attacks?.length) d.attacks = r.attacks;
      }
      setPeaks(byType);
      return { byType: dropIdle(byType), kinds, source: 'bill_day_samples' };
    }
  }
  if (from < end) {
    for (const kind of KIND_TYPES) {
      const days = byType.get(kind);
      if (!days) continue;
      for (let i = dayIndex(from); i < nDays; i++) {
        days[i].slots = new Float64Array(SLOTS_PER_DAY);
        days[i].cheap_slots = new Float64Array(SLOTS_PER_DAY);
      }
    }
    const slots = await sql<{ k: string; t: number; b: number; p: number }>`
      select b.kind as k, extract(epoch from t.slot)::float8 as t, sum(t.bytes::float8) as b, sum(t.p_bytes::float8) as p
      from traffic_5m t join buckets b on b.id = t.bucket_id
      where t.domain_id in (${ids}) and t.slot >= to_timestamp(${from}) and t.slot < to_timestamp(${end}) and t.direction <> 'up'
      group by b.kind, t.slot`.execute(db);
    for (const r of slots.rows) {
      const days = byType.get(r.k as PriceServiceType);
      const t = Number(r.t);
      const i = dayIndex(t);
      if (!days || i < 0 || i >= nDays) continue;
      const j = Math.floor((t - days[i].day) / SLOT_S);
      (days[i].slots as Float64Array)[j] = Number(r.b);
      (days[i].cheap_slots as Float64Array)[j] = Number(r.p);
    }
    setPeaks(byType);
    const scdn = byType.get('scdn');
    if (scdn) {
      // each service's 5-minute attack bytes (summed over its domains); the highest slot of each day
      const attacks = await sql<{ bucket_id: number; s: number; a: number }>`
        select bucket_id, extract(epoch from slot)::float8 as s, sum(attack_bytes::float8) as a
        from traffic_5m where domain_id in (${ids}) and flow_type = 'scdn' and slot >= to_timestamp(${from}) and slot < to_timestamp(${end})
        group by bucket_id, slot having sum(attack_bytes::float8) > 0`.execute(db);
      const best = new Map<string, { bucket_id: number; t: number; a: number; s: number }>();
      for (const r of attacks.rows) {
        const s = Number(r.s);
        const t = dayIndex(s);
        const k = `${r.bucket_id}:${t}`;
        const cur = best.get(k);
        if (!cur || Number(r.a) > cur.a || (Number(r.a) === cur.a && s < cur.s)) best.set(k, { bucket_id: r.bucket_id, t, a: Number(r.a), s });
      }
      for (const r of best.values()) {
        const d = scdn[r.t];
        if (d) (d.attacks ??= []).push({ bucket_name: nameOf.get(r.bucket_id) ?? String(r.bucket_id), bytes: r.a, at: r.s });
      }
    }
  }
  return { byType: dropIdle(byType), kinds, source: 'traffic_5m' };
}

/**
 * Storage by the day (docs/billing.md "Storage by the day"): each file service's bytes at the end of each
 * day — its storage_daily row of that day, else its latest row before (nothing changed since); a day
 * before its first row counts that first row (what was stored when recording began), or the bytes stored
 * now when the service has no row at all; a day that ended before the service was created, with no row
 * on or before it, counts 0.
 */
async function loadStorage(db: DB, files: { id: number; storage_used: number | string; created_at: Date | string }[], start: number, nDays: number, days: DayUsage[]) {
  const end = start + nDays * DAY_S;
  const ids = files.map((f) => f.id);
  const [inPeriod, before, after] = await Promise.all([
    db.selectFrom('storage_daily').select(['bucket_id', 'day', 'bytes']).where('bucket_id', 'in', ids).where('day', '>=', new Date(start * 1000)).where('day', '<', new Date(end * 1000)).execute(),
    sql<{ bucket_id: number; bytes: string }>`select distinct on (bucket_id) bucket_id, bytes from storage_daily where bucket_id = any(${ids}) and day < to_timestamp(${start}) order by bucket_id, day desc`.execute(db),
    sql<{ bucket_id: number; bytes: string }>`select distinct on (bucket_id) bucket_id, bytes from storage_daily where bucket_id = any(${ids}) and day >= to_timestamp(${end}) order by bucket_id, day`.execute(db),
  ]);
  for (const f of files) {
    const rows = new Map(inPeriod.filter((r) => r.bucket_id === f.id).map((r) => [Math.round(new Date(r.day).getTime() / 1000), Number(r.bytes)]));
    const first = inPeriod.filter((r) => r.bucket_id === f.id).sort((a, b) => new Date(a.day).getTime() - new Date(b.day).getTime())[0];
    let last: number | undefined = before.rows.find((r) => r.bucket_id === f.id) ? Number(before.rows.find((r) => r.bucket_id === f.id)!.bytes) : undefined;
    const later = first ? Number(first.bytes) : after.rows.find((r) => r.bucket_id === f.id) ? Number(after.rows.find((r) => r.bucket_id === f.id)!.bytes) : Number(f.storage_used);
    const created = new Date(f.created_at).getTime() / 1000;
    for (const d of days) {
      const v = rows.get(d.day);
      if (v !== undefined) last = v;
      // a day that ended before the service existed, with no row of its own: nothing stored
      if (last === undefined && d.day + DAY_S <= created) continue;
      d.storage_bytes += last ?? later;
    }
  }
}

/**
 * Audio/video processing from the media worker's media_usage (docs/files-and-media.md): minutes and
 * tasks per usage key and day. Its `day` is the date the task finished, taken as the CST day.
 */
async function loadMediaUsage(db: DB, accountId: number, start: number, nDays: number, days: () => DayUsage[]) {
  const rows = await sql<{ d: string; usage_key: string; minutes: number; tasks: number }>`
    select to_char(day, 'YYYY-MM-DD') as d, usage_key, minutes::float8 as minutes, tasks
    from media_usage where account_id = ${accountId} and day >= ${dayOf(start)}::date and day <= ${dayOf(start + (nDays - 1) * DAY_S)}::date`.execute(db);
  if (!rows.rows.length) return;
  const list = days();
  for (const r of rows.rows) {
    const i = list.findIndex((d) => dayOf(d.day) === r.d);
    if (i < 0) continue;
    (list[i].media ??= {})[r.usage_key] = { minutes: Number(r.minutes), tasks: Number(r.tasks) };
  }
}

/**
 * DDoS attack peaks (docs/ddos.md tables): per instance of the account and CST day, the highest of its
 * 5-minute attack flow (ddos_flow_5m type 3, bit/s) and of the attacks that started that day
 * (ddos_attacks.peak_bps), with the time of that peak; the instance's package gives its guaranteed
 * protection. Only days with an attack are listed.
 */
async function loadDdosAttacks(db: DB, accountId: number, start: number, nDays: number, days: () => DayUsage[]) {
  const end = start + nDays * DAY_S;
  const rows = await sql<{ code: string; package: string; t: number; v: number; at: number }>`
    select i.name as code, i.package, x.t, x.v, x.at from ddos_instances i join (
      select instance_id, extract(epoch from ts)::float8 as at, value::float8 as v, floor((extract(epoch from ts) - ${start}) / ${DAY_S})::int as t
      from ddos_flow_5m where type = 3 and value > 0 and ts >= to_timestamp(${start}) and ts < to_timestamp(${end})
      union all
      select instance_id, extract(epoch from start_time)::float8, peak_bps::float8, floor((extract(epoch from start_time) - ${start}) / ${DAY_S})::int
      from ddos_attacks where peak_bps > 0 and start_time >= to_timestamp(${start}) and start_time < to_timestamp(${end})
    ) x on x.instance_id = i.id
    where i.account_id = ${accountId}`.execute(db);
  if (!rows.rows.length) return;
  const list = days();
  for (const r of rows.rows) {
    const d = list[Number(r.t)];
    if (!d) continue;
    const all = (d.ddos ??= []);
    let x = all.find((a) => a.code === r.code);
    if (!x) all.push((x = { code: r.code, peak_bps: 0, at: d.day, protect_gbps: packageOf(r.package)?.protect_gbps ?? 0 }));
    const v = Number(r.v);
    const at = Number(r.at);
    if (v > x.peak_bps || (v === x.peak_bps && at < x.at)) [x.peak_bps, x.at] = [v, at];
  }
}

/**
 * What the external products reported (external_usage, docs/billing.md "Usage reported by the external
 * products"): per product and CST day of the report, the quantity and what packages covered then.
 */
async function loadReported(db: DB, accountId: number, start: number, nDays: number, table: (t: PriceServiceType) => DayUsage[]) {
  const rows = await sql<{ product: string; d: string; q: number; c: number }>`
    select product, to_char(day, 'YYYY-MM-DD') as d, sum(quantity)::float8 as q, sum(covered)::float8 as c
    from external_usage where account_id = ${accountId} and day >= ${dayOf(start)}::date and day <= ${dayOf(start + (nDays - 1) * DAY_S)}::date
    group by product, day`.execute(db);
  for (const r of rows.rows) {
    if (!isConsumedProduct(r.product)) continue;
    const d = table(r.product).find((x) => dayOf(x.day) === r.d);
    if (d) d.reported = { quantity: Number(r.q), covered: Number(r.c) };
  }
}

/** Request charges exist only where there were requests. */
function dropIdle(byType: Map<PriceServiceType, DayUsage[]>) {
  for (const t of ['https', 'ucdn'] as const) {
    const days = byType.get(t);
    if (days && !days.some((d) => d.https_reqs + d.dyn_reqs > 0)) byType.delete(t);
  }
  return byType;
}

/** Peaks of the kind's sum per slot replace the daily approximation. */
function setPeaks(byType: Map<PriceServiceType, DayUsage[]>) {
  for (const days of byType.values()) {
    for (const d of days) {
      if (!d.slots || !d.cheap_slots) continue;
      let best = 0;
      let at = d.day;
      let cbest = 0;
      let cat = d.day;
      for (let j = 0; j < SLOTS_PER_DAY; j++) {
        if (d.slots[j] > best) [best, at] = [d.slots[j], d.day + j * SLOT_S];
        if (d.cheap_slots[j] > cbest) [cbest, cat] = [d.cheap_slots[j], d.day + j * SLOT_S];
      }
      d.peak = { bytes: best, at };
      d.cheap_peak = { bytes: cbest, at: cat };
    }
  }
}

/** What a day bill stores for the month bill: the day's summed samples per kind. */
export async function storeDaySamples(db: Kysely<Database>, accountId: number, usage: AccountUsage): Promise<void> {
  const rows = [];
  for (const k of KIND_TYPES) {
    for (const d of usage.byType.get(k) ?? []) {
      if (!d.slots) continue;
      const any = (a: ArrayLike<number> | null) => Boolean(a && Array.prototype.some.call(a, (v: number) => v > 0));
      rows.push({ account_id: accountId, service_type: k, day: new Date(d.day * 1000), slots: any(d.slots) ? JSON.stringify(Array.from(d.slots)) : null, cheap_slots: any(d.cheap_slots) ? JSON.stringify(Array.from(d.cheap_slots as ArrayLike<number>)) : null, attacks: d.attacks?.length ? JSON.stringify(d.attacks) : null });
    }
  }
  if (rows.length) await db.insertInto('bill_day_samples').values(rows).onConflict((oc) => oc.columns(['account_id', 'service_type', 'day']).doNothing()).execute();
}
