/**
 * What used a kind's packages (GET /api/resources/usage): the external products' reports (SMS,
 * one-click login, blockchain notarisation) and the free certificates beyond the 20 free ones, per day.
 * The part no package covered is on that day's bill (docs/billing.md "Usage reported by the external products").
 */
import { useEffect, useState } from 'react';
import { Callout, H5, HTMLSelect, HTMLTable, NonIdealState } from '@blueprintjs/core';
import { api, failureText } from '../../api/client';
import { CONSUMED_PRODUCT_INFO, isConsumedProduct } from '../../../shared/billing/consumption';
import type { ResourceKind } from '../../../shared/billing/resources';
import { count } from '../common';

interface UsageDay {
  day: string;
  quantity: number;
  covered: number;
  charged: number;
}

const RANGES = [7, 30, 90, 182];
export const hasUsageRecords = (kind: ResourceKind) => isConsumedProduct(kind) || kind === 'sslpack';

export function UsageRecords({ kind }: { kind: ResourceKind }) {
  const [days, setDays] = useState(30);
  const [rows, setRows] = useState<UsageDay[] | null>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    setRows(null);
    setError('');
    api
      .get<{ data: UsageDay[] }>('/api/resources/usage', { kind, days })
      .then((r) => setRows(r.data))
      .catch((e) => setError(failureText(e)));
  }, [kind, days]);
  const unit = isConsumedProduct(kind) ? CONSUMED_PRODUCT_INFO[kind].unit : '张';
  // free certificates beyond the free ones need a package: nothing goes to a bill
  const billed = isConsumedProduct(kind);
  const what = isConsumedProduct(kind) ? CONSUMED_PRODUCT_INFO[kind].usage : '超出免费额度的免费证书';
  return (
    <section className="usage-records" aria-label="用量记录">
      <div className="billing-toolbar">
        <H5>用量记录</H5>
        <span className="spacer" />
        <HTMLSelect aria-label="时间范围" value={days} onChange={(e) => setDays(Number(e.currentTarget.value))} options={RANGES.map((d) => ({ value: d, label: `最近 ${d} 天` }))} />
      </div>
      {error && <Callout intent="danger">{error}</Callout>}
      {rows && rows.length === 0 && <NonIdealState icon="history" title="暂无用量记录" description={`${what}按日汇总于此。`} />}
      {rows && rows.length > 0 && (
        <HTMLTable className="billing-table" striped aria-label="用量记录">
          <thead>
            <tr>
              <th>日期</th>
              <th className="billing-num">{what}</th>
              <th className="billing-num">资源包抵扣</th>
              {billed && <th className="billing-num">计入日账单</th>}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.day}>
                <td>{r.day}</td>
                <td className="billing-num">
                  {count(r.quantity)} {unit}
                </td>
                <td className="billing-num">
                  {count(r.covered)} {unit}
                </td>
                {billed && (
                  <td className="billing-num">
                    {count(r.charged)} {unit}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
    </section>
  );
}
