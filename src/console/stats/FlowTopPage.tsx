/**
 * /stats/flowTop/ (spec 001 §2.1): services and domains ranked by traffic over the chosen days.
 * An authorized-service sub-account is sent to the main statistics page.
 */
import { useEffect, useState } from 'react';
import { Navigate } from 'react-router-dom';
import './stats.css';
import { Card, H3, H5, HTMLTable, NonIdealState, Spinner } from '@blueprintjs/core';
import { Tab, Tabs } from '../common/Tabs';
import { api, failureText } from '../api/client';
import { notify } from '../common/toaster';
import { FLOW_TYPE_LABELS, type FlowType, STATS_LOAD_FAILED_TEXT } from '../../shared/stats/constants';
import { formatBandwidth, formatBytes, formatRequests } from '../../shared/stats/units';
import { today } from '../../shared/stats/params';
import { DateRange } from './selectors';
import { StatsNav, useAuthorizedService, useFlowTypes } from './common';
import { BarChart } from './charts';
import { formatCount } from '../../shared/format';

export default function FlowTopPage() {
  const authorized = useAuthorizedService();
  const flowTypes = useFlowTypes();
  const [flowType, setFlowType] = useState<FlowType | null>(null);
  const t = today(Math.floor(Date.now() / 1000));
  const [range, setRange] = useState({ start_day: t, end_day: t });
  const [data, setData] = useState<any | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => {
    if (flowTypes && !flowType) setFlowType(flowTypes.find((f) => f !== 'mingmou' && f !== 'pcdn') ?? flowTypes[0] ?? null);
  }, [flowTypes]);
  useEffect(() => {
    if (!flowType) return;
    let live = true;
    setData(null);
    const url = flowType === 'scdn' ? '/api/scdn/stats/top/' : '/api/buckets/stats_top/';
    api
      .get(url, { flow_type: flowType, ...range })
      .then((r) => live && (setData(r.data), setFailure(null)))
      .catch((e) => {
        // spec 001 §8: statistics errors are error toasts
        if (!live) return;
        setFailure(failureText(e));
        notify(failureText(e), 'danger');
      });
    return () => {
      live = false;
    };
  }, [flowType, range]);
  if (authorized) return <Navigate to="/stats/" replace />;
  if (!flowTypes) return <Spinner className="page-spinner" />;
  return (
    <div className="stats-page">
      <StatsNav />
      <div className="page-head">
        <H3>流量排行</H3>
        <DateRange value={range} overLimit={false} onChange={setRange} />
      </div>
      {flowType && (
        <Tabs id="top-flow-types" selectedTabId={flowType} onChange={(f) => setFlowType(f as FlowType)}>
          {flowTypes.map((f) => (
            <Tab key={f} id={f} title={FLOW_TYPE_LABELS[f]} />
          ))}
        </Tabs>
      )}
      {!data ? (
        failure ? <NonIdealState icon="error" title="暂无数据" description={STATS_LOAD_FAILED_TEXT} /> : <Spinner className="stats-spinner" />
      ) : data.buckets.length === 0 ? (
        <NonIdealState icon="search" title="该时段暂无流量" />
      ) : (
        <div className="share-grid">
          <Card className="chart-card wide">
            <H5>服务流量排行（前 10）</H5>
            <BarChart testId="bar-top-buckets" rows={data.buckets.slice(0, 10).map((b: any) => ({ key: b.bucket_name, label: b.bucket_name, values: { bytes: b.bytes } }))} stack={[{ key: 'bytes', label: '流量' }]} format={formatBytes} />
          </Card>
          <Card className="chart-card wide">
            <H5>域名排行</H5>
            <HTMLTable striped compact className="top-table" data-testid="top-domains">
              <thead>
                <tr>
                  <th>排名</th>
                  <th>域名</th>
                  <th>服务</th>
                  <th>流量</th>
                  <th>请求数</th>
                  <th>峰值带宽</th>
                  {flowType === 'scdn' && <th>拦截攻击（次）</th>}
                  <th>占比</th>
                </tr>
              </thead>
              <tbody>
                {data.domains.map((d: any) => (
                  <tr key={d.domain}>
                    <td>{d.rank}</td>
                    <td>{d.domain}</td>
                    <td>{d.bucket_name}</td>
                    <td>{formatBytes(d.bytes)}</td>
                    <td>{formatRequests(d.reqs)}</td>
                    <td>{formatBandwidth(d.peak_bandwidth)}</td>
                    {flowType === 'scdn' && <td>{formatCount(d.xss + d.sql + d.other)}</td>}
                    <td>{d.share}%</td>
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
          </Card>
        </div>
      )}
    </div>
  );
}
