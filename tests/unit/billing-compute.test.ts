/**
 * Bill computation on hand-built usage (docs/billing.md "How a bill is computed"): every bandwidth mode,
 * every ladder shape, packages, proration, discounts. Each expected value is worked out in the comment
 * beside it.
 */
import { applyLadder, billedBandwidth, computeService, GB, type DayUsage } from '../../src/server/billing/bills/compute';
import { defaultPriceConfig, discountText, ladderProblem, UNBOUNDED, type AmountCalType, type Ladder, type ServicePriceConfig } from '../../src/shared/billing/price';
import { billDay, billId, isOldLayout, round3 } from '../../src/shared/billing/bills';
import { voucherStatus } from '../../src/shared/billing/vouchers';
import { moneyParts } from '../../src/shared/billing/header';
import { flowRemain } from '../../src/shared/billing/resources';
import { parseLadder } from '../../src/server/billing/commands';
import { mergeConfig } from '../../src/server/billing/price';
import { dayStart } from '../../src/shared/stats/time';

const D0 = dayStart('2026-03-01') as number;
const DAY = 86400;
/** Mbps → bytes in a 5-minute slot (Mbps × 10^6 × 300 s / 8) */
const bytesOf = (mbps: number) => (mbps * 1e6 * 300) / 8;

function day(i: number, mbps: number[] | null, extra: Partial<DayUsage> = {}): DayUsage {
  const slots = mbps ? Float64Array.from(mbps, bytesOf) : null;
  let peak = { bytes: 0, at: D0 + i * DAY };
  if (slots) slots.forEach((b, j) => b > peak.bytes && (peak = { bytes: b, at: D0 + i * DAY + j * 300 }));
  return { day: D0 + i * DAY, bytes: slots ? slots.reduce((a, b) => a + b, 0) : 0, cheap_bytes: 0, up_bytes: 0, https_reqs: 0, dyn_reqs: 0, slots, cheap_slots: slots ? new Float64Array(288) : null, peak, cheap_peak: { bytes: 0, at: D0 }, storage_bytes: 0, ...extra };
}
const ramp = (from: number) => Array.from({ length: 288 }, (_, i) => from + i);
const flatDay = (v: number) => new Array(288).fill(v);
const zeros = () => new Array(288).fill(0);
const flat = (p: number): Ladder => [{ min: 0, max: UNBOUNDED, unit_price: p }];

function bandwidthCfg(mode: AmountCalType, ladder: Ladder, discount = 100): ServicePriceConfig {
  const base = defaultPriceConfig().cdn;
  return { ...base, amount_cal_type: mode, period_bill_type: ['DAILY_95', 'DAILY_HIGHEST'].includes(mode) ? 'DAY' : 'MONTH', charge_dimension: 'bandwidth', discount, unit_price_ladder: ladder, regions: { domestic: ladder, asia_pacific: ladder, other: ladder }, cheap_unit_price_ladder: null };
}
function trafficCfg(mode: AmountCalType, ladder: Ladder): ServicePriceConfig {
  const base = defaultPriceConfig().cdn;
  return { ...base, amount_cal_type: mode, period_bill_type: mode === 'MONTHLY' ? 'MONTH' : 'DAY', unit_price_ladder: ladder, regions: { domestic: ladder, asia_pacific: ladder, other: ladder }, cheap_unit_price_ladder: null };
}

describe('ladders, applied step by step', () => {
  it('one unbounded step: 10 GB × 0.29 = 2.9', () => {
    expect(applyLadder(10, flat(0.29)).amount).toBe(2.9);
  });
  it('two steps: 150 on 0–100 at 1 and 100– at 0.5 = 100 + 25 = 125', () => {
    const r = applyLadder(150, [{ min: 0, max: 100, unit_price: 1 }, { min: 100, max: UNBOUNDED, unit_price: 0.5 }]);
    expect(r.amount).toBe(125);
    expect(r.steps.map((s) => s.used)).toEqual([100, 50]);
    expect(r.steps.map((s) => s.amount)).toEqual([100, 25]);
  });
  it('usage exactly on a boundary leaves the next step empty', () => {
    const r = applyLadder(100, [{ min: 0, max: 100, unit_price: 1 }, { min: 100, max: UNBOUNDED, unit_price: 0.5 }]);
    expect(r.steps.map((s) => s.used)).toEqual([100, 0]);
    expect(r.amount).toBe(100);
  });
  it('three steps: 25 on 0–10 at 3, 10–20 at 2, 20– at 1 = 30 + 20 + 5 = 55', () => {
    expect(applyLadder(25, parseLadder('0-10:3,10-20:2,20-:1')).amount).toBe(55);
  });
  it('a free first step (0–10 at 0) then 0.1: 15 → 0.5', () => {
    expect(applyLadder(15, parseLadder('0-10:0,10-:0.1')).amount).toBe(0.5);
  });
  it('checks ladders: gaps, a bounded last step and negative prices are refused', () => {
    expect(ladderProblem(parseLadder('0-10:1,10-:0.5'))).toBeNull();
    expect(ladderProblem(parseLadder('0-10:1,11-:0.5'))).toContain('min 应为 10');
    expect(ladderProblem([{ min: 0, max: 10, unit_price: 1 }])).toContain('不封顶');
    expect(ladderProblem([{ min: 0, max: UNBOUNDED, unit_price: -1 }])).toContain('不能为负');
    expect(() => parseLadder('0-10')).toThrow('无法识别的阶梯');
  });
});

describe('bandwidth modes', () => {
  it('MONTHLY_95 over one valid day of 1..288 Mbps: 14 dropped (288 × 5 % = 14.4, floored), 274 Mbps at slot 273', () => {
    const b = billedBandwidth('MONTHLY_95', [day(0, ramp(1)), day(1, zeros())]);
    expect(round3(b.value)).toBe(274);
    expect(b.sample).toEqual({ time: D0 + 273 * 300, value: 274, rank: 15, count: 288, dropped: 14 });
    expect(b.validDays).toBe(1);
  });
  it('MONTHLY_95 over two valid days (1..576): 28 dropped (28.8 floored), the 29th highest = 548 Mbps on day 2 at slot 259', () => {
    const b = billedBandwidth('MONTHLY_95', [day(0, ramp(1)), day(1, ramp(289))]);
    expect(round3(b.value)).toBe(548);
    expect(b.sample?.time).toBe(D0 + DAY + 259 * 300);
    expect(b.sample?.dropped).toBe(28);
  });
  it('MONTHLY_95 in a month bill: 548 Mbps × 10 yuan = 5480 when both days of a 2-day month have usage', () => {
    const { bill } = computeService('cdn', bandwidthCfg('MONTHLY_95', flat(10)), [day(0, ramp(1)), day(1, ramp(289))], { type: 'MONTH_BILL', daysInMonth: 2, packageGB: 0 });
    expect(bill.charged).toBe(true);
    expect(bill.used.bandwidth).toBe(548);
    expect(bill.total).toBe(5480);
    expect(bill.lines[0].factor).toBeUndefined();
  });
  it('a month with partial days: 274 Mbps × 10 yuan × 1/30 valid days = 91.333', () => {
    const days = [day(0, ramp(1)), ...Array.from({ length: 29 }, (_, i) => day(i + 1, zeros()))];
    const { bill } = computeService('cdn', bandwidthCfg('MONTHLY_95', flat(10)), days, { type: 'MONTH_BILL', daysInMonth: 30, packageGB: 0 });
    expect(bill.lines[0].factor?.value).toBeCloseTo(1 / 30, 10);
    expect(bill.total).toBe(91.333);
  });
  it('D_95 counts idle days: 576 samples with 288 zeros, 28 dropped, 1..288 → 260 Mbps, not prorated', () => {
    const b = billedBandwidth('D_95', [day(0, ramp(1)), day(1, zeros())]);
    expect(round3(b.value)).toBe(260);
    const { bill } = computeService('cdn', bandwidthCfg('D_95', flat(1)), [day(0, ramp(1)), day(1, zeros())], { type: 'MONTH_BILL', daysInMonth: 2, packageGB: 0 });
    expect(bill.total).toBe(260);
  });
  it('DAILY_95_AVERAGE: day 95s 274 and 100, an idle day skipped → 187 Mbps; × 3 yuan × 2/3 days = 374', () => {
    const days = [day(0, ramp(1)), day(1, flatDay(100)), day(2, zeros())];
    const b = billedBandwidth('DAILY_95_AVERAGE', days);
    expect(b.value).toBeCloseTo(187, 9);
    expect(b.daily?.map((d) => d.value)).toEqual([274, 100]);
    const { bill } = computeService('cdn', bandwidthCfg('DAILY_95_AVERAGE', flat(3)), days, { type: 'MONTH_BILL', daysInMonth: 3, packageGB: 0 });
    expect(bill.total).toBe(374);
  });
  it('DAILY_BANDWIDTH (daily peak average): peaks 288 and 100 → 194 Mbps', () => {
    const b = billedBandwidth('DAILY_BANDWIDTH', [day(0, ramp(1)), day(1, flatDay(100))]);
    expect(b.value).toBeCloseTo(194, 9);
    expect(b.daily?.[0]).toEqual({ day: '2026-03-01', value: 288, time: D0 + 287 * 300 });
  });
  it('TOP_4: daily peaks 50, 80, 20, 90, 70 → sorted 90, 80, 70, 50, 20 → 50; TOP_9 with 5 days → the lowest, 20', () => {
    const days = [50, 80, 20, 90, 70].map((p, i) => day(i, [p, ...new Array(287).fill(1)]));
    const top4 = billedBandwidth('TOP_4', days);
    expect(round3(top4.value)).toBe(50);
    expect(top4.sample).toMatchObject({ rank: 4, count: 5, time: D0 });
    const top9 = billedBandwidth('TOP_9', days);
    expect(round3(top9.value)).toBe(20);
    expect(top9.sample?.rank).toBe(5);
    const { bill } = computeService('cdn', bandwidthCfg('TOP_4', parseLadder('0-40:2,40-:1')), days, { type: 'MONTH_BILL', daysInMonth: 5, packageGB: 0 });
    // 40 × 2 + 10 × 1 = 90
    expect(bill.total).toBe(90);
  });
  it('DAILY_95 on a day bill: 274 Mbps × 2 yuan per Mbps-day = 548; DAILY_HIGHEST: 288 × 2 = 576', () => {
    const d = [day(0, ramp(1))];
    expect(computeService('cdn', bandwidthCfg('DAILY_95', flat(2)), d, { type: 'DAY_BILL', daysInMonth: 31, packageGB: 0 }).bill.total).toBe(548);
    const hi = computeService('cdn', bandwidthCfg('DAILY_HIGHEST', flat(2)), d, { type: 'DAY_BILL', daysInMonth: 31, packageGB: 0 }).bill;
    expect(hi.total).toBe(576);
    expect(hi.lines[0].sample).toMatchObject({ time: D0 + 287 * 300, value: 288 });
  });
  it('a monthly mode on a day bill shows the day bandwidth without charging', () => {
    const { bill } = computeService('cdn', bandwidthCfg('MONTHLY_95', flat(10)), [day(0, ramp(1))], { type: 'DAY_BILL', daysInMonth: 31, packageGB: 0 });
    expect(bill.charged).toBe(false);
    expect(bill.used.bandwidth).toBe(274);
    expect(bill.total).toBe(0);
    expect(bill.lines[0].steps).toEqual([]);
    expect(bill.note).toBe('按月结算，费用见月账单');
  });
  it('days older than the 5-minute rows stand as their peak, and the line says so', () => {
    const old = day(0, null, { peak: { bytes: bytesOf(120), at: D0 + 600 } });
    const b = billedBandwidth('MONTHLY_95', [old]);
    expect(round3(b.value)).toBe(120);
    expect(b.sample?.time).toBe(D0 + 600);
    expect(b.note).toContain('以当日峰值计');
  });
  it('a discount of 80 pays 80 %: 548 × 0.8 = 438.4', () => {
    const { bill } = computeService('cdn', bandwidthCfg('DAILY_95', flat(2), 80), [day(0, ramp(1))], { type: 'DAY_BILL', daysInMonth: 31, packageGB: 0 });
    expect(bill.amount).toBe(548);
    expect(bill.total).toBe(438.4);
  });
});

describe('traffic and counts', () => {
  const gbDay = (i: number, hourlyGB: number[]) => {
    const slots = new Float64Array(288);
    hourlyGB.forEach((g, h) => (slots[h * 12] = g * GB));
    return day(i, null, { slots, cheap_slots: new Float64Array(288), bytes: hourlyGB.reduce((a, b) => a + b, 0) * GB });
  };
  it('DAILY with a package: 150 GB − 40 GB package = 110 GB on 0–100 at 0.3, 100– at 0.2 = 30 + 2 = 32', () => {
    const { bill, packageUsed } = computeService('cdn', trafficCfg('DAILY', parseLadder('0-100:0.3,100-:0.2')), [gbDay(0, [150])], { type: 'DAY_BILL', daysInMonth: 31, packageGB: 40 });
    expect(packageUsed).toBe(40);
    expect(bill.used).toMatchObject({ discharge: 150, discharge_package: 40, discharge_price: 32 });
    expect(bill.lines[0]).toMatchObject({ usage: 150, package: 40, billed: 110, amount: 32 });
  });
  it('a package larger than the usage covers it all and keeps the rest', () => {
    const { bill, packageUsed } = computeService('cdn', trafficCfg('DAILY', flat(0.29)), [gbDay(0, [30])], { type: 'DAY_BILL', daysInMonth: 31, packageGB: 100 });
    expect(packageUsed).toBe(30);
    expect(bill.total).toBe(0);
  });
  it('HOURLY prices each hour: 12 GB and 3 GB on 0–10 at 1, 10– at 0.5 → 11 + 3 = 14 (DAILY would be 12.5)', () => {
    const ladder = parseLadder('0-10:1,10-:0.5');
    expect(computeService('cdn', trafficCfg('HOURLY', ladder), [gbDay(0, [12, 3])], { type: 'DAY_BILL', daysInMonth: 31, packageGB: 0 }).bill.total).toBe(14);
    expect(computeService('cdn', trafficCfg('DAILY', ladder), [gbDay(0, [12, 3])], { type: 'DAY_BILL', daysInMonth: 31, packageGB: 0 }).bill.total).toBe(12.5);
  });
  it('HOURLY with a 5 GB package: the earliest hour is covered first → 7 + 3 = 10', () => {
    const r = computeService('cdn', trafficCfg('HOURLY', parseLadder('0-10:1,10-:0.5')), [gbDay(0, [12, 3])], { type: 'DAY_BILL', daysInMonth: 31, packageGB: 5 });
    expect(r.bill.total).toBe(10);
    expect(r.packageUsed).toBe(5);
  });
  it('MONTHLY traffic: 3 days of 40 GB = 120 GB on 0–100 at 0.3, 100– at 0.2 = 34 on the month bill, nothing on the day bill', () => {
    const cfg = trafficCfg('MONTHLY', parseLadder('0-100:0.3,100-:0.2'));
    const days = [0, 1, 2].map((i) => gbDay(i, [40]));
    expect(computeService('cdn', cfg, days, { type: 'MONTH_BILL', daysInMonth: 3, packageGB: 0 }).bill.total).toBe(34);
    const dayBill = computeService('cdn', cfg, [days[0]], { type: 'DAY_BILL', daysInMonth: 3, packageGB: 10 });
    expect(dayBill.bill.total).toBe(0);
    expect(dayBill.packageUsed).toBe(0);
  });
  it('packages do not cover other kinds (live) and the cheaper nodes have their own ladder', () => {
    const live = computeService('live', trafficCfg('DAILY', flat(0.29)), [gbDay(0, [10])], { type: 'DAY_BILL', daysInMonth: 31, packageGB: 100 });
    expect(live.packageUsed).toBe(0);
    expect(live.bill.total).toBe(2.9);
    const cfg = { ...trafficCfg('DAILY', flat(0.29)), cheap_unit_price_ladder: flat(0.2) };
    const cheap = computeService('fusion', cfg, [{ ...gbDay(0, [10]), cheap_bytes: 5 * GB }], { type: 'DAY_BILL', daysInMonth: 31, packageGB: 0 });
    // 10 × 0.29 + 5 × 0.2 = 3.9
    expect(cheap.bill.used).toMatchObject({ cheap_discharge: 5, cheap_discharge_price: 1 });
    expect(cheap.bill.total).toBe(3.9);
  });
  it('HTTPS requests per 万次: 25,000 → 2.5 × 0.05 = 0.125; dynamic requests 30,000 → 3 × 0.2 = 0.6', () => {
    const cfgs = defaultPriceConfig();
    expect(computeService('https', cfgs.https, [day(0, null, { https_reqs: 25000 })], { type: 'DAY_BILL', daysInMonth: 31, packageGB: 0 }).bill.total).toBe(0.125);
    expect(computeService('ucdn', cfgs.ucdn, [day(0, null, { dyn_reqs: 30000 })], { type: 'DAY_BILL', daysInMonth: 30, packageGB: 0 }).bill.used).toMatchObject({ times: 30000, times_price: 0.6 });
  });
  it('storage per GB-month, a day pays 1/30 of a 30-day month: 300 GB × 0.099 / 30 = 0.99', () => {
    const cfg = defaultPriceConfig().storage;
    expect(computeService('storage', cfg, [day(0, null, { storage_bytes: 300 * GB })], { type: 'DAY_BILL', daysInMonth: 30, packageGB: 0 }).bill.total).toBe(0.99);
    // with storage_deduction the first 10 GB are free: 290 × 0.099 / 30 = 0.957
    expect(computeService('storage', { ...cfg, storage_deduction: true }, [day(0, null, { storage_bytes: 300 * GB })], { type: 'DAY_BILL', daysInMonth: 30, packageGB: 0 }).bill.total).toBe(0.957);
  });
});

describe('display rules (spec 001 §4, §9)', () => {
  it('voucher status: later rules override earlier ones', () => {
    const now = 1_800_000_000;
    expect(voucherStatus({ value: 50, remain: 20, expired_at: now + 10 }, now)).toBe('USING');
    expect(voucherStatus({ value: 50, remain: 0, expired_at: now + 10 }, now)).toBe('USED');
    expect(voucherStatus({ value: 50, remain: 0, expired_at: now - 1 }, now)).toBe('EXPIRED');
    expect(voucherStatus({ value: 50, remain: 50, expired_at: now - 1 }, now)).toBe('EXPIRED');
  });
  it('discount 100 shows empty, a multiple of 10 is divided by 10', () => {
    expect(discountText(100)).toBe('');
    expect(discountText(80)).toBe('8 折');
    expect(discountText(85)).toBe('85 折');
  });
  it('bill ids start with YYYYMMDD; before 2017-01-01 the old layout', () => {
    expect(billId('2026-03-01', 'MONTH_BILL', 7)).toBe('20260301M7');
    expect(billDay('20260301D7')).toBe('2026-03-01');
    expect(billDay('2026-03-01')).toBeNull();
    expect(isOldLayout('20161231D7')).toBe(true);
    expect(isOldLayout('20170101D7')).toBe(false);
  });
  it('balance parts and remaining traffic units', () => {
    expect(moneyParts(1288.5)).toEqual({ int: '1,288', decimal: '.50' });
    expect(moneyParts(-3.456)).toEqual({ int: '-3', decimal: '.46' });
    expect(flowRemain(500)).toEqual({ value: 500, unit: 'GB' });
    expect(flowRemain(1536)).toEqual({ value: 1.5, unit: 'TB' });
  });
});

describe('audio/video processing (media_usage)', () => {
  const media = (i: number, m: Record<string, [number, number]>) => day(i, null, { media: Object.fromEntries(Object.entries(m).map(([k, [minutes, tasks]]) => [k, { minutes, tasks }])) });
  const usage = {
    video_transcode_gte1080p: [30, 2],
    video_transcode_lt480p: [100, 5],
    video_hls_gte720p: [20, 1],
    video_thumbnail: [0, 50],
    probe: [0, 7],
    audio_aconcat: [12, 3],
  } as Record<string, [number, number]>;
  const cfg = () => defaultPriceConfig().media;

  it('prices each key by its unit: 30 × 0.2 + 100 × 0.025 + 20 × 0.1 + 50 tasks × 0.001 + 7 probes × 0 + 12 × 0.005 = 10.61', () => {
    const { bill, transcodeUsed } = computeService('media', cfg(), [media(0, usage)], { type: 'DAY_BILL', daysInMonth: 31, packageGB: 0, transcodeMinutes: 0 });
    expect(bill.total).toBe(10.61);
    expect(transcodeUsed).toBe(0);
    const byItem = Object.fromEntries(bill.lines.map((l) => [l.item, l]));
    expect(byItem.video_transcode_gte1080p).toMatchObject({ label: '视频转码 1080P 及以上', usage: 30, unit: '分钟', amount: 6 });
    expect(byItem.video_thumbnail).toMatchObject({ usage: 50, unit: '次', amount: 0.05 });
    expect(byItem.probe).toMatchObject({ usage: 7, unit: '次', amount: 0 });
    expect(bill.used).toMatchObject({ video_transcode_lt480p: 100, video_transcode_lt480p_price: 2.5, video_hls_gte720p_price: 2, audio_aconcat: 12, audio_aconcat_price: 0.06 });
  });

  it('a transcode package of 40 minutes covers the dearest transcoding first: 1080P 30 min, then 10 of HLS 720P → 0 + 10 × 0.1 + 2.5 + 0.05 + 0.06 = 3.61', () => {
    const { bill, transcodeUsed } = computeService('media', cfg(), [media(0, usage)], { type: 'DAY_BILL', daysInMonth: 31, packageGB: 0, transcodeMinutes: 40 });
    expect(transcodeUsed).toBe(40);
    expect(bill.total).toBe(3.61);
    const byItem = Object.fromEntries(bill.lines.map((l) => [l.item, l]));
    expect(byItem.video_transcode_gte1080p).toMatchObject({ package: 30, billed: 0, amount: 0 });
    expect(byItem.video_hls_gte720p).toMatchObject({ package: 10, billed: 10, amount: 1 });
    // not a transcoding key: the package does not cover concatenation
    expect(byItem.audio_aconcat).toMatchObject({ package: 0, amount: 0.06 });
    expect(bill.used.video_hls_gte720p_package).toBe(10);
  });

  it('a discount of 80 and a contracted price: 30 × 0.18 = 5.4, + 2.5 + 2 + 0.05 + 0.06 = 10.01 × 0.8 = 8.008', () => {
    const c = mergeConfig('media', { amount_cal_type: 'DAILY', discount: 80, prices: { processing: { video_transcode_gte1080p: 0.18, bogus: 5, probe: -1 } as any } });
    expect(c.processing).toMatchObject({ video_transcode_gte1080p: 0.18, probe: 0 });
    expect(c.processing).not.toHaveProperty('bogus');
    const { bill } = computeService('media', c, [media(0, usage)], { type: 'DAY_BILL', daysInMonth: 31, packageGB: 0 });
    expect(bill.amount).toBe(10.01);
    expect(bill.total).toBe(8.008);
  });

  it('MONTHLY: nothing on the day bill, the month bill prices the sum: (30 + 45) × 0.2 = 15; a key without a price pays 0 and says so', () => {
    const c = { ...cfg(), amount_cal_type: 'MONTHLY' as const, period_bill_type: 'MONTH' as const };
    const d1 = media(0, { video_transcode_gte1080p: [30, 1] });
    const d2 = media(1, { video_transcode_gte1080p: [45, 1], video_newtask_gte480p: [10, 1] });
    const dayBill = computeService('media', c, [d1], { type: 'DAY_BILL', daysInMonth: 31, packageGB: 0, transcodeMinutes: 100 });
    expect(dayBill.bill).toMatchObject({ charged: false, total: 0, note: '按月结算，费用见月账单' });
    expect(dayBill.transcodeUsed).toBe(0);
    const month = computeService('media', c, [d1, d2], { type: 'MONTH_BILL', daysInMonth: 31, packageGB: 0 });
    expect(month.bill.total).toBe(15);
    expect(month.bill.lines.find((l) => l.item === 'video_newtask_gte480p')).toMatchObject({ amount: 0, note: '未配置单价，按 0 元计' });
  });
});

describe('security lines (docs/billing.md "Security")', () => {
  /** Gbps → bytes in a 5-minute slot (Gbps × 10^9 × 300 s / 8) */
  const slotBytesOfGbps = (g: number) => (g * 1e9 * 300) / 8;

  test('DDoS elastic protection: the peak above the guarantee by the default ladder 80 / 60 / 40 per Gbps', () => {
    const d = day(0, null, {
      ddos: [
        { code: 'ddos-a', peak_bps: 47.5e9, at: D0 + 10 * 3600, protect_gbps: 20 },
        { code: 'ddos-b', peak_bps: 30e9, at: D0 + 3600, protect_gbps: 50 },
        { code: 'ddos-c', peak_bps: 120e9, at: D0 + 2 * 3600, protect_gbps: 20 },
      ],
    });
    const { bill } = computeService('ddos', defaultPriceConfig().ddos, [d], { type: 'DAY_BILL', daysInMonth: 31, packageGB: 0 });
    expect(bill.charged).toBe(true);
    const a = bill.lines.find((l) => l.item === 'ddos_attack:ddos-a')!;
    // 47.5 − 20 = 27.5 Gbps over: 20 × 80 + 7.5 × 60 = 1600 + 450
    expect(a).toMatchObject({ usage: 47.5, package: 20, billed: 27.5, unit: 'Gbps', amount: 2050 });
    expect(a.steps.map((s) => s.used)).toEqual([20, 7.5, 0]);
    expect(a.note).toBe('攻击峰值 47.5 Gbps（2026-03-01 10:00），保底防护 20 Gbps，超出 27.5 Gbps 按阶梯计费');
    // under the guarantee: nothing
    expect(bill.lines.find((l) => l.item === 'ddos_attack:ddos-b')).toMatchObject({ usage: 30, billed: 0, amount: 0 });
    // 100 Gbps over: 20 × 80 + 30 × 60 + 50 × 40 = 1600 + 1800 + 2000
    expect(bill.lines.find((l) => l.item === 'ddos_attack:ddos-c')).toMatchObject({ billed: 100, amount: 5400 });
    expect(bill.used.ddos_attack).toEqual([
      { code: 'ddos-a', max_peak: 47.5e9 },
      { code: 'ddos-b', max_peak: 30e9 },
      { code: 'ddos-c', max_peak: 120e9 },
    ]);
    expect(bill.used.ddos_price).toBe(7450);
    expect(bill.total).toBe(7450);
    // a discount applies to the service total
    const { bill: off } = computeService('ddos', { ...defaultPriceConfig().ddos, discount: 80 }, [d], { type: 'DAY_BILL', daysInMonth: 31, packageGB: 0 });
    expect(off.total).toBe(5960);
  });

  test('DDoS on a month bill: the highest day per instance, shown but charged by the day bills', () => {
    const days = [
      day(0, null, { ddos: [{ code: 'ddos-a', peak_bps: 25e9, at: D0 + 60, protect_gbps: 20 }] }),
      day(1, null, { ddos: [{ code: 'ddos-a', peak_bps: 31e9, at: D0 + DAY + 600, protect_gbps: 20 }] }),
    ];
    const { bill } = computeService('ddos', defaultPriceConfig().ddos, days, { type: 'MONTH_BILL', daysInMonth: 31, packageGB: 0 });
    expect(bill.charged).toBe(false);
    expect(bill.used.ddos_attack).toEqual([{ code: 'ddos-a', max_peak: 31e9 }]);
    expect(bill.used.ddos_price).toBe(0);
    expect(bill.total).toBe(0);
  });

  test('SCDN attack peak per service: 10 Gbps free, then 50, beyond 50 Gbps 30 per Gbps', () => {
    const d = day(0, null, {
      attacks: [
        { bucket_name: 'shop', bytes: slotBytesOfGbps(15), at: D0 + 8 * 3600 + 300 },
        { bucket_name: 'api', bytes: slotBytesOfGbps(60), at: D0 + 23 * 3600 },
        { bucket_name: 'blog', bytes: slotBytesOfGbps(4) },
      ],
    });
    const { bill } = computeService('scdn', defaultPriceConfig().scdn, [d], { type: 'DAY_BILL', daysInMonth: 31, packageGB: 0 });
    // 15 Gbps: 10 free + 5 × 50 = 250
    const shop = bill.lines.find((l) => l.item === 'scdn_attack:shop')!;
    expect(shop).toMatchObject({ usage: 15, billed: 15, unit: 'Gbps', amount: 250 });
    expect(shop.steps.map((s) => [s.used, s.amount])).toEqual([[10, 0], [5, 250], [0, 0]]);
    expect(shop.note).toBe('攻击峰值 15 Gbps（2026-03-01 08:05 的 5 分钟），按攻击峰值阶梯计费');
    // 60 Gbps: 0 + 40 × 50 + 10 × 30 = 2300
    expect(bill.lines.find((l) => l.item === 'scdn_attack:api')!.amount).toBe(2300);
    expect(bill.lines.find((l) => l.item === 'scdn_attack:blog')!.amount).toBe(0);
    expect(bill.used.scdn_attack).toEqual([
      { bucket_name: 'shop', peak: 15 },
      { bucket_name: 'api', peak: 60 },
      { bucket_name: 'blog', peak: 4 },
    ]);
    expect(bill.used.scdn_price).toBe(2550);
    // no traffic that day: the whole service total is the attack protection
    expect(bill.total).toBe(2550);
  });
});

describe('overseas guaranteed domains (docs/billing.md "Overseas guaranteed domains")', () => {
  const on = (price_month: number, mode: AmountCalType = 'DAILY'): ServicePriceConfig => ({ ...defaultPriceConfig().overseas, amount_cal_type: mode, period_bill_type: mode === 'MONTHLY' ? 'MONTH' : 'DAY', guaranteed_domain: { enabled: true, price_month } });

  test('off by default: no line and no usage keys', () => {
    const { bill } = computeService('overseas', defaultPriceConfig().overseas, [day(0, null, { domains: 3 })], { type: 'DAY_BILL', daysInMonth: 31, packageGB: 0 });
    expect(bill.lines.map((l) => l.item)).toEqual(['discharge']);
    expect(bill.used.overseas_acceleration_guaranteed_domain_count).toBeUndefined();
  });

  test('a day bill: the day\'s domains × the month price / days of the month', () => {
    // 3 domains × 310 / 31 = 30
    const { bill } = computeService('overseas', on(310), [day(0, null, { domains: 3 })], { type: 'DAY_BILL', daysInMonth: 31, packageGB: 0 });
    const g = bill.lines.find((l) => l.item === 'guaranteed_domain')!;
    expect(g).toMatchObject({ usage: 3, unit: '域名·天', amount: 30 });
    expect(g.steps[0]).toMatchObject({ unit_price: 10, used: 3, amount: 30 });
    expect(g.note).toBe('当日域名 3 个，每域名每月 310 元，按 1/31 月计每域名每天');
    expect(bill.used).toMatchObject({ overseas_acceleration_guaranteed_domain_count: 3, overseas_acceleration_guaranteed_price: 30 });
    expect(bill.total).toBe(30);
    // 2 domains × 300 / 31 = 19.3548… → 19.355
    const { bill: b2 } = computeService('overseas', on(300), [day(0, null, { domains: 2 })], { type: 'DAY_BILL', daysInMonth: 31, packageGB: 0 });
    expect(b2.used.overseas_acceleration_guaranteed_price).toBe(19.355);
  });

  test('monthly traffic: the month bill prices the domain-days, the day bill charges nothing', () => {
    const days = [day(0, null, { domains: 3 }), day(1, null, { domains: 3 }), day(2, null, { domains: 4 })];
    // 10 domain-days × 300 / 30 = 100; the count is the average 10 / 3 = 3.333
    const { bill } = computeService('overseas', on(300, 'MONTHLY'), days, { type: 'MONTH_BILL', daysInMonth: 30, packageGB: 0 });
    expect(bill.lines.find((l) => l.item === 'guaranteed_domain')).toMatchObject({ usage: 10, amount: 100 });
    expect(bill.used).toMatchObject({ overseas_acceleration_guaranteed_domain_count: 3.333, overseas_acceleration_guaranteed_price: 100 });
    const { bill: d } = computeService('overseas', on(300, 'MONTHLY'), [days[0]], { type: 'DAY_BILL', daysInMonth: 30, packageGB: 0 });
    expect(d.used.overseas_acceleration_guaranteed_price).toBe(0);
    expect(d.total).toBe(0);
  });

  test('a stored row enables it and sets the price; the default price otherwise', () => {
    expect(mergeConfig('overseas', { amount_cal_type: 'DAILY', prices: { guaranteed: { enabled: true } } }).guaranteed_domain).toEqual({ enabled: true, price_month: 300 });
    expect(mergeConfig('overseas', { amount_cal_type: 'DAILY', prices: { guaranteed: { enabled: true, price_month: 150 } } }).guaranteed_domain).toEqual({ enabled: true, price_month: 150 });
    expect(mergeConfig('overseas', { amount_cal_type: 'DAILY', prices: { guaranteed: { price_month: -1 } } }).guaranteed_domain).toEqual({ enabled: false, price_month: 300 });
  });
});
