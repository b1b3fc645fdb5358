/** The paid orders of the apply tab (/toolbox/ssl/?active=apply): buy, and each order's next step. */
import { useCallback, useEffect, useState } from 'react';
import { Button, Callout, H5, HTMLTable, NonIdealState, Spinner } from '@blueprintjs/core';
import { useNavigate } from 'react-router-dom';
import { api, failureText } from '../../api/client';
import { CursorPagerButtons } from '../../../../renderers/CursorPager';
import type { CursorPager } from '../../../shared/buckets';
import { OrderStatusTag, type Order } from './common';
import { formatMoney } from '../../../shared/format';

/** Where an order goes next from the list. */
export function nextStep(o: Order): { text: string; path: string } {
  if (o.status === 'unpaid') return { text: '支付', path: `/toolbox/certificatePay/?order_id=${o.order_id}` };
  if (o.status === 'paid') return { text: '提交资料', path: `/toolbox/caMessageCheck/?order_id=${o.order_id}` };
  return { text: '详情', path: `/toolbox/certificateDetail/?order_id=${o.order_id}` };
}

export function OrdersPanel() {
  const [rows, setRows] = useState<Order[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [pager, setPager] = useState<CursorPager>({ since: null, max: null });
  const [cursor, setCursor] = useState<{ since?: number; max?: number }>({});
  const navigate = useNavigate();
  const load = useCallback(async () => {
    try {
      const res = await api.get<{ data: Order[]; pager: CursorPager }>('/api/https/v2/certificate/order/', { limit: 10, ...cursor });
      setRows(res.data);
      setPager(res.pager);
    } catch (e) {
      setFailure(failureText(e));
      setRows([]);
    }
  }, [cursor]);
  useEffect(() => {
    void load();
  }, [load]);

  return (
    <div className="paid-orders">
      <div className="page-head">
        <H5>付费证书订单</H5>
        <Button intent="primary" icon="shopping-cart" className="buy-certificate" onClick={() => navigate('/toolbox/createCertificate/')} style={{ marginLeft: 'auto' }}>
          购买证书
        </Button>
      </div>
      {failure && <Callout intent="danger">{failure}</Callout>}
      {rows === null ? (
        <Spinner />
      ) : rows.length === 0 ? (
        <NonIdealState icon="shopping-cart" title="暂无付费证书订单" />
      ) : (
        <HTMLTable className="service-table order-table" striped>
          <thead>
            <tr>
              <th>订单编号</th>
              <th>证书</th>
              <th>域名</th>
              <th>金额</th>
              <th>状态</th>
              <th>操作</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((o) => {
              const next = nextStep(o);
              return (
                <tr key={o.order_id} data-order={o.order_id}>
                  <td>{o.order_id}</td>
                  <td>
                    {o.brand_name} {o.level_name} {o.kind_name}
                  </td>
                  <td>{o.domains.length ? o.domains.join('，') : '-'}</td>
                  <td>{formatMoney(o.price)} 元</td>
                  <td>
                    <OrderStatusTag order={o} />
                  </td>
                  <td>
                    <Button variant="minimal" text={next.text} className="order-next" onClick={() => navigate(next.path)} />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </HTMLTable>
      )}
      <CursorPagerButtons pager={pager} onCursor={setCursor} />
    </div>
  );
}
