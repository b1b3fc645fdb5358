/** The signed-in frame: top bar with the account menu, product menu on the left, the page. */
import { Suspense, useEffect, useRef } from 'react';
import { NavLink, Outlet, useLocation, useNavigate } from 'react-router-dom';
import { useAtom, useAtomValue } from 'jotai';
import { BlueprintProvider, Alignment, Button, Menu, MenuDivider, MenuItem, Navbar, NavbarDivider, NavbarGroup, NavbarHeading, Popover, Spinner } from '@blueprintjs/core';
import { avatarAtom, avatarSrc, businessTypeAtom, sessionAtom } from '../state';
import { api } from '../api/client';
import { ACCOUNT_MENU, GALLERY_MENU, kindEntryActive, menuFor, titleFor } from './menu';
import { ServiceSearch } from './ServiceSearch';
import { MessageBell } from '../message/MessageBell';
import { ExternalMenuLink } from '../external/useExternalEntry';
import { PopupAnnouncement } from '../external/Notices';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';

dayjs.locale('zh-cn');

export default function Shell() {
  const session = useAtomValue(sessionAtom);
  const businessType = useAtomValue(businessTypeAtom);
  const { pathname } = useLocation();
  const user = session.status === 'signedIn' ? session.user : null;
  const navigate = useNavigate();
  const main = useRef<HTMLElement>(null);
  // a page opened from a control that went away with the old page (a service's name in its list …)
  // would leave focus on <body>: it goes to the page instead, so Tab continues there (issue 24)
  useEffect(() => {
    const active = document.activeElement;
    if (!active || active === document.body) main.current?.focus({ preventScroll: true });
  }, [pathname]);
  const menu = user ? menuFor(user) : [];
  // the account's avatar (头像) beside its name, small and round; the user icon while there is none
  const [avatar, setAvatar] = useAtom(avatarAtom);
  const userId = user?.user_id;
  useEffect(() => {
    if (userId === undefined) return;
    let live = true;
    api
      .get<{ data: { avatar: boolean; updated_at: number | null } }>('/api/accounts/avatar/info/')
      .then((r) => live && setAvatar((now) => (now === undefined ? avatarSrc(r.data) : now)))
      .catch(() => live && setAvatar((now) => (now === undefined ? null : now)));
    return () => {
      live = false;
    };
  }, [userId, setAvatar]);
  return (
    <BlueprintProvider>
    <div className="shell">
      <a
        className="skip-link"
        href="#main"
        onClick={(e) => {
          e.preventDefault();
          main.current?.focus();
        }}
      >
        跳到主要内容
      </a>
      {/* the landmarks (issue 24): the top bar is the banner, the product menu a nav, the page the main;
          the page's one h1 and its headings' order are kept by ./outline.ts */}
      <header className="shell-header">
        <Navbar className="shell-top">
          <NavbarGroup align={Alignment.START}>
            <NavbarHeading>
              <NavLink to="/dashboard/" className="brand">云控制台</NavLink>
            </NavbarHeading>
            <NavbarDivider />
            <span className="section-title">{titleFor(pathname, businessType)}</span>
            {user && !user.child && (
              <>
                <NavbarDivider />
                <ServiceSearch />
              </>
            )}
          </NavbarGroup>
          <NavbarGroup align={Alignment.END}>
            {user && !user.child && <MessageBell />}
            <Popover
              placement="bottom-end"
              content={
                <Menu>
                  <MenuItem text={user?.username} disabled />
                  <MenuDivider />
                  {user && !user.child && (
                    <>
                      {ACCOUNT_MENU.map((m) => (
                        <MenuItem key={m.path} icon={m.icon} text={m.label} onClick={() => navigate(m.path)} />
                      ))}
                      <MenuDivider />
                    </>
                  )}
                  <MenuItem icon="log-out" text="退出登录" href="/accounts/signout/" />
                </Menu>
              }
            >
              <Button
                variant="minimal"
                icon={avatar ? <img className="account-avatar" src={avatar} alt="" width={20} height={20} onError={() => setAvatar(null)} /> : 'user'}
                endIcon="caret-down"
                text={user?.username}
                className="account-menu"
              />
            </Popover>
          </NavbarGroup>
        </Navbar>
      </header>
      <div className="shell-body">
        <nav className="shell-menu" aria-label="产品菜单">
          <ul className="product-menu">
            <li>
              <NavLink to="/dashboard/">概览</NavLink>
            </li>
            {menu.map((m) =>
              m.external ? (
                <li key={m.label}>
                  <ExternalMenuLink product={m.external} label={m.label} />
                </li>
              ) : m.path ? (
                <li key={m.label}>
                  {/* a service page belongs to its kind's entry too */}
                  <NavLink to={m.path} className={({ isActive }) => (isActive || kindEntryActive(m, menu, pathname, businessType) ? 'active' : '')}>
                    {m.label}
                  </NavLink>
                </li>
              ) : (
                <li key={m.label} className="menu-later" title="即将开放">
                  {m.label}
                </li>
              ),
            )}
          </ul>
        </nav>
        <main className="shell-page" id="main" ref={main} tabIndex={-1}>
          <Suspense fallback={<Spinner className="page-spinner" />}>
            <Outlet />
          </Suspense>
        </main>
      </div>
      {user && <PopupAnnouncement />}
    </div>
    </BlueprintProvider>
  );
}
