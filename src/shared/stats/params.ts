/**
 * Statistics parameters (spec 001 §3) and the rules of spec 001 §5: empty parameters are dropped,
 * the period is the inclusive day count (at least 1, default 1), the end day defaults to today, the
 * end is now for today and the midnight after the end day otherwise, the start is the midnight of
 * (end day − period + 1) unless a start day is given. One implementation for the server (which
 * refuses a malformed request with 21000) and the console (which builds the request).
 */
import { DAY_S, addDays, dayOf, dayStart, daysBetween, midnightOf } from './time';
import {
  FLOW_TYPES, FLOW_SOURCES, LIVE_TYPES, MINGMOU_TYPES, MAX_DAYS_BACK, SPAN_LIMIT_DAYS, SPAN_LIMIT_OVER_DAYS, SELECTION_OVER_LIMIT,
  type FlowType, type FlowSource, type LiveType,
} from './constants';

export type Granularity = 300 | 3600 | 86400;

export interface StatsQuery {
  flow_type: FlowType;
  query_type: '' | 'bucket' | 'domain';
  /** the names of query_value, split and trimmed */
  values: string[];
  region: string;
  isp: string;
  flow_source: FlowSource;
  ip_type: '' | 'ipv6';
  live_type: LiveType | '';
  /** mingmou: cdn or pcdn */
  type: 'cdn' | 'pcdn' | '';
  domain: string;
  bucket_name: string;
  regionTopLimit: number;
  /** downloads: the width of a row in seconds */
  interval: Granularity | null;
  start_day: string;
  end_day: string;
  period: number;
  /** epoch seconds: [start, end) */
  start: number;
  end: number;
  /** the granularity of chart series for this span */
  granularity: Granularity;
}

export interface ParamError {
  path: string;
  message: string;
}

/** Drops parameters whose value is empty (undefined, null, '' or only spaces); arrays keep their non-empty items. */
export function dropEmpty<T extends Record<string, unknown>>(q: T): Partial<T> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(q)) {
    if (v === undefined || v === null) continue;
    if (typeof v === 'string' && v.trim() === '') continue;
    if (Array.isArray(v)) {
      const kept = v.filter((x) => !(x === undefined || x === null || (typeof x === 'string' && x.trim() === '')));
      if (kept.length) out[k] = kept;
      continue;
    }
    out[k] = v;
  }
  return out as Partial<T>;
}

/** The chart granularity of a span: one day → 5-minute points, up to 31 days → hourly, longer → daily. */
export function granularityFor(periodDays: number): Granularity {
  if (periodDays <= 1) return 300;
  if (periodDays <= 31) return 3600;
  return 86400;
}

/** Whether a selection puts the screen in "over the limit" mode (91-day span, daily points beyond 31 days). */
export function isOverLimit(selectedCount: number): boolean {
  return selectedCount > SELECTION_OVER_LIMIT;
}

/**
 * The longest span in inclusive days: the start may be 30 days before the end (31 calendar days)
 * normally, 91 days in over-the-limit mode.
 */
export function spanLimit(overLimit: boolean): number {
  return overLimit ? SPAN_LIMIT_OVER_DAYS : SPAN_LIMIT_DAYS + 1;
}

/** Today (CST) for an epoch second. */
export function today(nowS: number): string {
  return dayOf(nowS);
}

/** The earliest day the picker allows: 182 days before today. */
export function earliestDay(nowS: number): string {
  return addDays(today(nowS), -MAX_DAYS_BACK);
}

/**
 * The date picker's clamp (spec 001 §5): within [today − 182, today]; in the restricted mode a
 * span above 31 days resets the start to 30 days before the end; any span above the mode's limit
 * is cut the same way.
 */
export function clampRange(range: { start_day: string; end_day: string }, nowS: number, overLimit: boolean): { start_day: string; end_day: string } {
  const t = today(nowS);
  const min = earliestDay(nowS);
  let end = range.end_day > t ? t : range.end_day < min ? min : range.end_day;
  let start = range.start_day < min ? min : range.start_day > end ? end : range.start_day;
  const span = daysBetween(start, end) + 1;
  const limit = spanLimit(overLimit);
  if (span > limit) start = addDays(end, -(limit - 1));
  if (start < min) start = min;
  end = end < start ? start : end;
  return { start_day: start, end_day: end };
}

const ONE_OF = (list: readonly string[], v: string) => list.includes(v);

function int(v: unknown): number | null {
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  if (typeof v === 'string' && /^-?\d+$/.test(v.trim())) return Number(v.trim());
  return null;
}

/** 'YYYY-MM-DD HH:mm:ss' (CST) or epoch seconds → epoch seconds. */
export function parseTime(v: unknown): number | null {
  if (typeof v === 'number' && Number.isFinite(v)) return Math.floor(v);
  if (typeof v !== 'string') return null;
  const s = v.trim();
  if (/^\d{9,11}$/.test(s)) return Number(s);
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/.exec(s);
  if (!m) return null;
  const d = dayStart(m[1]);
  const [h, mi, se] = [Number(m[2]), Number(m[3]), Number(m[4] ?? 0)];
  if (d === null || h > 23 || mi > 59 || se > 59) return null;
  return d + h * 3600 + mi * 60 + se;
}

export interface ParseOptions {
  /** flow types the route accepts (the variants fix theirs) */
  flowTypes?: readonly FlowType[];
  /** the route's fixed flow type, used when none is given */
  defaultFlowType?: FlowType;
}

/**
 * Validates and completes a statistics query. Unknown parameters are ignored; empty ones dropped.
 */
export function parseStatsQuery(raw: Record<string, unknown>, nowS: number, opts: ParseOptions = {}): { ok: true; query: StatsQuery } | { ok: false; errors: ParamError[] } {
  const q = dropEmpty(raw) as Record<string, unknown>;
  const errors: ParamError[] = [];
  const str = (k: string) => (q[k] === undefined ? '' : Array.isArray(q[k]) ? (q[k] as unknown[]).map(String).join(',') : String(q[k]).trim());
  const fail = (path: string, message: string) => errors.push({ path: '/' + path, message });

  const flowTypes = opts.flowTypes ?? FLOW_TYPES;
  const flow_type = (str('flow_type') || opts.defaultFlowType || 'cdn') as FlowType;
  if (!ONE_OF(flowTypes, flow_type)) fail('flow_type', '不支持的流量类型');

  const query_type = str('query_type') as StatsQuery['query_type'];
  if (query_type && !ONE_OF(['bucket', 'domain'], query_type)) fail('query_type', 'query_type 须为 bucket 或 domain');
  const rawValues = q.query_value ?? q['query_value[]'] ?? q.domains ?? q['domains[]'];
  const values = (Array.isArray(rawValues) ? rawValues.map(String) : rawValues === undefined ? [] : String(rawValues).split(','))
    .map((s) => s.trim())
    .filter(Boolean);
  if (values.length && !query_type) fail('query_type', '指定了 query_value 时须给出 query_type');
  if (values.length > SELECTION_OVER_LIMIT * 10) fail('query_value', '选择的服务或域名过多');
  if (values.some((v) => v.length > 255)) fail('query_value', '名称过长');

  const flow_source = (str('flow_source') || 'cdn') as FlowSource;
  if (!ONE_OF(FLOW_SOURCES, flow_source)) fail('flow_source', 'flow_source 须为 cdn、backsource 或 pcdn');
  const ip_type = str('ip_type') as StatsQuery['ip_type'];
  if (ip_type && ip_type !== 'ipv6') fail('ip_type', 'ip_type 只能为空或 ipv6');
  const live_type = str('live_type') as StatsQuery['live_type'];
  if (live_type && !ONE_OF(LIVE_TYPES, live_type)) fail('live_type', 'live_type 须为 up 或 down');
  const type = str('type') as StatsQuery['type'];
  if (type && !ONE_OF(MINGMOU_TYPES, type)) fail('type', 'type 须为 cdn 或 pcdn');
  const region = str('region');
  const isp = str('isp');
  if (region.length > 40 || /[^a-z_]/.test(region)) fail('region', '地区不正确');
  if (isp.length > 40 || /[^a-z_]/.test(isp)) fail('isp', '运营商不正确');

  const regionTopLimit = q.regionTopLimit === undefined ? 10 : int(q.regionTopLimit);
  if (regionTopLimit === null || regionTopLimit < 1 || regionTopLimit > 50) fail('regionTopLimit', 'regionTopLimit 须为 1 - 50 的整数');
  let interval: Granularity | null = null;
  if (q.interval !== undefined) {
    const iv = int(q.interval);
    const named: Record<string, Granularity> = { '5min': 300, hour: 3600, day: 86400, '1d': 86400, '1h': 3600 };
    interval = (iv !== null && [300, 3600, 86400].includes(iv) ? iv : named[str('interval')]) as Granularity | null;
    if (!interval) fail('interval', 'interval 须为 300、3600 或 86400');
  }

  // the period (spec 001 §5)
  const nowDay = today(nowS);
  const min = earliestDay(nowS);
  let period = 1;
  if (q.period !== undefined) {
    const p = int(q.period);
    if (p === null || p < 1) fail('period', '统计周期须为不小于 1 的整数天数');
    else period = p;
  }
  // start_time/end_time (and the security CDN's from/to) may stand in for the days
  const startTime = q.start_time ?? q.from;
  const endTime = q.end_time ?? q.to;
  let end_day = str('end_day');
  let start_day = str('start_day');
  if (!end_day && endTime !== undefined) {
    const t = parseTime(endTime);
    if (t === null) fail('end_time', '结束时间格式不正确');
    // an end at a midnight closes the previous day
    else end_day = dayOf(t === midnightOf(t) ? t - 1 : t);
  }
  if (!start_day && startTime !== undefined) {
    const t = parseTime(startTime);
    if (t === null) fail('start_time', '开始时间格式不正确');
    else start_day = dayOf(t);
  }
  if (!end_day) end_day = nowDay;
  if (dayStart(end_day) === null) fail('end_day', '结束日期格式应为 YYYY-MM-DD');
  if (start_day && dayStart(start_day) === null) fail('start_day', '开始日期格式应为 YYYY-MM-DD');
  if (errors.length) return { ok: false, errors };

  if (start_day) period = daysBetween(start_day, end_day) + 1;
  else start_day = addDays(end_day, -(period - 1));
  if (end_day > nowDay) fail('end_day', '结束日期不能晚于今天');
  if (start_day > end_day) fail('start_day', '开始日期不能晚于结束日期');
  if (start_day < min) fail('start_day', `最多可查询 ${MAX_DAYS_BACK} 天内的数据`);
  const limit = spanLimit(isOverLimit(values.length));
  if (period > limit) fail('period', `查询跨度不能超过 ${limit} 天`);
  if (errors.length) return { ok: false, errors };

  const start = dayStart(start_day) as number;
  const end = end_day === nowDay ? nowS : (dayStart(end_day) as number) + DAY_S;
  return {
    ok: true,
    query: {
      flow_type, query_type, values, region, isp, flow_source, ip_type, live_type, type,
      domain: str('domain'), bucket_name: str('bucket_name'), regionTopLimit: regionTopLimit ?? 10, interval,
      start_day, end_day, period, start, end, granularity: granularityFor(period),
    },
  };
}

/** The query string the console sends for a query (empty values dropped). */
export function toSearchParams(p: Record<string, string | number | string[] | undefined | null>): Record<string, string> {
  const kept = dropEmpty(p as Record<string, unknown>);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(kept)) out[k] = Array.isArray(v) ? v.join(',') : String(v);
  return out;
}

