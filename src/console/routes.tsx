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
  return (
    <Suspense fallback={<Spinner className="page-spinner" aria-label="加载中" />}>
      <Shell />
    </Suspense>
  );
}

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

const lazyDefault = (load: () => Promise<{ default: React.ComponentType }>) => async () => ({ Component: (await load()).default });

export const routes: RouteObject[] = [
  {
    path: '/',
    element: <Root />,
    children: [
      { path: 'login', element: <LoginRoute /> },
      {
        element: <RequireSignedIn />,
        children: [
          { path: 'dashboard', lazy: lazyDefault(() => import(/* webpackChunkName: "dashboard" */ './dashboard/DashboardPage')) },
          { path: 'services/:section', lazy: lazyDefault(() => import(/* webpackChunkName: "service" */ './services/ServiceListPage')) },
          { path: 'services/:name/:tab', lazy: lazyDefault(() => import(/* webpackChunkName: "service" */ './services/ServicePage')) },
          { path: 'gallery/:id?', lazy: lazyDefault(() => import(/* webpackChunkName: "gallery" */ './gallery/GalleryPage')) },
        ],
      },
      { path: '*', element: <Unknown /> },
    ],
  },
];
