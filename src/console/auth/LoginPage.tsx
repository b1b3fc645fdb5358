/**
 * The login page (spec 000 §2.2, §4, §5): account, password and, when two-step verification
 * applies, an SMS code with the masked phone, a 60 s countdown and resend.
 * The messages come from the sign-in declaration (schemas/forms/signin), which the server validates with too.
 * Past the failure limits the server asks for the image captcha (21107 with data.captcha_required,
 * docs/security.md): the page then shows it, and a new one after every try (a captcha is good once).
 */
import { stored } from '../storage';
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { Button, Callout, Card, FormGroup, H3, InputGroup } from '@blueprintjs/core';
import signinSchema from '../../../schemas/forms/signin/schema.json';
import { api, ApiFailure } from '../api/client';
import { errorText, LOGIN_EXCEPTION_TEXT, LOGIN_UNKNOWN_TEXT } from '../../shared/errors';
import { NO_RETURN_PATHS } from '../../shared/account';
import { LOGIN_CODE_RESEND_SECONDS } from '../../shared/services';
import { loadSession } from '../session';
import { CaptchaImage, type CaptchaState } from './Captcha';

const P = signinSchema.properties;
const MSG = {
  username: P.username.errorMessage.pattern,
  password: P.password.errorMessage.minLength,
  codeRequired: errorText(21109),
  codePattern: P.code.errorMessage.pattern,
  captchaRequired: P.captcha.errorMessage.type,
  captchaPattern: P.captcha.errorMessage.pattern,
};
const CAPTCHA_PATTERN = new RegExp(P.captcha.pattern);
const CODE_PATTERN = new RegExp(P.code.pattern);

/** Where the login route goes once signed in: from, else previousPath, else the dashboard (spec 000 §2.2). */
export const afterSignIn: { target: string | null } = { target: null };

interface Errors {
  username?: string;
  password?: string;
  code?: string;
  captcha?: string;
}

export default function LoginPage() {
  const [search] = useSearchParams();
  const [username, setUsername] = useState(() => search.get('username') ?? '');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [twoStep, setTwoStep] = useState<{ mobile: string } | null>(null);
  const [countdown, setCountdown] = useState(0);
  const [errors, setErrors] = useState<Errors>({});
  // after a forced sign-out (a blocked user, spec 000 §4) the reason shows once
  const [failure, setFailure] = useState<string | null>(() => {
    const notice = stored.signOutNotice.get();
    return notice ? errorText(notice) : null;
  });
  useEffect(() => {
    stored.signOutNotice.clear();
  }, []);
  const [hint, setHint] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // the image captcha, once the server asked for it
  const [captcha, setCaptcha] = useState<CaptchaState | null>(null);
  const [captchaNeeded, setCaptchaNeeded] = useState(false);
  const [captchaText, setCaptchaText] = useState('');

  async function refreshCaptcha() {
    setCaptchaText('');
    try {
      setCaptcha((await api.post<{ data: CaptchaState }>('/accounts/manmachine/next', {})).data);
    } catch {
      setCaptcha(null);
    }
  }
  const captchaFields = () => (captchaNeeded && captcha ? { captcha_id: captcha.captcha_id, captcha: captchaText } : {});

  useEffect(() => {
    if (countdown <= 0) return;
    const t = setTimeout(() => setCountdown((c) => c - 1), 1000);
    return () => clearTimeout(t);
  }, [countdown]);

  function changeUsername(v: string) {
    setUsername(v);
    // a new account name starts the two-step flow again
    if (twoStep) {
      setTwoStep(null);
      setCode('');
      setCountdown(0);
      setHint(null);
    }
  }

  function check(withCode: boolean): boolean {
    const e: Errors = {};
    if (!username.trim()) e.username = MSG.username;
    if (!password) e.password = MSG.password;
    if (withCode) {
      if (!code) e.code = MSG.codeRequired;
      else if (!CODE_PATTERN.test(code) || code.length !== 6) e.code = MSG.codePattern;
    }
    if (captchaNeeded) {
      if (!captchaText) e.captcha = MSG.captchaRequired;
      else if (!CAPTCHA_PATTERN.test(captchaText)) e.captcha = MSG.captchaPattern;
    }
    setErrors(e);
    return Object.keys(e).length === 0;
  }

  function showFailure(e: unknown) {
    if (e instanceof ApiFailure && (e.data as { captcha_required?: boolean } | undefined)?.captcha_required) setCaptchaNeeded(true);
    // the request itself failed (no answer) or threw: the login page's own exception text (spec 000 §8)
    if (!(e instanceof ApiFailure) || e.status === 0) setFailure(LOGIN_EXCEPTION_TEXT);
    else if (e.status >= 500) setFailure(e.message);
    else setFailure(e.code ? errorText(e.code) : LOGIN_UNKNOWN_TEXT);
  }

  async function sendCode() {
    const res = await api.put<{ mobile: string }>('/accounts/two_step_verify/code', { username: username.trim(), password, verify_type: 'sms', ...captchaFields() });
    setTwoStep({ mobile: res.mobile });
    setCountdown(LOGIN_CODE_RESEND_SECONDS);
    setHint(MSG.codeRequired);
    // the captcha was spent on the code request; the sign-in that follows may need a new one
    if (captchaNeeded) void refreshCaptcha();
  }

  async function resend() {
    setFailure(null);
    setBusy(true);
    try {
      await sendCode();
    } catch (e) {
      showFailure(e);
      if (captchaNeeded) void refreshCaptcha();
    } finally {
      setBusy(false);
    }
  }

  async function submit(ev: FormEvent) {
    ev.preventDefault();
    setFailure(null);
    if (!check(Boolean(twoStep))) return;
    setBusy(true);
    try {
      const name = username.trim();
      if (!twoStep) {
        const status = await api.get<{ result: boolean }>('/accounts/two_step_verify/status/', { username: name });
        if (status.result) {
          await sendCode();
          return;
        }
      }
      const query = Object.fromEntries(search.entries());
      // the query's parameters go along (spec 000 §3 "Login payload"), but the typed fields win: a
      // ?username= in the address only fills the field in, it never replaces what the user typed
      const res = await api.post<{ from?: string }>(`/accounts/signin/${search.size ? `?${search.toString()}` : ''}`, {
        ...query,
        username: name,
        password,
        ...(twoStep ? { code } : {}),
        ...captchaFields(),
      });
      stored.notCertified.set();
      const previous = stored.previousPath.take();
      afterSignIn.target = res.from ?? (previous && !NO_RETURN_PATHS.includes(previous.split('?')[0]) ? previous : '/dashboard/');
      // once the session is known, the login route sends the user to afterSignIn.target
      await loadSession();
    } catch (e) {
      showFailure(e);
      if (captchaNeeded || (e instanceof ApiFailure && e.code === 21107)) void refreshCaptcha();
    } finally {
      setBusy(false);
    }
  }

  return (
    <main className="login-page">
      <Card className="login-card" elevation={2}>
        <H3>登录云控制台</H3>
        <form onSubmit={submit} noValidate>
          {failure && (
            <Callout intent="danger" className="login-failure" role="alert">
              {failure}
            </Callout>
          )}
          <FormGroup label="账号" labelFor="login-username" helperText={errors.username} intent={errors.username ? 'danger' : 'none'}>
            <InputGroup
              id="login-username"
              name="username"
              placeholder="账号名 / 邮箱 / 手机号"
              autoComplete="username"
              value={username}
              intent={errors.username ? 'danger' : 'none'}
              onChange={(e) => changeUsername(e.target.value)}
              large
            />
          </FormGroup>
          <FormGroup label="密码" labelFor="login-password" helperText={errors.password} intent={errors.password ? 'danger' : 'none'}>
            <InputGroup
              id="login-password"
              name="password"
              type="password"
              placeholder="请输入密码"
              autoComplete="current-password"
              value={password}
              intent={errors.password ? 'danger' : 'none'}
              onChange={(e) => setPassword(e.target.value)}
              large
            />
          </FormGroup>
          {twoStep && (
            <FormGroup
              label="短信验证码"
              labelFor="login-code"
              helperText={errors.code ?? `验证码已发送至 ${twoStep.mobile}${hint ? `，${hint}` : ''}`}
              intent={errors.code ? 'danger' : 'none'}
            >
              <div className="login-code-row">
                <InputGroup
                  id="login-code"
                  name="code"
                  inputMode="numeric"
                  maxLength={6}
                  placeholder="6 位数字验证码"
                  autoComplete="one-time-code"
                  value={code}
                  intent={errors.code ? 'danger' : 'none'}
                  onChange={(e) => setCode(e.target.value.trim())}
                  large
                />
                {countdown > 0 ? (
                  <Button large disabled className="login-countdown">
                    {countdown} 秒后重新发送
                  </Button>
                ) : (
                  <Button large onClick={resend} disabled={busy}>
                    重新发送
                  </Button>
                )}
              </div>
            </FormGroup>
          )}
          {captchaNeeded && (
            <FormGroup label="图形验证码" labelFor="login-captcha" helperText={errors.captcha} intent={errors.captcha ? 'danger' : 'none'}>
              <div className="login-code-row">
                <InputGroup
                  id="login-captcha"
                  name="captcha"
                  maxLength={4}
                  placeholder="图中的 4 位字符"
                  autoComplete="off"
                  value={captchaText}
                  intent={errors.captcha ? 'danger' : 'none'}
                  onChange={(e) => setCaptchaText(e.target.value.trim())}
                  large
                />
                <CaptchaImage captcha={captcha} onRefresh={() => void refreshCaptcha()} />
              </div>
            </FormGroup>
          )}
          <Button type="submit" intent="primary" large fill loading={busy}>
            登录
          </Button>
        </form>
        <div className="login-links">
          <Link to="/lostpass/">忘记密码</Link>
          <Link to="/register/">立即注册</Link>
        </div>
      </Card>
    </main>
  );
}
