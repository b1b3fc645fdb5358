/**
 * /services/create/ddos/pay?package&order&nodesId2Name&vm2req: paying an order with the balance
 * (POST /api/ddos/order/pay). Short of balance (222xx) the page shows how much to top up and links to
 * /billing/charge/; paid, it goes to the new instance.
 */
import { recordEvent, useEventOnOpen } from '../api/events';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { useAtomValue } from 'jotai';
import { AnchorButton, Button, Callout, Card, H3, HTMLTable, Icon } from '@blueprintjs/core';
import { api } from '../api/client';
import { notify } from '../common/toaster';
import { sessionAtom } from '../state';
import { loadSession } from '../session';
import { CHARGE_LINK, ddosPrice, packageOf } from '../../shared/ddos';
import { FailureCallout, toFailure, type Failure } from './common';
import './ddos.css';
import { formatMoney } from '../../shared/format';

function parse<T>(text: string | null, fallback: T): T {
  try {
    return text ? (JSON.parse(text) as T) : fallback;
  } catch {
    return fallback;
  }
}

export default function PayPage() {
  useEventOnOpen('buried', 'ddos_pay_open');
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const session = useAtomValue(sessionAtom);
  const order = Number(params.get('order'));
  const pkg = packageOf(params.get('package') ?? '');
  const names = parse<Record<string, string>>(params.get('nodesId2Name'), {});
  const req = parse<{ months?: number; nodes?: number[] }>(params.get('vm2req'), {});
  const [failure, setFailure] = useState<Failure | null>(null);
  const [paying, setPaying] = useState(false);
  const balance = session.status === 'signedIn' ? Number(session.usage.money ?? 0) : 0;
  if (!order || !pkg) {
    return (
      <Callout intent="warning">
        订单信息不完整，请<Link to="/services/ddos/order/">重新选择套餐</Link>。
      </Callout>
    );
  }
  const price = ddosPrice(pkg, Object.keys(names).length || req.nodes?.length || 1, req.months ?? 1).price;
  const short = failure?.code !== undefined && failure?.code !== null && String(failure.code).startsWith('222') ? (failure.data as { need?: string; link?: string } | undefined) : undefined;

  async function pay() {
    setFailure(null);
    setPaying(true);
    try {
      await api.post('/api/ddos/order/pay', { order_id: order });
      recordEvent('buried', 'ddos_pay_done');
      notify('支付成功，高防实例已开通');
      await loadSession().catch(() => undefined);
      navigate('/services/ddos/instance/');
    } catch (e) {
      setFailure(toFailure(e));
      setPaying(false);
    }
  }

  return (
    <div className="ddos-page">
      <Link to="/services/ddos/order/" className="back-link">
        <Icon icon="arrow-left" size={12} /> 返回套餐选择
      </Link>
      <div className="page-head">
        <H3>支付订单</H3>
      </div>
      <Card className="ddos-pay">
        <HTMLTable className="ddos-table">
          <tbody>
            <tr>
              <th>订单编号</th>
              <td>{order}</td>
            </tr>
            <tr>
              <th>套餐</th>
              <td>DDoS 高防 IP {pkg.name}</td>
            </tr>
            <tr>
              <th>防护节点</th>
              <td>{Object.values(names).join('、') || '—'}</td>
            </tr>
            <tr>
              <th>购买时长</th>
              <td>{req.months ?? 1} 个月</td>
            </tr>
            <tr>
              <th>应付金额</th>
              <td data-testid="ddos-pay-price">¥{formatMoney(price)}</td>
            </tr>
            <tr>
              <th>账户余额</th>
              <td>¥{formatMoney(balance)}</td>
            </tr>
          </tbody>
        </HTMLTable>
        {short ? (
          <Callout intent="warning" className="ddos-short" role="alert">
            {failure!.message}：还需充值 <strong>¥{short.need}</strong>。
            <AnchorButton minimal intent="primary" text="去充值" href={short.link ?? CHARGE_LINK} />
          </Callout>
        ) : (
          <FailureCallout failure={failure} />
        )}
        <Button intent="primary" large text="使用余额支付" loading={paying} onClick={pay} />
      </Card>
    </div>
  );
}
