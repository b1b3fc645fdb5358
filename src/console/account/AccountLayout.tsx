/**
 * The account section (spec 000 §2.4): lazy-loaded, main accounts only (the route guard sends a
 * sub-account to the dashboard), with the sub-navigation of security, profile, operators and
 * sub-accounts, and the operation log beside them.
 */
import { useEffect } from 'react';
import { NavLink, Outlet } from 'react-router-dom';
import { useSetAtom } from 'jotai';
import { Icon, type IconName } from '@blueprintjs/core';
import { businessTypeAtom } from '../state';
import './account.css';

/** The sub-navigation (spec 000 §2.4 links), then the operation log. */
export const ACCOUNT_NAV: { path: string; label: string; icon: IconName }[] = [
  { path: '/account/security/', label: '安全设置', icon: 'shield' },
  { path: '/account/profile/', label: '账号信息', icon: 'id-number' },
  { path: '/account/operators/', label: '操作员管理', icon: 'people' },
  { path: '/account/subaccount/', label: '子账号管理', icon: 'new-person' },
  { path: '/account/log/', label: '操作日志', icon: 'history' },
  { path: '/account/recommendation/introduction/', label: '推荐返利', icon: 'send-message' },
];

export default function AccountLayout() {
  const setBusinessType = useSetAtom(businessTypeAtom);
  useEffect(() => setBusinessType(null), [setBusinessType]);
  return (
    <div className="account-section">
      <nav className="account-nav" aria-label="账号管理">
        <div className="account-nav-title">账号管理</div>
        {ACCOUNT_NAV.map((n) => (
          <NavLink key={n.path} to={n.path} className="account-nav-link">
            <Icon icon={n.icon} size={14} />
            <span>{n.label}</span>
          </NavLink>
        ))}
      </nav>
      <div className="account-page">
        <Outlet />
      </div>
    </div>
  );
}
