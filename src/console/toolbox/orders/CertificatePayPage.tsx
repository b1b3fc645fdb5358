/**
 * /toolbox/certificatePay/?order_id=: the order and the pay confirmation modal (balance, SMS code with
 * the 60 s resend countdown); success closes the modal and goes on to the CA message. A short balance
 * shows the top-up notice (222xx); other failures show the message by error_code.
 */
import { useState } from 'react';
import { Button, Callout, Card, Dialog, DialogBody, DialogFooter, H3, Spinner } from '@blueprintjs/core';
import { useNavigate } from 'react-router-dom';
import { api, failureText } from '../../api/client';
import { notify } from '../../common/toaster';
import { PayCodeInput, TopUpNotice, topUpOf, type TopUp } from '../../billing/charge/PayMethods';
import { OrderSummary, useOrder } from './common';
import { formatMoney } from '../../../shared/format';

export default function CertificatePayPage() {
  const { order, failure, reload } = useOrder();
  const navigate = useNavigate();
  const [paying, setPaying] = useState(false);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [topUp, setTopUp] = useState<TopUp | null>(null);
  const [saving, setSaving] = useState(false);

  async function pay() {
    if (!order) return;
    setSaving(true);
    setError(null);
    setTopUp(null);
    try {
      await api.post('/api/https/v2/certificate/order/pay/', { order_id: order.order_id, code });
      setPaying(false);
      notify('支付成功', 'success');
      navigate(`/toolbox/caMessageCheck/?order_id=${order.order_id}`);
    } catch (e) {
      const t = topUpOf(e);
      if (t) setTopUp(t);
      else setError(failureText(e));
      await reload();
    } finally {
      setSaving(false);
    }
  }

  return (
    <div className="certificate-pay-page">
      <div className="page-head">
        <H3>支付订单</H3>
      </div>
      {failure && <Callout intent="danger">{failure}</Callout>}
      {!order ? (
        !failure && <Spinner />
      ) : (
        <Card>
          <OrderSummary order={order} />
          {order.status === 'unpaid' ? (
            <Button intent="primary" className="order-pay" onClick={() => setPaying(true)}>
              余额支付 {formatMoney(order.price)} 元
            </Button>
          ) : (
            <Button onClick={() => navigate(`/toolbox/certificateDetail/?order_id=${order.order_id}`)}>查看订单</Button>
          )}
        </Card>
      )}
      <Dialog isOpen={paying} title="支付确认" onClose={() => setPaying(false)} className="setting-dialog pay-dialog" canOutsideClickClose={false}>
        <DialogBody>
          <p>
            将从账户余额中扣除 <strong>{order ? formatMoney(order.price) : '-'}</strong> 元。
          </p>
          <PayCodeInput value={code} onChange={setCode} />
          {topUp && <TopUpNotice topUp={topUp} />}
          {error && (
            <Callout intent="danger" role="alert">
              {error}
            </Callout>
          )}
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button onClick={() => setPaying(false)}>取消</Button>
              <Button intent="primary" onClick={pay} loading={saving} disabled={code.length !== 6} className="pay-confirm">
                确认支付
              </Button>
            </>
          }
        />
      </Dialog>
    </div>
  );
}
