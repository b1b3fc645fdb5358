/**
 * /stats/accessAnalysis/ and /stats/accessAnalysis/{name}/ (spec 001 §2.1; parameters flow_type,
 * selected_date): status codes over the day, the health degree (health, hit rate, download speed,
 * time spent, size) and the region distribution of one day, for all services or the named one.
 */
import { useEffect, useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import './stats.css';
import { Card, H3, H5, HTMLTable, InputGroup, NonIdealState, Spinner } from '@blueprintjs/core';
import { api, failureText } from '../api/client';
import { notify } from '../common/toaster';
import { type FlowType, STATS_LOAD_FAILED_TEXT } from '../../shared/stats/constants';
import { REQUEST_UNITS, formatBytes, inUnit, pickUnit } from '../../shared/stats/units';
import { earliestDay, today } from '../../shared/stats/params';
import { formatClock } from '../../shared/stats/time';
import { BarChart, TrendChart } from './charts';
import { SingleSelector } from './selectors';
import { StatsNav } from './common';

export default function AccessAnalysisPage() {
  const { name = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const now = Math.floor(Date.now() / 1000);
  const day = params.get('selected_date') || today(now);
  const flowType = (params.get('flow_type') as FlowType) || 'cdn';
  const [status, setStatus] = useState<any | null>(null);
  const [health, setHealth] = useState<any[] | null>(null);
  const [regions, setRegions] = useState<any[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    const q = { flow_type: flowType, start_day: day, end_day: day, ...(name ? { query_type: 'bucket', query_value: name } : {}) };
    setStatus(null);
    Promise.all([api.get('/api/flow/status/history/', q), api.get('/api/flow/health_degree/detail/', q), api.get('/api/flow/map/', q)])
      .then(([s, h, m]) => live && (setStatus(s.data), setHealth(h.data), setRegions(m.data), setFailure(null)))
      .catch((e) => {
        // spec 001 §8: statistics errors are error toasts
        if (!live) return;
        setFailure(failureText(e));
        notify(failureText(e), 'danger');
      });
    return () => {
      live = false;
    };
  }, [name, day, flowType]);
  const unit = status ? pickUnit(Math.max(0, ...status.s2xx), REQUEST_UNITS) : REQUEST_UNITS[0];
  return (
    <div className="stats-page">
      <StatsNav />
      <div className="page-head">
        <H3>访问分析{name && ` · ${name}`}</H3>
        <SingleSelector flowType={flowType} tab="bucket" value={name || '全部服务'} onChange={(b) => navigate(`/stats/accessAnalysis/${b}/?${params.toString()}`)} />
        <InputGroup type="date" aria-label="日期" value={day} min={earliestDay(now)} max={today(now)} onChange={(e) => e.target.value && setParams({ flow_type: flowType, selected_date: e.target.value })} />
      </div>
      {!status || !health || !regions ? (
        failure ? <NonIdealState icon="error" title="暂无数据" description={STATS_LOAD_FAILED_TEXT} /> : <Spinner className="stats-spinner" />
      ) : (
        <>
          <Card className="chart-card">
            <H5>状态码</H5>
            <TrendChart
              testId="chart-status"
              times={status.times}
              granularity={300}
              leftUnit={unit.label}
              series={[
                { key: '2xx', label: '2xx', color: '#29a634', values: status.s2xx.map((v: number) => inUnit(v, unit)), format: (v) => `${v} ${unit.label}` },
                { key: '3xx', label: '3xx', color: '#2d72d2', values: status.s3xx.map((v: number) => inUnit(v, unit)), format: (v) => `${v} ${unit.label}` },
                { key: '4xx', label: '4xx', color: '#d9822b', values: status.s4xx.map((v: number) => inUnit(v, unit)), format: (v) => `${v} ${unit.label}` },
                { key: '5xx', label: '5xx', color: '#d13913', values: status.s5xx.map((v: number) => inUnit(v, unit)), format: (v) => `${v} ${unit.label}` },
              ]}
            />
          </Card>
          <div className="share-grid">
            <Card className="chart-card wide">
              <H5>健康度（每小时）</H5>
              <TrendChart
                testId="chart-health"
                times={health.map((h) => h.timestamp)}
                granularity={3600}
                leftUnit="%"
                leftMax={100}
                series={[
                  { key: 'health', label: '健康度', color: '#29a634', values: health.map((h) => h.health_degree), format: (v) => `${v.toFixed(2)}%` },
                  { key: 'hit', label: '命中率', color: '#2d72d2', values: health.map((h) => h.hit_degree), format: (v) => `${v.toFixed(2)}%` },
                ]}
              />
            </Card>
            <Card className="chart-card wide">
              <H5>地区分布</H5>
              <BarChart rows={regions.slice(0, 10).map((r) => ({ key: r.region, label: r.name, values: { bytes: r.bytes } }))} stack={[{ key: 'bytes', label: '流量' }]} format={formatBytes} />
            </Card>
          </div>
          <Card className="chart-card">
            <H5>访问质量明细</H5>
            <HTMLTable compact striped className="top-table">
              <thead>
                <tr>
                  <th>时间</th>
                  <th>健康度</th>
                  <th>命中率</th>
                  <th>平均下载速度</th>
                  <th>平均耗时</th>
                  <th>平均大小</th>
                </tr>
              </thead>
              <tbody>
                {health.map((h) => (
                  <tr key={h.timestamp}>
                    <td>{formatClock(h.timestamp)}</td>
                    <td>{h.health_degree.toFixed(2)}%</td>
                    <td>{h.hit_degree.toFixed(2)}%</td>
                    <td>{formatBytes(h.avg_download_speed)}/s</td>
                    <td>{h.avg_time_spend} ms</td>
                    <td>{formatBytes(h.avg_size)}</td>
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
          </Card>
        </>
      )}
    </div>
  );
}
