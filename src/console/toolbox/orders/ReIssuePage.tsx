/**
 * /toolbox/reIssued/?order_id= (spec 002 §2, §4, §5): re-issue an issued order with new domains. Without
 * an order it returns to the ssl apply tab. Step 1 is the certificate_reissue declaration (one domain a
 * line, checked by its rules against the order: 申购域名填写重复, 您填写的域名数量与购买的域名数量不符,
 * 个数超出限制, …) with a view-CA-message modal; on success step 2, and back to the apply tab with
 * children=applyResult. A refusal shows error_message[0] when given, otherwise the dictionary's text.
 */
import { useRef, useState } from 'react';
import { Button, Callout, Card, Dialog, DialogBody, DialogFooter, H3, HTMLTable, Spinner, Tag } from '@blueprintjs/core';
import { Navigate, useNavigate } from 'react-router-dom';
import reissueSchema from '../../../../schemas/forms/certificate_reissue/schema.json';
import reissueUi from '../../../../schemas/forms/certificate_reissue/ui.json';
import { ruleErrors } from '../../../../schemas/forms/certificate_reissue/rules';
import { DeclarationForm } from '../../../../renderers/DeclarationForm';
import { api, ApiFailure, failureText } from '../../api/client';
import { orderLineLimit } from '../../../shared/certificates';
import type { FieldError } from '../../../shared/errors';
import { asLineErrors, OrderSummary, useOrder, type Order } from './common';

export default function ReIssuePage() {
  const { orderId, order, failure } = useOrder();
  const navigate = useNavigate();
  const [step, setStep] = useState<1 | 2>(1);
  const [form, setForm] = useState<Record<string, unknown>>({ order_id: orderId, domains: [] });
  const [serverErrors, setServerErrors] = useState<FieldError[]>([]);
  const [message, setMessage] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [viewing, setViewing] = useState(false);
  const [result, setResult] = useState<Order | null>(null);
  const formRef = useRef<any>(null);

  if (!orderId) return <Navigate to="/toolbox/ssl/?active=apply" replace />;
  const context = order ? { brand: order.brand, domain_type: order.domain_type, defaultDomain: order.defaultDomain, generalDomain: order.generalDomain } : undefined;
  const problems = context ? ruleErrors(form as { domains: string[] }, context) : [];

  async function submit() {
    if (!order || !formRef.current?.validateForm() || problems.length) return;
    setSaving(true);
    setMessage(null);
    try {
      const url = order.certificate_agent === 'trustasia' ? '/api/https/trustasia/certificate/paid/replace' : '/api/https/v2/certificate/paid/replace';
      const res = await api.post<{ data: Order }>(url, { order_id: order.order_id, domains: (form.domains as string[]).filter((d) => d && d.trim()) });
      setResult(res.data);
      setStep(2);
    } catch (e) {
      setServerErrors(e instanceof ApiFailure ? e.errors : []);
      const em = e instanceof ApiFailure ? (e.data as { error_message?: string[] } | undefined)?.error_message : undefined;
      setMessage(em?.[0] ?? failureText(e));
    } finally {
      setSaving(false);
    }
  }

  return (
    <div className="reissue-page">
      <div className="page-head">
        <H3>重新签发</H3>
        <Tag minimal intent={step === 1 ? 'primary' : 'none'} style={{ marginLeft: 16 }}>1 填写域名</Tag>
        <Tag minimal intent={step === 2 ? 'primary' : 'none'} style={{ marginLeft: 8 }}>2 提交成功</Tag>
      </div>
      {failure && <Callout intent="danger">{failure}</Callout>}
      {!order ? (
        !failure && <Spinner />
      ) : step === 1 ? (
        <Card>
          <OrderSummary order={order} />
          <p className="muted">
            最多填写 {orderLineLimit(context!)} 个域名{order.generalDomain > 0 ? '，可填写通配符域名' : '，该订单不支持通配符域名'}。
            <Button variant="minimal" small text="查看 CA 资料" onClick={() => setViewing(true)} className="view-ca-message" />
          </p>
          <DeclarationForm formRef={formRef} schema={reissueSchema} ui={reissueUi} formData={form} onChange={(d) => { setForm(d); setServerErrors([]); }} errors={asLineErrors([...problems, ...serverErrors])} />
          {message && (
            <Callout intent="danger" role="alert" className="reissue-failure">
              {message}
            </Callout>
          )}
          <Button onClick={() => navigate('/toolbox/ssl/?active=apply')}>返回</Button>
          <Button intent="primary" onClick={submit} loading={saving} disabled={problems.length > 0 || order.status !== 'issued'} className="reissue-submit" style={{ marginLeft: 8 }}>
            提交
          </Button>
        </Card>
      ) : (
        <Card>
          <Callout intent="success" title="重新签发已提交" className="reissue-done">
            新订单 {result?.order_id}：{result?.domains.join('，')}。请按订单详情中的记录完成域名验证。
          </Callout>
          <Button intent="primary" onClick={() => navigate('/toolbox/ssl/?active=apply&children=applyResult')} className="reissue-back">
            返回证书申请
          </Button>
          <Button onClick={() => navigate(`/toolbox/certificateDetail/?order_id=${result?.order_id}`)} style={{ marginLeft: 8 }}>
            查看新订单
          </Button>
        </Card>
      )}
      <Dialog isOpen={viewing} title="CA 资料" onClose={() => setViewing(false)} className="setting-dialog">
        <DialogBody>
          <HTMLTable compact className="cert-detail">
            <tbody>
              <tr><th>主域名</th><td>{order?.ca_message?.main_domain ?? '-'}</td></tr>
              <tr><th>附加域名</th><td>{order?.ca_message?.multiple_domain || '-'}</td></tr>
              <tr><th>增加的域名</th><td>{order?.ca_message?.add_domains || '-'}</td></tr>
            </tbody>
          </HTMLTable>
        </DialogBody>
        <DialogFooter actions={<Button onClick={() => setViewing(false)}>关闭</Button>} />
      </Dialog>
    </div>
  );
}
