/**
 * Bill computation, pure (no database): usage of one service type over a day or a month plus its price
 * configuration → the service's lines with their explanations. docs/billing.md "How a bill is computed"
 * states every rule applied here; tests/unit/billing-compute.test.ts checks them on hand-built usage.
 */
import { billing95, percentile95 } from '../../../shared/stats/percentile';
import { DAY_S, SLOT_S, dayOf, formatTime } from '../../../shared/stats/time';
import { PER_TASK_MEDIA_KEYS, REGION_LABELS, mediaKeyLabel, transcodePackageCovers, isBandwidthMode, periodOf, regionOf, UNBOUNDED, type AmountCalType, type Ladder, type PriceServiceType, type ServicePriceConfig } from '../../../shared/billing/price';
import { CONSUMED_PRODUCT_INFO, isConsumedProduct } from '../../../shared/billing/consumption';
import { DDOS_PEAK_DIVISOR, round3, type BillLine, type BilledSample, type ServiceBill, type StepUse } from '../../../shared/billing/bills';

export const GB = 1024 ** 3;
export const SLOTS_PER_DAY = DAY_S / SLOT_S;

/** One CST day of one service type's usage, summed over the account's services of that type. */
export interface DayUsage {
  /** epoch seconds of the day's CST midnight */
  day: number;
  /** edge bytes (live: downstream) */
  bytes: number;
  /** PCDN bytes: the cheaper-node traffic */
  cheap_bytes: number;
  /** live upstream bytes */
  up_bytes: number;
  https_reqs: number;
  dyn_reqs: number;
  /**
   * Edge bytes of each 5-minute slot of the day (288, slot i starts at day + i × 300), or null when
   * the day is older than the 5-minute rows (then only `peak` is known).
   */
  slots: ArrayLike<number> | null;
  cheap_slots: ArrayLike<number> | null;
  /** the day's highest 5-minute edge bytes and its slot (from the daily rollup) */
  peak: { bytes: number; at: number };
  cheap_peak: { bytes: number; at: number };
  /** bytes stored at the end of the day (file services) */
  storage_bytes: number;
  /** overseas: the part of `bytes` from Europe, the Americas and Africa, billed at the `other` ladder (traffic_geo_1d) */
  other_bytes?: number;
  /** SCDN: the highest 5-minute attack bytes per service, with its slot when known */
  attacks?: { bucket_name: string; bytes: number; at?: number }[];
  /** DDoS: per instance of the account, the day's attack peak (bit/s) and its time, and the guaranteed protection (Gbps) */
  ddos?: { code: string; peak_bps: number; at: number; protect_gbps: number }[];
  /** overseas: the account's overseas acceleration domains that existed at the end of the day */
  domains?: number;
  /** audio/video processing (media_usage): minutes of output and tasks per usage key */
  media?: Record<string, { minutes: number; tasks: number }>;
  /** sms, oneclicklogin, blockchain: what the product reported that day and what packages covered (external_usage) */
  reported?: { quantity: number; covered: number };
}

export interface ComputeContext {
  /** DAY_BILL: one day; MONTH_BILL: the calendar month (its days, partial at the ends when usage is) */
  type: 'DAY_BILL' | 'MONTH_BILL';
  /** calendar days of the month the period belongs to */
  daysInMonth: number;
  /** traffic package GB that may be deducted (cdn, file, fusion discharge only); consumed in order */
  packageGB: number;
  /**
   * The traffic packages with their validity (docs/billing.md "Settling"), earliest expiry first; when
   * given, they replace `packageGB`: an interval's traffic (an hour in HOURLY mode, else a day) is
   * covered only by packages valid then, and their `remain` is counted down here.
   */
  packages?: PackageWindow[];
  /** transcode package minutes that may be deducted (the keys of transcodePackageCovers) */
  transcodeMinutes?: number;
}

/** bytes in a 5-minute slot → Mbps (1000-based, spec 001 §9) */
export function slotMbps(bytes: number): number {
  return (bytes * 8) / SLOT_S / 1e6;
}

/** A ladder applied step by step: each step prices the part of the usage between its min and max. */
export function applyLadder(usage: number, ladder: Ladder): { amount: number; steps: StepUse[] } {
  const steps: StepUse[] = [];
  let amount = 0;
  for (const s of ladder) {
    const top = s.max >= UNBOUNDED ? Infinity : s.max;
    const used = Math.max(0, Math.min(usage, top) - s.min);
    const a = used * s.unit_price;
    amount += a;
    steps.push({ min: s.min, max: s.max, unit_price: s.unit_price, used: round3(used), amount: round3(a) });
  }
  return { amount: round3(amount), steps };
}

/** A traffic package as a bill sees it: GB left, and the epoch seconds of its validity [from, to). */
export interface PackageWindow {
  id: number;
  remain: number;
  /** the CST midnight of its purchase day (a package is effective the day it is bought) */
  from: number;
  /** its expiry */
  to: number;
}

/**
 * Takes up to `gb` from the packages valid for an interval that starts at `at` (it starts on or after
 * the purchase day's midnight and before the expiry), earliest expiry first; counts their remain down.
 */
export function takeFromPackages(packages: PackageWindow[], at: number, gb: number): number {
  let left = gb;
  for (const p of packages) {
    if (left <= 1e-12) break;
    if (p.remain <= 0 || at < p.from || at >= p.to) continue;
    const t = Math.min(p.remain, left);
    p.remain -= t;
    left -= t;
  }
  return gb - left;
}

/** Kinds whose discharge traffic packages cover (domestic CDN traffic). */
export const PACKAGE_TYPES: PriceServiceType[] = ['cdn', 'file', 'fusion'];

interface DaySamples {
  day: number;
  mbps: number[];
  /** true when the day had no 5-minute rows and its peak stands for it */
  fromPeak: boolean;
}

function daySamples(d: DayUsage, cheap: boolean): DaySamples {
  const slots = cheap ? d.cheap_slots : d.slots;
  const peak = cheap ? d.cheap_peak : d.peak;
  if (slots) return { day: d.day, mbps: Array.from(slots, slotMbps), fromPeak: false };
  return { day: d.day, mbps: peak.bytes > 0 ? [slotMbps(peak.bytes)] : [], fromPeak: true };
}

function dayPeak(s: DaySamples, d: DayUsage, cheap: boolean): { value: number; time: number } {
  if (s.fromPeak) {
    const p = cheap ? d.cheap_peak : d.peak;
    return { value: slotMbps(p.bytes), time: p.at };
  }
  let best = 0;
  let at = 0;
  s.mbps.forEach((v, i) => {
    if (v > best) {
      best = v;
      at = i;
    }
  });
  return { value: best, time: s.day + at * SLOT_S };
}

const timeOf = (s: DaySamples, i: number, d: DayUsage, cheap: boolean) => (s.fromPeak ? (cheap ? d.cheap_peak.at : d.peak.at) : s.day + i * SLOT_S);

/**
 * The billed bandwidth of a mode over the given days (Mbps), with the sample that was billed and, for
 * averages, the daily values. Valid days are days with any usage (docs/statistics.md).
 */
export function billedBandwidth(mode: AmountCalType, days: DayUsage[], cheap = false): { value: number; sample?: BilledSample; daily?: { day: string; value: number; time?: number }[]; validDays: number; note?: string } {
  const per = days.map((d) => daySamples(d, cheap));
  const valid = per.map((s, i) => ({ s, d: days[i] })).filter(({ s }) => s.mbps.some((v) => v > 0));
  const approx = valid.some(({ s }) => s.fromPeak) ? '部分日期的 5 分钟数据已超过保留期，以当日峰值计' : undefined;
  if (mode === 'MONTHLY_95' || mode === 'D_95' || mode === 'DAILY_95') {
    // D_95 counts every calendar day of the period (a day without usage contributes 288 zero samples)
    const lists = mode === 'D_95' ? per.map((s) => (s.mbps.length ? s.mbps : new Array(SLOTS_PER_DAY).fill(0))) : valid.map(({ s }) => s.mbps);
    const owners = mode === 'D_95' ? per.map((s, i) => ({ s, d: days[i] })) : valid;
    const p = mode === 'D_95' ? percentile95(lists.flat()) : billing95(lists);
    if (p.index < 0) return { value: 0, validDays: valid.length, note: approx };
    // map the index back to its day and slot
    let k = p.index;
    let o = 0;
    while (k >= lists[o].length) k -= lists[o++].length;
    const { s, d } = owners[o];
    return { value: p.value, sample: { time: timeOf(s, k, d, cheap), value: round3(p.value), rank: p.dropped + 1, count: p.count, dropped: p.dropped }, validDays: valid.length, note: approx };
  }
  if (mode === 'DAILY_HIGHEST') {
    if (!valid.length) return { value: 0, validDays: 0 };
    const { s, d } = valid[0];
    const pk = dayPeak(s, d, cheap);
    return { value: pk.value, sample: { time: pk.time, value: round3(pk.value), rank: 1, count: s.mbps.length, dropped: 0 }, validDays: 1, note: approx };
  }
  if (mode === 'DAILY_95_AVERAGE' || mode === 'DAILY_BANDWIDTH') {
    const daily = valid.map(({ s, d }) => {
      if (mode === 'DAILY_BANDWIDTH') {
        const pk = dayPeak(s, d, cheap);
        return { day: dayOf(d.day), value: pk.value, time: pk.time };
      }
      const p = percentile95(s.mbps);
      return { day: dayOf(d.day), value: p.value, time: timeOf(s, p.index, d, cheap) };
    });
    const value = daily.length ? daily.reduce((a, x) => a + x.value, 0) / daily.length : 0;
    return { value, daily: daily.map((x) => ({ ...x, value: round3(x.value) })), validDays: valid.length, note: approx };
  }
  const top = /^TOP_(\d)$/.exec(mode);
  if (top) {
    const n = Number(top[1]);
    const peaks = valid.map(({ s, d }) => dayPeak(s, d, cheap)).sort((a, b) => b.value - a.value || a.time - b.time);
    if (!peaks.length) return { value: 0, validDays: 0 };
    // fewer valid days than N: the lowest daily peak is billed
    const rank = Math.min(n, peaks.length);
    const pk = peaks[rank - 1];
    return { value: pk.value, sample: { time: pk.time, value: round3(pk.value), rank, count: peaks.length, dropped: rank - 1 }, daily: peaks.map((p) => ({ day: dayOf(p.time), value: round3(p.value), time: p.time })), validDays: valid.length, note: approx };
  }
  throw new Error(`not a bandwidth mode: ${mode}`);
}

function line(item: string, label: string, usage: number, unit: string, pkg: number, ladder: Ladder, extra: Partial<BillLine> = {}): BillLine {
  const billed = Math.max(0, usage - pkg);
  const { amount, steps } = applyLadder(billed, ladder);
  let total = amount;
  if (extra.factor) total = round3(amount * extra.factor.value);
  return { item, label, usage: round3(usage), unit, package: round3(pkg), billed: round3(billed), steps, amount: total, ...extra };
}

const sum = (days: DayUsage[], k: 'bytes' | 'cheap_bytes' | 'up_bytes' | 'https_reqs' | 'dyn_reqs') => days.reduce((a, d) => a + d[k], 0);

/**
 * One service type's part of a bill. `days` are the period's days (one for a day bill). Returns the
 * service bill and how many package GB it consumed.
 */
export function computeService(type: PriceServiceType, cfg: ServicePriceConfig, days: DayUsage[], ctx: ComputeContext): { bill: ServiceBill; packageUsed: number; transcodeUsed: number } {
  const mode = cfg.amount_cal_type;
  const period = periodOf(mode);
  const charged = (period === 'DAY') === (ctx.type === 'DAY_BILL');
  const ladder = cfg.regions?.[regionOf(type)] ?? cfg.unit_price_ladder;
  const used: ServiceBill['used'] = {};
  const lines: BillLine[] = [];
  let packageUsed = 0;
  let transcodeUsed = 0;

  if (type === 'ddos') {
    // attack peaks only: the lines are made below
  } else if (isConsumedProduct(type)) {
    // the packages were counted down when the product reported; the rest is priced here
    const n = days.reduce((a, d) => a + (d.reported?.quantity ?? 0), 0);
    const covered = days.reduce((a, d) => a + (d.reported?.covered ?? 0), 0);
    const info = CONSUMED_PRODUCT_INFO[type];
    const ln = line(type, info.usage, n, info.unit, covered, ladder, covered > 0 ? { note: `资源包已抵扣 ${covered} ${info.unit}（上报时扣减）` } : {});
    lines.push(ln);
    Object.assign(used, { [`${type}_times`]: n, [`${type}_package`]: covered, [`${type}_price`]: ln.amount });
  } else if (type === 'media') {
    // each usage key priced at its unit price; transcode packages cover the transcoding keys first, the dearest first
    const totals = new Map<string, { minutes: number; tasks: number }>();
    for (const d of days) {
      for (const [k, v] of Object.entries(d.media ?? {})) {
        const acc = totals.get(k) ?? { minutes: 0, tasks: 0 };
        acc.minutes += v.minutes;
        acc.tasks += v.tasks;
        totals.set(k, acc);
      }
    }
    const prices = cfg.processing ?? {};
    const priceOf = (k: string) => prices[k] ?? 0;
    const keys = [...totals.keys()].sort((a, b) => Number(transcodePackageCovers(b)) - Number(transcodePackageCovers(a)) || priceOf(b) - priceOf(a) || a.localeCompare(b));
    let left = charged ? ctx.transcodeMinutes ?? 0 : 0;
    for (const k of keys) {
      const t = totals.get(k) as { minutes: number; tasks: number };
      const perTask = PER_TASK_MEDIA_KEYS.includes(k);
      const usage = perTask ? t.tasks : t.minutes;
      const take = !perTask && transcodePackageCovers(k) ? Math.min(left, usage) : 0;
      left -= take;
      transcodeUsed += take;
      const known = k in prices;
      const ln = line(k, mediaKeyLabel(k), usage, perTask ? '次' : '分钟', take, [{ min: 0, max: UNBOUNDED, unit_price: priceOf(k) }], known ? {} : { note: '未配置单价，按 0 元计' });
      lines.push(ln);
      used[k] = round3(usage);
      used[`${k}_price`] = ln.amount;
      if (take > 0) used[`${k}_package`] = round3(take);
    }
  } else if (type === 'https' || type === 'ucdn') {
    const n = sum(days, type === 'https' ? 'https_reqs' : 'dyn_reqs');
    const wan = n / 1e4;
    const ln = line(type, type === 'https' ? 'HTTPS 请求数' : '动态请求数', wan, '万次', 0, ladder);
    lines.push(ln);
    if (type === 'https') Object.assign(used, { https_times: n, https_price: ln.amount });
    else Object.assign(used, { ucdn_times: n, ucdn_price: ln.amount, times: n, times_price: ln.amount });
  } else if (type === 'storage') {
    // storage is priced per GB-month; each day pays its share of the month (the day's stored GB / days in month)
    let gbDays = 0;
    for (const d of days) gbDays += Math.max(0, d.storage_bytes / GB - (cfg.storage_deduction ? STORAGE_FREE_GB : 0));
    const gb = gbDays / days.length;
    const ln = line('storage', '存储空间', gb, 'GB', 0, ladder, { factor: { value: days.length / ctx.daysInMonth, reason: `按 ${days.length}/${ctx.daysInMonth} 个月计费` } });
    lines.push(ln);
    Object.assign(used, { storage: round3(gb), storage_price: ln.amount });
  } else if (cfg.charge_dimension === 'bandwidth' && isBandwidthMode(mode)) {
    const b = billedBandwidth(mode, days);
    // monthly modes are priced per Mbps-month and prorated by valid days; D_95 counts every day itself
    const prorate = period === 'MONTH' && mode !== 'D_95' && b.validDays < ctx.daysInMonth && b.validDays > 0;
    const extra: Partial<BillLine> = { sample: b.sample, daily: b.daily, note: b.note };
    if (prorate) extra.factor = { value: b.validDays / ctx.daysInMonth, reason: `本月有用量 ${b.validDays} 天，按 ${b.validDays}/${ctx.daysInMonth} 月计费` };
    const ln = line('bandwidth', '带宽', b.value, 'Mbps', 0, ladder, extra);
    lines.push(ln);
    Object.assign(used, { bandwidth: round3(b.value), bandwidth_price: ln.amount, discharge: round3(sum(days, 'bytes') / GB) });
    if (cfg.cheap_unit_price_ladder && days.some((d) => d.cheap_bytes > 0)) {
      const c = billedBandwidth(mode, days, true);
      const ce: Partial<BillLine> = { sample: c.sample, daily: c.daily };
      if (prorate) ce.factor = extra.factor;
      const cl = line('cheap_bandwidth', '低价节点带宽', c.value, 'Mbps', 0, cfg.cheap_unit_price_ladder, ce);
      lines.push(cl);
      Object.assign(used, { cheap_bandwidth: round3(c.value), cheap_bandwidth_price: cl.amount });
    }
  } else {
    // traffic: HOURLY (ladder on each hour), DAILY (on each day), MONTHLY (on the month)
    // packages: the ones valid at each hour (HOURLY) or day; without windows, ctx.packageGB at any time
    const covers = charged && PACKAGE_TYPES.includes(type);
    const windows: PackageWindow[] = !covers ? [] : ctx.packages ?? [{ id: 0, remain: ctx.packageGB, from: -Infinity, to: Infinity }];
    const gb = sum(days, 'bytes') / GB;
    let ln: BillLine;
    let otherLine: BillLine | null = null;
    const otherGB = type === 'overseas' ? days.reduce((a, d) => a + Math.min(d.other_bytes ?? 0, d.bytes), 0) / GB : 0;
    if (otherGB > 0) {
      // overseas: Asia-Pacific and Europe/Americas traffic each at its own ladder (the region split is per
      // day, so HOURLY is priced per day here); packages cover domestic traffic only
      ln = line('discharge', `流量（${REGION_LABELS.asia_pacific}）`, gb - otherGB, 'GB', 0, ladder);
      otherLine = line('discharge_other', `流量（${REGION_LABELS.other}）`, otherGB, 'GB', 0, cfg.regions?.other ?? ladder);
      Object.assign(used, { discharge_asia_pacific: round3(gb - otherGB), discharge_other: round3(otherGB), discharge_other_price: otherLine.amount });
    } else if (mode === 'HOURLY' && days.every((d) => d.slots)) {
      // hour by hour in time order; packages cover the earliest hours first
      const steps = new Map<number, StepUse>();
      let amount = 0;
      let pkg = 0;
      for (const d of days) {
        for (let h = 0; h < 24; h++) {
          let hb = 0;
          for (let i = h * 12; i < h * 12 + 12; i++) hb += (d.slots as ArrayLike<number>)[i] ?? 0;
          let hgb = hb / GB;
          const take = takeFromPackages(windows, d.day + h * 3600, hgb);
          pkg += take;
          hgb -= take;
          const r = applyLadder(hgb, ladder);
          amount += r.amount;
          r.steps.forEach((s, i) => {
            const acc = steps.get(i) ?? { ...s, used: 0, amount: 0 };
            acc.used += s.used;
            acc.amount += s.amount;
            steps.set(i, acc);
          });
        }
      }
      packageUsed = pkg;
      ln = { item: 'discharge', label: '流量（按小时阶梯）', usage: round3(gb), unit: 'GB', package: round3(pkg), billed: round3(gb - pkg), steps: [...steps.values()].map((s) => ({ ...s, used: round3(s.used), amount: round3(s.amount) })), amount: round3(amount), note: '每小时的流量分别按阶梯计价后相加' };
    } else {
      // each day's traffic by the packages valid that day (a month bill in MONTHLY mode: day by day)
      let take = 0;
      for (const d of days) take += takeFromPackages(windows, d.day, d.bytes / GB);
      packageUsed = take;
      ln = line('discharge', type === 'live' ? '直播下行流量' : '流量', gb, 'GB', take, ladder);
    }
    lines.push(ln);
    if (otherLine) lines.push(otherLine);
    Object.assign(used, { discharge: round3(gb), discharge_package: round3(packageUsed), discharge_price: round3(ln.amount + (otherLine?.amount ?? 0)) });
    if (type === 'live') Object.assign(used, { live_download_discharge: round3(gb), live_upload_discharge: round3(sum(days, 'up_bytes') / GB) });
    const cheap = sum(days, 'cheap_bytes') / GB;
    if (cfg.cheap_unit_price_ladder && cheap > 0) {
      const cl = line('cheap_discharge', '低价节点流量', cheap, 'GB', 0, cfg.cheap_unit_price_ladder);
      lines.push(cl);
      Object.assign(used, { cheap_discharge: round3(cheap), cheap_discharge_price: cl.amount });
    }
  }
  if (type === 'overseas' && cfg.guaranteed_domain?.enabled) {
    // guaranteed domains: each domain-day pays price_month / days of the month, on the bill the overseas service is charged on
    const domainDays = days.reduce((a, d) => a + (d.domains ?? 0), 0);
    const perDay = cfg.guaranteed_domain.price_month / ctx.daysInMonth;
    const ln = line('guaranteed_domain', '海外保底加速域名', domainDays, '域名·天', 0, [{ min: 0, max: UNBOUNDED, unit_price: perDay }], {
      note: `${days.length === 1 ? `当日域名 ${domainDays} 个` : `共 ${domainDays} 域名·天`}，每域名每月 ${cfg.guaranteed_domain.price_month} 元，按 1/${ctx.daysInMonth} 月计每域名每天`,
    });
    // the exact amount (the unit price shown is per day, its amount from the month price)
    ln.amount = round3((domainDays * cfg.guaranteed_domain.price_month) / ctx.daysInMonth);
    ln.steps = ln.steps.map((x) => ({ ...x, unit_price: round3(x.unit_price), amount: ln.amount }));
    lines.push(ln);
    Object.assign(used, { overseas_acceleration_guaranteed_domain_count: days.length === 1 ? domainDays : round3(domainDays / days.length), overseas_acceleration_guaranteed_price: ln.amount });
  }
  if (type === 'ddos') {
    // per instance: the period's highest attack peak; the part above the guaranteed protection by the ladder
    const peaks = new Map<string, { gbps: number; at: number; protect: number }>();
    for (const d of days) {
      for (const x of d.ddos ?? []) {
        const g = x.peak_bps / 1e9;
        const cur = peaks.get(x.code);
        if (!cur || g > cur.gbps) peaks.set(x.code, { gbps: g, at: x.at, protect: x.protect_gbps });
      }
    }
    for (const [code, p] of peaks) {
      const over = Math.max(0, p.gbps - p.protect);
      const ln = line(`ddos_attack:${code}`, `${code} 弹性防护`, p.gbps, 'Gbps', Math.min(p.protect, p.gbps), ladder, {
        note: p.gbps > 0 ? `攻击峰值 ${round3(p.gbps)} Gbps（${formatTime(p.at, false)}），保底防护 ${p.protect} Gbps，超出 ${round3(over)} Gbps 按阶梯计费` : '当日无攻击',
      });
      lines.push(ln);
    }
    // max_peak in bit/s, as spec 001 §9 has the console divide it by 10^9
    used.ddos_attack = [...peaks].map(([code, p]) => ({ code, max_peak: Math.round(p.gbps * DDOS_PEAK_DIVISOR) }));
    used.ddos_price = round3(lines.reduce((a, l) => a + l.amount, 0));
  }
  if (type === 'scdn') {
    const peaks = new Map<string, { gbps: number; at?: number }>();
    for (const d of days) {
      for (const a of d.attacks ?? []) {
        const g = slotMbps(a.bytes) / 1000;
        const cur = peaks.get(a.bucket_name);
        if (!cur || g > cur.gbps) peaks.set(a.bucket_name, { gbps: g, at: a.at });
      }
    }
    used.scdn_attack = [...peaks].map(([bucket_name, p]) => ({ bucket_name, peak: round3(p.gbps) }));
    let price = 0;
    if (cfg.attack_ladder) {
      for (const [name, p] of peaks) {
        const ln = line(`scdn_attack:${name}`, `${name} 攻击防护`, p.gbps, 'Gbps', 0, cfg.attack_ladder, {
          note: `攻击峰值 ${round3(p.gbps)} Gbps${p.at !== undefined ? `（${formatTime(p.at, false)} 的 5 分钟）` : ''}，按攻击峰值阶梯计费`,
        });
        lines.push(ln);
        price += ln.amount;
      }
    }
    used.scdn_price = round3(price);
  }
  if (!charged) {
    // shown for its usage (the daily bandwidth detail of spec 001 §2.6); the fee is on the other bill
    for (const l of lines) Object.assign(l, { steps: [], amount: 0, factor: undefined });
    for (const k of Object.keys(used)) if (k.endsWith('_price')) used[k] = 0;
  }
  const amount = round3(lines.reduce((a, l) => a + l.amount, 0));
  const total = round3((amount * cfg.discount) / 100);
  const note = charged ? undefined : period === 'MONTH' ? '按月结算，费用见月账单' : '已按日结算，费用见日账单';
  return { bill: { service_type: type, charged, used, lines, amount, discount: cfg.discount, total, note }, packageUsed: charged ? packageUsed : 0, transcodeUsed: charged ? transcodeUsed : 0 };
}

/** Free storage per account when storage_deduction is on (ours, docs/billing.md). */
export const STORAGE_FREE_GB = 10;

/** The calendar days of the month holding a CST day ('YYYY-MM-DD'). */
export function monthDays(day: string): { first: string; days: number } {
  const [y, m] = day.split('-').map(Number);
  const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return { first: `${day.slice(0, 7)}-01`, days };
}
