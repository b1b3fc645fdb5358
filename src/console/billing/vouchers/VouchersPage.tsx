/**
 * Vouchers (spec 001 §2.5 billing.voucher, §3, §4, §7): activation by code (the declaration
 * schemas/forms/voucher_activate/), the list with its derived status, a date range on the time obtained
 * (empty by default: every voucher; the end day plus one day) and a since/max pager.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { Button, ButtonGroup, Callout, HTMLSelect, HTMLTable, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { api, ApiFailure, failureText } from '../../api/client';
import { DeclarationForm } from '../../../../renderers/DeclarationForm';
import activateSchema from '../../../../schemas/forms/voucher_activate/schema.json';
import activateUi from '../../../../schemas/forms/voucher_activate/ui.json';
import { VOUCHER_SOURCE_LABELS, VOUCHER_STATUS_LABELS, VOUCHERS_PAGE_SIZE, type Voucher } from '../../../shared/billing/vouchers';
import type { CursorPager } from '../../../shared/buckets';
import type { FieldError } from '../../../shared/errors';
import { formatTime } from '../../../shared/stats/time';
import { useBilling } from '../common';
import { DateRange, rangeQuery } from '../orders/DateRange';
import { formatMoney } from '../../../shared/format';

const INTENT = { USING: 'success', USED: 'none', EXPIRED: 'warning' } as const;

export default function VouchersPage() {
  const { reload } = useBilling();
  const [status, setStatus] = useState('');
  const [range, setRange] = useState({ start: '', end: '' });
  const [cursor, setCursor] = useState<{ since?: number; max?: number }>({});
  const [list, setList] = useState<{ items: Voucher[]; pager: CursorPager } | null>(null);
  const [error, setError] = useState('');
  const [form, setForm] = useState<{ ticket_id?: string }>({});
  const [failure, setFailure] = useState<{ message: string; errors?: FieldError[] } | null>(null);
  const [done, setDone] = useState('');
  const [busy, setBusy] = useState(false);
  const formRef = useRef<any>(null);
  const load = useCallback(() => {
    setError('');
    api
      .get<{ data: Voucher[]; pager: CursorPager }>('/api/tickets/', { status: status || undefined, ...rangeQuery(range.start, range.end), limit: VOUCHERS_PAGE_SIZE, ...cursor })
      .then((r) => setList({ items: r.data, pager: r.pager }))
      .catch((e) => setError(failureText(e)));
  }, [status, range, cursor]);
  useEffect(load, [load]);

  const activate = async () => {
    setDone('');
    setFailure(null);
    if (!formRef.current?.validateForm()) return;
    setBusy(true);
    try {
      const r = await api.post<{ data: Voucher }>('/api/ticket/', form);
      setDone(`激活成功：${formatMoney(r.data.value)} 元代金券，有效期至 ${formatTime(r.data.expired_at)}`);
      setForm({});
      setCursor({});
      load();
      reload();
    } catch (e) {
      setFailure({ message: failureText(e), errors: e instanceof ApiFailure ? e.errors : undefined });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div>
      <h3 className="bp6-heading">代金券</h3>
      <div className="voucher-activate">
        <div>
          <DeclarationForm formRef={formRef} schema={activateSchema} ui={activateUi} formData={form} errors={failure?.errors} onChange={(d: { ticket_id?: string }) => setForm(d)} />
        </div>
        <Button intent="primary" loading={busy} onClick={() => void activate()} style={{ marginTop: 22 }}>
          激活
        </Button>
      </div>
      {failure && !failure.errors?.length && <Callout intent="danger">{failure.message}</Callout>}
      {done && <Callout intent="success">{done}</Callout>}
      <div className="billing-toolbar" style={{ marginTop: 16 }}>
        <DateRange
          clearable
          start={range.start}
          end={range.end}
          onChange={(start, end) => {
            setRange({ start, end });
            setCursor({});
          }}
        />
        <span className="spacer" />
        <HTMLSelect
          aria-label="状态"
          value={status}
          onChange={(e) => {
            setStatus(e.currentTarget.value);
            setCursor({});
          }}
          options={[{ value: '', label: '全部状态' }, ...Object.entries(VOUCHER_STATUS_LABELS).map(([value, label]) => ({ value, label }))]}
        />
      </div>
      {error && <Callout intent="danger">{error}</Callout>}
      {!list && !error && <Spinner size={24} aria-label="加载中" />}
      {list && list.items.length === 0 && <NonIdealState icon="bank-account" title="暂无代金券" />}
      {list && list.items.length > 0 && (
        <HTMLTable className="billing-table" striped aria-label="代金券列表">
          <thead>
            <tr>
              <th className="billing-num">面值（元）</th>
              <th className="billing-num">余额（元）</th>
              <th className="billing-num">已用（元）</th>
              <th>来源</th>
              <th>获得时间</th>
              <th>到期时间</th>
              <th>状态</th>
            </tr>
          </thead>
          <tbody>
            {list.items.map((v) => (
              <tr key={v.id}>
                <td className="billing-num">{formatMoney(v.value)}</td>
                <td className="billing-num">{formatMoney(v.remain)}</td>
                <td className="billing-num">{formatMoney(v.used)}</td>
                <td>{VOUCHER_SOURCE_LABELS[v.source] ?? v.source}</td>
                <td>{formatTime(v.created_at)}</td>
                <td>{formatTime(v.expired_at)}</td>
                <td>
                  <Tag minimal intent={INTENT[v.status]}>
                    {VOUCHER_STATUS_LABELS[v.status]}
                  </Tag>
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
      {list && (
        <div className="billing-foot">
          <ButtonGroup>
            <Button icon="chevron-left" disabled={list.pager.since === null} onClick={() => setCursor({ since: list.pager.since ?? undefined })}>
              上一页
            </Button>
            <Button rightIcon="chevron-right" disabled={list.pager.max === null} onClick={() => setCursor({ max: list.pager.max ?? undefined })}>
              下一页
            </Button>
          </ButtonGroup>
        </div>
      )}
    </div>
  );
}
