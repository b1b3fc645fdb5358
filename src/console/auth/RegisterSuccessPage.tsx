/** After registration (spec 000 §2.1 /register/success/, params email and maiLoginUrl): open the mailbox to activate. */
import './entry.css';
import { Link, useSearchParams } from 'react-router-dom';
import { AnchorButton, Card, H3, Icon } from '@blueprintjs/core';

export default function RegisterSuccessPage() {
  const [search] = useSearchParams();
  const email = search.get('email') ?? '';
  const mailUrl = search.get('maiLoginUrl') ?? '';
  // only a web address may be opened from the query
  const safeUrl = /^https:\/\/[\w.-]+(\/|$)/.test(mailUrl) ? mailUrl : null;
  return (
    <main className="login-page entry-page">
      <Card className="login-card entry-card register-success" elevation={2}>
        <H3>
          <Icon icon="tick-circle" intent="success" size={20} /> 注册成功
        </H3>
        <p>
          激活邮件已发送至 <strong className="register-email">{email}</strong>，请在 24 小时内点击邮件中的链接完成激活，激活后即可登录。
        </p>
        {safeUrl && (
          <AnchorButton intent="primary" large fill href={safeUrl} target="_blank" rel="noopener noreferrer">
            前往邮箱激活
          </AnchorButton>
        )}
        <div className="login-links">
          <span>没有收到邮件？请检查垃圾邮件箱。</span>
          <Link to="/login/">返回登录</Link>
        </div>
      </Card>
    </main>
  );
}
