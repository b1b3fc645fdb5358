/**
 * 每日用量: the flow history of the statistics page's selection (spec 001 §3 "Flow history record",
 * docs/statistics.md "Compression"), one row a day, newest first: the bytes as sent, before the edge's
 * compression and what compression saved, requests, and the day's peak bandwidth with its time.
 * Read after the charts (its own request; a failure leaves the table out: the page's toast says it).
 */
import { useEffect, useState } from 'react';
import { Card, H5, HTMLTable, Tooltip } from '@blueprintjs/core';
import { api } from '../api/client';
import { STATS_LOAD_DELAY_MS, type FlowType } from '../../shared/stats/constants';
import { formatBandwidth, formatBytes, formatRequests } from '../../shared/stats/units';

/** The flow types with a history call of their own (spec 001 §7); the others read the default with their flow_type. */
const HISTORY_URL: Partial<Record<FlowType, string>> = {
  scdn: '/api/flow/scdn/amount/history',
  mingmou: '/api/cdn/mingmou/history',
  overseas: '/api/flow/abroad/history',
};

interface Day {
  date: string;
  bytes: number;
  bf_cp_bytes: number;
  cp_bytes: number;
  reqs: number;
  bandwidth: number;
  peak_time: string;
  peak_exact: boolean;
}

export function UsageHistory({ flowType, query }: { flowType: FlowType; query: Record<string, string> }) {
  const [days, setDays] = useState<Day[] | null>(null);
  useEffect(() => {
    let live = true;
    const timer = setTimeout(() => {
      api
        .get(HISTORY_URL[flowType] ?? '/api/flow/amount/history/', query)
        .then((r) => live && setDays([...(r.data as Day[])].reverse()))
        .catch(() => live && setDays(null));
    }, STATS_LOAD_DELAY_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [flowType, query]);
  if (!days?.length) return null;
  return (
    <Card className="chart-card" data-testid="usage-history">
      <div className="chart-head">
        <H5>每日用量</H5>
      </div>
      <HTMLTable className="usage-history" compact striped>
        <thead>
          <tr>
            <th scope="col">日期</th>
            <th scope="col">流量</th>
            <th scope="col">压缩前流量</th>
            <th scope="col">压缩节省</th>
            <th scope="col">请求数</th>
            <th scope="col">峰值带宽</th>
            <th scope="col">峰值时间</th>
          </tr>
        </thead>
        <tbody>
          {days.map((d) => (
            <tr key={d.date}>
              <th scope="row">{d.date}</th>
              <td>{formatBytes(d.bytes)}</td>
              <td>{formatBytes(d.bf_cp_bytes)}</td>
              <td>{d.bf_cp_bytes > 0 ? `${formatBytes(d.cp_bytes)}（${((d.cp_bytes / d.bf_cp_bytes) * 100).toFixed(1)}%）` : '—'}</td>
              <td>{formatRequests(d.reqs)}</td>
              <td>
                {d.peak_exact ? (
                  formatBandwidth(d.bandwidth)
                ) : (
                  <Tooltip content="该日已无 5 分钟明细，峰值按各域名峰值之和估算（上限）">
                    <span tabIndex={0}>≤ {formatBandwidth(d.bandwidth)}</span>
                  </Tooltip>
                )}
              </td>
              <td>{d.peak_time || '—'}</td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    </Card>
  );
}
