/**
 * Issue 19, items 12 and 13 (money), on hand-built usage: traffic packages count only inside their
 * validity (from the purchase day to the expiry), and overseas traffic from Europe and the Americas pays
 * the `other` ladder. Each expected figure is worked out beside it.
 */
import { computeService, GB, takeFromPackages, type DayUsage, type PackageWindow } from '../../src/server/billing/bills/compute';
import { defaultPriceConfig, overseasRegionOf, UNBOUNDED, type AmountCalType, type Ladder, type ServicePriceConfig } from '../../src/shared/billing/price';
import { dayStart } from '../../src/shared/stats/time';

const D0 = dayStart('2026-03-01') as number;
const DAY = 86400;
const flat = (p: number): Ladder => [{ min: 0, max: UNBOUNDED, unit_price: p }];

/** A day of `gb` GB, all of it in hour 0 (5-minute slot 0). */
function gbDay(i: number, gb: number, extra: Partial<DayUsage> = {}): DayUsage {
  const slots = new Float64Array(288);
  slots[0] = gb * GB;
  return { day: D0 + i * DAY, bytes: gb * GB, cheap_bytes: 0, up_bytes: 0, https_reqs: 0, dyn_reqs: 0, slots, cheap_slots: new Float64Array(288), peak: { bytes: gb * GB, at: D0 + i * DAY }, cheap_peak: { bytes: 0, at: D0 }, storage_bytes: 0, ...extra };
}
function trafficCfg(mode: AmountCalType, ladder: Ladder): ServicePriceConfig {
  const base = defaultPriceConfig().cdn;
  return { ...base, amount_cal_type: mode, period_bill_type: mode === 'MONTHLY' ? 'MONTH' : 'DAY', unit_price_ladder: ladder, regions: { domestic: ladder, asia_pacific: ladder, other: ladder }, cheap_unit_price_ladder: null };
}
const month = Array.from({ length: 31 }, (_, i) => gbDay(i, 10)); // March: 31 days × 10 GB = 310 GB

describe('traffic packages count only inside their validity (item 13)', () => {
  it('MONTHLY: a 100 GB package bought on the 25th covers the 25th–31st (70 GB), not the 1st–24th: (310 − 70) × 0.29 = 69.6', () => {
    const pk: PackageWindow[] = [{ id: 1, remain: 100, from: D0 + 24 * DAY, to: D0 + 120 * DAY }];
    const r = computeService('cdn', trafficCfg('MONTHLY', flat(0.29)), month, { type: 'MONTH_BILL', daysInMonth: 31, packageGB: 100, packages: pk });
    expect(r.packageUsed).toBe(70);
    expect(pk[0]!.remain).toBe(30);
    expect(r.bill.lines[0]).toMatchObject({ usage: 310, package: 70, billed: 240, amount: 69.6 });
  });
  it('MONTHLY: a package that expired on the 1st at 00:00 covers nothing: 310 × 0.29 = 89.9', () => {
    const pk: PackageWindow[] = [{ id: 1, remain: 500, from: D0 - 90 * DAY, to: D0 }];
    const r = computeService('cdn', trafficCfg('MONTHLY', flat(0.29)), month, { type: 'MONTH_BILL', daysInMonth: 31, packageGB: 500, packages: pk });
    expect(r.packageUsed).toBe(0);
    expect(r.bill.total).toBe(89.9);
  });
  it('MONTHLY: one expiring on the 10th at 12:00 covers the 1st–10th (the expiry day started before it): 100 GB of its 500, (310 − 100) × 0.29 = 60.9', () => {
    const pk: PackageWindow[] = [{ id: 1, remain: 500, from: D0 - 80 * DAY, to: D0 + 9 * DAY + 12 * 3600 }];
    const r = computeService('cdn', trafficCfg('MONTHLY', flat(0.29)), month, { type: 'MONTH_BILL', daysInMonth: 31, packageGB: 500, packages: pk });
    expect(r.packageUsed).toBe(100);
    expect(r.bill.total).toBe(60.9);
  });
  it('DAILY day bills: the day before the purchase day pays, the purchase day is covered', () => {
    const pk = (): PackageWindow[] => [{ id: 1, remain: 100, from: D0 + 5 * DAY, to: D0 + 95 * DAY }];
    const before = computeService('cdn', trafficCfg('DAILY', flat(0.29)), [gbDay(4, 10)], { type: 'DAY_BILL', daysInMonth: 31, packageGB: 100, packages: pk() });
    expect(before.bill.total).toBe(2.9);
    const on = computeService('cdn', trafficCfg('DAILY', flat(0.29)), [gbDay(5, 10)], { type: 'DAY_BILL', daysInMonth: 31, packageGB: 100, packages: pk() });
    expect(on.bill.total).toBe(0);
    expect(on.packageUsed).toBe(10);
  });
  it('HOURLY: an hour after the expiry pays; the earliest expiry is used first among the valid ones', () => {
    // 12 GB at 00:00 and 3 GB at 01:00; package A (5 GB) expires at 01:00, B (100 GB) later
    const d = gbDay(0, 12);
    (d.slots as Float64Array)[12] = 3 * GB;
    d.bytes = 15 * GB;
    const pk: PackageWindow[] = [
      { id: 1, remain: 5, from: D0 - DAY, to: D0 + 3600 },
      { id: 2, remain: 100, from: D0 - DAY, to: D0 + 60 * DAY },
    ];
    const r = computeService('cdn', trafficCfg('HOURLY', flat(1)), [d], { type: 'DAY_BILL', daysInMonth: 31, packageGB: 105, packages: pk });
    // hour 0: 5 from A, 7 from B; hour 1: 3 from B (A has expired)
    expect(pk.map((p) => p.remain)).toEqual([0, 90]);
    expect(r.bill.total).toBe(0);
  });
  it('takeFromPackages: nothing before the purchase day or at the expiry', () => {
    const pk: PackageWindow[] = [{ id: 1, remain: 10, from: 1000, to: 2000 }];
    expect(takeFromPackages(pk, 999, 5)).toBe(0);
    expect(takeFromPackages(pk, 2000, 5)).toBe(0);
    expect(takeFromPackages(pk, 1000, 15)).toBe(10);
  });
});

describe('overseas traffic by region (item 12)', () => {
  const cfg = defaultPriceConfig().overseas;
  it('maps the statistics regions: Europe, the Americas and Africa to other, the rest to asia_pacific', () => {
    expect(['europe', 'north_america', 'south_america', 'africa'].map(overseasRegionOf)).toEqual(['other', 'other', 'other', 'other']);
    expect(['asia_pacific', 'oceania', 'hongkong', 'other'].map(overseasRegionOf)).toEqual(['asia_pacific', 'asia_pacific', 'asia_pacific', 'asia_pacific']);
  });
  it('100 GB of which 40 GB from Europe/America: 60 × 0.89 + 40 × 0.39 = 53.4 + 15.6 = 69 (all at 0.89 it was 89)', () => {
    const r = computeService('overseas', cfg, [gbDay(0, 100, { other_bytes: 40 * GB })], { type: 'DAY_BILL', daysInMonth: 31, packageGB: 0 });
    expect(r.bill.lines.map((l) => [l.item, l.label, l.usage, l.amount])).toEqual([
      ['discharge', '流量（亚太地区）', 60, 53.4],
      ['discharge_other', '流量（欧美及其他地区）', 40, 15.6],
    ]);
    expect(r.bill.used).toMatchObject({ discharge: 100, discharge_asia_pacific: 60, discharge_other: 40, discharge_price: 69, discharge_other_price: 15.6 });
    expect(r.bill.total).toBe(69);
  });
  it('without traffic from there, one line at the Asia-Pacific price: 10 × 0.89 = 8.9', () => {
    const r = computeService('overseas', cfg, [gbDay(0, 10)], { type: 'DAY_BILL', daysInMonth: 31, packageGB: 0 });
    expect(r.bill.lines).toHaveLength(1);
    expect(r.bill.total).toBe(8.9);
  });
});
