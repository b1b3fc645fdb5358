/**
 * Bill management (spec 001 §2.5 billing.bills): day and month bills, newest first, 20 a page with
 * 5 page links; each opens /billing/bills/{id}/. Amounts in yuan with 3 decimals (spec 001 §9).
 */
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { Callout, HTMLSelect, HTMLTable, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { api, failureText } from '../../api/client';
import { PageLinks } from '../orders/PageLinks';
import { BILL_STATUS_LABELS, BILL_TYPE_LABELS, BILLS_PAGE_SIZE, type BillSummary, type BillType } from '../../../shared/billing/bills';
import { dayOf } from '../../../shared/stats/time';
import { formatMoney } from '../../../shared/format';
import { ThresholdCard } from './ThresholdCard';

export function billPeriod(b: Pick<BillSummary, 'type' | 'start_time'>): string {
  const d = dayOf(b.start_time);
  return b.type === 'MONTH_BILL' ? `${d.slice(0, 4)} 年 ${Number(d.slice(5, 7))} 月` : d;
}

export default function BillsPage() {
  const [type, setType] = useState<'' | BillType>('');
  const [page, setPage] = useState(1);
  const [data, setData] = useState<{ bills: BillSummary[]; total: number } | null>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    setData(null);
    api
      .get<{ data: BillSummary[]; pager: { total: number } }>('/api/bills/', { type: type || undefined, page, limit: BILLS_PAGE_SIZE })
      .then((r) => setData({ bills: r.data, total: r.pager.total }))
      .catch((e) => setError(failureText(e)));
  }, [type, page]);
  return (
    <div>
      <ThresholdCard />
      <div className="billing-toolbar">
        <h3 className="bp6-heading" style={{ margin: 0 }}>账单管理</h3>
        <span className="spacer" />
        <HTMLSelect
          aria-label="账单类型"
          value={type}
          onChange={(e) => {
            setType(e.currentTarget.value as '' | BillType);
            setPage(1);
          }}
          options={[{ value: '', label: '全部账单' }, ...Object.entries(BILL_TYPE_LABELS).map(([value, label]) => ({ value, label }))]}
        />
      </div>
      {error && <Callout intent="danger">{error}</Callout>}
      {!data && !error && <Spinner size={24} aria-label="加载中" />}
      {data && data.bills.length === 0 && <NonIdealState icon="document" title="暂无账单" description="每天凌晨生成前一天的日账单，每月第一天生成上月的月账单。" />}
      {data && data.bills.length > 0 && (
        <HTMLTable className="billing-table" striped aria-label="账单列表">
          <thead>
            <tr>
              <th>账单编号</th>
              <th>类型</th>
              <th>账期</th>
              <th className="billing-num">应付金额（元）</th>
              <th className="billing-num">代金券抵扣（元）</th>
              <th className="billing-num">余额扣款（元）</th>
              <th>状态</th>
              <th>操作</th>
            </tr>
          </thead>
          <tbody>
            {data.bills.map((b) => (
              <tr key={b.id}>
                <td>{b.id}</td>
                <td>
                  <Tag minimal intent={b.type === 'MONTH_BILL' ? 'primary' : 'none'}>
                    {BILL_TYPE_LABELS[b.type]}
                  </Tag>
                </td>
                <td>{billPeriod(b)}</td>
                <td className="billing-num">{formatMoney(b.original)}</td>
                <td className="billing-num">{formatMoney(b.voucher_deduct)}</td>
                <td className="billing-num">{formatMoney(b.settlement)}</td>
                <td>{BILL_STATUS_LABELS[b.status] ?? b.status}</td>
                <td>
                  <Link to={`/billing/bills/${b.id}/`}>查看详情</Link>
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
      {data && (
        <div className="billing-foot">
          <PageLinks page={page} total={data.total} size={BILLS_PAGE_SIZE} onPage={setPage} />
        </div>
      )}
    </div>
  );
}
