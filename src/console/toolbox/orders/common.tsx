/**
 * What the paid-certificate pages share: the order as the API returns it, loading one by ?order_id=,
 * its status tag and summary.
 */
import { useCallback, useEffect, useState } from 'react';
import { HTMLTable, Tag, type Intent } from '@blueprintjs/core';
import { useSearchParams } from 'react-router-dom';
import { api, failureText } from '../../api/client';
import type { OrderStatus } from '../../../shared/certificates';
import { formatMoney, formatAt } from '../../../shared/format';

export interface Order {
  order_id: number;
  product_id: string;
  brand: string;
  brand_name: string;
  level: string;
  level_name: string;
  kind: string;
  kind_name: string;
  domain_type: 'single' | 'multiple' | 'wildcard' | 'mix';
  certificate_agent: 'trustasia' | 'racent';
  years: number;
  defaultDomain: number;
  generalDomain: number;
  price: number;
  status: OrderStatus;
  status_text: string;
  apply_id: string | null;
  ca_message: { main_domain: string; multiple_domain: string; add_domains: string; template_id: number | null } | null;
  domains: string[];
  dcv: { domain: string; method: string; type: string; host: string; value: string }[];
  error: string | null;
  certificate_id: number | null;
  oldOrderId: number | null;
  reIssuedType: string | null;
  order_no: string | null;
  created_at: string;
  paid_at: string | null;
}

const INTENT: Record<OrderStatus, Intent> = { unpaid: 'warning', paid: 'primary', applying: 'primary', verifying: 'primary', issued: 'success', failed: 'danger', cancelled: 'none' };

export function OrderStatusTag({ order }: { order: Pick<Order, 'status' | 'status_text'> }) {
  return (
    <Tag intent={INTENT[order.status]} minimal className="order-status">
      {order.status_text}
    </Tag>
  );
}

/** The order of ?order_id= (null while loading; failure text when it cannot be read). */
export function useOrder(): { orderId: number; order: Order | null; failure: string | null; reload(): Promise<void> } {
  const [params] = useSearchParams();
  const orderId = Number(params.get('order_id') ?? 0);
  const [order, setOrder] = useState<Order | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const reload = useCallback(async () => {
    if (!orderId) return;
    try {
      const res = await api.get<{ data: Order }>('/api/https/v2/certificate/order/', { order_id: orderId });
      setOrder(res.data);
      setFailure(null);
    } catch (e) {
      setFailure(failureText(e));
    }
  }, [orderId]);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { orderId, order, failure, reload };
}

export function OrderSummary({ order: o }: { order: Order }) {
  return (
    <HTMLTable compact className="cert-detail order-summary">
      <tbody>
        <tr><th>订单编号</th><td>{o.order_id}</td></tr>
        <tr><th>证书</th><td>{o.brand_name} {o.level_name} {o.kind_name}</td></tr>
        <tr><th>域名个数</th><td>普通域名 {o.defaultDomain} 个，通配符域名 {o.generalDomain} 个</td></tr>
        <tr><th>购买年限</th><td>{o.years} 年</td></tr>
        <tr><th>金额</th><td>{formatMoney(o.price)} 元</td></tr>
        <tr><th>状态</th><td><OrderStatusTag order={o} /></td></tr>
        {o.domains.length > 0 && <tr><th>域名</th><td>{o.domains.join('，')}</td></tr>}
        {o.oldOrderId && <tr><th>原订单</th><td>{o.oldOrderId}（重新签发）</td></tr>}
        <tr><th>创建时间</th><td>{formatAt(o.created_at, 'YYYY-MM-DD HH:mm:ss')}</td></tr>
      </tbody>
    </HTMLTable>
  );
}

/** The apply call of the order's agent (spec 002 §7: trustasia or racent). */
export const applyUrl = (o: Pick<Order, 'certificate_agent'>) => (o.certificate_agent === 'racent' ? '/api/https/racent/certificate/paid/apply/' : '/api/https/trustasia/certificate/paid/apply/');
export const verifyUrl = (o: Pick<Order, 'certificate_agent'>) => (o.certificate_agent === 'racent' ? '/api/https/racent/certificate/verify_message/' : '/api/https/trustasia/certificate/paid/verify_message/');

/** Errors of lines of a `lines` list shown on the list itself, "第 N 行：…", as the theme does for the schema's own. */
export function asLineErrors(errors: { path: string; message: string }[], list = '/domains'): { path: string; message: string }[] {
  return errors.map((e) => {
    const m = new RegExp(`^${list}/(\\d+)$`).exec(e.path);
    return m ? { path: list, message: `第 ${Number(m[1]) + 1} 行：${e.message}` } : e;
  });
}
