/**
 * The route table (spec 000 §2.1): public pages, the signed-in shell with lazy sections under
 * /app/, and the rules for unknown URLs.
 */
import { lazy, Suspense, useEffect } from 'react';
import { Navigate, Outlet, useLocation, useNavigate, type RouteObject } from 'react-router-dom';
import { useAtomValue } from 'jotai';
import { NonIdealState, Spinner } from '@blueprintjs/core';
import { sessionAtom } from './state';
import { loadSession } from './session';
import { rememberPath, setNavigator } from './api/client';
import { PUBLIC_PATH_PREFIXES } from '../shared/account';
import LoginPage, { afterSignIn } from './auth/LoginPage';
import { RouteError, SectionError } from './common/RouteError';
import { mayOpen } from './access';
import { SUBACCOUNT_LANDINGS } from '../shared/permissions';

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

/** Sections built elsewhere in this table; a section's path leaves this list's complement when it is built. */
const BUILT_SECTIONS = ['toolbox/ssl', 'purge/purge_url', 'stats'];
/** Sections a sub-account may land on that are not built yet (the page says so). */
const PENDING_SECTIONS = SUBACCOUNT_LANDINGS.map((l) => l.path.replace(/^\/|\/$/g, '')).filter((p) => !p.startsWith('services/') && !BUILT_SECTIONS.includes(p));

/** The account section (spec 000 §2.4): one lazy chunk, main accounts only. */
const accountPage = (load: () => Promise<{ default: React.ComponentType }>) => ({ lazy: lazyDefault(load) });
const ACCOUNT_PENDING = ['security', 'profile', 'operators', 'verifypersonal', 'verifycompany', 'recommendation/introduction', 'recommendation/list'];

/** The signed-in frame is its own chunk: the login page loads only what it shows. */
const Shell = lazy(() => import(/* webpackChunkName: "shell" */ './shell/Shell'));

function LoginRoute() {
  const session = useAtomValue(sessionAtom);
  if (session.status !== 'signedIn') return <LoginPage />;
  const target = afterSignIn.target ?? '/dashboard/';
  afterSignIn.target = null;
  return <Navigate to={target} replace />;
}

/** Pages of the public area that later issues build (registration, password recovery, partner sign-in). */
function PublicPending() {
  return (
    <NonIdealState
      className="public-pending"
      icon="build"
      title="该页面暂未开放"
      description="注册、找回密码与授权登录将在后续版本中提供，如需帮助请联系客服。"
      action={<a href="/login/">返回登录</a>}
    />
  );
}

function Unknown() {
  const session = useAtomValue(sessionAtom);
  const { pathname } = useLocation();
  if (session.status === 'signedIn') return <Navigate to="/dashboard/" replace />;
  if (PUBLIC_PATH_PREFIXES.some((p) => pathname.startsWith(p))) return <PublicPending />;
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
      { path: 'login', element: <LoginRoute /> },
      {
        element: <RequireSignedIn />,
        children: [
          { path: 'dashboard', lazy: lazyDefault(() => import(/* webpackChunkName: "dashboard" */ './dashboard/DashboardPage')) },
          { path: 'services/:section', lazy: lazyDefault(() => import(/* webpackChunkName: "service" */ './services/ServiceListPage')) },
          { path: 'services/:name/:tab', lazy: lazyDefault(() => import(/* webpackChunkName: "service" */ './services/ServicePage')) },
          { path: 'services/:name/:tab/manage', lazy: lazyDefault(() => import(/* webpackChunkName: "edge" */ './edge/EdgeRuleEditorPage')) },
          { path: 'gallery/:id?', lazy: lazyDefault(() => import(/* webpackChunkName: "gallery" */ './gallery/GalleryPage')) },
          { path: 'toolbox/ssl', lazy: lazyDefault(() => import(/* webpackChunkName: "toolbox" */ './toolbox/CertificatesPage')) },
          { path: 'purge', element: <Navigate to="/purge/purge_url/" replace /> },
          // statistics (spec 001 §2.1): one lazy chunk with visx
          { path: 'stats', lazy: lazyDefault(() => import(/* webpackChunkName: "stats" */ './stats/StatsPage')) },
          { path: 'stats/flowTop', lazy: lazyDefault(() => import(/* webpackChunkName: "stats" */ './stats/FlowTopPage')) },
          { path: 'stats/accessAnalysis/:name?', lazy: lazyDefault(() => import(/* webpackChunkName: "stats" */ './stats/AccessAnalysisPage')) },
          { path: 'purge/:tab', lazy: lazyDefault(() => import(/* webpackChunkName: "purge" */ './purge/PurgePage')) },
          {
            path: 'account',
            lazy: lazyDefault(() => import(/* webpackChunkName: "account" */ './account/AccountLayout')),
            children: [
              { index: true, element: <Navigate to="/account/subaccount/" replace /> },
              { path: 'subaccount', ...accountPage(() => import(/* webpackChunkName: "account" */ './account/SubaccountPage')) },
              { path: 'log', ...accountPage(() => import(/* webpackChunkName: "account" */ './account/LogPage')) },
              ...ACCOUNT_PENDING.map((path) => ({ path, ...accountPage(() => import(/* webpackChunkName: "account" */ './account/AccountPending')) })),
              { path: '*', element: <Navigate to="/dashboard/" replace /> },
            ],
          },
          ...PENDING_SECTIONS.map((path) => ({ path, lazy: lazyDefault(() => import(/* webpackChunkName: "pending" */ './common/SectionPending')) })),
        ],
      },
      { path: '*', element: <Unknown /> },
    ],
  },
];
