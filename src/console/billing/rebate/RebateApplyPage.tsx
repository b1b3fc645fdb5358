/**
 * /billing/rebateCreateApply/ (spec 001 §2.5 "rebateCreateApply/ (sum, freeze, all)", §2.6, §5): the
 * amount and the method (declaration schemas/forms/rebate_apply: 请填写提现金额, 单笔申请，金额 20 元起提交,
 * 最大提现金额为 {amount}), and for a withdrawal the saved payees (at most 6; the add control hides at
 * 6) with the add, edit and delete dialogs. Opened with a sum below 20 it goes back to the list.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { Alert, Button, Callout, Card, Classes, Colors, H4, H5, Radio, RadioGroup, Tag } from '@blueprintjs/core';
import applySchema from '../../../../schemas/forms/rebate_apply/schema.json';
import applyUi from '../../../../schemas/forms/rebate_apply/ui.json';
import { ruleErrors, type RebateApplyForm } from '../../../../schemas/forms/rebate_apply/rules';
import { DeclarationForm } from '../../../../renderers/DeclarationForm';
import { api, ApiFailure, failureText } from '../../api/client';
import { notify } from '../../common/toaster';
import type { FieldError } from '../../../shared/errors';
import { MAX_PAYEES, maskAccount, RECEIVE_TYPES, REBATE_MIN, type PayeeInfo, type RebateTotals } from '../../../shared/billing-money';
import { PayeeDialog } from './PayeeDialog';
import { useBilling } from '../common';
import { formatMoney } from '../../../shared/format';

export default function RebateApplyPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const sum = Number(params.get('sum'));
  const [amounts, setAmounts] = useState<RebateTotals>({ total: sum, freeze: Number(params.get('freeze')) || 0, available: Number(params.get('all')) || 0 });
  const [value, setValue] = useState<RebateApplyForm>({ draw_type: 'TICKET' });
  const [payees, setPayees] = useState<PayeeInfo[]>([]);
  const [dialog, setDialog] = useState<{ editing: PayeeInfo | null } | null>(null);
  const [deleting, setDeleting] = useState<PayeeInfo | null>(null);
  const [serverErrors, setServerErrors] = useState<FieldError[]>([]);
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);
  const [tried, setTried] = useState(false);
  const formRef = useRef<any>(null);
  const billing = useBilling();

  const loadPayees = useCallback(async (select?: number) => {
    const list = (await api.get<{ data: { rebate_infos: PayeeInfo[] } }>('/api/account/rebate/info')).data.rebate_infos;
    setPayees(list);
    setValue((v) => {
      const keep = select ?? v.rebate_info_id;
      const chosen = list.find((p) => p.rebate_info_id === keep) ?? list.find((p) => p.default);
      return { ...v, rebate_info_id: chosen?.rebate_info_id };
    });
  }, []);
  useEffect(() => {
    void api.get<{ data: { amounts: RebateTotals } }>('/api/account/rebate', { size: 1 }).then((r) => setAmounts(r.data.amounts)).catch(() => undefined);
    void loadPayees().catch(() => undefined);
  }, [loadPayees]);

  if (!(sum >= REBATE_MIN)) return <Navigate to="/billing/rebateAmount/" replace />;

  const rules = (v: RebateApplyForm) => ruleErrors(v, { available: amounts.available });

  async function submit() {
    setMessage('');
    setTried(true);
    const valid = formRef.current?.validateForm?.() ?? true;
    if (!valid || rules(value).length) return;
    setBusy(true);
    try {
      const body = value.draw_type === 'TICKET' ? { sum: value.sum, draw_type: 'TICKET' } : value;
      await api.put('/api/account/rebate', body);
      billing.reload();
      notify(value.draw_type === 'TICKET' ? '已转为代金券' : '提现申请已提交，请等待审核');
      navigate('/billing/rebateAmount/');
    } catch (e) {
      setMessage(failureText(e));
      if (e instanceof ApiFailure) setServerErrors(e.errors);
    } finally {
      setBusy(false);
    }
  }

  async function removePayee(p: PayeeInfo) {
    setDeleting(null);
    try {
      await api.del('/api/account/rebate/info', { rebate_info_id: p.rebate_info_id });
      notify('删除成功');
      await loadPayees();
    } catch (e) {
      notify(failureText(e), 'danger');
    }
  }

  return (
    <div className="billing-rebate-apply">
      <H4>申请提现</H4>
      <Callout intent="primary" className="rebate-apply-amounts">
        累计可提现返利 {formatMoney(amounts.total)} 元，审核中 {formatMoney(amounts.freeze)} 元，实际可提现 <strong>{formatMoney(amounts.available)}</strong> 元。单笔申请 20 元起。
      </Callout>
      <Card>
        {message && <Callout intent="danger">{message}</Callout>}
        <DeclarationForm
          schema={applySchema}
          ui={applyUi}
          formData={value}
          onChange={(v: RebateApplyForm) => {
            setServerErrors([]);
            setValue(v);
          }}
          errors={serverErrors}
          rules={rules}
          formRef={formRef}
        />
        {value.draw_type === 'WITHDRAWAL' && (
          <div className="payee-list">
            <H5>收款信息</H5>
            {payees.length === 0 && <p className={Classes.TEXT_MUTED}>还没有收款信息，请先添加。</p>}
            <RadioGroup selectedValue={value.rebate_info_id ? String(value.rebate_info_id) : undefined} onChange={(e) => setValue({ ...value, rebate_info_id: Number(e.currentTarget.value) })}>
              {payees.map((p) => (
                <Radio key={p.rebate_info_id} value={String(p.rebate_info_id)} className="payee-item">
                  <span className="payee-label">
                    {RECEIVE_TYPES[p.receive_type]} · {p.name} · {maskAccount(p.open_account)}
                  </span>
                  {p.default && <Tag minimal intent="primary">默认</Tag>}
                  <Button minimal small onClick={() => setDialog({ editing: p })}>
                    编辑
                  </Button>
                  <Button minimal small intent="danger" onClick={() => setDeleting(p)}>
                    删除
                  </Button>
                </Radio>
              ))}
            </RadioGroup>
            {payees.length < MAX_PAYEES && (
              <Button icon="add" onClick={() => setDialog({ editing: null })}>
                添加收款信息
              </Button>
            )}
            {[...serverErrors, ...(tried && !value.rebate_info_id ? [{ path: '/rebate_info_id', message: '请选择收款信息' }] : [])].filter((e, i, all) => e.path === '/rebate_info_id' && all.findIndex((x) => x.message === e.message) === i).map((e) => (
              <div key={e.message} className={Classes.FORM_HELPER_TEXT} style={{ color: Colors.RED3 }}>
                {e.message}
              </div>
            ))}
          </div>
        )}
        <div className="form-actions">
          <Button onClick={() => navigate('/billing/rebateAmount/')}>返回</Button>
          <Button intent="primary" loading={busy} onClick={() => void submit()}>
            提交申请
          </Button>
        </div>
      </Card>
      {dialog && (
        <PayeeDialog
          editing={dialog.editing}
          onClose={() => setDialog(null)}
          onSaved={(id) => {
            setDialog(null);
            notify('保存成功');
            void loadPayees(id);
          }}
        />
      )}
      <Alert isOpen={deleting !== null} cancelButtonText="取消" confirmButtonText="删除" intent="danger" onCancel={() => setDeleting(null)} onConfirm={() => deleting && void removePayee(deleting)}>
        确定删除这条收款信息吗？
      </Alert>
    </div>
  );
}
