/**
 * /toolbox/certificateDetail/?order_id=: a paid order — its state, the domain-control records to publish
 * (verify message), and what can be done in that state: cancel applying, reapply, deploy to the CDN,
 * download, re-issue, delete.
 */
import { useEffect, useState } from 'react';
import { Alert, Button, ButtonGroup, Callout, Card, H3, H5, HTMLTable, Spinner } from '@blueprintjs/core';
import { useNavigate } from 'react-router-dom';
import { api, failureText } from '../../api/client';
import { notify } from '../../common/toaster';
import { OrderSummary, useOrder, verifyUrl, type Order } from './common';

export default function CertificateDetailPage() {
  const { order, failure, reload } = useOrder();
  const navigate = useNavigate();
  const [message, setMessage] = useState<string | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [dcv, setDcv] = useState<Order['dcv']>([]);

  useEffect(() => {
    if (!order || (order.status !== 'applying' && order.status !== 'verifying')) return;
    api
      .get<{ data: { dcv: Order['dcv'] } }>(verifyUrl(order), { order_id: order.order_id })
      .then((r) => setDcv(r.data.dcv))
      .catch((e) => setMessage(failureText(e)));
  }, [order?.order_id, order?.status]); // eslint-disable-line react-hooks/exhaustive-deps

  async function act(run: () => Promise<unknown>, done: string) {
    setMessage(null);
    try {
      await run();
      notify(done, 'success');
      await reload();
    } catch (e) {
      setMessage(failureText(e));
    }
  }

  if (!order) return <div className="certificate-detail-page">{failure ? <Callout intent="danger">{failure}</Callout> : <Spinner />}</div>;
  const o = order;
  return (
    <div className="certificate-detail-page">
      <div className="page-head">
        <H3>证书订单详情</H3>
        <Button icon="refresh" variant="minimal" onClick={() => void reload()} style={{ marginLeft: 'auto' }} className="order-refresh">
          刷新
        </Button>
        <Button icon="arrow-left" variant="minimal" onClick={() => navigate('/toolbox/ssl/?active=apply')}>
          返回
        </Button>
      </div>
      <Card>
        <OrderSummary order={o} />
        {o.error && (
          <Callout intent="danger" className="order-error">
            {o.error}
          </Callout>
        )}
        {(o.status === 'applying' || o.status === 'verifying') && dcv.length > 0 && (
          <>
            <H5>域名验证</H5>
            <p className="muted">请在域名的 DNS 服务商处添加以下 TXT 记录，证书机构验证通过后签发证书。</p>
            <HTMLTable compact striped className="dcv-table">
              <thead>
                <tr>
                  <th>域名</th>
                  <th>记录类型</th>
                  <th>主机记录</th>
                  <th>记录值</th>
                </tr>
              </thead>
              <tbody>
                {dcv.map((r) => (
                  <tr key={r.domain}>
                    <td>{r.domain}</td>
                    <td>{r.type}</td>
                    <td className="mono">{r.host}</td>
                    <td className="mono">{r.value}</td>
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
          </>
        )}
        {message && (
          <Callout intent="danger" role="alert">
            {message}
          </Callout>
        )}
        <ButtonGroup className="order-actions">
          {o.status === 'unpaid' && <Button intent="primary" text="支付" onClick={() => navigate(`/toolbox/certificatePay/?order_id=${o.order_id}`)} />}
          {o.status === 'paid' && <Button intent="primary" text="提交资料" onClick={() => navigate(`/toolbox/caMessageCheck/?order_id=${o.order_id}`)} />}
          {(o.status === 'applying' || o.status === 'verifying') && (
            <Button text="取消申请" className="order-cancel" onClick={() => act(() => api.get('/api/https/v2/certificate/paid/cancel_apply/', { order_id: o.order_id }), '已取消申请')} />
          )}
          {o.status === 'failed' && <Button intent="primary" text="重新提交" className="order-reapply" onClick={() => act(() => api.post('/api/https/v2/certificate/paid/reapply/', { order_id: o.order_id }), '已重新提交')} />}
          {o.status === 'issued' && (
            <>
              <Button
                intent="primary"
                text="部署到 CDN"
                className="order-deploy"
                onClick={() =>
                  act(async () => {
                    const r = await api.get<{ data: { domains: string[] } }>('/api/https/trustasia/certificate/deploy/', { order_id: o.order_id });
                    if (!r.data.domains.length) throw new Error('none');
                  }, '部署成功').catch(() => undefined)
                }
              />
              <Button text="下载" onClick={() => window.location.assign(`/api/https/trustasia/certificate/download?order_id=${o.order_id}`)} />
              <Button text="重新签发" className="order-reissue" onClick={() => navigate(`/toolbox/reIssued/?order_id=${o.order_id}`)} />
            </>
          )}
          {['unpaid', 'failed', 'issued', 'cancelled'].includes(o.status) && <Button intent="danger" text="删除订单" onClick={() => setDeleting(true)} />}
        </ButtonGroup>
      </Card>
      <Alert
        isOpen={deleting}
        intent="danger"
        cancelButtonText="取消"
        confirmButtonText="删除"
        onCancel={() => setDeleting(false)}
        onConfirm={async () => {
          setDeleting(false);
          try {
            await api.del(`/api/https/trustasia/delete/order/?order_id=${o.order_id}`);
            notify('删除成功!', 'success');
            navigate('/toolbox/ssl/?active=apply');
          } catch (e) {
            setMessage(failureText(e));
          }
        }}
      >
        <p>确定删除订单 {o.order_id} 吗？已签发的证书仍保留在证书列表中。</p>
      </Alert>
    </div>
  );
}
