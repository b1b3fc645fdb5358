import { KINDS, type ServiceKind } from '../../shared/services';

/** The product menu (spec 000 §1 "Menu product names"); entries without a path are later sections. */
export interface MenuEntry {
  label: string;
  path?: string;
  kind?: ServiceKind;
}

export const PRODUCT_MENU: MenuEntry[] = [
  { label: '云存储', path: '/services/file/', kind: 'file' },
  { label: 'CDN', path: '/services/cdn/', kind: 'cdn' },
  { label: '融合 CDN', path: '/services/fusion/', kind: 'fusion' },
  { label: 'SCDN', path: '/services/scdn/', kind: 'scdn' },
  { label: '直播云', path: '/services/live/', kind: 'live' },
  { label: 'WebSocket', path: '/services/ws/', kind: 'websocket' },
  { label: '海外加速', path: '/services/overseas/', kind: 'overseas' },
  { label: '云处理' },
  { label: 'SSL 证书' },
  { label: '短信服务' },
  { label: '一键登录' },
  { label: '内容审核' },
  { label: '流量营销' },
  { label: '跨平台存储' },
  { label: 'DDoS 高防 IP' },
];

/** For product owners and testers, main accounts only, when the server offers it (src/console/gallery/). */
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

export const KIND_TITLES: Record<ServiceKind, string> = Object.fromEntries(Object.values(KINDS).map((k) => [k.kind, k.title])) as Record<ServiceKind, string>;
