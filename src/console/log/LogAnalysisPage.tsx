/**
 * Log analysis (/log/log_analy/ and /log/log_analy/{name}/, permission log): the services, then for
 * one service a CST day's top URLs, referers, client addresses and status codes (GET /api/analysis/)
 * and the day's hourly log archives to download as gzip (GET /api/analysis/archives/).
 */
import { useEffect, useMemo, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { Button, Callout, Card, H3, H5, HTMLSelect, HTMLTable, InputGroup, NonIdealState, Spinner } from '@blueprintjs/core';
import { Tab, Tabs } from '../common/Tabs';
import { Group } from '@visx/group';
import { scaleBand, scaleLinear } from '@visx/scale';
import { Bar } from '@visx/shape';
import { AxisBottom, AxisLeft } from '@visx/axis';
import { api, failureText } from '../api/client';
import type { BucketInfo } from '../../shared/buckets';
import { KINDS, type ServiceKind } from '../../shared/services';
import { dayOf } from '../../shared/stats/time';
import { ACCESS_LOG_DAYS, type AnalysisResult, type AnalysisRow, type LogArchive } from '../../shared/monitor';
import { formatCount } from '../../shared/format';

const formatBytes = (n: number) => (n >= 1024 ** 3 ? `${(n / 1024 ** 3).toFixed(2)} GB` : n >= 1024 ** 2 ? `${(n / 1024 ** 2).toFixed(2)} MB` : `${(n / 1024).toFixed(2)} KB`);

export default function LogAnalysisPage() {
  const { name } = useParams();
  return name ? <ServiceLogs name={name} /> : <ServiceList />;
}

function ServiceList() {
  const [rows, setRows] = useState<BucketInfo[] | null>(null);
  const [search, setSearch] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => {
    api.get<{ data: BucketInfo[] }>('/api/buckets/', { limit: 100 }).then(
      (r) => setRows(r.data),
      (e) => (setFailure(failureText(e)), setRows([])),
    );
  }, []);
  const shown = (rows ?? []).filter((b) => b.bucket_name.includes(search.trim()));
  return (
    <div className="log-page">
      <div className="page-head">
        <H3>日志分析</H3>
      </div>
      {failure && <Callout intent="danger">{failure}</Callout>}
      <Card>
        <InputGroup leftIcon="search" placeholder="请输入服务名称" value={search} onChange={(e) => setSearch(e.target.value)} className="log-search" />
        {rows === null ? (
          <Spinner />
        ) : shown.length === 0 ? (
          <NonIdealState icon="search" description="未找到匹配项" />
        ) : (
          <HTMLTable className="service-table" striped>
            <thead>
              <tr>
                <th>服务名称</th>
                <th>类型</th>
                <th>备注</th>
                <th>操作</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((b) => (
                <tr key={b.bucket_id}>
                  <td>{b.bucket_name}</td>
                  <td>{KINDS[b.kind as ServiceKind]?.title ?? b.kind}</td>
                  <td>{b.remark ?? ''}</td>
                  <td>
                    <Link to={`/log/log_analy/${encodeURIComponent(b.bucket_name)}/`}>日志分析</Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        )}
      </Card>
    </div>
  );
}

function TopTable({ title, rows, label }: { title: string; rows: AnalysisRow[]; label: string }) {
  return (
    <Card className="log-top">
      <H5>{title}</H5>
      {rows.length === 0 ? (
        <div className="muted">暂无数据</div>
      ) : (
        <HTMLTable compact striped className="log-top-table">
          <thead>
            <tr>
              <th>{label}</th>
              <th>请求数</th>
              <th>流量</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.key}>
                <td className="mono log-key">{r.key}</td>
                <td>{formatCount(r.count)}</td>
                <td>{formatBytes(r.bytes)}</td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
    </Card>
  );
}

function StatusChart({ rows }: { rows: AnalysisRow[] }) {
  const width = 480;
  const height = 220;
  const m = { top: 10, right: 10, bottom: 30, left: 50 };
  const x = useMemo(() => scaleBand({ domain: rows.map((r) => r.key), range: [0, width - m.left - m.right], padding: 0.3 }), [rows]);
  const y = useMemo(() => scaleLinear({ domain: [0, Math.max(1, ...rows.map((r) => r.count)) * 1.1], range: [height - m.top - m.bottom, 0] }), [rows]);
  return (
    <svg width={width} height={height} role="img" aria-label="状态码分布">
      <Group left={m.left} top={m.top}>
        {rows.map((r) => (
          <Bar key={r.key} x={x(r.key)} y={y(r.count)} width={x.bandwidth()} height={height - m.top - m.bottom - y(r.count)} fill={r.key.startsWith('5') ? '#cd4246' : r.key.startsWith('4') ? '#c87619' : '#2d72d2'}>
            <title>{`${r.key}：${r.count} 次`}</title>
          </Bar>
        ))}
        <AxisLeft scale={y} numTicks={4} />
        <AxisBottom scale={x} top={height - m.top - m.bottom} />
      </Group>
    </svg>
  );
}

function ServiceLogs({ name }: { name: string }) {
  const navigate = useNavigate();
  const days = useMemo(() => Array.from({ length: ACCESS_LOG_DAYS }, (_, i) => dayOf(Math.floor(Date.now() / 1000) - i * 86400)), []);
  const [date, setDate] = useState(days[0]);
  const [domain, setDomain] = useState('');
  const [domains, setDomains] = useState<string[]>([]);
  const [tab, setTab] = useState<'analysis' | 'archives'>('analysis');
  const [result, setResult] = useState<AnalysisResult | null>(null);
  const [archives, setArchives] = useState<LogArchive[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    api.get<{ data: BucketInfo & { domains?: { domain: string }[] } }>('/api/buckets/info/', { bucket_name: name }).then(
      (r) => setDomains((r.data.domains ?? []).map((d) => d.domain)),
      () => setDomains([]),
    );
  }, [name]);
  useEffect(() => {
    setFailure(null);
    const q = { bucket_name: name, date, ...(domain ? { domain } : {}) };
    if (tab === 'analysis') {
      setResult(null);
      api.get<{ data: AnalysisResult }>('/api/analysis/', q).then((r) => setResult(r.data), (e) => setFailure(failureText(e)));
    } else {
      setArchives(null);
      api.get<{ data: LogArchive[] }>('/api/analysis/archives/', q).then((r) => setArchives(r.data), (e) => (setFailure(failureText(e)), setArchives([])));
    }
  }, [name, date, domain, tab]);

  return (
    <div className="log-page">
      <div className="page-head">
        <Button icon="arrow-left" variant="minimal" onClick={() => navigate('/log/log_analy/')}>
          日志分析
        </Button>
        <H3>{name}</H3>
      </div>
      <div className="log-filters">
        <HTMLSelect value={date} onChange={(e) => setDate(e.target.value)} aria-label="日期">
          {days.map((d) => (
            <option key={d} value={d}>
              {d}
            </option>
          ))}
        </HTMLSelect>
        <HTMLSelect value={domain} onChange={(e) => setDomain(e.target.value)} aria-label="域名">
          <option value="">全部域名</option>
          {domains.map((d) => (
            <option key={d} value={d}>
              {d}
            </option>
          ))}
        </HTMLSelect>
      </div>
      <Tabs id="log-tabs" selectedTabId={tab} onChange={(id) => setTab(id as typeof tab)}>
        <Tab id="analysis" title="访问分析" />
        <Tab id="archives" title="日志下载" />
      </Tabs>
      {failure && <Callout intent="danger">{failure}</Callout>}
      {tab === 'analysis' ? (
        !result ? (
          !failure && <Spinner />
        ) : (
          <>
            <Callout className="log-summary">
              {result.date} 共 {formatCount(result.total)} 次请求，流量 {formatBytes(result.bytes)}（按 UTC+8 自然日统计）
            </Callout>
            <div className="log-grid">
              <TopTable title="热门 URL" rows={result.urls} label="URL" />
              <TopTable title="热门来源（Referer）" rows={result.referers} label="Referer" />
              <TopTable title="访问 IP" rows={result.ips} label="客户端 IP" />
              <Card className="log-top">
                <H5>状态码</H5>
                {result.status.length ? <StatusChart rows={result.status} /> : <div className="muted">暂无数据</div>}
              </Card>
            </div>
          </>
        )
      ) : archives === null ? (
        <Spinner />
      ) : archives.length === 0 ? (
        <NonIdealState icon="document" description="当天暂无日志" />
      ) : (
        <HTMLTable className="service-table log-archives" striped>
          <thead>
            <tr>
              <th>域名</th>
              <th>时段</th>
              <th>记录数</th>
              <th>操作</th>
            </tr>
          </thead>
          <tbody>
            {archives.map((a) => (
              <tr key={a.domain + a.hour}>
                <td>{a.domain}</td>
                <td>{a.hour} - {a.hour.slice(11, 13)}:59</td>
                <td>{formatCount(a.records)}</td>
                <td>
                  <a href={a.url} download>
                    下载（gzip）
                  </a>
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
    </div>
  );
}
