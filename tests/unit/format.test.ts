/**
 * The shared formatting of what a customer reads (issue 20): times in China Standard Time whatever the
 * process's zone, chart ticks on whole hours and days, money and counts with one separator style,
 * request counts in 万次 / 亿次.
 */
import { formatAt, formatCount, formatFee, formatMoney } from '../../src/shared/format';
import { timeTicks, timeTickLabel } from '../../src/shared/time-axis';
import { formatRequests } from '../../src/shared/stats/units';
import { DAY_S, HOUR_S, dayStart } from '../../src/shared/stats/time';

test('times are China Standard Time in every shape, whatever the form of the value', () => {
  // 2026-11-20T16:30:05Z is 2026-11-21 00:30:05 in Beijing
  const iso = '2026-11-20T16:30:05.000Z';
  expect(formatAt(iso)).toBe('2026-11-21 00:30:05');
  expect(formatAt(new Date(iso), 'YYYY-MM-DD HH:mm')).toBe('2026-11-21 00:30');
  expect(formatAt(Date.parse(iso) / 1000, 'YYYY-MM-DD')).toBe('2026-11-21');
  expect(formatAt(iso, 'MM-DD HH:mm')).toBe('11-21 00:30');
  expect(formatAt(iso, 'MM-DD')).toBe('11-21');
  expect(formatAt(iso, 'HH:mm')).toBe('00:30');
  expect(formatAt('2026-11-20T19:30:05+03:00')).toBe('2026-11-21 00:30:05');
  // a date-time without a zone is already Beijing time; a date alone stays that date
  expect(formatAt('2026-11-21 00:30:05')).toBe('2026-11-21 00:30:05');
  expect(formatAt('2026-11-21', 'YYYY-MM-DD')).toBe('2026-11-21');
  expect(formatAt(null)).toBe('-');
  expect(formatAt('')).toBe('-');
  expect(formatAt('not a time')).toBe('-');
});

test('a 24-hour axis ticks on whole hours; a 7-day axis once per day at midnight, each day named once', () => {
  const t0 = dayStart('2026-11-20')! + 9 * HOUR_S + 26 * 60; // 09:26
  const day = timeTicks(t0, t0 + DAY_S, 8);
  expect(day.step % HOUR_S).toBe(0);
  expect(day.values.every((t) => (t % HOUR_S) === 0 && t >= t0 && t <= t0 + DAY_S)).toBe(true);
  expect(day.values.length).toBeLessThanOrEqual(8);
  const labels = day.values.map((t) => timeTickLabel(t, day));
  expect(labels.every((l) => /^(\d{2}:00|\d{2}-\d{2})$/.test(l))).toBe(true);
  expect(labels).toContain('12:00');

  const week = timeTicks(t0 - 6 * DAY_S, t0 + HOUR_S, 8);
  expect(week.step).toBe(DAY_S);
  const weekLabels = week.values.map((t) => timeTickLabel(t, week));
  expect(weekLabels).toEqual(['11-15', '11-16', '11-17', '11-18', '11-19', '11-20']);
  expect(new Set(weekLabels).size).toBe(weekLabels.length);

  // three days with hour ticks: the date at each midnight, hours between
  const three = timeTicks(dayStart('2026-11-18')!, dayStart('2026-11-21')!, 12);
  expect(three.step).toBe(6 * HOUR_S);
  expect(three.values.slice(0, 5).map((t) => timeTickLabel(t, three))).toEqual(['11-18', '06:00', '12:00', '18:00', '11-19']);
});

test('money has two decimals and comma separators; fees three; counts integers; requests in 万次 and 亿次', () => {
  expect(formatMoney(1288.5)).toBe('1,288.50');
  expect(formatMoney(2932.151)).toBe('2,932.15');
  expect(formatMoney(-3.1)).toBe('-3.10');
  expect(formatMoney(0)).toBe('0.00');
  expect(formatFee(2932.151)).toBe('2,932.151');
  expect(formatCount(1234567)).toBe('1,234,567');
  expect(formatRequests(9999)).toBe('9999 次');
  expect(formatRequests(35_000_000)).toBe('3500 万次');
  expect(formatRequests(250_000_000)).toBe('2.5 亿次');
});
