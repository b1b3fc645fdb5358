/**
 * The 95th percentile of billing (docs/statistics.md "The 95th percentile"): the 5-minute bandwidth
 * samples of the period's valid days (a day with any usage) are sorted from the highest, the top 5 %
 * are dropped — floor(n × 5 / 100) samples, counted over the valid samples — and the highest
 * remaining sample is the 95 value. With fewer than 20 samples nothing is dropped (the peak is billed).
 *
 * Example: 30 full days = 8640 samples, 432 dropped, the 433rd highest is billed; 1 day = 288
 * samples, 14 dropped (288 × 0.05 = 14.4, floored), the 15th highest is billed.
 */
export function droppedCount(n: number): number {
  // integer arithmetic: n * 5 / 100 floored, without floating error
  return Math.floor((n * 5) / 100);
}

export interface Percentile95 {
  /** the billed sample, in the samples' unit */
  value: number;
  /** its index in the samples as given (-1 when there is none) */
  index: number;
  /** samples considered */
  count: number;
  /** samples dropped from the top */
  dropped: number;
}

/** The 95 value of a list of samples (all considered valid). */
export function percentile95(samples: ArrayLike<number>): Percentile95 {
  const n = samples.length;
  if (n === 0) return { value: 0, index: -1, count: 0, dropped: 0 };
  const order = Array.from({ length: n }, (_, i) => i);
  // from the highest; ties keep the earlier sample first so the index is stable
  order.sort((a, b) => samples[b] - samples[a] || a - b);
  const dropped = droppedCount(n);
  const index = order[dropped];
  return { value: samples[index], index, count: n, dropped };
}

/**
 * The billing 95 over samples grouped by day: days without usage (every sample 0) are not valid
 * and contribute no samples. `days` holds, per day, that day's samples in time order; the returned
 * index points into the concatenation of the valid days' samples (`validOffsets` maps days to it).
 */
export function billing95(days: ArrayLike<number>[]): Percentile95 & { validDays: number[] } {
  const validDays: number[] = [];
  const all: number[] = [];
  days.forEach((d, i) => {
    let used = false;
    for (let k = 0; k < d.length; k++) if (d[k] > 0) used = true;
    if (!used) return;
    validDays.push(i);
    for (let k = 0; k < d.length; k++) all.push(d[k]);
  });
  return { ...percentile95(all), validDays };
}
