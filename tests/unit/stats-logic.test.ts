/**
 * The pure statistics logic of src/shared/stats: the billing 95th percentile on hand-computed data,
 * units and axis maxima (spec 001 §9), the parameter rules (spec 001 §5) and series bucketing.
 */
import {
  percentile95, billing95, droppedCount, axisMax, formatBytes, formatBandwidth, pickUnit, BANDWIDTH_UNITS, BYTE_UNITS, inUnit, round3,
  parseStatsQuery, dropEmpty, clampRange, granularityFor, dayStart, dayOf, addDays, formatTime, peakBandwidthPoints, sumPoints,
  topWithOther, shows95Line, percent2,
} from '../../src/shared/stats';

// 2026-03-10 12:00:00 CST
const NOW = (dayStart('2026-03-10') as number) + 12 * 3600;

describe('95th percentile (billing definition)', () => {
  it('drops floor(5 % of n) from the top and bills the highest remaining sample', () => {
    const twenty = Array.from({ length: 20 }, (_, i) => i + 1); // 1..20
    expect(percentile95(twenty)).toEqual({ value: 19, index: 18, count: 20, dropped: 1 });
    // shuffled order gives the same value; index points at the sample
    const shuffled = [7, 20, 3, 19, 1, 18, 2, 4, 5, 6, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17];
    expect(percentile95(shuffled)).toMatchObject({ value: 19, index: 3, dropped: 1 });
  });

  it('counts the 5 % by flooring: 19 samples drop none, 39 drop one, 40 drop two', () => {
    expect(droppedCount(19)).toBe(0);
    expect(droppedCount(20)).toBe(1);
    expect(droppedCount(39)).toBe(1);
    expect(droppedCount(40)).toBe(2);
    expect(percentile95(Array.from({ length: 19 }, (_, i) => i + 1)).value).toBe(19);
    expect(percentile95(Array.from({ length: 40 }, (_, i) => i + 1)).value).toBe(38);
  });

  it('one day of 288 samples drops 14 (14.4 floored); thirty days of 8640 drop 432', () => {
    expect(percentile95(Array.from({ length: 288 }, (_, i) => i + 1))).toMatchObject({ value: 274, dropped: 14 });
    expect(percentile95(Array.from({ length: 8640 }, (_, i) => i + 1))).toMatchObject({ value: 8208, dropped: 432 });
  });

  it('ties: equal samples at the cut still bill that value', () => {
    expect(percentile95([5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 100]).value).toBe(5);
    expect(percentile95([100, 100, ...Array(18).fill(1)]).value).toBe(100);
  });

  it('no samples → 0', () => {
    expect(percentile95([])).toEqual({ value: 0, index: -1, count: 0, dropped: 0 });
  });

  it('only valid days (with usage) contribute samples', () => {
    const idle = Array(20).fill(0);
    const busy = Array.from({ length: 20 }, (_, i) => (i + 1) * 10);
    const r = billing95([idle, busy, idle]);
    expect(r.validDays).toEqual([1]);
    expect(r.count).toBe(20);
    expect(r.value).toBe(190);
    // a day with a single non-zero sample is valid and brings all its samples (zeros included)
    const r2 = billing95([busy, [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]]);
    expect(r2.count).toBe(40);
    expect(r2.dropped).toBe(2);
    expect(r2.value).toBe(180);
  });
});

describe('units (spec 001 §9)', () => {
  it('bytes are 1024-based with 3 decimals', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(1024 ** 3 * 1.23456)).toBe('1.235 GB');
    expect(formatBytes(5 * 1024 ** 4)).toBe('5 TB');
  });
  it('bandwidth is 1000-based, Kbps by default', () => {
    expect(formatBandwidth(0)).toBe('0 Kbps');
    expect(formatBandwidth(999)).toBe('0.999 Kbps');
    expect(formatBandwidth(1_500_000)).toBe('1.5 Mbps');
    expect(formatBandwidth(2_345_678_901)).toBe('2.346 Gbps');
    expect(pickUnit(999_999, BANDWIDTH_UNITS).label).toBe('Kbps');
    expect(pickUnit(1024, BYTE_UNITS).label).toBe('KB');
    expect(inUnit(1234567, BANDWIDTH_UNITS[1])).toBe(1.235);
    expect(round3(0.1 + 0.2)).toBe(0.3);
  });
  it('axis maximum: 1.1 × peak rounded up, at least 1 (2 for attacks)', () => {
    expect(axisMax(0)).toBe(1);
    expect(axisMax(0.3)).toBe(1);
    expect(axisMax(10)).toBe(11);
    expect(axisMax(10.1)).toBe(12); // 11.11 → 12
    expect(axisMax(100)).toBe(110); // not 111 from 110.00000000000001
    expect(axisMax(0, 2)).toBe(2);
    expect(axisMax(1, 2)).toBe(2);
  });
  it('health percentages have two decimals', () => {
    expect(percent2(1, 3)).toBe(33.33);
    expect(percent2(0, 0)).toBe(0);
  });
});

describe('parameters (spec 001 §5)', () => {
  const ok = (raw: Record<string, unknown>) => {
    const r = parseStatsQuery(raw, NOW);
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    return r.query;
  };
  const errs = (raw: Record<string, unknown>) => {
    const r = parseStatsQuery(raw, NOW);
    return r.ok ? [] : r.errors.map((e) => e.path);
  };

  it('drops empty parameters', () => {
    expect(dropEmpty({ a: '', b: ' ', c: 'x', d: undefined, e: null, f: [], g: ['', 'y'], h: 0 })).toEqual({ c: 'x', g: ['y'], h: 0 });
    expect(ok({ region: '', isp: '', flow_source: '', ip_type: '', query_type: '', query_value: '' })).toMatchObject({ region: '', flow_source: 'cdn', query_type: '', values: [] });
  });

  it('defaults: period 1, end today, the end is now, start is today midnight', () => {
    const q = ok({});
    expect(q).toMatchObject({ period: 1, start_day: '2026-03-10', end_day: '2026-03-10', granularity: 300, flow_type: 'cdn' });
    expect(q.start).toBe(dayStart('2026-03-10'));
    expect(q.end).toBe(NOW);
  });

  it('an end day before today ends at the midnight after it; start = end day − (period − 1)', () => {
    const q = ok({ end_day: '2026-03-08', period: '7' });
    expect(q.start_day).toBe('2026-03-02');
    expect(q.start).toBe(dayStart('2026-03-02'));
    expect(q.end).toBe(dayStart('2026-03-09'));
    expect(q.granularity).toBe(3600);
    expect(formatTime(q.start)).toBe('2026-03-02 00:00:00');
  });

  it('a start day wins over the period, which becomes the inclusive day count', () => {
    const q = ok({ start_day: '2026-03-01', end_day: '2026-03-10', period: 3 });
    expect(q.period).toBe(10);
    expect(q.start_day).toBe('2026-03-01');
    expect(ok({ start_day: '2026-03-10', end_day: '2026-03-10' }).period).toBe(1);
  });

  it('start_time/end_time and from/to stand in for the days', () => {
    expect(ok({ start_time: '2026-03-01 00:00:00', end_time: '2026-03-03 00:00:00' })).toMatchObject({ start_day: '2026-03-01', end_day: '2026-03-02', period: 2 });
    const from = dayStart('2026-03-05') as number;
    expect(ok({ from: String(from), to: String(from + 86400) })).toMatchObject({ start_day: '2026-03-05', end_day: '2026-03-05' });
  });

  it('refuses malformed values', () => {
    expect(errs({ period: '0' })).toEqual(['/period']);
    expect(errs({ period: 'abc' })).toEqual(['/period']);
    expect(errs({ end_day: '2026-02-30' })).toEqual(['/end_day']);
    expect(errs({ end_day: '2026/03/01' })).toEqual(['/end_day']);
    expect(errs({ end_day: '2026-03-11' })).toEqual(['/end_day']);
    expect(errs({ start_day: '2026-03-09', end_day: '2026-03-08' })).toEqual(['/start_day']);
    expect(errs({ flow_type: 'ftp' })).toEqual(['/flow_type']);
    expect(errs({ flow_source: 'edge' })).toEqual(['/flow_source']);
    expect(errs({ ip_type: 'ipv4' })).toEqual(['/ip_type']);
    expect(errs({ live_type: 'sideways' })).toEqual(['/live_type']);
    expect(errs({ query_type: 'user' })).toEqual(['/query_type']);
    expect(errs({ query_value: 'a,b' })).toEqual(['/query_type']);
    expect(errs({ interval: '7' })).toEqual(['/interval']);
    expect(errs({ region: 'Bei Jing' })).toEqual(['/region']);
  });

  it('limits: 182 days back, 31 days span, 91 days when over the selection limit', () => {
    expect(errs({ start_day: addDays('2026-03-10', -182), end_day: addDays('2026-03-10', -170) })).toEqual([]);
    expect(errs({ start_day: addDays('2026-03-10', -183), end_day: addDays('2026-03-10', -170) })).toEqual(['/start_day']);
    expect(errs({ period: 31 })).toEqual([]);
    expect(errs({ period: 32 })).toEqual(['/period']);
    const many = Array.from({ length: 21 }, (_, i) => `b${i}`).join(',');
    expect(errs({ period: 91, query_type: 'bucket', query_value: many })).toEqual([]);
    expect(errs({ period: 92, query_type: 'bucket', query_value: many })).toEqual(['/period']);
    expect(ok({ period: 60, query_type: 'bucket', query_value: many }).granularity).toBe(86400);
  });

  it('granularity follows the span', () => {
    expect([1, 2, 31, 32, 91].map(granularityFor)).toEqual([300, 3600, 3600, 86400, 86400]);
  });

  it('the picker clamp: 182 days back, today at most, a span above the limit starts 30 days before the end', () => {
    expect(clampRange({ start_day: '2026-01-01', end_day: '2026-03-10' }, NOW, false)).toEqual({ start_day: '2026-02-08', end_day: '2026-03-10' });
    expect(clampRange({ start_day: '2026-01-01', end_day: '2026-03-10' }, NOW, true)).toEqual({ start_day: '2026-01-01', end_day: '2026-03-10' });
    expect(clampRange({ start_day: '2025-01-01', end_day: '2026-04-01' }, NOW, true)).toEqual({ start_day: '2025-12-10', end_day: '2026-03-10' });
    expect(clampRange({ start_day: '2026-03-01', end_day: '2026-03-05' }, NOW, false)).toEqual({ start_day: '2026-03-01', end_day: '2026-03-05' });
  });
});

describe('series', () => {
  const start = dayStart('2026-03-01') as number;
  it('5-minute bytes → hourly peak bandwidth and sums', () => {
    const values = new Float64Array(24); // two hours
    values[3] = 300_000; // 8 Mbps... 300000 B × 8 / 300 s = 8000 bps
    values[15] = 600_000;
    values[16] = 150_000;
    const slots = { start, values };
    expect(peakBandwidthPoints(slots, start + 7200, 3600)).toEqual([{ t: start, v: 8000 }, { t: start + 3600, v: 16000 }]);
    expect(sumPoints(slots, start + 7200, 3600)).toEqual([{ t: start, v: 300_000 }, { t: start + 3600, v: 750_000 }]);
    // daily points follow CST midnights
    expect(sumPoints(slots, start + 86400, 86400)).toEqual([{ t: start, v: 1_050_000 }]);
    expect(dayOf(start)).toBe('2026-03-01');
  });

  it('top 10 plus other', () => {
    const rows = Array.from({ length: 13 }, (_, i) => ({ key: `r${i}`, value: 13 - i }));
    const top = topWithOther(rows, 10);
    expect(top).toHaveLength(11);
    expect(top[10]).toEqual({ key: 'other', value: 3 + 2 + 1, share: 6.59 });
    expect(top[0].share).toBe(14.29);
  });

  it('the 95 line conditions', () => {
    expect(shows95Line({ amount_cal_type: 'MONTHLY_95' })).toBe(true);
    expect(shows95Line({ amount_cal_type: 'MONTHLY_95', region: 'beijing' })).toBe(false);
    expect(shows95Line({ amount_cal_type: 'MONTHLY_95', isp: 'ctn' })).toBe(false);
    expect(shows95Line({ amount_cal_type: 'MONTHLY_95', flow_source: 'backsource' })).toBe(false);
    expect(shows95Line({ amount_cal_type: 'MONTHLY_95', flow_type: 'live' })).toBe(false);
    expect(shows95Line({ amount_cal_type: 'DAILY_BANDWIDTH' })).toBe(false);
  });
});
