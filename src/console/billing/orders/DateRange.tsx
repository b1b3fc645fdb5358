/**
 * The date range of the billing lists (order history, rebates, vouchers, resource packages): two date
 * inputs (开始日期, 结束日期) and the quick ranges. Days are China Standard Time days (src/shared/stats/time.ts)
 * whatever the browser's zone; the query sends the start day's midnight and the end day's midnight plus one
 * day (spec 001 §7 "End-date filters for orders, vouchers and resources add one day (86400 seconds)").
 */
import { Button, ControlGroup, InputGroup } from '@blueprintjs/core';
import { QueryRanges } from '../../common/QueryRanges';
import { END_DATE_EXTRA_SECONDS } from '../../../shared/billing-money';
import { dayOf, dayStart } from '../../../shared/stats/time';

/** Today, 'YYYY-MM-DD' in China Standard Time. */
export const todayCst = (): string => dayOf(Math.floor(Date.now() / 1000));

/** The query of a range: start_time = the start day's midnight, end_time = the end day's midnight + 86400 (end exclusive); an empty day sends nothing. */
export function rangeQuery(start: string, end: string): { start_time?: number; end_time?: number } {
  const s = start ? dayStart(start) : null;
  const e = end ? dayStart(end) : null;
  return { ...(s !== null ? { start_time: s } : {}), ...(e !== null ? { end_time: e + END_DATE_EXTRA_SECONDS } : {}) };
}

/**
 * The inputs and the quick ranges. `clearable`: the range may be empty (no dates = everything), and a
 * 清除日期 button empties it; otherwise a day cannot be emptied.
 */
export function DateRange({ start, end, onChange, clearable = false }: { start: string; end: string; onChange(start: string, end: string): void; clearable?: boolean }) {
  const today = todayCst();
  return (
    <>
      <ControlGroup className="date-range">
        <InputGroup type="date" aria-label="开始日期" value={start} max={end || today} onChange={(e) => (e.target.value || clearable) && onChange(e.target.value, end)} />
        <InputGroup type="date" aria-label="结束日期" value={end} min={start || undefined} max={today} onChange={(e) => (e.target.value || clearable) && onChange(start, e.target.value)} />
        {clearable && (start || end) && <Button variant="minimal" text="清除日期" onClick={() => onChange('', '')} />}
      </ControlGroup>
      <QueryRanges start={start} end={end} onChange={onChange} />
    </>
  );
}
