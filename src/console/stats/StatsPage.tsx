/**
 * /stats/ (spec 001 §2.2, §4): the flow types of the account, the service or domain selectors, the
 * filters (region, carrier, flow source, IPv6, live up/down, the date range), the bandwidth-and-request
 * and traffic trends with the switchable 95 line, the DDoS chart of the security CDN, the carrier,
 * region and origin shares with the per-region carrier distribution, the slice detail and the full
 * ranking, the Excel download. Fetches 500 ms after a change and every 5 minutes.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import './stats.css';
import { useSearchParams } from 'react-router-dom';
import { Button, Card, H3, H5, HTMLSelect, NonIdealState, SegmentedControl, Spinner, Switch, Tooltip } from '@blueprintjs/core';
import { Tab, Tabs } from '../common/Tabs';
import { api, failureText } from '../api/client';
import { notify } from '../common/toaster';
import { useEventOnOpen } from '../api/events';
import {
  CARRIERS, FLOW_SOURCES, FLOW_SOURCE_LABELS, FLOW_TYPE_LABELS, LINE_95_LABEL, LIVE_TYPE_LABELS, REGIONS, REGION_PIE_SLICES, STATS_LOAD_DELAY_MS,
  STATS_REFRESH_MS, AUTHORIZED_AUTOLOAD_LIMIT, AUTHORIZED_SELECT_MAX, BACKSOURCE_FOLLOW_TEXT, carrierLabel, shows95Line, type FlowSource, type FlowType, type LiveType, STATS_LOAD_FAILED_TEXT } from '../../shared/stats/constants';
import { BANDWIDTH_UNITS, BYTE_UNITS, REQUEST_UNITS, formatBandwidth, formatBytes, formatRequests, inUnit, pickUnit } from '../../shared/stats/units';
import { isOverLimit, toSearchParams, today } from '../../shared/stats/params';
import { formatTime } from '../../shared/stats/time';
import { BarChart, PieChart, TrendChart, type Slice } from './charts';
import { ChinaMap, type MapRow } from './ChinaMap';
import { UsageHistory } from './UsageHistory';
import { DateRange, LiveSearch, MultiSelector, SingleSelector, type Selection } from './selectors';
import { DetailDialog, RankingDialog, RegionCarrierDialog, RealNamePrompt, StatsNav, useAuthorizedService, useFlowTypes, usePriceConfig, type SliceRef } from './common';

const OVERSEAS = ['asia_pacific', 'north_america', 'europe', 'oceania', 'south_america', 'africa'];
const DOWNLOAD_URL: Partial<Record<FlowType, string>> = {
  websocket: '/api/flow/websocket/download/',
  overseas: '/api/flow/abroad/download/',
  scdn: '/api/flow/scdn/statistic/download/',
  mingmou: '/api/cdn/mingmou/download',
};
const STAT_URL: Partial<Record<FlowType, string>> = {
  pcdn: '/api/flow/pcdn/statistic',
  websocket: '/api/flow/websocket/statistic',
  mingmou: '/api/cdn/mingmou/statistic',
  overseas: '/api/flow/abroad/statistic',
  scdn: '/api/flow/scdn/statistic',
};

interface Filters {
  region: string;
  isp: string;
  flowSource: FlowSource;
  ipv6: boolean;
  liveType: LiveType;
  mingmouType: 'cdn' | 'pcdn';
}
const DEFAULT_FILTERS: Filters = { region: '', isp: '', flowSource: 'cdn', ipv6: false, liveType: 'down', mingmouType: 'cdn' };

/**
 * An authorized-service sub-account with nothing selected sees its granted services: up to 200
 * non-live binds of the flow type, loaded once per flow type (spec 001 §4).
 */
function useAuthorizedBinds(flowType: FlowType | null, authorized: boolean): string[] | null {
  const [binds, setBinds] = useState<string[] | null>(null);
  useEffect(() => {
    setBinds(null);
    if (!authorized || !flowType || flowType === 'live') return;
    let live = true;
    api
      .get<{ data: { bucket_name: string; kind: string }[] }>('/api/stats/buckets/', { flow_type: flowType, limit: AUTHORIZED_AUTOLOAD_LIMIT })
      .then((r) => live && setBinds(r.data.filter((b) => b.kind !== 'live').map((b) => b.bucket_name)))
      .catch(() => live && setBinds([]));
    return () => {
      live = false;
    };
  }, [authorized, flowType]);
  return binds;
}

export default function StatsPage() {
  const [params] = useSearchParams();
  const flowTypes = useFlowTypes();
  const amountCalType = usePriceConfig();
  const authorized = useAuthorizedService();
  const [flowType, setFlowType] = useState<FlowType | null>(null);
  const initial: Selection = params.getAll('domains').length || params.get('domains')
    ? { type: (params.get('type') as 'bucket' | 'domain') || 'domain', values: params.getAll('domains').flatMap((d) => d.split(',')).filter(Boolean) }
    : params.get('name')
      ? { type: 'bucket', values: [params.get('name')!] }
      : { type: 'bucket', values: [] };
  const [selection, setSelection] = useState<Selection>(initial);
  const [single, setSingle] = useState({ bucket: '', domain: '' });
  const [filters, setFilters] = useState<Filters>(DEFAULT_FILTERS);
  const t = today(Math.floor(Date.now() / 1000));
  const [range, setRange] = useState({ start_day: t, end_day: t });
  const [show95, setShow95] = useState(true);
  const [tick, setTick] = useState(0);
  const [stat, setStat] = useState<any | null>(null);
  const [share, setShare] = useState<any | null>(null);
  const [mapRows, setMapRows] = useState<MapRow[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [slice, setSlice] = useState<SliceRef | null>(null);
  const [ranking, setRanking] = useState(false);
  const [regionIsp, setRegionIsp] = useState(false);

  // the initial flow type: the URL's, else the first the account has
  useEffect(() => {
    if (!flowTypes || flowType) return;
    const wanted = params.get('flow_type') as FlowType | null;
    setFlowType(wanted && flowTypes.includes(wanted) ? wanted : (flowTypes[0] ?? null));
  }, [flowTypes]);

  /** Changing the flow type resets the selections, region, carrier, flow source (cdn) and IPv6 (spec 001 §4). */
  const changeFlowType = (f: FlowType) => {
    setFlowType(f);
    setSelection({ type: 'bucket', values: [] });
    setSingle({ bucket: '', domain: '' });
    setFilters(DEFAULT_FILTERS);
    setStat(null);
    setShare(null);
  };
  /** Changing the source resets region, carrier and IPv6. */
  const changeSource = (s: FlowSource) => setFilters((f) => ({ ...f, flowSource: s, region: '', isp: '', ipv6: false }));
  /** A new product (selection) resets region, carrier and IPv6; a storage (non-ucdn) selection forces the edge source. */
  const changeSelection = (s: Selection) => {
    setSelection(s);
    setFilters((f) => ({ ...f, region: '', isp: '', ipv6: false, flowSource: s.hasFile ? 'cdn' : f.flowSource }));
  };

  const binds = useAuthorizedBinds(flowType, authorized);
  // the SCDN funnel's last step (docs/events.md): the statistics of the security CDN opened
  useEventOnOpen('buried', flowType === 'scdn' ? 'scdn_stats_open' : null);

  // the domain-follow check (spec 001 §4): back-to-origin by domain only for services whose origin
  // Host follows the domain; otherwise the selection becomes the services of those domains
  useEffect(() => {
    if (filters.flowSource !== 'backsource' || selection.type !== 'domain' || !selection.values.length) return;
    let live = true;
    api
      .get<{ data: { domain: string; bucket_name: string; follows: boolean }[] }>('/api/flow/backsource/follow/', { query_value: selection.values.join(',') })
      .then((r) => {
        if (!live || r.data.every((d) => d.follows)) return;
        setSelection({ type: 'bucket', values: [...new Set(r.data.map((d) => d.bucket_name))] });
        notify(BACKSOURCE_FOLLOW_TEXT, 'warning');
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [filters.flowSource, selection]);
  const overLimit = isOverLimit(selection.values.length);
  const query = useMemo(() => {
    if (!flowType) return null;
    const q: Record<string, string | string[] | undefined> = {
      flow_type: flowType,
      start_day: range.start_day,
      end_day: range.end_day,
      region: filters.region,
      isp: filters.isp,
      flow_source: ['cdn', 'overseas'].includes(flowType) || flowType === 'live' ? filters.flowSource : 'cdn',
      ip_type: filters.ipv6 ? 'ipv6' : '',
    };
    if (flowType === 'live') {
      q.live_type = filters.liveType;
      q.bucket_name = single.bucket;
      q.domain = single.domain;
    } else if (flowType === 'scdn') {
      q.bucket_name = single.bucket;
    } else if (flowType === 'mingmou') {
      q.domain = single.domain;
      q.type = filters.mingmouType;
    } else if (selection.values.length) {
      q.query_type = selection.type;
      q.query_value = selection.values;
    } else if (binds?.length) {
      q.query_type = 'bucket';
      q.query_value = binds;
    }
    return toSearchParams(q);
  }, [flowType, range, filters, selection, single, binds]);
  // an authorized-service account's first query waits for its binds (never the whole account first)
  const waitingForBinds = authorized && !!flowType && !['live', 'scdn', 'mingmou'].includes(flowType) && !selection.values.length && binds === null;
  const needsSingle = (flowType === 'scdn' && !single.bucket) || (flowType === 'mingmou' && !single.domain) || (flowType === 'live' && !single.bucket);

  // auto-refresh every 5 minutes
  useEffect(() => {
    const id = setInterval(() => setTick((n) => n + 1), STATS_REFRESH_MS);
    return () => clearInterval(id);
  }, []);

  // the fetch, 500 ms after the last change
  const seq = useRef(0);
  useEffect(() => {
    if (!query || !flowType || needsSingle || waitingForBinds) return;
    const my = ++seq.current;
    setLoading(true);
    const timer = setTimeout(async () => {
      try {
        const [s, p, m] = await Promise.all([
          api.get(STAT_URL[flowType] ?? '/api/flow/statistic/', query),
          api.get('/api/flow/proportion/', query),
          // the China map: mainland traffic only (overseas services have world regions)
          flowType === 'overseas' ? Promise.resolve({ data: [] }) : api.get('/api/flow/map/', query),
        ]);
        if (my !== seq.current) return;
        setStat(s.data);
        setShare(p.data);
        setMapRows(m.data);
        setFailure(null);
      } catch (e) {
        // spec 001 §8: a statistics error shows as an error toast, once per message
        if (my === seq.current) {
          const text = failureText(e);
          setFailure((before) => {
            if (before !== text) notify(text, 'danger');
            return text;
          });
        }
      } finally {
        if (my === seq.current) setLoading(false);
      }
    }, STATS_LOAD_DELAY_MS);
    return () => clearTimeout(timer);
  }, [query, tick, needsSingle, waitingForBinds]);

  if (flowTypes === null) return <Spinner className="page-spinner" />;
  if (flowTypes.length === 0 || !flowType)
    return (
      <div className="stats-page">
        <RealNamePrompt />
        <StatsNav />
        <div className="page-head">
          <H3>服务统计</H3>
        </div>
        <NonIdealState icon="timeline-bar-chart" title="暂无可统计的服务" description="开通 CDN、直播等服务后即可在这里查看带宽与流量。" />
      </div>
    );

  const line95Eligible = shows95Line({ region: filters.region, isp: filters.isp, flow_source: query?.flow_source, flow_type: flowType, amount_cal_type: amountCalType }) && !filters.ipv6;
  const bwUnit = stat ? pickUnit(Math.max(0, ...stat.bandwidth), BANDWIDTH_UNITS) : BANDWIDTH_UNITS[0];
  const reqUnit = stat ? pickUnit(Math.max(0, ...stat.requests), REQUEST_UNITS) : REQUEST_UNITS[0];
  const byteUnit = stat ? pickUnit(Math.max(0, ...stat.traffic), BYTE_UNITS) : BYTE_UNITS[0];
  const line95 = line95Eligible && show95 && stat?.bandwidth95 ? { value: inUnit(stat.bandwidth95.bandwidth95, bwUnit), label: LINE_95_LABEL } : null;
  const downloadHref = query ? `${DOWNLOAD_URL[flowType] ?? '/api/flow/statistic/download/'}?${new URLSearchParams({ ...query, interval: '300' }).toString()}` : '#';
  const regions = flowType === 'overseas' ? OVERSEAS : Object.keys(REGIONS).filter((r) => !OVERSEAS.includes(r));
  const regionSlices: Slice[] = share ? share.region_proportion.slice(0, REGION_PIE_SLICES).map((r: any) => ({ key: r.region, label: r.name, value: r.bytes, share: r.share })) : [];
  const carrierSlices: Slice[] = share ? share.isp_proportion.map((r: any) => ({ key: r.isp, label: r.name, value: r.bytes, share: r.share })) : [];
  const originSlices: Slice[] = share ? share.origin_proportion.map((r: any) => ({ key: r.source, label: r.name, value: r.bytes, share: r.share })) : [];
  const ipSlices: Slice[] = share ? share.ip_proportion.map((r: any) => ({ key: r.ip_type, label: r.name, value: r.bytes, share: r.share })) : [];

  return (
    <div className="stats-page">
      <RealNamePrompt />
      <StatsNav />
      <div className="page-head">
        <H3>服务统计</H3>
        {loading && <Spinner size={16} />}
        <span className="muted stats-refresh">每 5 分钟自动刷新{stat && `，数据截至 ${formatTime(stat.end)}`}</span>
      </div>
      <Tabs id="flow-types" selectedTabId={flowType} onChange={(f) => changeFlowType(f as FlowType)} className="flow-type-tabs">
        {flowTypes.map((f) => (
          <Tab key={f} id={f} title={FLOW_TYPE_LABELS[f]} />
        ))}
      </Tabs>
      <Card className="stats-filters">
        <div className="filter-row">
          <label className="filter-label">{flowType === 'mingmou' ? '加速域名' : '服务'}</label>
          {flowType === 'live' ? (
            <LiveSearch bucket={single.bucket} domain={single.domain} onChange={(bucket, domain) => setSingle({ bucket, domain })} hidePaging={authorized} />
          ) : flowType === 'scdn' ? (
            <SingleSelector key="scdn" flowType="scdn" tab="bucket" value={single.bucket} onChange={(bucket) => setSingle({ bucket, domain: '' })} hidePaging={authorized} />
          ) : flowType === 'mingmou' ? (
            <>
              <SingleSelector key="mingmou" flowType="mingmou" tab="domain" value={single.domain} onChange={(domain) => setSingle({ bucket: '', domain })} hidePaging={authorized} />
              <SegmentedControl size="small" value={filters.mingmouType} onValueChange={(v) => setFilters((f) => ({ ...f, mingmouType: v as 'cdn' | 'pcdn' }))} options={[{ label: 'CDN', value: 'cdn' }, { label: 'PCDN', value: 'pcdn' }]} />
            </>
          ) : (
            <MultiSelector key={flowType} flowType={flowType} value={selection} onChange={changeSelection} hidePaging={authorized} max={authorized ? AUTHORIZED_SELECT_MAX : undefined} />
          )}
          <label className="filter-label">日期</label>
          <DateRange value={range} overLimit={overLimit} onChange={setRange} />
        </div>
        <div className="filter-row">
          <label className="filter-label">地区</label>
          <HTMLSelect aria-label="地区" value={filters.region} onChange={(e) => setFilters((f) => ({ ...f, region: e.target.value }))} options={[{ label: '全部地区', value: '' }, ...regions.map((r) => ({ label: REGIONS[r], value: r }))]} />
          <label className="filter-label">运营商</label>
          <HTMLSelect aria-label="运营商" value={filters.isp} onChange={(e) => setFilters((f) => ({ ...f, isp: e.target.value }))} options={[{ label: '全部运营商', value: '' }, ...CARRIERS.map((c) => ({ label: carrierLabel(c), value: c }))]} />
          {(flowType === 'cdn' || flowType === 'overseas' || flowType === 'live') && (
            <>
              <label className="filter-label">流量来源</label>
              <SegmentedControl size="small" value={filters.flowSource} onValueChange={(v) => changeSource(v as FlowSource)} options={FLOW_SOURCES.filter((s) => s !== 'pcdn' || flowType === 'cdn').map((s) => ({ label: FLOW_SOURCE_LABELS[s], value: s }))} />
            </>
          )}
          <Switch className="ipv6-switch" label="仅 IPv6" checked={filters.ipv6} disabled={filters.flowSource !== 'cdn'} onChange={(e) => setFilters((f) => ({ ...f, ipv6: e.currentTarget.checked }))} />
          {flowType === 'live' && (
            <SegmentedControl size="small" value={filters.liveType} onValueChange={(v) => setFilters((f) => ({ ...f, liveType: v as LiveType }))} options={(['down', 'up'] as LiveType[]).map((l) => ({ label: LIVE_TYPE_LABELS[l], value: l }))} />
          )}
        </div>
      </Card>
      {!stat ? (
        failure ? <NonIdealState icon="error" title="暂无数据" description={STATS_LOAD_FAILED_TEXT} className="stats-failure" /> : <Spinner className="stats-spinner" />
      ) : (
        <>
          <div className="stats-summary">
            <Card><div className="muted">峰值带宽</div><div className="big">{formatBandwidth(stat.usageData.peak_bandwidth)}</div><div className="muted small">{stat.usageData.peak_time ? formatTime(stat.usageData.peak_time) : '—'}</div></Card>
            <Card><div className="muted">总流量</div><div className="big">{formatBytes(stat.usageData.flow_total)}</div></Card>
            <Card><div className="muted">总请求数</div><div className="big">{formatRequests(stat.usageData.reqs_total)}</div></Card>
            {line95Eligible && <Card data-testid="summary-95"><div className="muted">{LINE_95_LABEL}</div><div className="big">{stat.bandwidth95 ? formatBandwidth(stat.bandwidth95.bandwidth95) : '—'}</div></Card>}
          </div>
          <Card className="chart-card">
            <div className="chart-head">
              <H5>带宽与请求数</H5>
              <span className="muted small">{stat.granularity === 300 ? '5 分钟粒度' : stat.granularity === 3600 ? '1 小时粒度' : '1 天粒度'}</span>
              <span className="chart-actions">
                {line95Eligible && <Switch label="95 带宽线" checked={show95} onChange={(e) => setShow95(e.currentTarget.checked)} data-testid="switch-95" inline />}
                <Tooltip content="按 5 分钟粒度导出带宽、流量与请求数">
                  <Button icon="download" text="下载 Excel" onClick={() => window.location.assign(downloadHref)} data-testid="download-excel" />
                </Tooltip>
              </span>
            </div>
            <TrendChart
              testId="chart-bandwidth"
              times={stat.times}
              granularity={stat.granularity}
              leftUnit={bwUnit.label}
              rightUnit={reqUnit.label}
              leftMax={stat._dataset.columns.yLeftData.yAxisMax}
              rightMax={stat._dataset.columns.yRightData.yAxisMax}
              line95={line95}
              series={[
                { key: 'bandwidth', label: '带宽', color: '#2d72d2', values: stat._dataset.columns.yLeftData.data, format: (v) => `${v} ${bwUnit.label}`, area: true },
                { key: 'requests', label: '请求数', color: '#d9822b', values: stat._dataset.columns.yRightData.data, axis: 'right', format: (v) => `${v} ${reqUnit.label}` },
              ]}
            />
          </Card>
          <Card className="chart-card">
            <div className="chart-head">
              <H5>流量</H5>
            </div>
            <TrendChart
              testId="chart-traffic"
              times={stat.times}
              granularity={stat.granularity}
              leftUnit={byteUnit.label}
              leftMax={stat.transfer_dataset.yAxisMax}
              series={[{ key: 'traffic', label: '流量', color: '#29a634', values: stat.transfer_dataset.data, area: true, format: (v) => `${v} ${byteUnit.label}` }]}
            />
          </Card>
          {/* the daily history has no region or carrier split */}
          {query && !filters.region && !filters.isp && <UsageHistory flowType={flowType} query={query} />}
          {stat.attack_dataset && (
            <Card className="chart-card">
              <div className="chart-head">
                <H5>DDoS 攻击流入与清洗</H5>
              </div>
              <TrendChart
                testId="chart-attack"
                times={stat.times}
                granularity={stat.granularity}
                leftUnit={stat.attack_dataset.unit}
                leftMax={stat.attack_dataset.yAxisMax}
                series={[
                  { key: 'inflow', label: '攻击流入带宽', color: '#d13913', values: stat.attack_dataset.inflow, area: true, format: (v) => `${v} ${stat.attack_dataset.unit}` },
                  { key: 'filtered', label: '清洗带宽', color: '#00a396', values: stat.attack_dataset.filtered, format: (v) => `${v} ${stat.attack_dataset.unit}` },
                ]}
              />
            </Card>
          )}
          {share && (
            <div className="share-grid">
              <Card className="chart-card">
                <H5>运营商占比</H5>
                <PieChart testId="pie-isp" slices={carrierSlices} format={formatBytes} onSlice={(s) => setSlice({ kind: 'isp', key: s.key, label: s.label })} />
              </Card>
              <Card className="chart-card">
                <H5>地区占比</H5>
                <PieChart testId="pie-region" slices={regionSlices} format={formatBytes} onSlice={(s) => s.key !== 'other' && setSlice({ kind: 'region', key: s.key, label: s.label })} />
              </Card>
              {originSlices.length > 0 && (
                <Card className="chart-card">
                  <H5>流量来源占比</H5>
                  <PieChart testId="pie-origin" slices={originSlices} format={formatBytes} />
                </Card>
              )}
              {ipSlices.length > 0 && (
                <Card className="chart-card">
                  <H5>IP 类型占比</H5>
                  <PieChart testId="pie-ip" slices={ipSlices} format={formatBytes} />
                </Card>
              )}
              {flowType !== 'overseas' && (
                <Card className="chart-card wide">
                  <H5>地区流量分布</H5>
                  <ChinaMap testId="china-map" rows={mapRows} format={formatBytes} onRegion={(key, label) => setSlice({ kind: 'region', key, label })} />
                </Card>
              )}
              <Card className="chart-card wide">
                <div className="chart-head">
                  <H5>地区流量排行</H5>
                  <span className="chart-actions">
                    <Button variant="minimal" intent="primary" text="查看全部" onClick={() => setRanking(true)} data-testid="view-all" />
                  </span>
                </div>
                <BarChart
                  testId="bar-region"
                  rows={share.region_rank.slice(0, 10).map((r: any) => ({ key: r.region, label: r.name, values: { bytes: r.bytes } }))}
                  stack={[{ key: 'bytes', label: '流量' }]}
                  format={formatBytes}
                  onRow={(key) => setSlice({ kind: 'region', key, label: share.region_rank.find((r: any) => r.region === key)?.name ?? key })}
                />
              </Card>
              <Card className="chart-card wide">
                <div className="chart-head">
                  <H5>地区运营商分布（前 10 个地区）</H5>
                  <span className="chart-actions">
                    <Button variant="minimal" intent="primary" text="查看详情" onClick={() => setRegionIsp(true)} data-testid="view-region-isp" />
                  </span>
                </div>
                <BarChart
                  testId="bar-region-isp"
                  rows={share.top_of_region_and_proportion.map((r: any) => ({ key: r.province, label: r.name, values: Object.fromEntries(share.region_top.carriers.map((c: any) => [c.isp, r[c.isp] ?? 0])) }))}
                  stack={share.region_top.carriers.map((c: any) => ({ key: c.isp, label: c.name }))}
                  format={formatBytes}
                />
              </Card>
            </div>
          )}
        </>
      )}
      <DetailDialog slice={slice} flowTypes={flowTypes} flowType={flowType} query={query ?? {}} onClose={() => setSlice(null)} />
      <RankingDialog open={ranking} rows={share?.region_rank ?? []} onClose={() => setRanking(false)} />
      <RegionCarrierDialog open={regionIsp} share={share} onClose={() => setRegionIsp(false)} />
    </div>
  );
}
