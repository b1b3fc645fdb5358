/**
 * /dashboard/ of a main account: balance with the recharge link, the real-name prompt when unverified,
 * the services of each kind, the traffic and bandwidth of the last 24 hours, unread messages,
 * certificates and resource packages about to expire and the provider's tech blog (GET /api/dashboard/; the blog block is
 * hidden when the server has no feed). A sub-account goes to its first page (spec 000 §2.3).
 */
import { useEffect, useState } from 'react';
import { Link, Navigate, useNavigate } from 'react-router-dom';
import { useAtomValue, useSetAtom } from 'jotai';
import { Button, Callout, Card, H3, H5, Spinner, Tag } from '@blueprintjs/core';
import { TrendChart } from '../stats/charts';
import { BANDWIDTH_UNITS, BYTE_UNITS, axisMax, formatBandwidth, formatBytes, inUnit, pickUnit } from '../../shared/stats/units';
import { formatTime } from '../../shared/stats/time';
import { MESSAGE_HOME, messagePath } from '../../shared/message-centre';
import { recordEvent } from '../api/events';
import { RealnamePrompt, REALNAME_PROFILE, type VerifyEvent } from '../common/RealnamePrompt';
import { stored } from '../storage';
import { api, failureText } from '../api/client';
import { businessTypeAtom, sessionAtom } from '../state';
import { KINDS, SERVICE_KINDS, type ServiceKind } from '../../shared/services';
import { isChild, landingFor, mayUse, visibleKinds } from '../../shared/permissions';
import { formatMoney } from '../../shared/format';

export default function DashboardPage() {
  const session = useAtomValue(sessionAtom);
  const setBusinessType = useSetAtom(businessTypeAtom);
  const navigate = useNavigate();
  const [counts, setCounts] = useState<Record<ServiceKind, number> | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [board, setBoard] = useState<Board | null>(null);
  // the real-name modal and the event its 立即前往 records: popped up once a browser session for an unverified main account
  const [realname, setRealname] = useState<VerifyEvent | null>(() => {
    if (session.status !== 'signedIn' || isChild(session.user) || session.user.verify_status === 'yes' || stored.realnamePopup.shown()) return null;
    return 'dashboard_popup';
  });
  useEffect(() => {
    if (realname === 'dashboard_popup') stored.realnamePopup.mark();
  }, [realname]);
  // a sub-account goes to the first page it may use, in the order of spec 000 §2.3
  const landing = session.status === 'signedIn' ? landingFor(session.user) : null;

  useEffect(() => {
    setBusinessType(null);
    if (landing) return;
    api
      .get<{ data: Record<ServiceKind, number> }>('/api/buckets/summary/')
      .then((r) => setCounts(r.data))
      .catch((e) => setFailure(failureText(e)));
    if (session.status === 'signedIn' && !isChild(session.user)) {
      api
        .get<{ data: Board }>('/api/dashboard/')
        .then((r) => setBoard(r.data))
        .catch(() => setBoard(null));
    }
  }, [setBusinessType, landing]);

  if (session.status !== 'signedIn') return null;
  if (landing) return <Navigate to={landing} replace />;
  const { user, usage } = session;
  const kinds = visibleKinds(user, SERVICE_KINDS);
  const showBalance = !isChild(user) || mayUse(user, ['bill']);
  const [whole, cents] = formatMoney(usage.money).split('.');
  return (
    <div className="dashboard">
      <H3>概览</H3>
      {user.verify_status !== 'yes' && (
        <Callout intent="warning" title="您尚未完成实名认证" className="realname-prompt">
          根据相关规定，使用服务前请先完成个人或企业实名认证。
          <div className="realname-prompt-action">
            <Button
              intent="primary"
              text="立即前往"
              onClick={() => {
                navigate(REALNAME_PROFILE);
                recordEvent('verify', 'dashboard_button');
              }}
            />
          </div>
        </Callout>
      )}
      {/* spec 000 §2.9: the real-name modal, popped up once a browser session (dashboard_popup) or opened by the welcome card's icon (dashboard_icon) */}
      {user.verify_status !== 'yes' && realname && <RealnamePrompt isOpen purpose="正常使用各项服务" event={realname} onClose={() => setRealname(null)} />}
      <div className="dashboard-cards">
        {showBalance && (
          <Card className="balance-card">
            <H5>账户余额（元）</H5>
            <div className="balance">
              <span className="balance-int">{whole}</span>
              <span className="balance-dec">.{cents}</span>
            </div>
            <div className="balance-detail">
              充值余额 {formatMoney(usage.actual_charge)} 元 · 赠送余额 {formatMoney(usage.gift)} 元
            </div>
            {!isChild(user) && (
              <Link to="/billing/charge/" className="bp6-button bp6-intent-primary bp6-small recharge-link">
                充值
              </Link>
            )}
          </Card>
        )}
        <Card className="welcome-card">
          <H5>欢迎回来，{user.username}</H5>
          <p>登录验证：{user.two_step ? '已开启' : '未开启'}</p>
          <p>
            实名认证：{user.verify_status === 'yes' ? '已认证' : '未认证'}
            {user.verify_status !== 'yes' && (
              <Button variant="minimal" size="small" icon="id-number" intent="warning" aria-label="去实名认证" title="去实名认证" className="realname-icon" onClick={() => setRealname('dashboard_icon')} />
            )}
          </p>
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
      {board && <BoardBlocks board={board} />}
    </div>
  );
}

interface Board {
  traffic: { times: number[]; traffic: number[]; bandwidth: number[] };
  certificates: { id: number; common_name: string; valid_to: number; days_left: number }[];
  packages: { id: number; label: string; spec: string; remain: number; unit: string; expires_at: number; days_left: number }[];
  messages: { unread: number; latest: { id: number; title: string; created_at: number }[] };
  blog: { title: string; link: string; date: number | null }[];
}

/** The blocks below the services: 24 hours of traffic, then messages, certificates and the blog. */
function BoardBlocks({ board }: { board: Board }) {
  const { times, traffic, bandwidth } = board.traffic;
  const bw = pickUnit(Math.max(...bandwidth), BANDWIDTH_UNITS);
  const by = pickUnit(Math.max(...traffic), BYTE_UNITS);
  const total = traffic.reduce((a, b) => a + b, 0);
  return (
    <>
      <H5 className="dashboard-section">最近 24 小时</H5>
      <Card className="dashboard-traffic" data-testid="dashboard-traffic">
        <div className="dashboard-traffic-facts">
          <span>流量合计 {formatBytes(total)}</span>
          <span>带宽峰值 {formatBandwidth(Math.max(...bandwidth))}</span>
          <Link to="/stats/">查看统计分析</Link>
        </div>
        {/* a new account's flat line at zero says nothing: a sentence instead */}
        {total === 0 && Math.max(...bandwidth) === 0 ? (
          <p className="dashboard-traffic-none" data-testid="dashboard-traffic-none">
            最近 24 小时没有流量。服务绑定域名并将域名的 CNAME 指向加速地址后，这里会显示带宽与流量。
          </p>
        ) : (
          <TrendChart
            testId="dashboard-chart"
            height={220}
            times={times}
            granularity={3600}
            leftUnit={bw.label}
            rightUnit={by.label}
            leftMax={axisMax(inUnit(Math.max(...bandwidth), bw))}
            rightMax={axisMax(inUnit(Math.max(...traffic), by))}
            series={[
              { key: 'bandwidth', label: '带宽', color: '#2d72d2', area: true, values: bandwidth.map((v) => inUnit(v, bw)), format: (v) => `${v} ${bw.label}` },
              { key: 'traffic', label: '流量', color: '#29a634', axis: 'right', values: traffic.map((v) => inUnit(v, by)), format: (v) => `${v} ${by.label}` },
            ]}
          />
        )}
      </Card>
      <div className="dashboard-cards dashboard-lists">
        <Card className="dashboard-messages">
          <H5>
            未读消息 <Tag round intent={board.messages.unread ? 'danger' : 'none'}>{board.messages.unread}</Tag>
          </H5>
          {board.messages.latest.length === 0 ? (
            <p className="bp6-text-muted">没有未读消息</p>
          ) : (
            <ul>
              {board.messages.latest.map((m) => (
                <li key={m.id}>
                  <Link to={messagePath(m.id)}>{m.title}</Link> <span className="bp6-text-muted">{formatTime(m.created_at, false)}</span>
                </li>
              ))}
            </ul>
          )}
          <Link to={MESSAGE_HOME}>全部消息</Link>
        </Card>
        <Card className="dashboard-certificates">
          <H5>即将过期的证书</H5>
          {board.certificates.length === 0 ? (
            <p className="bp6-text-muted">30 天内没有即将过期的证书</p>
          ) : (
            <ul>
              {board.certificates.map((c) => (
                <li key={c.id}>
                  {c.common_name} <Tag minimal intent={c.days_left < 0 ? 'danger' : 'warning'}>{c.days_left < 0 ? '已过期' : `${c.days_left} 天后过期`}</Tag>
                </li>
              ))}
            </ul>
          )}
          <Link to="/toolbox/ssl/">管理证书</Link>
        </Card>
        <Card className="dashboard-packages" data-testid="dashboard-packages">
          <H5>即将过期的资源包</H5>
          {board.packages.length === 0 ? (
            <p className="bp6-text-muted">30 天内没有即将过期的资源包</p>
          ) : (
            <ul>
              {board.packages.map((p) => (
                <li key={p.id}>
                  {p.label} · {p.spec}（剩余 {p.remain} {p.unit}） <Tag minimal intent="warning">{p.days_left} 天后过期</Tag>
                </li>
              ))}
            </ul>
          )}
          <Link to="/billing/resources/">管理资源包</Link>
        </Card>
        {board.blog.length > 0 && (
          <Card className="dashboard-blog" data-testid="dashboard-blog">
            <H5>技术博客</H5>
            <ul>
              {board.blog.map((b) => (
                <li key={b.link}>
                  <a href={b.link} target="_blank" rel="noopener noreferrer">
                    {b.title}
                  </a>
                  {b.date && <span className="bp6-text-muted"> {formatTime(b.date, false).slice(0, 10)}</span>}
                </li>
              ))}
            </ul>
          </Card>
        )}
      </div>
    </>
  );
}
