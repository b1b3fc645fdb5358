/**
 * /billing/charge/ (spec 001 §2.5 "charge/ (query amount, referer)", §2.6): the recharge page. The amount
 * (from the query or typed), the recharge discount, the method (alipay: a recharge cannot be paid from
 * the balance, so the chooser falls back to it), then the QR code of the payment provider's page. The
 * page follows the order until it is paid and shows the new balance.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { Button, ButtonGroup, Callout, Card, Classes, FormGroup, H4, H5, NumericInput, Tag } from '@blueprintjs/core';
import { api, failureText } from '../../api/client';
import { loadSession } from '../../session';
import { QrCode } from './QrCode';
import { useBilling } from '../common';
import { PayMethodChooser } from './PayMethods';
import { RECHARGE_AMOUNT_TEXT, RECHARGE_MAX, RECHARGE_MIN, RECHARGE_PRESETS, hasAtMostTwoDecimals, rechargeGift, type OrderRow, type PayMethod, type RechargeDiscount } from '../../../shared/billing-money';
import type { Usage } from '../../../shared/account';
import { formatMoney } from '../../../shared/format';

interface Pending {
  order_no: string;
  amount: number;
  gift: number;
  pay_url: string;
  /** the sandbox provider (PAYMENT_PROVIDER=sandbox): no real money moves */
  sandbox?: boolean;
}

/** The referer is followed back only when it is a path of the console. */
const safePath = (p: string | null) => (p && p.startsWith('/') && !p.startsWith('//') ? p : null);

export default function ChargePage() {
  const [params] = useSearchParams();
  const initial = Number(params.get('amount'));
  const referer = safePath(params.get('referer'));
  const [amount, setAmount] = useState<number>(initial >= RECHARGE_MIN ? Math.min(initial, RECHARGE_MAX) : 100);
  const [method, setMethod] = useState<PayMethod | null>(null);
  const [tiers, setTiers] = useState<RechargeDiscount[]>([]);
  const [usage, setUsage] = useState<Usage | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);
  const [paid, setPaid] = useState<OrderRow | null>(null);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  // the header's balance: reloaded once the order is paid (a ref, so the polling does not restart with the header)
  const billing = useBilling();
  const reloadHeader = useRef(billing.reload);
  reloadHeader.current = billing.reload;

  const loadUsage = useCallback(async () => {
    try {
      setUsage((await api.get<{ data: Usage }>('/api/accounts/v2/usage/')).data);
    } catch {
      /* the header shows the balance too */
    }
  }, []);
  useEffect(() => {
    void loadUsage();
    void api.get<{ data: { discount: RechargeDiscount[] } }>('/orders/recharge/discount').then((r) => setTiers(r.data.discount)).catch(() => undefined);
  }, [loadUsage]);

  // follow the order until it is paid
  useEffect(() => {
    if (!pending || paid) return;
    let stop = false;
    const tick = async () => {
      try {
        const o = (await api.get<{ data: OrderRow }>('/api/orders/recharge', { order_no: pending.order_no })).data;
        if (o.status === 'success') {
          setPaid(o);
          await loadUsage();
          await loadSession();
          reloadHeader.current();
          return;
        }
      } catch {
        /* try again */
      }
      if (!stop) timer = setTimeout(tick, 1500);
    };
    let timer = setTimeout(tick, 1500);
    return () => {
      stop = true;
      clearTimeout(timer);
    };
  }, [pending, paid, loadUsage]);

  const valid = Number.isFinite(amount) && amount >= RECHARGE_MIN && amount <= RECHARGE_MAX && hasAtMostTwoDecimals(amount);
  const gift = valid ? rechargeGift(amount, tiers) : 0;

  async function submit() {
    setBusy(true);
    setError('');
    try {
      const r = await api.post<{ data: Pending }>('/api/orders/recharge', { amount });
      setPaid(null);
      setPending(r.data);
    } catch (e) {
      setError(failureText(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="billing-charge">
      <H4>账户充值</H4>
      <Card className="charge-balance">
        <span>当前余额</span>
        <strong className="charge-balance-value" data-testid="charge-balance">
          {usage ? `${formatMoney(usage.money)} 元` : '—'}
        </strong>
        {usage && <span className={Classes.TEXT_MUTED}>（充值余额 {formatMoney(usage.actual_charge)} 元，赠送余额 {formatMoney(usage.gift)} 元）</span>}
      </Card>
      {paid ? (
        <Callout intent="success" title="充值成功" className="charge-done">
          已充值 {formatMoney(paid.amount)} 元{paid.gift > 0 ? `，赠送 ${formatMoney(paid.gift)} 元` : ''}，订单号 {paid.order_no}。
          <div className="charge-actions">
            <Button onClick={() => { setPending(null); setPaid(null); }}>继续充值</Button>
            {referer ? <Link to={referer} className={`${Classes.BUTTON} ${Classes.INTENT_PRIMARY}`}>返回</Link> : <Link to="/billing/history/">查看充值记录</Link>}
          </div>
        </Callout>
      ) : pending ? (
        <Card className="charge-qr">
          <H5>请使用支付宝扫码支付 {formatMoney(pending.amount)} 元</H5>
          {pending.sandbox && (
            <Callout intent="warning" className="charge-sandbox">
              沙箱支付：本环境使用支付宝沙箱，付款不会产生真实扣款；请在已登录本账号的浏览器中打开支付页面。
            </Callout>
          )}
          <QrCode value={pending.pay_url} />
          <p className={Classes.TEXT_MUTED}>
            订单号 {pending.order_no}。支付完成后本页会自动刷新；手机无法扫码时可
            <a href={pending.pay_url} target="_blank" rel="noreferrer" className="charge-pay-link">
              打开支付页面
            </a>
            。
          </p>
          <Button minimal onClick={() => setPending(null)}>
            返回修改金额
          </Button>
        </Card>
      ) : (
        <Card>
          <FormGroup label="充值金额（元）" labelFor="charge-amount" helperText={valid ? undefined : RECHARGE_AMOUNT_TEXT} intent={valid ? 'none' : 'danger'}>
            <NumericInput id="charge-amount" aria-label="充值金额" min={RECHARGE_MIN} max={RECHARGE_MAX} minorStepSize={0.01} stepSize={100} majorStepSize={1000} value={amount} onValueChange={(n) => setAmount(n)} />
          </FormGroup>
          <ButtonGroup className="charge-presets">
            {RECHARGE_PRESETS.map((p) => (
              <Button key={p} active={amount === p} onClick={() => setAmount(p)}>
                {p} 元
              </Button>
            ))}
          </ButtonGroup>
          {tiers.length > 0 && (
            <p className="charge-discount">
              {tiers.map((t) => (
                <Tag key={t.min} minimal intent="success">
                  单笔充值满 {t.min} 元赠送 {t.rate}%
                </Tag>
              ))}
              {gift > 0 && <span> 本次赠送 {formatMoney(gift)} 元</span>}
            </p>
          )}
          <PayMethodChooser supported={['alipay']} value={method} onChange={setMethod} />
          {error && <Callout intent="danger">{error}</Callout>}
          <Button intent="primary" disabled={!valid || busy} loading={busy} onClick={() => void submit()}>
            确认充值
          </Button>
        </Card>
      )}
    </div>
  );
}
