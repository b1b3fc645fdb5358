/**
 * The route table (spec 000 §2.1): public pages, the signed-in shell with lazy sections under
 * /app/, and the rules for unknown URLs.
 */
import { lazy, Suspense, useEffect } from 'react';
import { Link, Navigate, Outlet, useLocation, useNavigate, type RouteObject } from 'react-router-dom';
import { useAtomValue } from 'jotai';
import { NonIdealState, Spinner } from '@blueprintjs/core';
import { sessionAtom } from './state';
import { loadSession } from './session';
import { rememberPath, setNavigator } from './api/client';
import { PUBLIC_PATH_PREFIXES } from '../shared/account';
import LoginPage, { afterSignIn } from './auth/LoginPage';
import { RouteError, SectionError } from './common/RouteError';
import { mayOpen } from './access';

function Root() {
  const session = useAtomValue(sessionAtom);
  const navigate = useNavigate();
  useEffect(() => setNavigator((to) => navigate(to)), [navigate]);
  useEffect(() => {
    if (session.status === 'unknown') void loadSession();
  }, [session.status]);
  if (session.status === 'unknown') return <Spinner className="page-spinner" aria-label="加载中" />;
  return <Outlet />;
}

function RequireSignedIn() {
  const session = useAtomValue(sessionAtom);
  const location = useLocation();
  if (session.status !== 'signedIn') {
    if (location.pathname !== '/login/') rememberPath(location.pathname + location.search);
    return <Navigate to="/login/" replace />;
  }
  // a page the user may not use (parent-only, a permission it lacks): the dashboard, with a reload (spec 000 §6)
  if (!mayOpen(session.user, location.pathname)) return <ToDashboard />;
  return (
    <Suspense fallback={<Spinner className="page-spinner" aria-label="加载中" />}>
      <Shell />
    </Suspense>
  );
}

function ToDashboard() {
  useEffect(() => window.location.assign('/dashboard/'), []);
  return <Spinner className="page-spinner" aria-label="加载中" />;
}

/** The account section (spec 000 §2.4): one lazy chunk, main accounts only. */
const accountPage = (load: () => Promise<{ default: React.ComponentType }>) => ({ lazy: lazyDefault(load) });
/** The billing centre's pages (spec 001 §2.5), children of the billing layout. */
const billingPage = accountPage;
/** Purchase pages of the resource kinds: /billing/{kind}/buy/{index}, /billing/{kind}/pay/ (spec 001 §2.5). */
const RESOURCE_KINDS = ['resources', 'transcode', 'sms', 'oneclicklogin', 'sslpack', 'blockchain'];

/** The signed-in frame is its own chunk: the login page loads only what it shows. */
const Shell = lazy(() => import(/* webpackChunkName: "shell" */ './shell/Shell'));

function LoginRoute() {
  const session = useAtomValue(sessionAtom);
  if (session.status !== 'signedIn') return <LoginPage />;
  const target = afterSignIn.target ?? '/dashboard/';
  afterSignIn.target = null;
  return <Navigate to={target} replace />;
}

/**
 * An unmatched path of the public area (spec 000 §2.1: /connect/…, /register…, /lostpass… stay where
 * they are for a visitor): a neutral not-found page with the ways in.
 */
function PublicNotFound() {
  return (
    <NonIdealState
      className="public-not-found"
      icon="search"
      title="页面不存在"
      description="您访问的页面不存在，请检查地址是否正确。"
      action={
        <div className="public-not-found-links">
          <Link to="/login/">登录</Link>
          {' · '}
          <Link to="/register/">注册</Link>
        </div>
      }
    />
  );
}

function Home() {
  const session = useAtomValue(sessionAtom);
  return <Navigate to={session.status === 'signedIn' ? '/dashboard/' : '/login/'} replace />;
}

function Unknown() {
  const session = useAtomValue(sessionAtom);
  const { pathname } = useLocation();
  if (session.status === 'signedIn') return <Navigate to="/dashboard/" replace />;
  if (PUBLIC_PATH_PREFIXES.some((p) => pathname.startsWith(p))) return <PublicNotFound />;
  return <Navigate to="/login/" replace />;
}

/**
 * A lazily loaded section (spec 000 §1: chunks under /app/, 120 s timeout). A chunk that times out,
 * is missing or fails to load becomes a page saying so, with a reload action, inside the frame.
 */
const lazyDefault = (load: () => Promise<{ default: React.ComponentType }>) => async () => {
  try {
    return { Component: (await load()).default };
  } catch (error) {
    return { Component: () => <SectionError error={error} /> };
  }
};

export const routes: RouteObject[] = [
  {
    path: '/',
    element: <Root />,
    errorElement: <RouteError />,
    children: [
      // the address README and the server's log name (spec 000 §2.1): a signed-in user to the dashboard, a visitor to sign in
      { index: true, element: <Home /> },
      { path: 'login', element: <LoginRoute /> },
      // entry pages (spec 000 §2.1): registration, its success page, the e-mail activation link, lost password
      { path: 'register', lazy: lazyDefault(() => import(/* webpackChunkName: "entry" */ './auth/RegisterPage')) },
      { path: 'register/success', lazy: lazyDefault(() => import(/* webpackChunkName: "entry" */ './auth/RegisterSuccessPage')) },
      { path: 'register/activate', lazy: lazyDefault(() => import(/* webpackChunkName: "entry" */ './auth/ActivatePage')) },
      { path: 'lostpass', lazy: lazyDefault(() => import(/* webpackChunkName: "entry" */ './auth/LostPasswordPage')) },
      // partner sign-in and static texts (docs/external-products.md)
      { path: 'authorizationlogin', lazy: lazyDefault(() => import(/* webpackChunkName: "partner" */ './external/AuthorizationLoginPage')) },
      { path: 'authorizationProtocol', lazy: lazyDefault(() => import(/* webpackChunkName: "partner" */ './external/TextPages')) },
      { path: 'lets-disclaimer', lazy: lazyDefault(() => import(/* webpackChunkName: "partner" */ './external/TextPages')) },
      {
        element: <RequireSignedIn />,
        children: [
          { path: 'dashboard', lazy: lazyDefault(() => import(/* webpackChunkName: "dashboard" */ './dashboard/DashboardPage')) },
          { path: 'services/:section', lazy: lazyDefault(() => import(/* webpackChunkName: "service" */ './services/ServiceListPage')) },
          { path: 'services/:name/:tab', lazy: lazyDefault(() => import(/* webpackChunkName: "service" */ './services/ServicePage')) },
          { path: 'services/:name/:tab/manage', lazy: lazyDefault(() => import(/* webpackChunkName: "edge" */ './edgerules/EdgeRuleEditorPage')) },
          { path: 'gallery/:id?', lazy: lazyDefault(() => import(/* webpackChunkName: "gallery" */ './gallery/GalleryPage')) },
          { path: 'toolbox/ssl', lazy: lazyDefault(() => import(/* webpackChunkName: "toolbox" */ './toolbox/CertificatesPage')) },
          { path: 'toolbox/ssl/manage_default', lazy: lazyDefault(() => import(/* webpackChunkName: "toolbox" */ './toolbox/DefaultDomainPage')) },
          { path: 'toolbox/createCertificate/:certs?', lazy: lazyDefault(() => import(/* webpackChunkName: "toolbox-orders" */ './toolbox/orders/CreateCertificatePage')) },
          { path: 'toolbox/certificatePay', lazy: lazyDefault(() => import(/* webpackChunkName: "toolbox-orders" */ './toolbox/orders/CertificatePayPage')) },
          { path: 'toolbox/caMessageCheck', lazy: lazyDefault(() => import(/* webpackChunkName: "toolbox-orders" */ './toolbox/orders/CaMessagePage')) },
          { path: 'toolbox/certificateDetail', lazy: lazyDefault(() => import(/* webpackChunkName: "toolbox-orders" */ './toolbox/orders/CertificateDetailPage')) },
          { path: 'toolbox/reIssued', lazy: lazyDefault(() => import(/* webpackChunkName: "toolbox-orders" */ './toolbox/orders/ReIssuePage')) },
          { path: 'purge', element: <Navigate to="/purge/purge_url/" replace /> },
          // statistics (spec 001 §2.1): one lazy chunk with visx
          { path: 'stats', lazy: lazyDefault(() => import(/* webpackChunkName: "stats" */ './stats/StatsPage')) },
          { path: 'stats/flowTop', lazy: lazyDefault(() => import(/* webpackChunkName: "stats" */ './stats/FlowTopPage')) },
          { path: 'stats/accessAnalysis/:name?', lazy: lazyDefault(() => import(/* webpackChunkName: "stats" */ './stats/AccessAnalysisPage')) },
          { path: 'purge/:tab', lazy: lazyDefault(() => import(/* webpackChunkName: "purge" */ './purge/PurgePage')) },
          // operational tools (spec 002 "Other tools"): monitor and alarms, work orders, log analysis, backup
          { path: 'monitor', lazy: lazyDefault(() => import(/* webpackChunkName: "ops" */ './monitor/MonitorPage')) },
          { path: 'toolbox/alarm', lazy: lazyDefault(() => import(/* webpackChunkName: "ops" */ './monitor/AlarmPage')) },
          { path: 'work', lazy: lazyDefault(() => import(/* webpackChunkName: "ops" */ './work/WorkOrderPage')) },
          { path: 'log/log_analy/:name?', lazy: lazyDefault(() => import(/* webpackChunkName: "ops-log" */ './log/LogAnalysisPage')) },
          { path: 'toolbox/cross_platform_disaster_recovery', lazy: lazyDefault(() => import(/* webpackChunkName: "ops" */ './toolbox/backup/BackupPage')) },
          // toolbox landing pages of the external products (docs/external-products.md)
          ...['sms', 'oneclicklogin', 'oncdp', 'blockchainIntro', 'phone-traffic'].map((p) => ({ path: `toolbox/${p}`, lazy: lazyDefault(() => import(/* webpackChunkName: "toolbox-landing" */ './toolbox/landing/LandingPage')) })),
          { path: 'toolbox/audit', lazy: lazyDefault(() => import(/* webpackChunkName: "toolbox-landing" */ './toolbox/landing/AuditPage')) },
          { path: 'services/process', lazy: lazyDefault(() => import(/* webpackChunkName: "toolbox-landing" */ './toolbox/landing/LandingPage')) },
          // DDoS 高防 IP (spec 002 §2): one lazy chunk; static segments win over services/:section and services/:name/:tab
          { path: 'services/ddos', element: <Navigate to="/services/ddos/instance/" replace /> },
          { path: 'services/ddos/order', lazy: lazyDefault(() => import(/* webpackChunkName: "ddos" */ './ddos/OrderPage')) },
          { path: 'services/ddos/:tab', lazy: lazyDefault(() => import(/* webpackChunkName: "ddos" */ './ddos/DdosPage')) },
          { path: 'services/create/ddos', lazy: lazyDefault(() => import(/* webpackChunkName: "ddos" */ './ddos/CreatePage')) },
          { path: 'services/create/ddos/pay', lazy: lazyDefault(() => import(/* webpackChunkName: "ddos" */ './ddos/PayPage')) },
          // the billing centre (spec 001 §2.5): one lazy layout (header, sub-navigation), pages as children
          {
            path: 'billing',
            lazy: lazyDefault(() => import(/* webpackChunkName: "billing" */ './billing/BillingLayout')),
            children: [
              { index: true, element: <Navigate to="/billing/bills/" replace /> },
              { path: 'bills', ...billingPage(() => import(/* webpackChunkName: "billing" */ './billing/bills/BillsPage')) },
              { path: 'bills/:id', ...billingPage(() => import(/* webpackChunkName: "billing" */ './billing/bills/BillDetailPage')) },
              { path: 'vouchers', ...billingPage(() => import(/* webpackChunkName: "billing" */ './billing/vouchers/VouchersPage')) },
              { path: 'resources', ...billingPage(() => import(/* webpackChunkName: "billing" */ './billing/resources/ResourcesPage')) },
              { path: 'other', ...billingPage(() => import(/* webpackChunkName: "billing" */ './billing/other/OtherPage')) },
              ...RESOURCE_KINDS.flatMap((kind) => [
                { path: `${kind}/buy/:index?`, ...billingPage(() => import(/* webpackChunkName: "billing" */ './billing/resources/BuyPage')) },
                { path: `${kind}/pay`, ...billingPage(() => import(/* webpackChunkName: "billing" */ './billing/resources/PayPage')) },
              ]),
              ...RESOURCE_KINDS.filter((k) => k !== 'resources').map((kind) => ({ path: kind, ...billingPage(() => import(/* webpackChunkName: "billing" */ './billing/resources/ResourcesPage')) })),
              // recharge, orders, invoices, rebates (docs/billing-money.md)
              { path: 'charge', ...billingPage(() => import(/* webpackChunkName: "billing-money" */ './billing/charge/ChargePage')) },
              { path: 'history', ...billingPage(() => import(/* webpackChunkName: "billing-money" */ './billing/orders/OrdersPage')) },
              { path: 'ledger', ...billingPage(() => import(/* webpackChunkName: "billing-money" */ './billing/ledger/LedgerPage')) },
              { path: 'invoicing', ...billingPage(() => import(/* webpackChunkName: "billing-money" */ './billing/invoices/InvoicingPage')) },
              { path: 'createInvoicing', ...billingPage(() => import(/* webpackChunkName: "billing-money" */ './billing/invoices/CreateInvoicingPage')) },
              { path: 'invoicingDetail/:id', ...billingPage(() => import(/* webpackChunkName: "billing-money" */ './billing/invoices/InvoicingDetailPage')) },
              { path: 'rebateAmount', ...billingPage(() => import(/* webpackChunkName: "billing-money" */ './billing/rebate/RebateListPage')) },
              { path: 'rebateCreateApply', ...billingPage(() => import(/* webpackChunkName: "billing-money" */ './billing/rebate/RebateApplyPage')) },
              { path: 'rebateApplyMessage', ...billingPage(() => import(/* webpackChunkName: "billing-money" */ './billing/rebate/RebateDetailPage')) },
              // a billing address that names no page: the bills (no page says it opens later)
              { path: '*', element: <Navigate to="/billing/bills/" replace /> },
            ],
          },
          {
            path: 'account',
            lazy: lazyDefault(() => import(/* webpackChunkName: "account" */ './account/AccountLayout')),
            children: [
              { index: true, element: <Navigate to="/account/subaccount/" replace /> },
              { path: 'subaccount', ...accountPage(() => import(/* webpackChunkName: "account" */ './account/SubaccountPage')) },
              { path: 'log', ...accountPage(() => import(/* webpackChunkName: "account" */ './account/LogPage')) },
              { path: 'security', ...accountPage(() => import(/* webpackChunkName: "account" */ './account/SecurityPage')) },
              { path: 'profile', ...accountPage(() => import(/* webpackChunkName: "account" */ './account/ProfilePage')) },
              { path: 'operators', ...accountPage(() => import(/* webpackChunkName: "account" */ './account/OperatorsPage')) },
              { path: 'verifypersonal', ...accountPage(() => import(/* webpackChunkName: "account" */ './account/VerifyPage')) },
              { path: 'verifycompany', ...accountPage(() => import(/* webpackChunkName: "account" */ './account/VerifyCompanyPage')) },
              // the named states account.personal and account.company (spec 000 §2.4): the two verifications
              { path: 'personal', element: <Navigate to="/account/verifypersonal/" replace /> },
              { path: 'company', element: <Navigate to="/account/verifycompany/" replace /> },
              // referrals (docs/referrals.md)
              { path: 'recommendation', element: <Navigate to="/account/recommendation/introduction/" replace /> },
              { path: 'recommendation/introduction', ...accountPage(() => import(/* webpackChunkName: "referrals" */ './account/recommendation/IntroductionPage')) },
              { path: 'recommendation/list', ...accountPage(() => import(/* webpackChunkName: "referrals" */ './account/recommendation/ListPage')) },
              { path: '*', element: <Navigate to="/dashboard/" replace /> },
            ],
          },
          // the message centre (spec 000 §2.8): /{cat}/message/ and /{cat}/message/{id}/, main accounts only
          { path: 'message', element: <Navigate to="/account/message/" replace /> },
          { path: ':cat/message', lazy: lazyDefault(() => import(/* webpackChunkName: "message" */ './message/MessagePage')) },
          { path: ':cat/message/:id', lazy: lazyDefault(() => import(/* webpackChunkName: "message" */ './message/MessageDetailPage')) },
        ],
      },
      { path: '*', element: <Unknown /> },
    ],
  },
];
