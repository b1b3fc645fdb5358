/**
 * The statistics calls of spec 001 §7 (docs/api.md "Statistics"). Every GET takes the parameters of
 * spec 001 §3 with the rules of §5 (src/shared/stats/params.ts); a malformed request is refused with
 * HTTP 400 and 21000 (spec 001 §8), a service or domain out of reach with 21905. They need the
 * `stats` permission; a sub-account sees the services of its data scope (dataScopeTo: authorized_service "authorization" its granted services, "all" every service of the account).
 */
import { loadPriceConfig } from '../billing/price';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DB } from '../db';
import type { Need } from '../../shared/permissions';
import { ok } from '../http/envelope';
import { ApiError } from '../http/errors';
import { malformed, resolveScope, type Scope } from './scope';
import { bandwidth95, coverage, dailyRows, drawnEnd, geoTotals, healthRows, series, serviceBytes, slotSums, type Series } from './query';
import { billing95 } from '../../shared/stats/percentile';
import { seriesWorkbook } from './xlsx';
import { ingestRoutes } from './ingest';
import { listRoutes } from './lists';
import { parseStatsQuery, type StatsQuery } from '../../shared/stats/params';
import {
  CARRIERS, FLOW_TYPE_LABELS, REGIONS, OTHER_REGION, REGION_TOP, carrierLabel, regionLabel, type FlowType,
} from '../../shared/stats/constants';
import { BANDWIDTH_UNITS, BYTE_UNITS, REQUEST_UNITS, axisMax, bandwidthOf, inUnit, percent2, pickUnit, round3 } from '../../shared/stats/units';
import { DAY_S, SLOT_S, dayOf, formatTime, midnightOf } from '../../shared/stats/time';
import { topWithOther } from '../../shared/stats/series';

/** Who may call: any signed-in user holding `stats` (main accounts hold everything). */
const STATS = { access: 'user', needs: ['stats'] } as const;

/** The parameters of spec 001 §3, for the reference; the handler validates them itself (21000). */
const STATS_QUERYSTRING = {
  type: 'object',
  properties: {
    start_day: { type: 'string', description: '开始日期 YYYY-MM-DD（UTC+8）；给出时周期为两日之间的天数（含两端）' },
    end_day: { type: 'string', description: '结束日期 YYYY-MM-DD，默认今天；今天的结束时间为当前时刻' },
    period: { type: 'string', description: '统计周期（天），默认 1；未给 start_day 时开始日期 = end_day − period + 1' },
    start_time: { type: 'string', description: '可代替 start_day：YYYY-MM-DD HH:mm:ss 或秒级时间戳（安全 CDN 亦可用 from）' },
    end_time: { type: 'string', description: '可代替 end_day（安全 CDN 亦可用 to）' },
    query_type: { type: 'string', description: 'bucket（按服务）、domain（按域名）或空（全部服务）' },
    query_value: { type: 'string', description: '逗号分隔的服务名或域名' },
    bucket_name: { type: 'string', description: '单选：服务名' },
    domain: { type: 'string', description: '单选：域名' },
    flow_type: { type: 'string', description: 'cdn、live、scdn、websocket、overseas、pcdn、mingmou' },
    flow_source: { type: 'string', description: 'cdn（边缘访问，默认）、backsource（回源）、pcdn' },
    ip_type: { type: 'string', description: '空或 ipv6（仅边缘访问）' },
    region: { type: 'string', description: '地区代码，如 guangdong' },
    isp: { type: 'string', description: '运营商：ctn、cmn、cun、small_operator' },
    live_type: { type: 'string', description: '直播：up 上行、down 下行（默认）' },
    type: { type: 'string', description: '明眸：cdn 或 pcdn' },
    regionTopLimit: { type: 'string', description: '地区排行条数，默认 10' },
    interval: { type: 'string', description: '下载：每行的时长，300、3600 或 86400 秒（默认 300）' },
  },
} as const;

const now = () => Math.floor(Date.now() / 1000);

function parse(req: FastifyRequest, fixed?: FlowType): StatsQuery {
  const raw = { ...(req.query as Record<string, unknown>) };
  if (fixed) {
    if (raw.flow_type !== undefined && raw.flow_type !== '' && raw.flow_type !== fixed) throw malformed([{ path: '/flow_type', message: '该接口只统计 ' + fixed }]);
    raw.flow_type = fixed;
  }
  const r = parseStatsQuery(raw, now());
  if (!r.ok) throw malformed(r.errors);
  const q = r.query;
  if (q.region && q.region !== OTHER_REGION && !(q.region in REGIONS)) throw malformed([{ path: '/region', message: '地区不正确' }]);
  if (q.isp && ![...CARRIERS, 'other'].includes(q.isp as never)) throw malformed([{ path: '/isp', message: '运营商不正确' }]);
  return q;
}

/** The chart payload of a series (spec 001 §3 "Stats response"), values in their display units. */
function chartPayload(s: Series, q: StatsQuery) {
  const bwPeak = Math.max(0, ...s.bandwidth);
  const reqPeak = Math.max(0, ...s.requests);
  const trafficPeak = Math.max(0, ...s.traffic);
  const bwUnit = pickUnit(bwPeak, BANDWIDTH_UNITS);
  const reqUnit = pickUnit(reqPeak, REQUEST_UNITS);
  const byteUnit = pickUnit(trafficPeak, BYTE_UNITS);
  const peakIndex = s.bandwidth.indexOf(bwPeak);
  const flowTotal = s.traffic.reduce((a, b) => a + b, 0);
  const reqTotal = s.requests.reduce((a, b) => a + b, 0);
  const payload: Record<string, unknown> = {
    flow_type: q.flow_type,
    start_day: q.start_day,
    end_day: q.end_day,
    period: q.period,
    start: q.start,
    end: q.end,
    granularity: s.granularity,
    tier: s.tier,
    times: s.times,
    bandwidth: s.bandwidth.map(round3),
    traffic: s.traffic,
    requests: s.requests,
    _dataset: {
      columns: {
        yLeftData: { data: s.bandwidth.map((v) => inUnit(v, bwUnit)), yAxisMax: axisMax(inUnit(bwPeak, bwUnit)) },
        yRightData: { data: s.requests.map((v) => inUnit(v, reqUnit)), yAxisMax: axisMax(inUnit(reqPeak, reqUnit)) },
      },
      unit: { yLeftUnit: bwUnit.label, yRightUnitReq: reqUnit.label },
    },
    transfer_dataset: { data: s.traffic.map((v) => inUnit(v, byteUnit)), yAxisMax: axisMax(inUnit(trafficPeak, byteUnit)), unit: byteUnit.label },
    usageData: {
      flow_total: flowTotal,
      reqs_total: reqTotal,
      peak_bandwidth: round3(bwPeak),
      peak_time: peakIndex >= 0 && bwPeak > 0 ? s.times[peakIndex] : null,
    },
  };
  if (s.attack && s.filtered) {
    const peak = Math.max(0, ...s.attack, ...s.filtered);
    const unit = pickUnit(peak, BANDWIDTH_UNITS);
    payload.attack = s.attack.map(round3);
    payload.filtered = s.filtered.map(round3);
    payload.attack_dataset = {
      inflow: s.attack.map((v) => inUnit(v, unit)),
      filtered: s.filtered.map((v) => inUnit(v, unit)),
      // the attack chart's axis is at least 2 (spec 001 §9)
      yAxisMax: axisMax(inUnit(peak, unit), 2),
      unit: unit.label,
    };
  }
  return payload;
}

/** The account's price configuration (spec 001 §3 price_config), owned by billing (docs/billing.md "Prices"). */
export const priceConfig = loadPriceConfig;

function scopeText(q: StatsQuery): string {
  if (q.domain) return q.domain;
  if (q.bucket_name) return q.bucket_name;
  if (!q.values.length) return '全部服务';
  return q.values.length <= 3 ? q.values.join('、') : `${q.values.slice(0, 3).join('、')} 等 ${q.values.length} 项`;
}

export function statsRoutes(app: FastifyInstance, db: DB): void {
  ingestRoutes(app, db);
  listRoutes(app, db);
  const opts = (summary: string, description?: string) => ({
    config: { access: STATS.access, needs: [...STATS.needs] as Need[], openapi: { summary, description, errors: { 400: '21000 参数不正确（spec 001 §5）', 404: '21905 服务或域名不存在或无权访问' } } },
    schema: { querystring: STATS_QUERYSTRING as unknown as Record<string, unknown> },
    attachValidation: true,
  });

  // flow statistic and its variants: bandwidth + requests, traffic, (scdn) attack inflow vs filtered
  const statistic = (fixed?: FlowType) => async (req: FastifyRequest) => {
    const q = parse(req, fixed);
    const scope = await resolveScope(db, req.user!, q);
    const s = await series(db, scope, q, { keepSlots: true });
    const payload = chartPayload(s, q);
    // the 95 of the period, when the query is the edge traffic of the whole selection
    const eligible = !q.region && !q.isp && q.flow_source === 'cdn' && !q.ip_type && ['cdn'].includes(q.flow_type);
    payload.bandwidth95 = eligible ? await bandwidth95(db, scope, q, s.tier === '5m' ? s.slots : undefined) : null;
    return ok(payload);
  };
  const variants: [string, FlowType | undefined, string][] = [
    ['/api/flow/statistic/', undefined, '流量统计：带宽与请求数、流量（flow_type 选择类型）'],
    ['/api/flow/pcdn/statistic', 'pcdn', 'PCDN 流量统计'],
    ['/api/flow/websocket/statistic', 'websocket', 'WebSocket 流量统计'],
    ['/api/cdn/mingmou/statistic', 'mingmou', '明眸 CDN/PCDN 流量统计（type 为 cdn 或 pcdn）'],
    ['/api/flow/abroad/statistic', 'overseas', '海外加速流量统计'],
    ['/api/flow/scdn/statistic', 'scdn', '安全 CDN 流量统计（含攻击流入与清洗带宽）'],
    ['/api/scdn/flow', 'scdn', '安全 CDN 流量（from/to 可代替日期）'],
  ];
  for (const [url, fixed, summary] of variants) app.get(url, opts(summary), statistic(fixed));

  app.get('/api/flow/bandwidth95/', opts('95 带宽峰值', '计费定义：周期内有用量的日期的 5 分钟带宽样本从高到低排序，去掉最高的 floor(n × 5%) 个，取剩余最高值。'), async (req) => {
    const q = parse(req);
    const scope = await resolveScope(db, req.user!, q);
    const r = await bandwidth95(db, scope, q);
    if (!r) return ok({ bandwidth95: null, time: null, samples: 0, dropped: 0, valid_days: 0, unit: 'bps' });
    const unit = pickUnit(r.bandwidth95, BANDWIDTH_UNITS);
    return ok({ ...r, bandwidth95: round3(r.bandwidth95), value: inUnit(r.bandwidth95, unit), unit: unit.label, peak_time: r.time === null ? null : formatTime(r.time) });
  });

  // shares: carriers, regions (top 10 + other), top regions with per-carrier values, IPv4/IPv6, origin
  app.get('/api/flow/proportion/', opts('占比：运营商、地区、地区运营商分布、IP 类型、流量来源'), async (req) => {
    const q = parse(req);
    const scope = await resolveScope(db, req.user!, q);
    const cells = await geoTotals(db, scope, q);
    const byCarrier = new Map<string, { bytes: number; reqs: number }>();
    const byRegion = new Map<string, { bytes: number; reqs: number; carriers: Record<string, number> }>();
    for (const c of cells) {
      const k = byCarrier.get(c.carrier) ?? { bytes: 0, reqs: 0 };
      k.bytes += c.bytes;
      k.reqs += c.reqs;
      byCarrier.set(c.carrier, k);
      const r = byRegion.get(c.region) ?? { bytes: 0, reqs: 0, carriers: {} };
      r.bytes += c.bytes;
      r.reqs += c.reqs;
      r.carriers[c.carrier] = (r.carriers[c.carrier] ?? 0) + c.bytes;
      byRegion.set(c.region, r);
    }
    const total = cells.reduce((a, c) => a + c.bytes, 0);
    const carrierOrder = [...CARRIERS, 'other'];
    const isp_proportion = [...byCarrier.entries()]
      .sort((a, b) => carrierOrder.indexOf(a[0]) - carrierOrder.indexOf(b[0]))
      .map(([isp, v]) => ({ isp, name: carrierLabel(isp), bytes: v.bytes, reqs: v.reqs, share: percent2(v.bytes, total) }));
    const regionRows = [...byRegion.entries()].map(([key, v]) => ({ key, value: v.bytes }));
    const region_proportion = topWithOther(regionRows, REGION_TOP, OTHER_REGION).map((r) => ({ region: r.key, name: regionLabel(r.key), bytes: r.value, share: r.share }));
    const ranking = [...byRegion.entries()]
      .sort((a, b) => b[1].bytes - a[1].bytes)
      .map(([region, v], i) => ({ rank: i + 1, region, name: regionLabel(region), bytes: v.bytes, reqs: v.reqs, share: percent2(v.bytes, total), carriers: v.carriers }));
    const top = ranking.slice(0, q.regionTopLimit);
    const carriersSeen = carrierOrder.filter((c) => byCarrier.has(c));
    const unit = pickUnit(Math.max(0, ...top.flatMap((r) => Object.values(r.carriers))), BYTE_UNITS);
    // IPv4/IPv6 and origin (edge, back-to-origin, PCDN) come from the daily totals (no region there)
    const days = q.region || q.isp ? [] : await dailyRows(db, scope, q);
    const sum = (k: string) => days.reduce((a, d) => a + (d[k] ?? 0), 0);
    const edge = sum('bytes');
    const v6 = sum('bytes_v6');
    return ok({
      total_bytes: total,
      isp_proportion,
      region_proportion,
      region_rank: ranking,
      top_of_region_and_proportion: top.map((r) => ({ province: r.region, name: r.name, bytes: r.bytes, share: r.share, ...Object.fromEntries(carriersSeen.map((c) => [c, r.carriers[c] ?? 0])) })),
      ip_proportion: q.region || q.isp ? [] : [
        { ip_type: 'ipv4', name: 'IPv4', bytes: edge - v6, share: percent2(edge - v6, edge) },
        { ip_type: 'ipv6', name: 'IPv6', bytes: v6, share: percent2(v6, edge) },
      ],
      origin_proportion: q.region || q.isp ? [] : [
        { source: 'cdn', name: '边缘访问', bytes: edge },
        { source: 'backsource', name: '回源', bytes: sum('bs_bytes') },
        { source: 'pcdn', name: 'PCDN', bytes: sum('p_bytes') },
      ].filter((o) => o.bytes > 0).map((o, _i, all) => ({ ...o, share: percent2(o.bytes, all.reduce((a, x) => a + x.bytes, 0)) })),
      region_top: {
        regions: top.map((r) => ({ region: r.region, name: r.name })),
        columns: Object.fromEntries(carriersSeen.map((c) => [c, top.map((r) => inUnit(r.carriers[c] ?? 0, unit))])),
        carriers: carriersSeen.map((c) => ({ isp: c, name: carrierLabel(c) })),
        unit: unit.label,
      },
    });
  });

  app.get('/api/flow/map/', opts('地区分布（地图）：每个地区的流量与请求数'), async (req) => {
    const q = parse(req);
    const scope = await resolveScope(db, req.user!, q);
    const cells = await geoTotals(db, scope, q);
    const total = cells.reduce((a, c) => a + c.bytes, 0);
    const m = new Map<string, { bytes: number; reqs: number }>();
    for (const c of cells) {
      const r = m.get(c.region) ?? { bytes: 0, reqs: 0 };
      r.bytes += c.bytes;
      r.reqs += c.reqs;
      m.set(c.region, r);
    }
    return ok([...m.entries()].sort((a, b) => b[1].bytes - a[1].bytes).map(([region, v]) => ({ region, name: regionLabel(region), ...v, share: percent2(v.bytes, total) })));
  });

  // usage history: one flow-history record per day (spec 001 §3)
  /**
   * Per CST day of the query, from the 5-minute rows where they hold the period: the summed series' peak,
   * its slot, the day's 95 and the peak of the same series before compression.
   */
  const summedDays = async (db: DB, scope: Scope, q: StatsQuery) => {
    const out = new Map<number, { peak: number; at: number; p95: number; bfPeak: number }>();
    const since = await coverage(db, scope.account_id, '5m');
    const start = Math.max(q.start, since ?? 0);
    // the slots the chart draws (the edge's running slot too)
    const end = await drawnEnd(db, scope, q);
    if (start >= end || !scope.domainIds.length) return out;
    const slots = await slotSums(db, scope, start, end, false, true);
    const days = new Map<number, { bytes: number[]; first: number; bfPeak: number }>();
    for (let i = 0; i < slots.bytes.length; i++) {
      const t = start + i * SLOT_S;
      const d = midnightOf(t);
      const day = days.get(d) ?? { bytes: [], first: t, bfPeak: 0 };
      day.bytes.push(slots.bytes[i]!);
      day.bfPeak = Math.max(day.bfPeak, slots.beforeCp![i]!);
      days.set(d, day);
    }
    for (const [d, day] of days) {
      // only whole days of 5-minute rows (the first day may begin before the rows do)
      if (day.first !== d) continue;
      let k = 0;
      day.bytes.forEach((b, i) => b > day.bytes[k]! && (k = i));
      out.set(d, { peak: day.bytes[k]!, at: day.first + k * SLOT_S, p95: billing95([day.bytes.map((b) => bandwidthOf(b, SLOT_S))]).value, bfPeak: day.bfPeak });
    }
    return out;
  };
  const history = (fixed?: FlowType) => async (req: FastifyRequest) => {
    const q = parse(req, fixed);
    const scope = await resolveScope(db, req.user!, q);
    const rows = await dailyRows(db, scope, q);
    const byDay = new Map<number, Record<string, number>>();
    for (const r of rows) {
      const d = byDay.get(r.t) ?? { t: r.t, bytes: 0, bf: 0, reqs: 0, dreqs: 0, hreqs: 0, hit: 0, bs_bytes: 0, p_bytes: 0, bytes_v6: 0, peak: 0, peak_at: 0, peak_single: 0 };
      const b = scope.bytesCol;
      d.bytes += r[b];
      d.bf += r.bf_cp_bytes;
      d.reqs += r[scope.reqsCol];
      d.dreqs += r.dyn_reqs;
      d.hreqs += r.https_reqs;
      d.hit += r.hit_reqs;
      d.peak += r.peak_bytes;
      if (r.peak_bytes > d.peak_single) [d.peak_single, d.peak_at] = [r.peak_bytes, r.peak_at ?? r.t];
      byDay.set(r.t, d);
    }
    const flowTotal = [...byDay.values()].reduce((a, d) => a + d.bytes, 0);
    const serviceTotal = await serviceBytes(db, scope, q);
    // the day's peak is the peak of the summed series: each 5-minute slot summed over the selected
    // domains, then the day's highest (issue 19 item 16); where the 5-minute rows no longer hold the day,
    // the sum of the domains' own peaks stands for it (exact for one domain, an upper bound for several)
    const summed = await summedDays(db, scope, q);
    const data = [...byDay.values()].map((d) => {
      const exact = summed.get(d.t);
      const peak = exact ? exact.peak : d.peak;
      const peakAt = exact ? exact.at : d.peak_at;
      const bandwidth = round3(bandwidthOf(peak, SLOT_S));
      return {
        date: dayOf(d.t),
        timestamp: d.t,
        flow_time: dayOf(d.t),
        bytes: d.bytes,
        ...(q.flow_type === 'websocket' ? { wsbytes: d.bytes, wsbandwidth: bandwidth, peak_time_ws: formatTime(peakAt) } : {}),
        reqs: d.reqs,
        dreqs: d.dreqs,
        sreqs: d.reqs - d.dreqs,
        hreqs: d.hreqs,
        hit_reqs: d.hit,
        bandwidth,
        peak_time: formatTime(peakAt),
        // the peak's time in unix seconds
        time: peakAt,
        // whether the peak is of the summed series (false: the sum of the domains' peaks, an upper bound)
        peak_exact: Boolean(exact),
        rps: round3(d.reqs / DAY_S),
        bill_bytes: d.bytes,
        // before the edge's compression (docs/statistics.md "Compression"): the bytes, what compression
        // saved, and the summed series' peak bandwidth (null without 5-minute rows, as bill_bandwidth)
        bf_cp_bytes: d.bf,
        cp_bytes: Math.max(0, d.bf - d.bytes),
        bf_cp_bandwidth: exact ? round3(bandwidthOf(exact.bfPeak, SLOT_S)) : null,
        // the day's billing bandwidth by the daily 95 (the 15th highest of 288 summed samples); null without 5-minute rows
        bill_bandwidth: exact ? round3(exact.p95) : null,
        flow_total: flowTotal,
        service_flow_total: serviceTotal,
      };
    });
    return ok(data, { summary: { flow_total: flowTotal, service_flow_total: serviceTotal, days: data.length } });
  };
  app.get('/api/flow/amount/history/', opts('用量历史：每日流量、请求数与峰值带宽'), history());
  app.get('/api/flow/scdn/amount/history', opts('安全 CDN 用量历史'), history('scdn'));
  app.get('/api/cdn/mingmou/history', opts('明眸用量历史'), history('mingmou'));
  app.get('/api/flow/abroad/history', opts('海外加速用量历史'), history('overseas'));

  app.get('/api/flow/status/history/', opts('状态码历史：各时间点的 2xx、3xx、4xx、5xx 请求数'), async (req) => {
    const q = parse(req);
    const scope = await resolveScope(db, req.user!, q);
    const points = await healthRows(db, scope, q, q.granularity);
    return ok({ times: points.map((p) => p.t), s2xx: points.map((p) => p.s2xx), s3xx: points.map((p) => p.s3xx), s4xx: points.map((p) => p.s4xx), s5xx: points.map((p) => p.s5xx) });
  });

  app.get('/api/flow/health_degree/detail/', opts('健康度明细：每小时的健康度、命中率、平均下载速度、平均耗时、平均大小与攻击次数'), async (req) => {
    const q = parse(req);
    const scope = await resolveScope(db, req.user!, q);
    const points = await healthRows(db, scope, q, q.granularity === DAY_S ? DAY_S : 3600);
    return ok(
      points.map((p) => ({
        timestamp: p.t,
        health_degree: percent2(p.s2xx + p.s3xx, p.reqs),
        // the hit rate is capped at 100 (spec 001 §9)
        hit_degree: Math.min(100, percent2(p.hit, p.reqs)),
        avg_download_speed: p.time_ms ? round3((p.bytes / p.time_ms) * 1000) : 0,
        avg_time_spend: p.reqs ? round3(p.time_ms / p.reqs) : 0,
        avg_size: p.reqs ? round3(p.bytes / p.reqs) : 0,
        xss: p.xss,
        sql: p.sql_inj,
        other: p.other_attack,
      })),
    );
  });

  // rankings: services and domains by traffic (flow top)
  app.get('/api/buckets/stats_top/', opts('流量排行：按服务与域名'), async (req) => {
    const q = parse(req);
    const scope = await resolveScope(db, req.user!, q);
    return ok(await rankings(db, scope, q));
  });
  app.get('/api/scdn/stats/top/', opts('安全 CDN 排行：按服务的攻击流量与拦截次数'), async (req) => {
    const q = parse(req, 'scdn');
    const scope = await resolveScope(db, req.user!, q);
    return ok(await rankings(db, scope, q));
  });

  // the whole price configuration belongs to billing: parent_only plus bill (spec 001 §6); the statistics
  // pages get only the billing mode they need, under their own permission (docs/statistics.md)
  app.get('/api/accounts/price_config', { config: { access: 'parent', needs: ['bill'], openapi: { summary: '账号的价格配置（price_config：计费方式、阶梯单价、折扣），主账号或有费用中心权限的子账号' } } }, async (req) => {
    return ok(await priceConfig(db, req.user!.account_id));
  });
  app.get('/api/flow/billing_mode/', { config: { access: STATS.access, needs: [...STATS.needs] as Need[], openapi: { summary: '各服务类型的计费方式（amount_cal_type）：cdn 为 MONTHLY_95 时统计页显示 95 带宽线' } } }, async (req) => {
    const config = await priceConfig(db, req.user!.account_id);
    return ok(Object.fromEntries(Object.entries(config).map(([type, c]) => [type, c.amount_cal_type])));
  });

  // downloads by browser navigation: the chart's query, 5-minute rows by default
  const download = (fixed?: FlowType) => async (req: FastifyRequest, reply: FastifyReply) => {
    const q = parse(req, fixed);
    const scope = await resolveScope(db, req.user!, q);
    const s = await series(db, scope, q, { interval: q.interval ?? SLOT_S });
    const body = await seriesWorkbook(s, { flowType: q.flow_type, start: q.start, end: q.end, scopeText: scopeText(q) });
    const name = `stats-${q.flow_type}-${q.start_day}_${q.end_day}.xlsx`;
    return reply
      .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
      .header('content-disposition', `attachment; filename="${name}"; filename*=UTF-8''${encodeURIComponent(`${FLOW_TYPE_LABELS[q.flow_type]}统计-${q.start_day}_${q.end_day}.xlsx`)}`)
      .header('cache-control', 'no-store')
      .send(body);
  };
  const raw = { contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', description: 'Excel 工作簿：每个序列一张工作表（带宽、流量、请求数；安全 CDN 另有攻击流入与清洗带宽），表头含时间范围与单位' };
  const dl: [string, FlowType | undefined, string][] = [
    ['/api/flow/statistic/download/', undefined, '下载统计数据（Excel）'],
    ['/api/flow/websocket/download/', 'websocket', '下载 WebSocket 统计数据（Excel）'],
    ['/api/flow/abroad/download/', 'overseas', '下载海外加速统计数据（Excel）'],
    ['/api/flow/scdn/statistic/download/', 'scdn', '下载安全 CDN 统计数据（Excel）'],
    ['/api/cdn/mingmou/download', 'mingmou', '下载明眸统计数据（Excel）'],
  ];
  for (const [url, fixed, summary] of dl) {
    const o = opts(summary);
    app.get(url, { ...o, config: { ...o.config, openapi: { ...o.config.openapi, raw } } }, download(fixed));
  }
}

async function rankings(db: DB, scope: Scope, q: StatsQuery) {
  const rows = await dailyRows(db, scope, q);
  const byDomain = new Map<number, { bytes: number; reqs: number; peak: number; attack: number; xss: number; sql: number; other: number }>();
  for (const r of rows) {
    const d = byDomain.get(r.domain_id) ?? { bytes: 0, reqs: 0, peak: 0, attack: 0, xss: 0, sql: 0, other: 0 };
    d.bytes += r[scope.bytesCol];
    d.reqs += r[scope.reqsCol];
    d.peak = Math.max(d.peak, r.peak_bytes);
    d.attack += r.attack_bytes;
    d.xss += r.xss;
    d.sql += r.sql_inj;
    d.other += r.other_attack;
    byDomain.set(r.domain_id, d);
  }
  const total = [...byDomain.values()].reduce((a, d) => a + d.bytes, 0);
  const domains = [...byDomain.entries()]
    .map(([id, d]) => ({ domain: scope.names.get(id)!.domain, bucket_name: scope.names.get(id)!.bucket, bytes: d.bytes, reqs: d.reqs, peak_bandwidth: round3(bandwidthOf(d.peak, SLOT_S)), attack_bytes: d.attack, xss: d.xss, sql: d.sql, other: d.other, share: percent2(d.bytes, total) }))
    .sort((a, b) => b.bytes - a.bytes);
  const byBucket = new Map<string, { bytes: number; reqs: number; attack_bytes: number; attacks: number; domains: number }>();
  for (const d of domains) {
    const b = byBucket.get(d.bucket_name) ?? { bytes: 0, reqs: 0, attack_bytes: 0, attacks: 0, domains: 0 };
    b.bytes += d.bytes;
    b.reqs += d.reqs;
    b.attack_bytes += d.attack_bytes;
    b.attacks += d.xss + d.sql + d.other;
    b.domains += 1;
    byBucket.set(d.bucket_name, b);
  }
  const buckets = [...byBucket.entries()].map(([bucket_name, b]) => ({ bucket_name, ...b, share: percent2(b.bytes, total) })).sort((a, b) => b.bytes - a.bytes);
  return { total_bytes: total, buckets: buckets.map((b, i) => ({ rank: i + 1, ...b })), domains: domains.map((d, i) => ({ rank: i + 1, ...d })) };
}

export { ApiError };
