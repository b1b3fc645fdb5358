/**
 * The payment method chooser (spec 001 §2.6: balance and alipay only; the active choice falls back to
 * the first supported one), the pay confirmation with an SMS code (60 s resend) and the
 * insufficient-balance notice (222xx) with the amount to top up and a link to /billing/charge/.
 * Used by the charge page and by every page that takes money (resource packages, certificates, DDoS).
 */
import { useCallback, useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { Button, Callout, ControlGroup, FormGroup, InputGroup, Radio, RadioGroup } from '@blueprintjs/core';
import { api, ApiFailure, failureText } from '../../api/client';
import { activePayMethod, CHARGE_PATH, PAY_METHOD_LABELS, PAY_METHODS, topUpText, type PayMethod } from '../../../shared/billing-money';
import { formatMoney } from '../../../shared/format';

export function PayMethodChooser({ supported, value, onChange, balance }: { supported: readonly PayMethod[]; value?: string | null; onChange(m: PayMethod): void; balance?: number }) {
  const active = activePayMethod(supported, value);
  useEffect(() => {
    if (active && active !== value) onChange(active);
  }, [active, value, onChange]);
  return (
    <FormGroup label="支付方式">
      <RadioGroup inline selectedValue={active} onChange={(e) => onChange(e.currentTarget.value as PayMethod)}>
        {PAY_METHODS.filter((m) => supported.includes(m)).map((m) => (
          <Radio key={m} value={m} label={m === 'balance' && balance !== undefined ? `${PAY_METHOD_LABELS[m]}（可用 ${formatMoney(balance)} 元）` : PAY_METHOD_LABELS[m]} />
        ))}
      </RadioGroup>
    </FormGroup>
  );
}

/** The SMS code field with its 获取验证码 button and the 60-second countdown. */
export function PayCodeInput({ value, onChange }: { value: string; onChange(code: string): void }) {
  const [wait, setWait] = useState(0);
  const [mobile, setMobile] = useState('');
  const [error, setError] = useState('');
  useEffect(() => {
    void api
      .get<{ data: { mobile: string; resend_in: number } }>('/api/accounts/transaction/captcha')
      .then((r) => {
        setMobile(r.data.mobile);
        setWait(r.data.resend_in);
      })
      .catch((e) => setError(failureText(e)));
  }, []);
  useEffect(() => {
    if (wait <= 0) return;
    const t = setTimeout(() => setWait((w) => w - 1), 1000);
    return () => clearTimeout(t);
  }, [wait]);
  const send = useCallback(async () => {
    setError('');
    try {
      const r = await api.post<{ data: { mobile: string; resend_in: number } }>('/api/accounts/transaction/captcha', {});
      setMobile(r.data.mobile);
      setWait(r.data.resend_in);
    } catch (e) {
      setError(failureText(e));
    }
  }, []);
  return (
    <FormGroup label="短信验证码" helperText={error || (mobile ? `验证码将发送到 ${mobile}` : undefined)} intent={error ? 'danger' : 'none'}>
      <ControlGroup>
        <InputGroup aria-label="短信验证码" placeholder="6 位数字验证码" maxLength={6} value={value} onChange={(e) => onChange(e.target.value.replace(/\D/g, ''))} />
        <Button onClick={() => void send()} disabled={wait > 0}>
          {wait > 0 ? `${wait} 秒后重新获取` : '获取验证码'}
        </Button>
      </ControlGroup>
    </FormGroup>
  );
}

/** What a 22201 refusal carries (src/server/billing/pay/confirm.ts). */
export interface TopUp {
  need: number;
  balance: number;
  link: string;
}

export function topUpOf(e: unknown): TopUp | null {
  return e instanceof ApiFailure && e.code === 22201 && e.data && typeof e.data === 'object' ? (e.data as TopUp) : null;
}

/** The insufficient-balance notice: the amount to top up, with the link to the charge page. */
export function TopUpNotice({ topUp }: { topUp: TopUp }) {
  return (
    <Callout intent="warning" className="top-up-notice" title="账户余额不足">
      {topUpText(topUp.need)}，<Link to={topUp.link || CHARGE_PATH}>立即充值</Link>
    </Callout>
  );
}
