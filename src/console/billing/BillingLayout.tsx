/**
 * The billing centre's frame (spec 001 §2.5–§2.6): the header (balance with its integer and decimal
 * parts, recharge balance and gift, total rebate, vouchers, remaining traffic, remaining transcode
 * minutes), the sub-navigation without the items hidden for this account, and the page below. Listed
 * accounts of the server configuration are sent to the dashboard (docs/billing.md "Listed accounts");
 * a page behind an item hidden for them says so when opened by URL, and the bill list (where /billing/
 * lands) gives way to the vouchers. The server refuses their calls as well (403 22006).
 */
import { useCallback, useEffect, useState } from 'react';
import { Navigate, NavLink, Outlet, useLocation } from 'react-router-dom';
import { useSetAtom } from 'jotai';
import { Callout, Card, NonIdealState, Spinner } from '@blueprintjs/core';
import { businessTypeAtom } from '../state';
import { api, failureText } from '../api/client';
import { BILLING_NAV, type BillingUsage, type HideableItem } from '../../shared/billing/header';
import { errorText } from '../../shared/errors';
import type { BillingContext } from './common';
import './billing.css';
import { formatCount, formatMoney } from '../../shared/format';

/** Pages a 'detail' listed account may not open: bill detail, billing history, invoice detail. */
const DETAIL_PAGES = [/^\/billing\/bills\/[^/]+\/?$/, /^\/billing\/history\/?$/, /^\/billing\/invoicingDetail\//];
/** The pages behind each item a listed account may not see (spec 001 §2.6). */
const ITEM_PAGES: [RegExp, HideableItem][] = [
  [/^\/billing\/charge(\/|$)/, 'balance'],
  [/^\/billing\/ledger(\/|$)/, 'balance'],
  [/^\/billing\/history(\/|$)/, 'history'],
  [/^\/billing\/bills(\/|$)/, 'bills'],
  [/^\/billing\/(invoicing|createInvoicing|invoicingDetail)(\/|$)/, 'invoicing'],
];
/** The page /billing/ lands on (src/console/routes.tsx); when it is hidden, the vouchers instead. */
const LANDING = /^\/billing\/bills\/?$/;

export default function BillingLayout() {
  const setBusinessType = useSetAtom(businessTypeAtom);
  useEffect(() => setBusinessType(null), [setBusinessType]);
  const { pathname } = useLocation();
  const [usage, setUsage] = useState<BillingUsage | null>(null);
  const [error, setError] = useState('');
  const reload = useCallback(() => {
    api
      .get<{ data: BillingUsage }>('/api/billing/usage/')
      .then((r) => setUsage(r.data))
      .catch((e) => setError(failureText(e)));
  }, []);
  useEffect(reload, [reload]);
  const leave = usage && (usage.redirect === 'container' || (usage.redirect === 'detail' && DETAIL_PAGES.some((re) => re.test(pathname))));
  useEffect(() => {
    if (leave) window.location.assign('/dashboard/');
  }, [leave]);
  if (leave) return <Spinner className="page-spinner" aria-label="加载中" />;
  const hidden = new Set(usage?.hidden ?? []);
  const context: BillingContext = { usage, reload };
  const hiddenPage = ITEM_PAGES.some(([re, item]) => hidden.has(item) && re.test(pathname));
  if (hiddenPage && LANDING.test(pathname)) return <Navigate to="/billing/vouchers/" replace />;
  return (
    <div className="billing-section">
      {error && <Callout intent="danger">{error}</Callout>}
      <div className="billing-header" aria-label="费用概览">
        {!hidden.has('balance') && (
          <Card>
            <div className="billing-stat-label">账户余额（元）</div>
            <div className="billing-stat-value" data-testid="billing-money">
              <span className="billing-money-int">{usage?.money_int ?? '-'}</span>
              <small>{usage?.money_decimal ?? ''}</small>
            </div>
            <div className="billing-stat-sub">
              充值余额 {usage ? formatMoney(usage.actual_charge) : '-'} 元 · 赠送余额 {usage ? formatMoney(usage.gift) : '-'} 元
            </div>
          </Card>
        )}
        <Card>
          <div className="billing-stat-label">累计返利（元）</div>
          <div className="billing-stat-value">{usage ? formatMoney(usage.total_rebate) : '-'}</div>
        </Card>
        <Card>
          <div className="billing-stat-label">可用代金券</div>
          <div className="billing-stat-value" data-testid="billing-vouchers">
            {usage?.ticket_count ?? '-'}
            <small>张</small>
          </div>
        </Card>
        <Card>
          <div className="billing-stat-label">剩余流量</div>
          <div className="billing-stat-value" data-testid="billing-flow">
            {usage?.resource_flow_remain_value ?? '-'}
            <small>{usage?.resource_flow_remain_unit ?? ''}</small>
          </div>
        </Card>
        <Card>
          <div className="billing-stat-label">剩余转码时长</div>
          <div className="billing-stat-value">
            {usage ? formatCount(Math.floor(usage.transcode_remains / 60000)) : '-'}
            <small>分钟</small>
          </div>
        </Card>
      </div>
      <nav className="billing-nav" aria-label="费用中心">
        {BILLING_NAV.filter((n) => !n.hide || !hidden.has(n.hide)).map((n) => (
          <NavLink key={n.path} to={n.path}>
            {n.label}
          </NavLink>
        ))}
      </nav>
      <div className="billing-page">
        {hiddenPage ? (
          <NonIdealState icon="disable" title={errorText(22006)} />
        ) : usage || error ? (
          <Outlet context={context} />
        ) : (
          <Spinner className="page-spinner" aria-label="加载中" />
        )}
      </div>
    </div>
  );
}
