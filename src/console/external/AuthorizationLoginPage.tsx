/**
 * Partner sign-in (spec 000 §2.1 /authorizationlogin, §7 GET /api/oauth/hash/; docs/external-products.md):
 * ?app_id&redirect_uri. A visitor signs in first (/login/?from=…, spec 000 §2.2) and comes back here; the page names the partner and the
 * protocol, the user confirms, and the browser goes to redirect_uri with a one-time token.
 */
import '../auth/entry.css';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { useAtomValue } from 'jotai';
import { Button, Callout, Card, Checkbox, H3, Spinner } from '@blueprintjs/core';
import { sessionAtom } from '../state';
import { api, failureText } from '../api/client';

export default function AuthorizationLoginPage() {
  const [search] = useSearchParams();
  const appId = search.get('app_id') ?? '';
  const redirectUri = search.get('redirect_uri') ?? '';
  const session = useAtomValue(sessionAtom);
  const navigate = useNavigate();
  const [partner, setPartner] = useState<{ name: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [agreed, setAgreed] = useState(false);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!appId) return setError('缺少合作应用参数');
    api.get<{ data: { name: string } }>('/api/oauth/app/', { app_id: appId }).then((r) => setPartner(r.data), (e) => setError(failureText(e)));
  }, [appId]);
  const signedIn = session.status === 'signedIn';
  async function authorize() {
    setBusy(true);
    try {
      const r = await api.get<{ data: { redirect: string } }>('/api/oauth/hash/', { app_id: appId, redirect_uri: redirectUri });
      window.location.assign(r.data.redirect);
    } catch (e) {
      setError(failureText(e));
      setBusy(false);
    }
  }
  return (
    <main className="login-page entry-page">
      <Card className="login-card entry-card authorization-card" elevation={2}>
        <H3>授权登录</H3>
        {error && <Callout intent="danger">{error}</Callout>}
        {!partner && !error && <Spinner aria-label="加载中" />}
        {partner && (
          <>
            <p>
              <strong className="partner-name">{partner.name}</strong> 请求使用您的云控制台账号登录。
            </p>
            <p>授权后，对方将获得您的账号 ID、用户名与实名认证状态，不会获得您的密码。</p>
            {signedIn ? (
              <>
                <p>当前账号：{session.user.username}</p>
                <Checkbox checked={agreed} onChange={(e) => setAgreed(e.currentTarget.checked)}>
                  我已阅读并同意 <Link to="/authorizationProtocol/" target="_blank">《授权登录服务协议》</Link>
                </Checkbox>
                <Button intent="primary" large fill text="同意授权" disabled={!agreed} loading={busy} onClick={() => void authorize()} />
              </>
            ) : (
              <Button
                intent="primary"
                large
                fill
                text="登录后授权"
                onClick={() => navigate(`/login/?from=${encodeURIComponent(`/authorizationlogin?${search.toString()}`)}`)}
              />
            )}
          </>
        )}
      </Card>
    </main>
  );
}
