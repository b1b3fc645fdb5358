/**
 * Paying for a resource package (spec 001 §2.5 "resources/pay/ (cat, resource, resourceId)"): the balance,
 * after the SMS pay code; a short balance shows the amount to top up with the link to /billing/charge/.
 * With resourceId (the list's 续费) the page shows which of the account's packages it renews; the purchase
 * is the same spec bought as a new package, effective the day it is bought. An id that is not one of the
 * account's packages of the kind (or is of another spec than `resource`) shows 资源包不存在或无权访问.
 */
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { Button, Callout, HTMLTable, Spinner } from '@blueprintjs/core';
import { api, failureText } from '../../api/client';
import { PayCodeInput, PayMethodChooser, TopUpNotice, topUpOf, type TopUp } from '../charge/PayMethods';
import { RESOURCE_KIND_LABELS, findSpec, type ResourceKind, type ResourcePackage } from '../../../shared/billing/resources';
import { formatTime } from '../../../shared/stats/time';
import { useBilling } from '../common';
import { useResourceKind } from './kind';
import { formatMoney } from '../../../shared/format';

const SUPPORTED = ['balance'] as const;
const LOOKUP_PAGE = 100;
export const RENEW_NOTE = '续费将购买同规格的新资源包，购买当日生效';
export const PACKAGE_NOT_FOUND = '资源包不存在或无权访问';

/** One of the account's packages of a kind by its id (GET /api/resources/account/ pages through them), null when it is not there. */
async function findPackage(kind: ResourceKind, id: number): Promise<ResourcePackage | null> {
  for (let page = 1; ; page++) {
    const r = await api.get<{ data: ResourcePackage[]; pager: { total: number } }>('/api/resources/account/', { kind, page, limit: LOOKUP_PAGE });
    const hit = r.data.find((p) => p.id === id);
    if (hit) return hit;
    if (r.data.length === 0 || page * LOOKUP_PAGE >= r.pager.total) return null;
  }
}

export default function PayPage() {
  const kind = useResourceKind();
  const [params] = useSearchParams();
  const resourceId = params.get('resourceId');
  const resource = params.get('resource');
  /** the package renewed: undefined while looking (or without resourceId), null when it is not the account's */
  const [held, setHeld] = useState<ResourcePackage | null | undefined>(undefined);
  const [lookupError, setLookupError] = useState('');
  const { usage, reload } = useBilling();
  const [method, setMethod] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [topUp, setTopUp] = useState<TopUp | null>(null);
  const [paid, setPaid] = useState<string | null>(null);
  useEffect(() => {
    setHeld(undefined);
    setLookupError('');
    if (resourceId === null) return;
    if (!/^\d{1,15}$/.test(resourceId)) return setHeld(null);
    let live = true;
    findPackage(kind, Number(resourceId))
      .then((p) => live && setHeld(p))
      .catch((e) => live && setLookupError(failureText(e)));
    return () => {
      live = false;
    };
  }, [kind, resourceId]);
  if (resourceId !== null) {
    if (lookupError) return <Callout intent="danger">{lookupError}</Callout>;
    if (held === undefined) return <Spinner aria-label="加载中" />;
    if (held === null || (resource !== null && resource !== held.spec))
      return (
        <Callout intent="danger" title={PACKAGE_NOT_FOUND}>
          <Link to={`/billing/${kind}/`}>返回{RESOURCE_KIND_LABELS[kind]}</Link>
        </Callout>
      );
  }
  // renewing: the package's spec (`resource` may be left out)
  const spec = findSpec(resource ?? held?.spec ?? '');
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
      <h3 className="bp6-heading">{held ? '续费资源包' : '确认订单'}</h3>
      {held && (
        <Callout intent="primary" className="renew-note">
          {RENEW_NOTE}
        </Callout>
      )}
      <HTMLTable className="billing-table" aria-label="订单">
        <tbody>
          {held && (
            <tr>
              <th>续费的资源包</th>
              <td data-testid="renewed-package">
                {RESOURCE_KIND_LABELS[kind]} {held.name}（剩余 {held.remain} {held.unit}，到期时间 {formatTime(held.expires_at)}）
              </td>
            </tr>
          )}
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
            <td>{formatMoney(spec.price)} 元</td>
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
