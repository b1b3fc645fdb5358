/** /billing/createInvoicing/ (spec 001 §2.5 "params cat, total, freeze, listNumber"): apply for an invoice. */
import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { Button, Callout, Card, FormGroup, H4, HTMLSelect, InputGroup, NumericInput } from '@blueprintjs/core';
import { api, ApiFailure, failureText } from '../../api/client';
import { notify } from '../../common/toaster';
import type { FieldError } from '../../../shared/errors';
import { INVOICE_AMOUNT_TEXT, hasAtMostTwoDecimals, type InvoiceConsume } from '../../../shared/billing-money';
import { formatMoney } from '../../../shared/format';

export default function CreateInvoicingPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  // from the invoicing list's 申请开票 (?total=); opened directly, the amount available is asked for
  // (Blueprint's NumericInput throws on max < min, which took the whole page down)
  const given = params.get('total');
  const [available, setAvailable] = useState(Number(given) || 0);
  const [amount, setAmount] = useState(available);
  useEffect(() => {
    if (given !== null) return;
    void api
      .get<{ data: InvoiceConsume }>('/api/account/invoice/consume/')
      .then((r) => (setAvailable(r.data.available), setAmount(r.data.available)))
      .catch(() => undefined);
  }, [given]);
  const [infos, setInfos] = useState<{ info_id: number; title: string }[]>([]);
  const [addresses, setAddresses] = useState<{ address_id: number; recipient: string; address: string }[]>([]);
  const [infoId, setInfoId] = useState(0);
  const [addressId, setAddressId] = useState(0);
  const [remark, setRemark] = useState('');
  const [message, setMessage] = useState('');
  const [errors, setErrors] = useState<FieldError[]>([]);
  useEffect(() => {
    void api.get<{ data: { infos: { info_id: number; title: string }[] } }>('/api/account/invoice/info').then((r) => (setInfos(r.data.infos), setInfoId(r.data.infos[0]?.info_id ?? 0)));
    void api.get<{ data: { addresses: { address_id: number; recipient: string; address: string }[] } }>('/api/account/invoice/address').then((r) => (setAddresses(r.data.addresses), setAddressId(r.data.addresses[0]?.address_id ?? 0)));
  }, []);
  // the server's rule and text (PUT /api/account/invoice): more than 0, at most 2 decimals
  const amountOk = amount > 0 && hasAtMostTwoDecimals(amount);
  // nothing to invoice: said plainly, not as an error about the amount the user has not typed
  const none = available < 0.01;
  const err = (p: string) => errors.find((e) => e.path === p)?.message ?? (p === '/amount' && !amountOk && !none ? INVOICE_AMOUNT_TEXT : undefined);
  async function submit() {
    setMessage('');
    try {
      await api.put('/api/account/invoice', { amount, info_id: infoId, address_id: addressId, ...(remark ? { remark } : {}) });
      notify('开票申请已提交');
      navigate('/billing/invoicing/');
    } catch (e) {
      setMessage(failureText(e));
      if (e instanceof ApiFailure) setErrors(e.errors);
    }
  }
  return (
    <div className="billing-create-invoice">
      <H4>申请开票</H4>
      <Card>
        {message && <Callout intent="danger">{message}</Callout>}
        <FormGroup label="开票金额（元）" helperText={err('/amount') ?? (none ? '暂无可开票金额' : `最多可开票 ${formatMoney(available)} 元`)} intent={err('/amount') ? 'danger' : 'none'}>
          <NumericInput aria-label="开票金额" disabled={none} min={none ? undefined : 0.01} max={none ? undefined : available} minorStepSize={0.01} value={amount} onValueChange={setAmount} />
        </FormGroup>
        <FormGroup label="发票抬头" helperText={infos.length ? err('/info_id') : <Link to="/billing/invoicing/">请先添加发票抬头</Link>} intent={err('/info_id') ? 'danger' : 'none'}>
          <HTMLSelect aria-label="发票抬头" value={infoId} disabled={!infos.length} onChange={(e) => setInfoId(Number(e.target.value))} options={infos.length ? infos.map((i) => ({ value: i.info_id, label: i.title })) : [{ value: 0, label: '暂无发票抬头' }]} />
        </FormGroup>
        <FormGroup label="收件地址" helperText={addresses.length ? err('/address_id') : <Link to="/billing/invoicing/">请先添加收件地址</Link>} intent={err('/address_id') ? 'danger' : 'none'}>
          <HTMLSelect aria-label="收件地址" value={addressId} disabled={!addresses.length} onChange={(e) => setAddressId(Number(e.target.value))} options={addresses.length ? addresses.map((a) => ({ value: a.address_id, label: `${a.recipient} ${a.address}` })) : [{ value: 0, label: '暂无收件地址' }]} />
        </FormGroup>
        <FormGroup label="备注">
          <InputGroup aria-label="备注" maxLength={200} value={remark} onChange={(e) => setRemark(e.target.value)} />
        </FormGroup>
        <Button onClick={() => navigate('/billing/invoicing/')}>返回</Button>{' '}
        <Button intent="primary" disabled={!infoId || !addressId || !amountOk} onClick={() => void submit()}>
          提交申请
        </Button>
      </Card>
    </div>
  );
}
