/** The quick ranges beside a date range (spec 000 §9 QUERY_RANGES): each sets the start, the end is today (the China Standard Time day). */
import { Button, ButtonGroup } from '@blueprintjs/core';
import { QUERY_RANGES, rangeStart } from '../../shared/services';
import { dayOf } from '../../shared/stats/time';

export function QueryRanges({ start, end, onChange }: { start: string; end: string; onChange(start: string, end: string): void }) {
  const today = dayOf(Math.floor(Date.now() / 1000));
  return (
    <ButtonGroup className="query-ranges" aria-label="快捷时间范围">
      {QUERY_RANGES.map((r) => {
        const from = rangeStart(r, today);
        return <Button key={r.label} size="small" text={r.label} active={start === from && end === today} onClick={() => onChange(from, today)} />;
      })}
    </ButtonGroup>
  );
}
