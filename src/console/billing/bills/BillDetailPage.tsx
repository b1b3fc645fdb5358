/**
 * A bill (spec 001 §2.5 billing.bills_detail, §2.6, §9): its services grouped as basic cloud services,
 * live, audio/video processing, DDoS and SCDN, each line with its usage, ladder steps, the billed
 * 5-minute sample and any proration; a month bill also lists its day bills (at most 31) with their
 * daily bandwidth. Bills before 2017-01-01 use the old layout (bandwidth ÷ 1048576).
 */
import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { Callout, Card, HTMLTable, Spinner, Tag } from '@blueprintjs/core';
import { api, failureText } from '../../api/client';
import {
  BILL_GROUPS,
  BILL_STATUS_LABELS,
  BILL_TYPE_LABELS,
  DAY_BILLS_LIMIT,
  OLD_BANDWIDTH_DIVISOR,
  DDOS_PEAK_DIVISOR,
  isOldLayout,
  round3,
  type BillFull,
  type BillLine,
  type BillSummary,
  type ServiceBill,
} from '../../../shared/billing/bills';
import { AMOUNT_CAL_LABELS, SERVICE_TYPE_LABELS, UNBOUNDED, discountText, type PriceServiceType } from '../../../shared/billing/price';
import { formatTime } from '../../../shared/stats/time';
import { billPeriod } from './BillsPage';
import { yuan3 } from '../common';
import { formatMoney } from '../../../shared/format';

const n3 = (v: number) => round3(v).toFixed(3);

function stepsText(l: BillLine): string {
  return l.steps
    .filter((s) => s.used > 0 || l.steps.length === 1)
    .map((s) => `${s.min}–${s.max >= UNBOUNDED ? '不封顶' : s.max} ${l.unit}：${n3(s.used)} ${l.unit} × ${s.unit_price} 元 = ${n3(s.amount)} 元`)
    .join('；');
}

function Line({ line }: { line: BillLine }) {
  return (
    <div className="bill-line">
      <div className="bill-line-head">
        <span>
          {line.label}：{n3(line.usage)} {line.unit}
          {line.package > 0 && (line.item.startsWith('ddos_attack:') ? `（保底防护 ${n3(line.package)} ${line.unit}）` : `（资源包抵扣 ${n3(line.package)} ${line.unit}）`)}
        </span>
        <span className="billing-num">{yuan3(line.amount)} 元</span>
      </div>
      <div className="bill-line-explain">
        {stepsText(line) && <div>阶梯计价：{stepsText(line)}</div>}
        {line.sample && (
          <div>
            计费点：{formatTime(line.sample.time)}，{n3(line.sample.value)} Mbps（从高到低第 {line.sample.rank} 个，共 {line.sample.count} 个
            {line.daily ? '日峰值' : ' 5 分钟采样点'}，去掉最高的 {line.sample.dropped} 个）
          </div>
        )}
        {line.daily && !line.sample && (
          <div>
            每日取值：{line.daily.map((d) => `${d.day} ${n3(d.value)} Mbps`).join('，')}；平均 {n3(line.usage)} Mbps
          </div>
        )}
        {line.factor && <div>{line.factor.reason}</div>}
        {line.note && <div>{line.note}</div>}
      </div>
    </div>
  );
}

function Service({ bill }: { bill: ServiceBill }) {
  const discount = discountText(bill.discount);
  // scdn_attack {bucket_name, peak} in Gbps and ddos_attack {code, max_peak} in bit/s, shown in Gbps (spec 001 §3, §9)
  const attacks = [
    ...(Array.isArray(bill.used.scdn_attack) ? (bill.used.scdn_attack as { bucket_name: string; peak: number }[]).map((a) => ({ name: a.bucket_name, peak: a.peak })) : []),
    ...(Array.isArray(bill.used.ddos_attack) ? (bill.used.ddos_attack as { code: string; max_peak: number }[]).map((a) => ({ name: a.code, peak: round3(a.max_peak / DDOS_PEAK_DIVISOR) })) : []),
  ];
  return (
    <div className="bill-service" data-testid={`bill-service-${bill.service_type}`}>
      <div className="bill-service-head">
        <strong>{SERVICE_TYPE_LABELS[bill.service_type] ?? bill.service_type}</strong>
        <span>
          {discount && <Tag minimal intent="success">{discount}</Tag>} {bill.charged ? `${yuan3(bill.total)} 元` : <span className="billing-muted">{bill.note}{bill.total > 0 && `，合计 ${yuan3(bill.total)} 元`}</span>}
        </span>
      </div>
      <div className="bill-service-body">
        {bill.charged && bill.note && <div className="bill-line-explain">{bill.note}</div>}
        {bill.lines.map((l) => (
          <Line key={l.item} line={l} />
        ))}
        {attacks.length > 0 && <div className="bill-line-explain">攻击峰值：{attacks.map((a) => `${a.name} ${n3(a.peak)} Gbps`).join('，')}</div>}
      </div>
    </div>
  );
}

function OldLayout({ bill }: { bill: BillFull }) {
  return (
    <HTMLTable className="billing-table" aria-label="旧版账单">
      <thead>
        <tr>
          <th>服务</th>
          <th className="billing-num">流量（GB）</th>
          <th className="billing-num">带宽（Mbps）</th>
          <th className="billing-num">金额（元）</th>
        </tr>
      </thead>
      <tbody>
        {Object.values(bill.detail.used).map((s) => s && (
          <tr key={s.service_type}>
            <td>{SERVICE_TYPE_LABELS[s.service_type]}</td>
            <td className="billing-num">{n3(Number(s.used.discharge ?? 0))}</td>
            <td className="billing-num">{n3(Number(s.used.bandwidth ?? 0) / OLD_BANDWIDTH_DIVISOR)}</td>
            <td className="billing-num">{yuan3(s.total)}</td>
          </tr>
        ))}
      </tbody>
    </HTMLTable>
  );
}

function DayBills({ month }: { month: BillFull }) {
  const [days, setDays] = useState<BillSummary[] | null>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    api
      .get<{ data: BillSummary[] }>('/api/bills/', { type: 'DAY_BILL', start_time: month.start_time, end_time: month.end_time, limit: DAY_BILLS_LIMIT })
      .then((r) => setDays(r.data))
      .catch((e) => setError(failureText(e)));
  }, [month.start_time, month.end_time]);
  if (error) return <Callout intent="danger">{error}</Callout>;
  if (!days) return <Spinner size={20} aria-label="加载中" />;
  const bandwidthTypes = [...new Set(days.flatMap((d) => Object.keys(d.bandwidth ?? {})))] as PriceServiceType[];
  return (
    <HTMLTable className="billing-table" striped aria-label="日账单明细">
      <thead>
        <tr>
          <th>日期</th>
          {bandwidthTypes.map((t) => (
            <th key={t} className="billing-num">
              {SERVICE_TYPE_LABELS[t]}带宽（Mbps）
            </th>
          ))}
          <th className="billing-num">应付金额（元）</th>
          <th className="billing-num">余额扣款（元）</th>
          <th>操作</th>
        </tr>
      </thead>
      <tbody>
        {days.map((d) => (
          <tr key={d.id}>
            <td>{billPeriod(d)}</td>
            {bandwidthTypes.map((t) => (
              <td key={t} className="billing-num">
                {d.bandwidth?.[t] !== undefined ? n3(d.bandwidth[t]) : '-'}
              </td>
            ))}
            <td className="billing-num">{yuan3(d.original)}</td>
            <td className="billing-num">{yuan3(d.settlement)}</td>
            <td>
              <Link to={`/billing/bills/${d.id}/`}>查看</Link>
            </td>
          </tr>
        ))}
        {days.length === 0 && (
          <tr>
            <td colSpan={4 + bandwidthTypes.length} className="billing-muted">
              本月没有日账单
            </td>
          </tr>
        )}
      </tbody>
    </HTMLTable>
  );
}

export default function BillDetailPage() {
  const { id = '' } = useParams();
  const [bill, setBill] = useState<BillFull | null>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    setBill(null);
    setError('');
    api
      .get<{ data: BillFull }>('/api/bill/', { id })
      .then((r) => setBill(r.data))
      .catch((e) => setError(failureText(e)));
  }, [id]);
  if (error)
    return (
      <Callout intent="danger" title="无法打开账单">
        {error} <Link to="/billing/bills/">返回账单列表</Link>
      </Callout>
    );
  if (!bill) return <Spinner aria-label="加载中" />;
  const services = Object.values(bill.detail.used).filter(Boolean) as ServiceBill[];
  const s = bill.detail.settlement;
  return (
    <div>
      <div className="billing-toolbar">
        <Link to="/billing/bills/">账单管理</Link>
        <span>/</span>
        <h3 className="bp6-heading" style={{ margin: 0 }}>
          {BILL_TYPE_LABELS[bill.type]} {billPeriod(bill)}
        </h3>
        <Tag minimal>{bill.id}</Tag>
      </div>
      <div className="bill-summary">
        <Card>
          <div className="billing-stat-label">应付金额（元）</div>
          <div className="billing-stat-value">{formatMoney(bill.original)}</div>
        </Card>
        <Card>
          <div className="billing-stat-label">代金券抵扣（元）</div>
          <div className="billing-stat-value">{formatMoney(bill.voucher_deduct)}</div>
        </Card>
        <Card>
          <div className="billing-stat-label">余额扣款（元）</div>
          <div className="billing-stat-value">{formatMoney(bill.settlement)}</div>
        </Card>
        <Card>
          <div className="billing-stat-label">状态</div>
          <div className="billing-stat-value">{BILL_STATUS_LABELS[bill.status] ?? bill.status}</div>
          {s && s.packages.length > 0 && <div className="billing-stat-sub">资源包抵扣 {s.packages.map((p) => `${n3(p.amount)} ${p.unit}`).join('、')}</div>}
        </Card>
      </div>
      {isOldLayout(bill.id) ? (
        <OldLayout bill={bill} />
      ) : (
        BILL_GROUPS.map((g) => {
          const list = services.filter((x) => g.types.includes(x.service_type));
          if (!list.length) return null;
          return (
            <div key={g.key} className="bill-group">
              <h4>{g.label}</h4>
              {list.map((x) => (
                <div key={x.service_type}>
                  <div className="billing-muted" style={{ fontSize: 12 }}>
                    计费方式：{x.service_type === 'media' ? (bill.detail.price_config.media?.amount_cal_type === 'MONTHLY' ? '按月结算，按处理时长' : '按日结算，按处理时长') : AMOUNT_CAL_LABELS[bill.detail.price_config[x.service_type]?.amount_cal_type ?? 'DAILY']}
                  </div>
                  <Service bill={x} />
                </div>
              ))}
            </div>
          );
        })
      )}
      {services.length === 0 && <Callout>该账期没有用量。</Callout>}
      {bill.type === 'MONTH_BILL' && (
        <div className="bill-group">
          <h4>每日明细</h4>
          <DayBills month={bill} />
        </div>
      )}
    </div>
  );
}
