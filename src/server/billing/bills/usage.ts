/**
 * The stored usage a bill is computed from (docs/billing.md "Where usage comes from"): statistics'
 * traffic tables, summed per service type (the account's services of one kind) and CST day. Totals
 * come from traffic_1d; the 5-minute samples from traffic_5m where it still holds the day (else the
 * day's peak from traffic_1d stands for it); storage from the services' stored bytes.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type {} from '../tables';
import type { DB } from '../../db';
import { DAY_S, SLOT_S, dayOf } from '../../../shared/stats/time';
import type { PriceServiceType } from '../../../shared/billing/price';
import { SLOTS_PER_DAY, type DayUsage } from './compute';

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
  const buckets = await db.selectFrom('buckets').select(['id', 'name', 'kind', 'storage_used']).where('owner_id', '=', accountId).execute();
  const kinds = new Set(buckets.map((b) => b.kind));
  const byType = new Map<PriceServiceType, DayUsage[]>();
  const table = (t: PriceServiceType) => {
    let v = byType.get(t);
    if (!v) byType.set(t, (v = Array.from({ length: nDays }, (_, i) => emptyDay(start + i * DAY_S))));
    return v;
  };
  for (const k of KIND_TYPES) if (kinds.has(k)) table(k);
  const storage = buckets.filter((b) => b.kind === 'file').reduce((a, b) => a + Number(b.storage_used), 0);
  if (kinds.has('file')) for (const d of table('storage')) d.storage_bytes = storage;
  await loadMediaUsage(db, accountId, start, nDays, () => table('media'));
  if (!buckets.length) return { byType: dropIdle(byType), kinds };

  const domains = await db.selectFrom('bucket_domains').select(['id']).where('bucket_id', 'in', buckets.map((b) => b.id)).execute();
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
      const attacks = await sql<{ bucket_id: number; t: number; a: number }>`
        select bucket_id, t, max(a)::float8 as a from (
          select bucket_id, floor((extract(epoch from slot) - ${start}) / ${DAY_S})::int as t, sum(attack_bytes::float8) as a
          from traffic_5m where domain_id in (${ids}) and flow_type = 'scdn' and slot >= to_timestamp(${from}) and slot < to_timestamp(${end})
          group by bucket_id, slot) s
        group by bucket_id, t having max(a) > 0`.execute(db);
      for (const r of attacks.rows) {
        const d = scdn[Number(r.t)];
        if (d) (d.attacks ??= []).push({ bucket_name: nameOf.get(r.bucket_id) ?? String(r.bucket_id), bytes: Number(r.a) });
      }
    }
  }
  return { byType: dropIdle(byType), kinds, source: 'traffic_5m' };
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
