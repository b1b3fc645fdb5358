/** /dashboard/: balance, the real-name prompt when unverified, and the services of each kind. */
import { useEffect, useState } from 'react';
import { Link, Navigate } from 'react-router-dom';
import { useAtomValue, useSetAtom } from 'jotai';
import { Callout, Card, H3, H5, Spinner } from '@blueprintjs/core';
import { api, failureText } from '../api/client';
import { businessTypeAtom, sessionAtom } from '../state';
import { KINDS, SERVICE_KINDS, type ServiceKind } from '../../shared/services';
import { isChild, landingFor, mayUse, visibleKinds } from '../../shared/permissions';

export default function DashboardPage() {
  const session = useAtomValue(sessionAtom);
  const setBusinessType = useSetAtom(businessTypeAtom);
  const [counts, setCounts] = useState<Record<ServiceKind, number> | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  // a sub-account goes to the first page it may use, in the order of spec 000 §2.3
  const landing = session.status === 'signedIn' ? landingFor(session.user) : null;

  useEffect(() => {
    setBusinessType(null);
    if (landing) return;
    api
      .get<{ data: Record<ServiceKind, number> }>('/api/buckets/summary/')
      .then((r) => setCounts(r.data))
      .catch((e) => setFailure(failureText(e)));
  }, [setBusinessType, landing]);

  if (session.status !== 'signedIn') return null;
  if (landing) return <Navigate to={landing} replace />;
  const { user, usage } = session;
  const kinds = visibleKinds(user, SERVICE_KINDS);
  const showBalance = !isChild(user) || mayUse(user, ['bill']);
  const [whole, cents] = usage.money.toFixed(2).split('.');
  return (
    <div className="dashboard">
      <H3>概览</H3>
      {user.verify_status !== 'yes' && (
        <Callout intent="warning" title="您尚未完成实名认证" className="realname-prompt">
          根据相关规定，使用服务前请先完成个人或企业实名认证。
        </Callout>
      )}
      <div className="dashboard-cards">
        {showBalance && (
          <Card className="balance-card">
            <H5>账户余额（元）</H5>
            <div className="balance">
              <span className="balance-int">{whole}</span>
              <span className="balance-dec">.{cents}</span>
            </div>
            <div className="balance-detail">
              充值余额 {usage.actual_charge.toFixed(2)} 元 · 赠送余额 {usage.gift.toFixed(2)} 元
            </div>
          </Card>
        )}
        <Card className="welcome-card">
          <H5>欢迎回来，{user.username}</H5>
          <p>登录验证：{user.two_step ? '已开启' : '未开启'}</p>
          <p>实名认证：{user.verify_status === 'yes' ? '已认证' : '未认证'}</p>
        </Card>
      </div>
      <H5 className="dashboard-section">我的服务</H5>
      {failure && <Callout intent="danger">{failure}</Callout>}
      {!counts && !failure ? (
        <Spinner size={24} />
      ) : (
        <div className="dashboard-services">
          {kinds.map((k) => (
            <Card key={k} className="service-count" interactive>
              <Link to={`/services/${KINDS[k].section}/`}>
                <div className="service-count-title">{KINDS[k].title}</div>
                <div className="service-count-n">{counts?.[k] ?? 0}</div>
                <div className="service-count-unit">个服务</div>
              </Link>
            </Card>
          ))}
        </div>
      )}
    </div>
  );
}
