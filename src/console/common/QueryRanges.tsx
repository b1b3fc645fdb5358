/** The quick ranges beside a date range (spec 000 §9 QUERY_RANGES): each sets the start, the end is today. */
import { Button, ButtonGroup } from '@blueprintjs/core';
import dayjs from 'dayjs';
import { QUERY_RANGES, rangeStart } from '../../shared/services';

export function QueryRanges({ start, end, onChange }: { start: string; end: string; onChange(start: string, end: string): void }) {
  const today = dayjs().format('YYYY-MM-DD');
  return (
    <ButtonGroup className="query-ranges" aria-label="快捷时间范围">
      {QUERY_RANGES.map((r) => {
        const from = rangeStart(r, today);
        return <Button key={r.label} size="small" text={r.label} active={start === from && end === today} onClick={() => onChange(from, today)} />;
      })}
    </ButtonGroup>
  );
}
