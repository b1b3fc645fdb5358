/**
 * Resource packages (spec 001 §2.5 billing.resource and the kinds' pages): one tab per kind, what
 * remains, the account's packages with status, a date range on the purchase time (empty by default: every
 * package; the end day plus one day, spec 001 §7), auto-renewal, renewal (the pay page with resourceId)
 * and deletion of used-up or expired ones, and the way to buy (/billing/{kind}/buy/).
 */
import { useCallback, useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { Button, Callout, Classes, H4, HTMLSelect, HTMLTable, NonIdealState, Spinner, Switch, Tag } from '@blueprintjs/core';
import { Tab, Tabs } from '../../common/Tabs';
import { api, failureText } from '../../api/client';
import { PageLinks } from '../orders/PageLinks';
import { DateRange, rangeQuery } from '../orders/DateRange';
import { RESOURCE_KINDS, RESOURCE_KIND_LABELS, type ResourceKind, type ResourcePackage } from '../../../shared/billing/resources';
import { formatTime } from '../../../shared/stats/time';
import { count, useBilling } from '../common';
import { useResourceKind } from './kind';
import { UsageRecords, hasUsageRecords } from './UsageRecords';
import { formatMoney } from '../../../shared/format';

const STATUS = { VALID: '生效中', USED: '已用完', EXPIRED: '已过期' } as const;
const PAGE = 10;
export const kindPath = (k: ResourceKind) => `/billing/${k}/`;

export default function ResourcesPage() {
  const kind = useResourceKind();
  const navigate = useNavigate();
  const { reload } = useBilling();
  const [status, setStatus] = useState('');
  const [range, setRange] = useState({ start: '', end: '' });
  const [page, setPage] = useState(1);
  const [data, setData] = useState<{ items: ResourcePackage[]; total: number } | null>(null);
  const [remain, setRemain] = useState<Record<string, { remain: number; unit: string }> | null>(null);
  const [error, setError] = useState('');
  const load = useCallback(() => {
    setError('');
    api
      .get<{ data: ResourcePackage[]; pager: { total: number } }>('/api/resources/account/', { kind, status: status || undefined, ...rangeQuery(range.start, range.end), page, limit: PAGE })
      .then((r) => setData({ items: r.data, total: r.pager.total }))
      .catch((e) => setError(failureText(e)));
    api
      .get<{ data: Record<string, { remain: number; unit: string }> }>('/api/resource')
      .then((r) => setRemain(r.data))
      .catch(() => undefined);
  }, [kind, status, range, page]);
  useEffect(load, [load]);
  useEffect(() => setPage(1), [kind, status, range]);

  const act = async (fn: () => Promise<unknown>) => {
    try {
      await fn();
      load();
      reload();
    } catch (e) {
      setError(failureText(e));
    }
  };
  const r = remain?.[kind];
  return (
    <div>
      <H4>资源包</H4>
      <Tabs id="resource-kinds" className="resource-tabs" selectedTabId={kind} onChange={(k) => navigate(kindPath(k as ResourceKind))}>
        {RESOURCE_KINDS.map((k) => (
          <Tab key={k} id={k} title={RESOURCE_KIND_LABELS[k]} />
        ))}
      </Tabs>
      <div className="billing-toolbar">
        <span>
          剩余{RESOURCE_KIND_LABELS[kind]}：<strong data-testid="resource-remain">{r ? `${count(r.remain)} ${r.unit}` : '-'}</strong>
        </span>
        <DateRange clearable start={range.start} end={range.end} onChange={(start, end) => setRange({ start, end })} />
        <span className="spacer" />
        <HTMLSelect aria-label="状态" value={status} onChange={(e) => setStatus(e.currentTarget.value)} options={[{ value: '', label: '全部状态' }, ...Object.entries(STATUS).map(([value, label]) => ({ value, label }))]} />
        <Link to={`/billing/${kind}/buy/`} className={`${Classes.BUTTON} ${Classes.INTENT_PRIMARY}`}>
          购买{RESOURCE_KIND_LABELS[kind]}
        </Link>
      </div>
      {error && <Callout intent="danger">{error}</Callout>}
      {!data && !error && <Spinner size={24} aria-label="加载中" />}
      {data && data.items.length === 0 && <NonIdealState icon="box" title={`暂无${RESOURCE_KIND_LABELS[kind]}`} description="购买后当日生效，结算账单时先于余额抵扣。" />}
      {data && data.items.length > 0 && (
        <HTMLTable className="billing-table" striped aria-label="资源包列表">
          <thead>
            <tr>
              <th>规格</th>
              <th className="billing-num">总量</th>
              <th className="billing-num">剩余</th>
              <th className="billing-num">价格（元）</th>
              <th>生效时间</th>
              <th>到期时间</th>
              <th>状态</th>
              <th>自动续费</th>
              <th>操作</th>
            </tr>
          </thead>
          <tbody>
            {data.items.map((p) => (
              <tr key={p.id}>
                <td>{p.name}</td>
                <td className="billing-num">
                  {count(p.amount)} {p.unit}
                </td>
                <td className="billing-num">
                  {count(p.remain)} {p.unit}
                </td>
                <td className="billing-num">{formatMoney(p.price)}</td>
                <td>{formatTime(p.starts_at)}</td>
                <td>{formatTime(p.expires_at)}</td>
                <td>
                  <Tag minimal intent={p.status === 'VALID' ? 'success' : 'none'}>
                    {STATUS[p.status]}
                  </Tag>
                </td>
                <td>
                  <Switch aria-label="自动续费" checked={p.auto_renew} disabled={p.status === 'EXPIRED'} onChange={(e) => void act(() => api.put('/api/resources/account/', { id: p.id, auto_renew: e.currentTarget.checked }))} style={{ marginBottom: 0 }} />
                </td>
                <td>
                  <Link to={`/billing/${kind}/pay/?cat=billing&resource=${p.spec}&resourceId=${p.id}`} className={`${Classes.BUTTON} ${Classes.MINIMAL} ${Classes.SMALL}`}>
                    续费
                  </Link>
                  {p.status !== 'VALID' && <Button minimal small intent="danger" text="删除" onClick={() => void act(() => api.del(`/api/resources/account/?id=${p.id}`))} />}
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
      {data && (
        <div className="billing-foot">
          <PageLinks page={page} total={data.total} size={PAGE} onPage={setPage} />
        </div>
      )}
      {hasUsageRecords(kind) && <UsageRecords kind={kind} />}
    </div>
  );
}
