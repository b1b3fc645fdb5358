/**
 * /toolbox/caMessageCheck/?order_id=: the CA message of a paid order — the domains (first line the
 * main_domain, the others multiple_domain) checked by the certificate_apply rules against the order,
 * and an organisation template — sent to the order's agent; then the order's detail.
 */
import { useEffect, useRef, useState } from 'react';
import { Button, Callout, Card, FormGroup, H3, HTMLSelect, Spinner } from '@blueprintjs/core';
import { useNavigate } from 'react-router-dom';
import applySchema from '../../../../schemas/forms/certificate_apply/schema.json';
import applyUi from '../../../../schemas/forms/certificate_apply/ui.json';
import { ruleErrors } from '../../../../schemas/forms/certificate_apply/rules';
import { DeclarationForm } from '../../../../renderers/DeclarationForm';
import { api, ApiFailure, failureText } from '../../api/client';
import { notify } from '../../common/toaster';
import type { FieldError } from '../../../shared/errors';
import { asLineErrors, applyUrl, OrderSummary, useOrder } from './common';
import { TemplatesDialog, type Template } from './TemplatesDialog';

export default function CaMessagePage() {
  const { order, failure, orderId } = useOrder();
  const navigate = useNavigate();
  const [form, setForm] = useState<Record<string, unknown>>({ order_id: orderId, domains: [], template_id: null });
  const [templates, setTemplates] = useState<Template[]>([]);
  const [editing, setEditing] = useState(false);
  const [serverErrors, setServerErrors] = useState<FieldError[]>([]);
  const [message, setMessage] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const formRef = useRef<any>(null);

  const loadTemplates = () => api.get<{ data: Template[] }>('/api/https/certificate/template').then((r) => setTemplates(r.data));
  useEffect(() => {
    void loadTemplates().catch(() => undefined);
  }, []);

  const context = order ? { brand: order.brand, domain_type: order.domain_type, defaultDomain: order.defaultDomain, generalDomain: order.generalDomain } : undefined;
  const touched = Array.isArray(form.domains) && form.domains.some((d) => String(d ?? '').trim());
  const ruleProblems = touched && context ? ruleErrors(form as { domains: string[] }, context) : [];

  async function submit() {
    if (!order || !formRef.current?.validateForm() || ruleProblems.length) return;
    setSaving(true);
    setMessage(null);
    try {
      await api.post(applyUrl(order), { ...form, order_id: order.order_id, domains: (form.domains as string[]).filter((d) => d && d.trim()) });
      notify('提交成功', 'success');
      navigate(`/toolbox/certificateDetail/?order_id=${order.order_id}`);
    } catch (e) {
      setServerErrors(e instanceof ApiFailure ? e.errors : []);
      const em = e instanceof ApiFailure ? (e.data as { error_message?: string[] } | undefined)?.error_message : undefined;
      setMessage(em?.[0] ?? failureText(e));
    } finally {
      setSaving(false);
    }
  }

  return (
    <div className="ca-message-page">
      <div className="page-head">
        <H3>提交 CA 资料</H3>
      </div>
      {failure && <Callout intent="danger">{failure}</Callout>}
      {!order ? (
        !failure && <Spinner />
      ) : order.status !== 'paid' ? (
        <Callout intent="warning">
          该订单当前状态为“{order.status_text}”，不能提交资料。<Button variant="minimal" onClick={() => navigate(`/toolbox/certificateDetail/?order_id=${order.order_id}`)}>查看订单</Button>
        </Callout>
      ) : (
        <Card>
          <OrderSummary order={order} />
          <DeclarationForm formRef={formRef} schema={applySchema} ui={applyUi} formData={form} onChange={(d) => { setForm(d); setServerErrors([]); }} errors={asLineErrors([...ruleProblems, ...serverErrors])} />
          <FormGroup label="证书模板" labelFor="ca-template" helperText="OV、EV 证书需提交公司信息；DV 证书可不选">
            <HTMLSelect
              id="ca-template"
              value={form.template_id ? String(form.template_id) : ''}
              onChange={(e) => setForm((f) => ({ ...f, template_id: e.currentTarget.value ? Number(e.currentTarget.value) : null }))}
              options={[{ value: '', label: '不使用模板' }, ...templates.map((t) => ({ value: String(t.template_id), label: `${t.name}（${t.organization}）` }))]}
            />
            <Button variant="minimal" icon="edit" onClick={() => setEditing(true)} className="manage-templates">
              管理模板
            </Button>
          </FormGroup>
          {message && (
            <Callout intent="danger" role="alert" className="ca-message-failure">
              {message}
            </Callout>
          )}
          <Button intent="primary" onClick={submit} loading={saving} disabled={!touched || ruleProblems.length > 0} className="ca-submit">
            提交
          </Button>
        </Card>
      )}
      {editing && (
        <TemplatesDialog
          onClose={() => {
            setEditing(false);
            void loadTemplates();
          }}
        />
      )}
    </div>
  );
}
