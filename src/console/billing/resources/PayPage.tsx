/**
 * Paying for a resource package (spec 001 §2.5 resources/pay/ with cat, resource): the balance, after
 * the SMS pay code; a short balance shows the amount to top up with the link to /billing/charge/.
 */
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { Button, Callout, HTMLTable } from '@blueprintjs/core';
import { api, failureText } from '../../api/client';
import { PayCodeInput, PayMethodChooser, TopUpNotice, topUpOf, type TopUp } from '../charge/PayMethods';
import { RESOURCE_KIND_LABELS, findSpec } from '../../../shared/billing/resources';
import { useBilling } from '../common';
import { useResourceKind } from './kind';

const SUPPORTED = ['balance'] as const;

export default function PayPage() {
  const kind = useResourceKind();
  const [params] = useSearchParams();
  const spec = findSpec(params.get('resource') ?? '');
  const { usage, reload } = useBilling();
  const [method, setMethod] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [topUp, setTopUp] = useState<TopUp | null>(null);
  const [paid, setPaid] = useState<string | null>(null);
  if (!spec || spec.kind !== kind)
    return (
      <Callout intent="warning" title="请先选择资源包规格">
        <Link to={`/billing/${kind}/buy/`}>返回选择规格</Link>
      </Callout>
    );
  const pay = async () => {
    setBusy(true);
    setError('');
    setTopUp(null);
    try {
      const r = await api.post<{ data: { order_no: string } }>('/api/resources/account/', { spec: spec.id, code });
      setPaid(r.data.order_no);
      reload();
    } catch (e) {
      const t = topUpOf(e);
      if (t) setTopUp(t);
      else setError(failureText(e));
    } finally {
      setBusy(false);
    }
  };
  if (paid)
    return (
      <Callout intent="success" title="购买成功">
        {RESOURCE_KIND_LABELS[kind]} {spec.name} 已生效（订单号 {paid}）。<Link to={`/billing/${kind}/`}>查看{RESOURCE_KIND_LABELS[kind]}</Link>
      </Callout>
    );
  return (
    <div style={{ maxWidth: 560 }}>
      <h3 className="bp6-heading">确认订单</h3>
      <HTMLTable className="billing-table" aria-label="订单">
        <tbody>
          <tr>
            <th>商品</th>
            <td>
              {RESOURCE_KIND_LABELS[kind]} {spec.name}
            </td>
          </tr>
          <tr>
            <th>有效期</th>
            <td>购买当日生效，{spec.valid_months} 个月有效</td>
          </tr>
          <tr>
            <th>应付金额</th>
            <td>{spec.price.toFixed(2)} 元</td>
          </tr>
        </tbody>
      </HTMLTable>
      <PayMethodChooser supported={SUPPORTED} value={method} onChange={setMethod} balance={usage?.money} />
      <PayCodeInput value={code} onChange={setCode} />
      {topUp && <TopUpNotice topUp={topUp} />}
      {error && <Callout intent="danger">{error}</Callout>}
      <div className="billing-foot">
        <Button intent="primary" loading={busy} disabled={code.length !== 6} onClick={() => void pay()}>
          确认支付
        </Button>
      </div>
    </div>
  );
}
