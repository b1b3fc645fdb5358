/**
 * /billing/ledger/ 收支明细 (docs/billing-money.md "The ledger"): every change of the balance — recharge,
 * gift, bill settlement, balance payment, refund, adjustment — newest first, with the balance after
 * each, in a date range and by kind. The header's balance is the sum of these rows (the server answers
 * both, and they are always equal).
 */
import { useEffect, useState } from 'react';
import { Callout, H4, HTMLSelect, HTMLTable, NonIdealState, Spinner } from '@blueprintjs/core';
import { api, failureText } from '../../api/client';
import { PageLinks } from '../orders/PageLinks';
import { DateRange, rangeQuery, todayCst } from '../orders/DateRange';
import { LEDGER_KINDS, LEDGER_PAGE_SIZE, type LedgerEntry, type LedgerKind } from '../../../shared/billing/ledger';
import { addDays, formatTime } from '../../../shared/stats/time';
import { formatMoney } from '../../../shared/format';

/** An amount with its sign: money in (+) and out (−). */
const signed = (yuan: number) => (yuan > 0 ? `+${formatMoney(yuan)}` : yuan < 0 ? `−${formatMoney(-yuan)}` : formatMoney(0));

export default function LedgerPage() {
  const [start, setStart] = useState(() => addDays(todayCst(), -89));
  const [end, setEnd] = useState(todayCst);
  const [kind, setKind] = useState<LedgerKind | ''>('');
  const [page, setPage] = useState(1);
  const [rows, setRows] = useState<LedgerEntry[] | null>(null);
  const [total, setTotal] = useState(0);
  const [error, setError] = useState('');

  useEffect(() => {
    let live = true;
    setRows(null);
    setError('');
    api
      .get<{ data: { entries: LedgerEntry[] }; pager: { total: number } }>('/api/billing/ledger', { page, size: LEDGER_PAGE_SIZE, ...rangeQuery(start, end), ...(kind ? { kind } : {}) })
      .then((r) => {
        if (!live) return;
        setRows(r.data.entries);
        setTotal(r.pager.total);
      })
      .catch((e) => live && (setError(failureText(e)), setRows([])));
    return () => {
      live = false;
    };
  }, [start, end, kind, page]);

  return (
    <div className="billing-ledger">
      <H4>收支明细</H4>
      <div className="billing-filters">
        <DateRange
          start={start}
          end={end}
          onChange={(a, b) => {
            setStart(a);
            setEnd(b);
            setPage(1);
          }}
        />
        <HTMLSelect
          aria-label="类型"
          value={kind}
          onChange={(e) => {
            setKind(e.target.value as LedgerKind | '');
            setPage(1);
          }}
          options={[{ label: '全部类型', value: '' }, ...Object.entries(LEDGER_KINDS).map(([value, label]) => ({ label, value }))]}
        />
      </div>
      {error && <Callout intent="danger">{error}</Callout>}
      {rows === null ? (
        <Spinner size={24} aria-label="加载中" />
      ) : rows.length === 0 ? (
        !error && <NonIdealState icon="th-list" title="暂无收支记录" />
      ) : (
        <HTMLTable striped className="full-width" data-testid="ledger-table">
          <thead>
            <tr>
              <th>时间</th>
              <th>类型</th>
              <th>金额（元）</th>
              <th>其中充值余额（元）</th>
              <th>变动后余额（元）</th>
              <th>说明</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.id}>
                <td>{formatTime(r.created_at)}</td>
                <td>{r.kind_label}</td>
                <td className={r.amount < 0 ? 'amount-out' : 'amount-in'}>{signed(r.amount)}</td>
                <td>{signed(r.recharge)}</td>
                <td>{formatMoney(r.balance)}</td>
                <td>{r.memo ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
      <PageLinks page={page} total={total} size={LEDGER_PAGE_SIZE} onPage={setPage} />
    </div>
  );
}
