/**
 * Registration (spec 000 §2.1 /register/, query invite and referer): the register declaration, the
 * image captcha before the SMS code, name, e-mail and mobile checked as they are typed
 * (GET /accounts/register_check/), then /register/success/ with the address and its webmail.
 */
import './entry.css';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { Button, Callout, Card, Checkbox, H3 } from '@blueprintjs/core';
import registerSchema from '../../../schemas/forms/register/schema.json';
import registerUi from '../../../schemas/forms/register/ui.json';
import { DeclarationForm } from '../../../renderers/DeclarationForm';
import { api, ApiFailure, failureText } from '../api/client';
import { errorText, type FieldError } from '../../shared/errors';
import { LOGIN_CODE_RESEND_SECONDS, SEARCH_DEBOUNCE_MS } from '../../shared/services';
import { CaptchaImage, useCaptcha, useCountdown } from './Captcha';

interface RegisterForm {
  username?: string;
  password?: string;
  email?: string;
  mobile?: string;
  captcha?: string;
  code?: string;
  invite?: string;
}

/**
 * The page's referer query (spec 000 §2.1), sent with the registration when it is one the declaration
 * accepts (a console path or a URL, at most 500 characters); anything else is dropped, not shown.
 */
function refererOf(value: string | null): string | undefined {
  if (!value || value.length > P.referer.maxLength || !new RegExp(P.referer.pattern).test(value)) return undefined;
  return value;
}

const P = registerSchema.properties;
export const AGREE_TEXT = '请阅读并同意服务协议';
const CHECKS: { field: 'username' | 'email' | 'mobile'; text: string; valid(v: string): boolean }[] = [
  { field: 'username', text: errorText(21100), valid: (v) => v.length >= 5 && v.length <= 20 && new RegExp(P.username.pattern).test(v) },
  { field: 'email', text: errorText(21115), valid: (v) => /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(v) },
  { field: 'mobile', text: errorText(21116), valid: (v) => new RegExp(P.mobile.pattern).test(v) },
];

export default function RegisterPage() {
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const [referer] = useState(() => refererOf(search.get('referer')));
  const [form, setForm] = useState<RegisterForm>(() => ({ invite: search.get('invite') ?? undefined }));
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [taken, setTaken] = useState<FieldError[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const [hint, setHint] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [agreed, setAgreed] = useState(false);
  const { captcha, refresh } = useCaptcha();
  const countdown = useCountdown();
  const formRef = useRef<any>(null);

  // the name, address and number are checked against every account as they are typed
  const keys = CHECKS.map((c) => form[c.field] ?? '').join('\n');
  useEffect(() => {
    let live = true;
    const t = setTimeout(async () => {
      const found: FieldError[] = [];
      for (const c of CHECKS) {
        const v = (form[c.field] ?? '').trim();
        if (!c.valid(v)) continue;
        try {
          const r = await api.get<{ result: boolean }>('/accounts/register_check/', { check_type: c.field, check_value: v });
          if (r.result) found.push({ path: `/${c.field}`, message: c.text });
        } catch {
          /* the server checks again on submit */
        }
      }
      if (live) setTaken(found);
    }, SEARCH_DEBOUNCE_MS);
    return () => {
      live = false;
      clearTimeout(t);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [keys]);

  async function sendCode() {
    setFailure(null);
    const mobile = form.mobile ?? '';
    const local: FieldError[] = [];
    if (!new RegExp(P.mobile.pattern).test(mobile)) local.push({ path: '/mobile', message: P.mobile.errorMessage.pattern });
    if (!new RegExp(P.captcha.pattern).test(form.captcha ?? '')) local.push({ path: '/captcha', message: P.captcha.errorMessage.pattern });
    setErrors(local);
    if (local.length || !captcha) return;
    setBusy(true);
    try {
      const r = await api.put<{ mobile: string }>('/accounts/verify_mobile/code/', { mobile, captcha_id: captcha.captcha_id, captcha: form.captcha });
      countdown.start(LOGIN_CODE_RESEND_SECONDS);
      setHint(`验证码已发送至 ${r.mobile}，${errorText(21109)}`);
    } catch (e) {
      setFailure(failureText(e));
      if (e instanceof ApiFailure) setErrors(e.errors);
    } finally {
      setBusy(false);
      setForm((f) => ({ ...f, captcha: undefined }));
      void refresh();
    }
  }

  async function submit() {
    setFailure(null);
    if (!formRef.current?.validateForm()) return;
    if (!agreed) {
      setFailure(AGREE_TEXT);
      return;
    }
    if (taken.length) return;
    setBusy(true);
    try {
      const { captcha: _c, ...body } = form;
      const r = await api.post<{ data: { email: string; maiLoginUrl: string } }>('/accounts/register/', { ...body, invite: form.invite || undefined, referer });
      navigate(`/register/success/?${new URLSearchParams({ email: r.data.email, maiLoginUrl: r.data.maiLoginUrl })}`);
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
        <H3>注册云控制台账号</H3>
        {failure && (
          <Callout intent="danger" className="login-failure" role="alert">
            {failure}
          </Callout>
        )}
        <DeclarationForm
          schema={registerSchema}
          ui={registerUi}
          formData={form}
          formRef={formRef}
          errors={[...errors, ...taken]}
          onChange={(next: RegisterForm) => {
            setForm(next);
            if (errors.length) setErrors([]);
          }}
        />
        <CaptchaImage captcha={captcha} onRefresh={() => void refresh()} />
        <Checkbox checked={agreed} onChange={() => setAgreed(!agreed)} label="我已阅读并同意《服务协议》" className="register-agree" />
        <div className="entry-actions">
          {countdown.left > 0 ? (
            <Button disabled className="code-countdown">
              {countdown.left} 秒后重新发送
            </Button>
          ) : (
            <Button onClick={sendCode} disabled={busy} className="send-code">
              获取短信验证码
            </Button>
          )}
          {hint && <span className="entry-hint">{hint}</span>}
        </div>
        <Button intent="primary" large fill loading={busy} onClick={submit} className="register-submit">
          注册
        </Button>
        <div className="login-links">
          <span>已有账号？</span>
          <Link to="/login/">立即登录</Link>
        </div>
      </Card>
    </main>
  );
}
