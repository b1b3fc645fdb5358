import { KINDS, type ServiceKind } from '../../shared/services';
import { isChild, mayUse, type Holder, type Need } from '../../shared/permissions';
import { mayOpen } from '../access';
import type { ExternalProduct } from '../../shared/external';

/** The product menu (spec 000 §1 "Menu product names"); entries without a path are later sections. */
export interface MenuEntry {
  label: string;
  path?: string;
  kind?: ServiceKind;
  /** what a sub-account must hold to see an entry without a page of its own */
  needs?: Need[];
  /** an entry that leaves the console with a one-time token (src/console/external/, docs/external-products.md) */
  external?: ExternalProduct;
}

export const PRODUCT_MENU: MenuEntry[] = [
  { label: '云存储', path: '/services/file/', kind: 'file' },
  { label: 'CDN', path: '/services/cdn/', kind: 'cdn' },
  { label: '融合 CDN', path: '/services/fusion/', kind: 'fusion' },
  { label: 'SCDN', path: '/services/scdn/', kind: 'scdn' },
  { label: '直播云', path: '/services/live/', kind: 'live' },
  { label: 'WebSocket', path: '/services/ws/', kind: 'websocket' },
  { label: '海外加速', path: '/services/overseas/', kind: 'overseas' },
  { label: '云处理', path: '/services/process/' },
  { label: 'SSL 证书', path: '/toolbox/ssl/' },
  { label: '刷新预热', path: '/purge/purge_url/' },
  { label: '云监控', path: '/monitor/' },
  { label: '监控告警', path: '/toolbox/alarm/' },
  { label: '日志分析', path: '/log/log_analy/' },
  { label: '工单', path: '/work/', external: 'workorder' },
  { label: '统计分析', path: '/stats/' },
  { label: '短信服务', external: 'sms' },
  { label: '一键登录', external: 'oneclicklogin' },
  { label: '内容审核', needs: ['cloud_audit'], external: 'audit' },
  { label: '流量营销', external: 'cdp' },
  { label: '跨平台存储', path: '/toolbox/cross_platform_disaster_recovery/' },
  { label: 'DDoS 高防 IP', path: '/services/ddos/instance/' },
  // the cost centre (spec 001 §2.5, parent_only + bill): in the side menu as well as the account menu
  { label: '费用中心', path: '/billing/' },
];

/**
 * For product owners and testers, not for customers: not in the side menu; it is opened by its address,
 * /gallery/, by a main account when the server offers it (SCHEMA_GALLERY; docs/testing-schemas.md).
 */
export const GALLERY_MENU = { label: '设置样例库', path: '/gallery/' } satisfies MenuEntry;

/** Section title by business type (spec 000 §4). */
export function sectionTitle(businessType: string | null): string {
  switch (businessType) {
    case 'file':
      return '云存储';
    case 'cdn':
    case 'fusion':
      return 'CDN';
    case 'scdn':
      return 'SCDN';
    case 'live':
      return '直播云';
    case 'websocket':
      return 'WebSocket';
    case 'overseas':
      return '海外加速';
    default:
      return '概览';
  }
}

/** Sections that are not services carry their own title; service pages follow the business type. */
const PATH_TITLES: [string, string][] = [
  ['/services/ddos', 'DDoS 高防 IP'],
  ['/services/create/ddos', 'DDoS 高防 IP'],
  ['/stats', '统计分析'],
  ['/toolbox/ssl', 'SSL 证书'],
  ['/toolbox/createCertificate', 'SSL 证书'],
  ['/toolbox/certificatePay', 'SSL 证书'],
  ['/toolbox/caMessageCheck', 'SSL 证书'],
  ['/toolbox/certificateDetail', 'SSL 证书'],
  ['/toolbox/reIssued', 'SSL 证书'],
  ['/purge', '刷新预热'],
  ['/monitor', '云监控'],
  ['/toolbox/alarm', '监控告警'],
  ['/log/log_analy', '日志分析'],
  ['/toolbox/cross_platform_disaster_recovery', '跨平台容灾备份'],
  ['/services/process', '云处理'],
  ['/toolbox/sms', '短信服务'],
  ['/toolbox/oneclicklogin', '一键登录'],
  ['/toolbox/oncdp', '流量营销'],
  ['/toolbox/audit', '内容审核'],
  ['/toolbox/blockchainIntro', '区块链'],
  ['/toolbox/phone-traffic', '流量营销'],
  ['/work', '工单'],
  ['/account', '账号管理'],
  ['/billing', '费用中心'],
  ['/gallery', '设置样例库'],
  ['/dashboard', '概览'],
];

export function titleFor(pathname: string, businessType: string | null): string {
  const own = PATH_TITLES.find(([prefix]) => pathname.startsWith(prefix));
  if (own) return own[1];
  if (pathname.startsWith('/services/')) return sectionTitle(businessType);
  return PATH_TITLES.find(([prefix]) => pathname.startsWith(prefix))?.[1] ?? sectionTitle(businessType);
}

export const KIND_TITLES: Record<ServiceKind, string> = Object.fromEntries(Object.values(KINDS).map((k) => [k.kind, k.title])) as Record<ServiceKind, string>;

/**
 * The entries a user sees: everything for a main account; for a sub-account only the products it
 * holds (spec 000 §6), so never an entry that would send it back to the dashboard.
 */
export function menuFor(user: Holder): MenuEntry[] {
  if (!isChild(user)) return PRODUCT_MENU;
  return PRODUCT_MENU.filter((m) => (m.path ? mayOpen(user, m.path) : Boolean(m.needs?.length) && mayUse(user, m.needs)));
}

/**
 * A service page (/services/<name>/<tab>/) belongs to its kind's entry too; a page with an entry of its
 * own (DDoS, 云处理 …, all under /services/) does not, so only one entry is ever highlighted (issue 20 item 10).
 */
export function kindEntryActive(entry: MenuEntry, menu: MenuEntry[], pathname: string, businessType: string | null): boolean {
  if (!entry.kind || entry.kind !== businessType || !pathname.startsWith('/services/')) return false;
  if (pathname.startsWith('/services/create/')) return false;
  // an entry owns its section's first two segments: /services/ddos/instance/ owns /services/ddos/…
  const section = (path: string) => `${path.split('/').slice(0, 3).join('/')}/`;
  return !menu.some((m) => m.path && pathname.startsWith(section(m.path)));
}

/** The account menu of main accounts (spec 000 §2.4). */
export const ACCOUNT_MENU: { label: string; path: string; icon: 'new-person' | 'history' | 'id-number' | 'shield' | 'dollar' }[] = [
  { label: '子账号管理', path: '/account/subaccount/', icon: 'new-person' },
  { label: '操作日志', path: '/account/log/', icon: 'history' },
  { label: '账号信息', path: '/account/profile/', icon: 'id-number' },
  { label: '安全设置', path: '/account/security/', icon: 'shield' },
  { label: '费用中心', path: '/billing/bills/', icon: 'dollar' },
];
