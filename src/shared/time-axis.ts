/**
 * The time axis of every chart (statistics, dashboard, DDoS, log analysis): ticks on whole CST
 * minutes, hours or days — never at the odd instants a linear scale would choose (09:26, 12:13) —
 * and a date written once per day. The step is the smallest of STEPS that keeps the ticks at most
 * `maxTicks`.
 */
import { DAY_S, HOUR_S, TZ_OFFSET_S } from './stats/time';
import { formatAt } from './format';

const STEPS = [300, 600, 900, 1800, HOUR_S, 2 * HOUR_S, 3 * HOUR_S, 4 * HOUR_S, 6 * HOUR_S, 12 * HOUR_S, DAY_S, 2 * DAY_S, 7 * DAY_S, 14 * DAY_S, 28 * DAY_S];

export interface TimeTicks {
  /** epoch seconds of the ticks, ascending, all within [from, to] */
  values: number[];
  /** seconds between two ticks */
  step: number;
  /** whether the axis spans more than one day (hour ticks then name the day at midnight) */
  days: boolean;
}

/** Ticks between two epoch seconds, on whole CST steps, at most maxTicks (at least one step). */
export function timeTicks(from: number, to: number, maxTicks: number): TimeTicks {
  const span = Math.max(0, to - from);
  const limit = Math.max(1, Math.floor(maxTicks));
  const step = STEPS.find((s) => span / s <= limit) ?? Math.ceil(span / limit / DAY_S) * DAY_S;
  const values: number[] = [];
  // steps of whole days count from the first midnight in view; shorter ones are multiples of the step since midnight
  const unit = step >= DAY_S ? DAY_S : step;
  for (let t = Math.ceil((from + TZ_OFFSET_S) / unit) * unit - TZ_OFFSET_S; t <= to; t += step) values.push(t);
  return { values, step, days: span > DAY_S };
}

/** A tick's label: MM-DD for day steps and for midnight on a several-day axis, else HH:mm. */
export function timeTickLabel(t: number, ticks: Pick<TimeTicks, 'step' | 'days'>): string {
  if (ticks.step >= DAY_S) return formatAt(t, 'MM-DD');
  if (ticks.days && (t + TZ_OFFSET_S) % DAY_S === 0) return formatAt(t, 'MM-DD');
  return formatAt(t, 'HH:mm');
}
