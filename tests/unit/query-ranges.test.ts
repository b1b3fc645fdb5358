/** The quick query ranges of spec 000 §9: 30 days, 3 months, 6 months, each ending today. */
import { QUERY_RANGES, rangeStart } from '../../src/shared/services';

test('30 days include today; a month range starts the day after the same day months ago', () => {
  const [days30, months3, months6] = QUERY_RANGES;
  expect(QUERY_RANGES.map((r) => r.label)).toEqual(['近 30 天', '近 3 个月', '近 6 个月']);
  expect(rangeStart(days30, '2026-11-22')).toBe('2026-10-24');
  expect(rangeStart(months3, '2026-11-22')).toBe('2026-08-23');
  expect(rangeStart(months6, '2026-11-22')).toBe('2026-05-23');
  // across a year and into a shorter month
  expect(rangeStart(days30, '2026-01-10')).toBe('2025-12-12');
  expect(rangeStart(months3, '2026-05-31')).toBe('2026-03-01');
  expect(rangeStart(months6, '2026-08-31')).toBe('2026-03-01');
});
