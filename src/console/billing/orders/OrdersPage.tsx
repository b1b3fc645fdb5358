/**
 * /billing/history/ (spec 001 §2.5, §4 "Order history queries always filter status=success", §7 end
 * dates plus one day): the paid orders, recharges and purchases, in a date range.
 */
import { useEffect, useState } from 'react';
import { Callout, H4, HTMLTable, NonIdealState, Spinner } from '@blueprintjs/core';
import { api, failureText } from '../../api/client';
import { PageLinks } from './PageLinks';
import { DateRange, rangeQuery, todayCst } from './DateRange';
import { ORDER_KIND_LABELS, ORDERS_PAGE_SIZE, PAY_METHOD_LABELS, type OrderRow } from '../../../shared/billing-money';
import { addDays, formatTime } from '../../../shared/stats/time';
import { formatMoney } from '../../../shared/format';

export default function OrdersPage() {
  const [start, setStart] = useState(() => addDays(todayCst(), -89));
  const [end, setEnd] = useState(todayCst);
  const [page, setPage] = useState(1);
  const [rows, setRows] = useState<OrderRow[] | null>(null);
  const [total, setTotal] = useState(0);
  const [error, setError] = useState('');

  useEffect(() => {
    let live = true;
    setRows(null);
    setError('');
    api
      .get<{ data: OrderRow[]; pager: { total: number } }>('/api/v2/orders/', { status: 'success', ...rangeQuery(start, end), page, size: ORDERS_PAGE_SIZE })
      .then((r) => {
        if (!live) return;
        setRows(r.data);
        setTotal(r.pager.total);
      })
      .catch((e) => live && (setError(failureText(e)), setRows([])));
    return () => {
      live = false;
    };
  }, [start, end, page]);

  return (
    <div className="billing-history">
      <H4>充值与消费记录</H4>
      <DateRange
        start={start}
        end={end}
        onChange={(a, b) => {
          setStart(a);
          setEnd(b);
          setPage(1);
        }}
      />
      {error && <Callout intent="danger">{error}</Callout>}
      {rows === null ? (
        <Spinner size={24} />
      ) : rows.length === 0 ? (
        !error && <NonIdealState icon="th-list" title="暂无记录" />
      ) : (
        <HTMLTable striped className="full-width">
          <thead>
            <tr>
              <th>时间</th>
              <th>订单号</th>
              <th>类型</th>
              <th>内容</th>
              <th>金额（元）</th>
              <th>支付方式</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((o) => (
              <tr key={o.order_no}>
                <td>{formatTime(o.paid_at ?? o.created_at)}</td>
                <td>{o.order_no}</td>
                <td>{ORDER_KIND_LABELS[o.kind] ?? o.kind}</td>
                <td>{o.title}</td>
                <td>
                  {formatMoney(o.amount)}
                  {o.gift > 0 ? `（赠送 ${formatMoney(o.gift)}）` : ''}
                </td>
                <td>{o.pay_method ? PAY_METHOD_LABELS[o.pay_method] : ''}</td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
      <PageLinks page={page} total={total} size={ORDERS_PAGE_SIZE} onPage={setPage} />
    </div>
  );
}
