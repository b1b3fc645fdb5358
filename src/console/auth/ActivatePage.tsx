/**
 * The e-mail activation link's page (/register/activate/?token&account_id, the callback of
 * PUT /api/accounts/authentication/email/): verifies the address; a new account may then sign in.
 */
import './entry.css';
import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { Callout, Card, H3, Spinner } from '@blueprintjs/core';
import { api, failureText } from '../api/client';

export default function ActivatePage() {
  const [search] = useSearchParams();
  const [state, setState] = useState<{ ok: boolean; text: string } | null>(null);
  // a link works once: post it once, even when an effect runs twice (React's strict mode in development)
  const posted = useRef(false);
  useEffect(() => {
    if (posted.current) return;
    posted.current = true;
    const token = search.get('token') ?? '';
    const id = Number(search.get('account_id'));
    api
      .post<{ data: { email: string } }>('/accounts/authentication/email/', { token, account_id: Number.isInteger(id) && id > 0 ? id : 0 })
      .then((r) => setState({ ok: true, text: `邮箱 ${r.data.email} 验证成功，账号已激活。` }))
      .catch((e) => setState({ ok: false, text: failureText(e) }));
  }, [search]);
  return (
    <main className="login-page entry-page">
      <Card className="login-card entry-card" elevation={2}>
        <H3>邮箱验证</H3>
        {!state ? (
          <Spinner aria-label="验证中" />
        ) : (
          <Callout intent={state.ok ? 'success' : 'danger'} className="activate-result" role="status">
            {state.text}
          </Callout>
        )}
        <div className="login-links">
          <span />
          <Link to="/login/">去登录</Link>
        </div>
      </Card>
    </main>
  );
}
