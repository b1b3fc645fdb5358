/**
 * Sub-account permissions (spec 000 §6) as both sides read them: the names, which permission opens
 * which kind of service, what "holding" a list of needs means, and where a sub-account lands
 * (spec 000 §2.3). The server enforces them (src/server/http/access.ts, buckets/repo.ts); the
 * console hides what a user may not use (src/console/access.ts).
 */
import type { ServiceKind } from './services';

/** Every permission a sub-account may hold (spec 000 §6). */
export const PERMISSIONS = [
  'cdn', 'create_cdn', 'scdn', 'create_scdn', 'file', 'create_file', 'live', 'create_live', 'ws', 'create_ws',
  'overseas', 'create_overseas', 'https', 'stats', 'monitor', 'cache', 'log', 'monitor_alarm', 'cloud_audit', 'bill',
  'authorized_service', 'forbidden_down_ssl',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

export function isPermission(v: unknown): v is Permission {
  return typeof v === 'string' && (PERMISSIONS as readonly string[]).includes(v);
}

/** The permissions that open a kind of service. */
export const KIND_PERMISSIONS = ['cdn', 'scdn', 'file', 'live', 'ws', 'overseas'] as const;
export type KindPermission = (typeof KIND_PERMISSIONS)[number];

/** The permission a sub-account needs to see a service of a kind (fusion CDN counts as CDN). */
export const KIND_PERMISSION: Record<ServiceKind, KindPermission> = {
  file: 'file',
  cdn: 'cdn',
  fusion: 'cdn',
  scdn: 'scdn',
  live: 'live',
  websocket: 'ws',
  overseas: 'overseas',
};

/** The permission a sub-account needs to create a service of a kind (spec 000 §6: create_cdn, …). */
export const CREATE_PERMISSION: Record<ServiceKind, Permission> = {
  file: 'create_file',
  cdn: 'create_cdn',
  fusion: 'create_cdn',
  scdn: 'create_scdn',
  live: 'create_live',
  websocket: 'create_ws',
  overseas: 'create_overseas',
};

/** The service kinds a kind permission opens. */
export function kindsOf(permission: KindPermission): ServiceKind[] {
  return (Object.keys(KIND_PERMISSION) as ServiceKind[]).filter((k) => KIND_PERMISSION[k] === permission);
}

/** Data management (spec 000 §6: authorized_service governs these). */
export const DATA_PERMISSIONS = ['stats', 'monitor', 'cache', 'log'] as const;

/**
 * What a route or page may ask for besides being signed in: `parent_only` (main accounts; a
 * sub-account only when it holds one of the other needs listed with it) or permissions.
 */
export type Need = Permission | 'parent_only';

/** Who is asking: a main account has no permission list. */
export interface Holder {
  /** null for a main account */
  parent_id?: number | null;
  /** present for sub-accounts (the console's CurrentUser) */
  child?: { permissions: string[] };
  permissions?: string[];
}

export function isChild(u: Holder): boolean {
  return u.child !== undefined || (u.parent_id !== undefined && u.parent_id !== null);
}

export function permissionsOf(u: Holder): string[] {
  return u.child?.permissions ?? u.permissions ?? [];
}

/**
 * Whether a user may use something that needs `needs` (spec 000 §6): a main account may use
 * everything; a sub-account needs one of the listed permissions ("a page listing several
 * permissions is open if any one is held"). `parent_only` alone closes it to sub-accounts;
 * with permissions beside it, a sub-account holding one of them may pass (billing: parent_only + bill).
 */
export function mayUse(u: Holder, needs: readonly Need[] = []): boolean {
  if (!isChild(u)) return true;
  const perms = needs.filter((n) => n !== 'parent_only');
  if (perms.length === 0) return !needs.includes('parent_only');
  const held = new Set(permissionsOf(u));
  return perms.some((p) => held.has(p));
}

/** Whether a user may see services of a kind at all (bucket-level grants aside). */
export function maySeeKind(u: Holder, kind: ServiceKind): boolean {
  return !isChild(u) || permissionsOf(u).includes(KIND_PERMISSION[kind]);
}

/** The service kinds a sub-account may see; every kind for a main account. */
export function visibleKinds(u: Holder, all: readonly ServiceKind[]): ServiceKind[] {
  return all.filter((k) => maySeeKind(u, k));
}

/** Whether the sub-account's data (statistics, monitor, cache refresh, log download) is its granted buckets only (authorized_service "authorization"). */
export function grantedOnly(u: Holder): boolean {
  return isChild(u) && permissionsOf(u).includes('authorized_service');
}

/**
 * The bucket types granted one by one (spec 000 §2.5, §3 "Bucket authorization", §6 "per-service bucket
 * lists for cdn, file and live"): a sub-account opens and configures a service of these types only when
 * it is granted that service, whatever its data scope; services of the other kinds (SCDN, WebSocket,
 * overseas) have no bucket list and open with the kind's permission.
 */
export const GRANT_TYPES: readonly KindPermission[] = ['cdn', 'file', 'live'];

/** Whether services of this kind are opened by a grant (cdn with fusion, file, live). */
export function grantedKind(kind: ServiceKind): boolean {
  return GRANT_TYPES.includes(KIND_PERMISSION[kind]);
}

/**
 * Where /dashboard/ sends a sub-account (spec 000 §2.3), in the spec's order: cdn, scdn, file,
 * live, https tool, stats, monitor, purge url, log analysis, alarm, audit, billing charge.
 * Paths of sections other documents describe (spec 001 §2, spec 002 §2).
 */
export const SUBACCOUNT_LANDINGS: readonly { need: Permission; path: string; title: string }[] = [
  { need: 'cdn', path: '/services/cdn/', title: 'CDN' },
  { need: 'scdn', path: '/services/scdn/', title: 'SCDN' },
  { need: 'file', path: '/services/file/', title: '云存储' },
  { need: 'live', path: '/services/live/', title: '直播云' },
  { need: 'https', path: '/toolbox/ssl/', title: 'SSL 证书' },
  { need: 'stats', path: '/stats/', title: '统计分析' },
  { need: 'monitor', path: '/monitor/', title: '云监控' },
  { need: 'cache', path: '/purge/purge_url/', title: '刷新预热' },
  { need: 'log', path: '/log/log_analy/', title: '日志分析' },
  { need: 'monitor_alarm', path: '/toolbox/alarm/', title: '监控告警' },
  { need: 'cloud_audit', path: '/toolbox/audit/', title: '内容识别' },
  { need: 'bill', path: '/billing/charge/', title: '费用中心' },
];

/** The first page a sub-account may use, or null for a main account (or a sub-account with none). */
export function landingFor(u: Holder): string | null {
  if (!isChild(u)) return null;
  const held = new Set(permissionsOf(u));
  return SUBACCOUNT_LANDINGS.find((l) => held.has(l.need))?.path ?? null;
}

/** Sub-account status on the wire (spec 000 §3): Y normal, N disabled. */
export type ChildStatus = 'Y' | 'N';

/** A sub-account as GET /api/account/child/ lists it. */
export interface ChildInfo {
  child_id: number;
  child_name: string;
  nickname: string | null;
  status: ChildStatus;
  permissions: string[];
  created_at: string;
}

/** A bucket granted to a sub-account (spec 000 §3 "Bucket authorization"). */
export interface ChildBind {
  id: number;
  bucket_id: number;
  bucket_name: string;
  /** the kind permission the bucket falls under: cdn, file, live, … */
  bucket_type: KindPermission;
}

/** At most this many sub-accounts per account (spec 000 §9, 41006). */
export const MAX_CHILDREN = 10;
/** At most this many buckets of one type granted to a sub-account (spec 000 §5, §9). */
export const MAX_BINDS_PER_TYPE = 100;
/** Form re-validation delay (spec 000 §9). */
export const FORM_REVALIDATE_MS = 1000;
