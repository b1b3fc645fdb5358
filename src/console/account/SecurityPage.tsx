/**
 * /account/security/ (spec 000 §2.4, §2.7): the login password, the mobile and the e-mail with their
 * verification, and the login-verification panel — its on/off label, description and switch, the
 * confirmation modal, and the modal that asks for a verified mobile and e-mail first.
 */
import { useCallback, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Alert, Button, Callout, Card, Dialog, DialogBody, DialogFooter, H3, H5, Spinner, Switch, Tag } from '@blueprintjs/core';
import passwordSchema from '../../../schemas/forms/change_password/schema.json';
import passwordUi from '../../../schemas/forms/change_password/ui.json';
import mobileSchema from '../../../schemas/forms/bind_mobile/schema.json';
import mobileUi from '../../../schemas/forms/bind_mobile/ui.json';
import emailSchema from '../../../schemas/forms/bind_email/schema.json';
import emailUi from '../../../schemas/forms/bind_email/ui.json';
import { api, failureText } from '../api/client';
import { notify } from '../common/toaster';
import { errorText } from '../../shared/errors';
import { LOGIN_CODE_RESEND_SECONDS } from '../../shared/services';
import { TWO_STEP_TEXTS } from '../../shared/security';
import { FormDialog } from '../common/FormDialog';

interface Security {
  username: string;
  mobile: string | null;
  mobile_verified: boolean;
  email: string | null;
  email_verified: boolean;
  two_step: boolean;
}

/** The activation link's page in the console (the callback of PUT /api/accounts/authentication/email/). */
export const ACTIVATION_CALLBACK = '/register/activate/?token={token}&account_id={account_id}';

function Verified({ ok }: { ok: boolean }) {
  return ok ? (
    <Tag intent="success" minimal>
      已验证
    </Tag>
  ) : (
    <Tag intent="warning" minimal>
      未验证
    </Tag>
  );
}

export default function SecurityPage() {
  const [search] = useSearchParams();
  const [sec, setSec] = useState<Security | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [dialog, setDialog] = useState<'password' | 'mobile' | 'email' | null>(search.has('verifiedMobile') ? 'mobile' : null);
  const [form, setForm] = useState<Record<string, any>>({});
  const [confirming, setConfirming] = useState(false);
  const [switchError, setSwitchError] = useState<string | null>(null);
  const [needContacts, setNeedContacts] = useState(false);
  const [busy, setBusy] = useState(false);
  const [left, setLeft] = useState(0);

  const load = useCallback(async () => {
    try {
      setSec((await api.get<{ data: Security }>('/api/accounts/security/')).data);
    } catch (e) {
      setFailure(failureText(e));
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);
  useEffect(() => {
    if (left <= 0) return;
    const t = setTimeout(() => setLeft((c) => c - 1), 1000);
    return () => clearTimeout(t);
  }, [left]);

  function open(which: 'password' | 'mobile' | 'email') {
    setForm({});
    setDialog(which);
  }

  function toggleTwoStep() {
    if (!sec) return;
    if (!sec.two_step && !(sec.mobile_verified && sec.email_verified)) {
      setNeedContacts(true);
      return;
    }
    setSwitchError(null);
    setConfirming(true);
  }

  async function confirmTwoStep() {
    if (!sec) return;
    setBusy(true);
    try {
      await api.post('/api/accounts/two_step_verify/status', { status: sec.two_step ? 'disable' : 'enable' });
      setConfirming(false);
      await load();
    } catch (e) {
      setSwitchError(failureText(e) || errorText(21000));
    } finally {
      setBusy(false);
    }
  }

  async function sendMobileCode() {
    try {
      await api.put('/api/accounts/authentication/mobile/', { mobile: form.mobile });
      setLeft(LOGIN_CODE_RESEND_SECONDS);
      notify(errorText(21109), 'primary');
    } catch (e) {
      notify(failureText(e), 'danger');
    }
  }

  async function resendEmail() {
    try {
      await api.put('/api/accounts/authentication/email/', { callback: ACTIVATION_CALLBACK });
      notify(`验证邮件已发送至 ${sec?.email}`, 'success');
    } catch (e) {
      notify(failureText(e), 'danger');
    }
  }

  if (failure) return <Callout intent="danger">{failure}</Callout>;
  if (!sec) return <Spinner aria-label="加载中" />;

  return (
    <div className="security-page">
      <H3>安全设置</H3>
      <Card className="security-card">
        <div className="security-row">
          <H5>登录密码</H5>
          <span className="security-value">定期更换密码可以让账号更安全</span>
          <Button size="small" onClick={() => open('password')} className="security-password">
            修改
          </Button>
        </div>
        <div className="security-row">
          <H5>手机号</H5>
          <span className="security-value">
            {sec.mobile ?? '未绑定'} {sec.mobile && <Verified ok={sec.mobile_verified} />}
          </span>
          <Button size="small" onClick={() => open('mobile')} className="security-mobile">
            {sec.mobile ? '修改' : '绑定'}
          </Button>
        </div>
        <div className="security-row">
          <H5>邮箱</H5>
          <span className="security-value">
            {sec.email ?? '未绑定'} {sec.email && <Verified ok={sec.email_verified} />}
          </span>
          <span className="security-buttons">
            {sec.email && !sec.email_verified && (
              <Button size="small" variant="minimal" intent="primary" onClick={resendEmail}>
                发送验证邮件
              </Button>
            )}
            <Button size="small" onClick={() => open('email')} className="security-email">
              {sec.email ? '修改' : '绑定'}
            </Button>
          </span>
        </div>
      </Card>

      <Card className="security-card two-step-panel">
        <div className="two-step-head">
          <H5>
            {TWO_STEP_TEXTS.title}
            <Tag className="two-step-state" intent={sec.two_step ? 'success' : 'none'} minimal>
              {sec.two_step ? TWO_STEP_TEXTS.on : TWO_STEP_TEXTS.off}
            </Tag>
          </H5>
          <Switch checked={sec.two_step} onChange={toggleTwoStep} large aria-label={TWO_STEP_TEXTS.title} className="two-step-switch" />
        </div>
        <p className="two-step-description">{TWO_STEP_TEXTS.description}</p>
      </Card>

      <Dialog isOpen={confirming} title={TWO_STEP_TEXTS.title} onClose={() => setConfirming(false)} className="two-step-confirm">
        <DialogBody>
          {switchError && (
            <Callout intent="danger" role="alert" className="two-step-error">
              {switchError}
            </Callout>
          )}
          <p>{sec.two_step ? TWO_STEP_TEXTS.confirmOff : TWO_STEP_TEXTS.confirmOn}</p>
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button onClick={() => setConfirming(false)}>取消</Button>
              <Button intent="primary" loading={busy} onClick={confirmTwoStep}>
                确定
              </Button>
            </>
          }
        />
      </Dialog>

      <Alert isOpen={needContacts} confirmButtonText="确定" onConfirm={() => setNeedContacts(false)} icon="warning-sign" intent="warning" className="two-step-need">
        <p>{TWO_STEP_TEXTS.needContacts}</p>
      </Alert>

      {dialog === 'password' && (
        <FormDialog<Record<string, any>>
          title="修改登录密码"
          schema={passwordSchema}
          ui={passwordUi}
          value={form}
          onChange={setForm}
          onClose={() => setDialog(null)}
          onSubmit={async (v) => {
            await api.post('/api/accounts/password/', v);
            notify('密码修改成功', 'success');
            setDialog(null);
          }}
        />
      )}
      {dialog === 'mobile' && (
        <FormDialog<Record<string, any>>
          title={sec.mobile ? '修改手机号' : '绑定手机号'}
          schema={mobileSchema}
          ui={mobileUi}
          value={form}
          onChange={setForm}
          onClose={() => setDialog(null)}
          onSubmit={async (v) => {
            await api.post('/api/accounts/mobile/', v);
            notify('手机号修改成功', 'success');
            setDialog(null);
            await load();
          }}
        >
          {left > 0 ? (
            <Button disabled>{left} 秒后重新发送</Button>
          ) : (
            <Button onClick={sendMobileCode} disabled={!new RegExp(mobileSchema.properties.mobile.pattern).test(form.mobile ?? '')} className="send-code">
              获取验证码
            </Button>
          )}
        </FormDialog>
      )}
      {dialog === 'email' && (
        <FormDialog<Record<string, any>>
          title={sec.email ? '修改邮箱' : '绑定邮箱'}
          schema={emailSchema}
          ui={emailUi}
          value={form}
          onChange={setForm}
          onClose={() => setDialog(null)}
          onSubmit={async (v) => {
            await api.post('/api/accounts/email/', { ...v, callback: ACTIVATION_CALLBACK });
            notify(`验证邮件已发送至 ${v.email}，请点击邮件中的链接完成验证`, 'success');
            setDialog(null);
            await load();
          }}
        />
      )}
    </div>
  );
}
