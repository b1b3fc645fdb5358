/**
 * Series as the server sends them and the charts draw them: points at a fixed step, values in base
 * units (bytes, bits per second, counts). Bucketing 5-minute samples into coarser points keeps the
 * series no longer than the chart can show (1 day: 288 points, ≤ 31 days: ≤ 744 hourly points, more:
 * daily points).
 */
import { DAY_S, SLOT_S, floorTo } from './time';
import { bandwidthOf } from './units';

/** Start times of the points of [start, end) at a step (days follow CST midnights). */
export function pointTimes(start: number, end: number, step: number): number[] {
  const out: number[] = [];
  for (let t = floorTo(start, step); t < end; t += step) out.push(t);
  return out;
}

export interface SlotSeries {
  /** epoch second of the first slot */
  start: number;
  /** one value per 5-minute slot */
  values: Float64Array;
}

/**
 * 5-minute byte counts → bandwidth points at a step: each point is the highest 5-minute bandwidth
 * inside it (bytes × 8 / 300), the way peak bandwidth is read per hour or day.
 */
export function peakBandwidthPoints(slots: SlotSeries, end: number, step: number): { t: number; v: number }[] {
  const times = pointTimes(slots.start, end, step);
  const out = times.map((t) => ({ t, v: 0 }));
  const first = times[0] ?? slots.start;
  for (let i = 0; i < slots.values.length; i++) {
    const ts = slots.start + i * SLOT_S;
    if (ts >= end) break;
    const k = step === DAY_S ? Math.floor((floorTo(ts, DAY_S) - first) / DAY_S) : Math.floor((ts - first) / step);
    const bw = bandwidthOf(slots.values[i], SLOT_S);
    if (out[k] && bw > out[k].v) out[k].v = bw;
  }
  return out;
}

/** 5-minute counts → sums per point. */
export function sumPoints(slots: SlotSeries, end: number, step: number): { t: number; v: number }[] {
  const times = pointTimes(slots.start, end, step);
  const out = times.map((t) => ({ t, v: 0 }));
  const first = times[0] ?? slots.start;
  for (let i = 0; i < slots.values.length; i++) {
    const ts = slots.start + i * SLOT_S;
    if (ts >= end) break;
    const k = step === DAY_S ? Math.floor((floorTo(ts, DAY_S) - first) / DAY_S) : Math.floor((ts - first) / step);
    if (out[k]) out[k].v += slots.values[i];
  }
  return out;
}

/** The peak of a series and its time. */
export function peakOf(points: { t: number; v: number }[]): { t: number; v: number } {
  let best = { t: points[0]?.t ?? 0, v: 0 };
  for (const p of points) if (p.v > best.v) best = p;
  return best;
}

/** Shares of a breakdown: the top n by value, the rest merged into 'other' (spec 001 §9). */
export function topWithOther<T extends { key: string; value: number }>(rows: T[], n: number, otherKey = 'other'): { key: string; value: number; share: number }[] {
  const total = rows.reduce((a, r) => a + r.value, 0);
  const sorted = [...rows].sort((a, b) => b.value - a.value || a.key.localeCompare(b.key));
  const head = sorted.slice(0, n).map((r) => ({ key: r.key, value: r.value }));
  const rest = sorted.slice(n).reduce((a, r) => a + r.value, 0);
  if (rest > 0) {
    const existing = head.find((h) => h.key === otherKey);
    if (existing) existing.value += rest;
    else head.push({ key: otherKey, value: rest });
  }
  return head.map((h) => ({ ...h, share: total ? Math.round((h.value / total) * 10000) / 100 : 0 }));
}
