/**
 * /billing/rebateAmount/ (spec 001 §2.6 "Rebate list"): the amounts, the manage button (the not-enough
 * modal below 20 yuan), a date range and the applications (create time, amount, method, status,
 * view/delete), 20 a page with 5 page links; 还没有返利金额记录 when there are none.
 */
import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Alert, Button, Callout, Card, Dialog, DialogBody, DialogFooter, H4, HTMLTable, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { api, ApiFailure, failureText } from '../../api/client';
import { notify } from '../../common/toaster';
import { PageLinks } from '../orders/PageLinks';
import { DateRange, rangeQuery, todayCst } from '../orders/DateRange';
import { useBilling } from '../common';
import { addDays, formatTime } from '../../../shared/stats/time';
import { DRAW_TYPES, REBATE_EMPTY_TEXT, REBATE_MIN, REBATE_PAGE_SIZE, REBATE_STATUS, REBATE_TEXTS, type RebateRecord, type RebateTotals } from '../../../shared/billing-money';
import { formatMoney } from '../../../shared/format';

export const STATUS_INTENT = { INIT: 'warning', DONE: 'success', CANCEL: 'none' } as const;

export default function RebateListPage() {
  const navigate = useNavigate();
  const [start, setStart] = useState(() => addDays(todayCst(), -181));
  const [end, setEnd] = useState(todayCst);
  const [page, setPage] = useState(1);
  const [rows, setRows] = useState<RebateRecord[] | null>(null);
  const [total, setTotal] = useState(0);
  const [amounts, setAmounts] = useState<RebateTotals | null>(null);
  const [notEnough, setNotEnough] = useState(false);
  const [deleting, setDeleting] = useState<RebateRecord | null>(null);
  const [error, setError] = useState('');
  const billing = useBilling();

  const load = useCallback(async () => {
    setRows(null);
    setError('');
    try {
      const r = await api.get<{ data: { rebates: RebateRecord[]; amounts: RebateTotals }; pager: { total: number } }>('/api/account/rebate', {
        page,
        size: REBATE_PAGE_SIZE,
        ...rangeQuery(start, end),
      });
      setRows(r.data.rebates);
      setAmounts(r.data.amounts);
      setTotal(r.pager.total);
    } catch (e) {
      // a failed load is not an empty list: the failure's text, not 还没有返利金额记录
      setError(failureText(e));
      setRows([]);
    }
  }, [page, start, end]);
  useEffect(() => {
    void load();
  }, [load]);

  function manage() {
    if (!amounts || amounts.total < REBATE_MIN) return setNotEnough(true);
    navigate(`/billing/rebateCreateApply/?sum=${amounts.total}&freeze=${amounts.freeze}&all=${amounts.available}`);
  }

  async function remove(r: RebateRecord) {
    setDeleting(null);
    try {
      await api.del('/api/account/rebate', { rebate_id: r.rebate_id });
      notify(REBATE_TEXTS.deleted);
      billing.reload();
      await load();
    } catch (e) {
      // spec 001 §8: the generic text is for failures without a server answer; a refusal shows its code's text (e.g. 22405)
      notify(e instanceof ApiFailure && e.code !== null ? failureText(e) : REBATE_TEXTS.deleteFailed, 'danger');
    }
  }

  return (
    <div className="billing-rebate">
      <H4>返利金额</H4>
      <Card className="rebate-amounts">
        <div>
          <span>累计可提现返利</span>
          <strong data-testid="rebate-total">{amounts ? formatMoney(amounts.total) : '—'}</strong> 元
        </div>
        <div>
          <span>审核中（冻结）</span>
          <strong data-testid="rebate-freeze">{amounts ? formatMoney(amounts.freeze) : '—'}</strong> 元
        </div>
        <div>
          <span>实际可提现</span>
          <strong data-testid="rebate-available">{amounts ? formatMoney(amounts.available) : '—'}</strong> 元
        </div>
        <Button intent="primary" onClick={manage}>
          申请提现
        </Button>
      </Card>
      <DateRange
        start={start}
        end={end}
        onChange={(a, b) => {
          setStart(a);
          setEnd(b);
          setPage(1);
        }}
      />
      {error && <Callout intent="danger">{error}</Callout>}
      {rows === null ? (
        <Spinner size={24} />
      ) : rows.length === 0 ? (
        !error && <NonIdealState icon="inbox" title={REBATE_EMPTY_TEXT} />
      ) : (
        <HTMLTable striped className="full-width rebate-table">
          <thead>
            <tr>
              <th>创建时间</th>
              <th>金额（元）</th>
              <th>提现方式</th>
              <th>状态</th>
              <th>操作</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.rebate_id}>
                <td>{formatTime(r.create_at)}</td>
                <td>{formatMoney(r.sum)}</td>
                <td>{DRAW_TYPES[r.draw_type]}</td>
                <td>
                  <Tag minimal intent={STATUS_INTENT[r.status]}>{REBATE_STATUS[r.status]}</Tag>
                </td>
                <td>
                  <Button minimal small onClick={() => navigate('/billing/rebateApplyMessage/', { state: { rebate: r } })}>
                    查看
                  </Button>
                  {r.status !== 'DONE' && (
                    <Button minimal small intent="danger" onClick={() => setDeleting(r)}>
                      删除
                    </Button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
      <PageLinks page={page} total={total} size={REBATE_PAGE_SIZE} onPage={setPage} />
      <Dialog isOpen={notEnough} onClose={() => setNotEnough(false)} title="返利金额不足">
        <DialogBody>
          <Callout intent="warning">{REBATE_TEXTS.notEnough}</Callout>
        </DialogBody>
        <DialogFooter actions={<Button intent="primary" onClick={() => setNotEnough(false)}>我知道了</Button>} />
      </Dialog>
      <Alert isOpen={deleting !== null} cancelButtonText="取消" confirmButtonText="删除" intent="danger" onCancel={() => setDeleting(null)} onConfirm={() => deleting && void remove(deleting)}>
        确定删除这条返利申请记录吗？{deleting?.status === 'INIT' ? '删除后冻结的金额将恢复为可提现。' : ''}
      </Alert>
    </div>
  );
}
