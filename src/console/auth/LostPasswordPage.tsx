/**
 * Password recovery (spec 000 §2.1 /lostpass/): the lost_password declaration in two steps — the
 * account, the way (SMS to the bound mobile or e-mail) and the image captcha send a code; the code
 * and a new password reset it, and every sign-in of the account ends.
 */
import './entry.css';
import { useMemo, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { Button, Callout, Card, H3 } from '@blueprintjs/core';
import lostSchema from '../../../schemas/forms/lost_password/schema.json';
import lostUi from '../../../schemas/forms/lost_password/ui.json';
import { DeclarationForm } from '../../../renderers/DeclarationForm';
import { api, ApiFailure, failureText } from '../api/client';
import type { FieldError } from '../../shared/errors';
import { LOGIN_CODE_RESEND_SECONDS } from '../../shared/services';
import { CaptchaImage, useCaptcha, useCountdown } from './Captcha';

interface LostForm {
  account?: string;
  via?: 'sms' | 'email';
  captcha?: string;
  code?: string;
  password?: string;
}

const P = lostSchema.properties;
export const RESET_DONE_TEXT = '密码重置成功，请使用新密码登录';

export default function LostPasswordPage() {
  const [form, setForm] = useState<LostForm>({ via: 'sms' });
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);
  const { captcha, refresh } = useCaptcha();
  const countdown = useCountdown();
  const formRef = useRef<any>(null);

  // step 1 shows the account, the way and the captcha; step 2 the code and the new password
  const ui = useMemo(() => {
    const hidden = { 'ui:widget': 'hidden' };
    return sentTo
      ? { ...lostUi, account: { ...lostUi.account, 'ui:readonly': true }, via: { ...lostUi.via, 'ui:disabled': true }, captcha: hidden }
      : { ...lostUi, code: hidden, password: hidden };
  }, [sentTo]);

  async function sendCode() {
    setFailure(null);
    const local: FieldError[] = [];
    if (!(form.account ?? '').trim()) local.push({ path: '/account', message: P.account.errorMessage.pattern });
    if (!new RegExp(P.captcha.pattern).test(form.captcha ?? '')) local.push({ path: '/captcha', message: P.captcha.errorMessage.pattern });
    setErrors(local);
    if (local.length || !captcha) return;
    setBusy(true);
    try {
      const r = await api.put<{ mobile?: string; email?: string }>('/accounts/resetpwd/code/', { account: form.account!.trim(), via: form.via ?? 'sms', captcha_id: captcha.captcha_id, captcha: form.captcha });
      setSentTo(r.mobile ?? r.email ?? '');
      countdown.start(LOGIN_CODE_RESEND_SECONDS);
    } catch (e) {
      setFailure(failureText(e));
      if (e instanceof ApiFailure) setErrors(e.errors);
    } finally {
      setBusy(false);
      setForm((f) => ({ ...f, captcha: undefined }));
      void refresh();
    }
  }

  async function reset() {
    setFailure(null);
    const local: FieldError[] = [];
    if (!new RegExp(P.code.pattern).test(form.code ?? '')) local.push({ path: '/code', message: P.code.errorMessage.pattern });
    if (!form.password) local.push({ path: '/password', message: P.password.errorMessage.type });
    if (!formRef.current?.validateForm() || local.length) {
      setErrors(local);
      return;
    }
    setBusy(true);
    try {
      await api.post('/accounts/resetpwd/', { account: form.account!.trim(), via: form.via ?? 'sms', code: form.code, password: form.password });
      setDone(true);
    } catch (e) {
      setFailure(failureText(e));
      if (e instanceof ApiFailure) setErrors(e.errors);
    } finally {
      setBusy(false);
    }
  }

  return (
    <main className="login-page entry-page">
      <Card className="login-card entry-card" elevation={2}>
        <H3>找回密码</H3>
        {failure && (
          <Callout intent="danger" className="login-failure" role="alert">
            {failure}
          </Callout>
        )}
        {done ? (
          <Callout intent="success" className="reset-done" role="status">
            {RESET_DONE_TEXT}
          </Callout>
        ) : (
          <>
            <DeclarationForm
              schema={lostSchema}
              ui={ui}
              formData={form}
              formRef={formRef}
              errors={errors}
              onChange={(next: LostForm) => {
                setForm(next);
                if (errors.length) setErrors([]);
              }}
            />
            {!sentTo ? (
              <>
                <CaptchaImage captcha={captcha} onRefresh={() => void refresh()} />
                <Button intent="primary" large fill loading={busy} onClick={sendCode} className="send-code">
                  获取验证码
                </Button>
              </>
            ) : (
              <>
                <div className="entry-actions">
                  <span className="entry-hint">验证码已发送至 {sentTo}</span>
                  {countdown.left > 0 ? (
                    <Button disabled className="code-countdown">
                      {countdown.left} 秒后重新发送
                    </Button>
                  ) : (
                    <Button onClick={() => setSentTo(null)}>重新获取</Button>
                  )}
                </div>
                <Button intent="primary" large fill loading={busy} onClick={reset} className="reset-submit">
                  重置密码
                </Button>
              </>
            )}
          </>
        )}
        <div className="login-links">
          <Link to="/register/">立即注册</Link>
          <Link to="/login/">返回登录</Link>
        </div>
      </Card>
    </main>
  );
}
