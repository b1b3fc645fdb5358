/**
 * 其他服务 (/billing/other/, spec 001 §2.5 billing.other; the page's content is ours, docs/billing.md
 * "Other services"): the products that run on partner consoles and are paid by their packages first —
 * SMS, one-click login, blockchain notarisation — for a month: what was reported, what packages covered,
 * what the day bills charged, what waits for today's bill, and what the packages still hold; and the
 * account's donation addresses (DonationAddresses).
 */
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { Callout, HTMLSelect, HTMLTable, Spinner } from '@blueprintjs/core';
import dayjs from 'dayjs';
import { api, failureText } from '../../api/client';
import { CONSUMED_PRODUCT_INFO, OTHER_MONTHS_BACK, type OtherServiceMonth } from '../../../shared/billing/consumption';
import { RESOURCE_KIND_LABELS } from '../../../shared/billing/resources';
import { count, yuan3 } from '../common';
import { dayOf } from '../../../shared/stats/time';
import { DonationAddresses } from './DonationAddresses';

// months of the CST calendar, as the bills count them
const thisMonth = dayOf(Math.floor(Date.now() / 1000)).slice(0, 7);
const MONTHS = Array.from({ length: OTHER_MONTHS_BACK + 1 }, (_, i) => dayjs(`${thisMonth}-01`).subtract(i, 'month').format('YYYY-MM'));

export default function OtherPage() {
  const [month, setMonth] = useState(MONTHS[0]!);
  const [rows, setRows] = useState<OtherServiceMonth[] | null>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    setRows(null);
    setError('');
    api
      .get<{ data: OtherServiceMonth[] }>('/api/billing/other', { month })
      .then((r) => setRows(r.data))
      .catch((e) => setError(failureText(e)));
  }, [month]);
  const total = rows?.reduce((a, r) => a + r.amount, 0) ?? 0;
  return (
    <div className="other-services">
      <div className="billing-toolbar">
        <span className="muted">短信服务、一键登录与区块链存证在各自的控制台中使用，用量先由同类资源包抵扣，其余计入当日日账单。</span>
        <span className="spacer" />
        <HTMLSelect aria-label="月份" value={month} onChange={(e) => setMonth(e.currentTarget.value)} options={MONTHS.map((m) => ({ value: m, label: `${m.slice(0, 4)} 年 ${Number(m.slice(5))} 月` }))} />
      </div>
      {error && <Callout intent="danger">{error}</Callout>}
      {!rows && !error && <Spinner size={24} aria-label="加载中" />}
      {rows && (
        <HTMLTable className="billing-table" striped aria-label="其他服务">
          <thead>
            <tr>
              <th>服务</th>
              <th className="billing-num">用量</th>
              <th className="billing-num">资源包抵扣</th>
              <th className="billing-num">计费用量</th>
              <th className="billing-num">费用（元）</th>
              <th className="billing-num">剩余资源包</th>
              <th>操作</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.product} data-product={r.product}>
                <td>{CONSUMED_PRODUCT_INFO[r.product].label}</td>
                <td className="billing-num">
                  {count(r.quantity)} {r.unit}
                </td>
                <td className="billing-num">
                  {count(r.covered)} {r.unit}
                </td>
                <td className="billing-num">
                  {count(r.charged_quantity)} {r.unit}
                  {r.unbilled_quantity > 0 && <div className="muted">其中 {count(r.unbilled_quantity)} {r.unit} 待出账</div>}
                </td>
                <td className="billing-num">{yuan3(r.amount)}</td>
                <td className="billing-num">
                  {count(r.remain)} {r.unit}
                </td>
                <td>
                  <Link to={`/billing/${r.product}/`}>用量记录</Link>
                  <span className="link-sep"> | </span>
                  <Link to={`/billing/${r.product}/buy/`}>购买{RESOURCE_KIND_LABELS[r.product]}</Link>
                </td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <td colSpan={4}>合计</td>
              <td className="billing-num">
                <strong>{yuan3(total)}</strong>
              </td>
              <td colSpan={2} />
            </tr>
          </tfoot>
        </HTMLTable>
      )}
      <DonationAddresses />
    </div>
  );
}
