/**
 * Service kinds, their sections and the tabs of each service page (spec 002 §2).
 * Both sides read these: the server to check a setting applies to a bucket, the console
 * to draw the menu, the lists and the tabs.
 */
export const SERVICE_KINDS = ['file', 'cdn', 'scdn', 'live', 'websocket', 'overseas', 'fusion'] as const;
export type ServiceKind = (typeof SERVICE_KINDS)[number];

export function isServiceKind(v: unknown): v is ServiceKind {
  return typeof v === 'string' && (SERVICE_KINDS as readonly string[]).includes(v);
}

/** The tab families a setting may name in setting.json ("tab"). */
export const TAB_FAMILIES = [
  'domains', 'source', 'cache', 'optimize', 'https', 'antileech', 'costControl', 'thumb', 'media', 'edgeCalc', 'fileManage',
  'basic', 'advanced', 'streamMonitor', 'streamMedia',
] as const;
export type TabFamily = (typeof TAB_FAMILIES)[number];

export const TAB_LABELS: Record<TabFamily, string> = {
  domains: '域名管理',
  source: '回源管理',
  cache: '缓存配置',
  optimize: '性能优化',
  https: 'HTTPS',
  antileech: '访问控制',
  costControl: '成本控制',
  thumb: '图片处理',
  media: '媒体处理',
  fileManage: '文件管理',
  edgeCalc: '边缘规则',
  basic: '基础配置',
  advanced: '高级配置',
  streamMonitor: '流监控',
  streamMedia: '媒体处理',
};

export interface KindInfo {
  kind: ServiceKind;
  /** URL segment of the list: /services/{section}/ */
  section: string;
  /** Menu product name and section title. */
  title: string;
  /** Tab name suffix, e.g. domainsCdn. */
  suffix: string;
  tabs: TabFamily[];
}

export const KINDS: Record<ServiceKind, KindInfo> = {
  file: {
    kind: 'file', section: 'file', title: '云存储', suffix: 'File',
    tabs: ['domains', 'fileManage', 'source', 'cache', 'optimize', 'https', 'antileech', 'costControl', 'thumb', 'media', 'edgeCalc'],
  },
  cdn: {
    kind: 'cdn', section: 'cdn', title: 'CDN', suffix: 'Cdn',
    tabs: ['domains', 'source', 'cache', 'optimize', 'https', 'antileech', 'costControl', 'thumb', 'edgeCalc'],
  },
  scdn: {
    kind: 'scdn', section: 'scdn', title: 'SCDN', suffix: 'Cdn',
    tabs: ['domains', 'source', 'cache', 'optimize', 'https', 'antileech', 'costControl', 'thumb', 'edgeCalc'],
  },
  live: {
    kind: 'live', section: 'live', title: '直播云', suffix: 'Live',
    tabs: ['domains', 'basic', 'advanced', 'streamMonitor', 'https', 'antileech', 'streamMedia'],
  },
  websocket: {
    kind: 'websocket', section: 'ws', title: 'WebSocket', suffix: 'Ws',
    tabs: ['domains', 'source', 'cache', 'https', 'antileech'],
  },
  overseas: {
    kind: 'overseas', section: 'overseas', title: '海外加速', suffix: 'Overseas',
    tabs: ['domains', 'source', 'https'],
  },
  fusion: {
    kind: 'fusion', section: 'fusion', title: '融合 CDN', suffix: 'FusionCdn',
    tabs: ['domains', 'source', 'cache', 'https', 'antileech'],
  },
};

/** Live tabs hidden for bucket ids above this value (spec 002 §2). */
export const LIVE_TABS_HIDDEN_ABOVE_BUCKET_ID = 1796095;

/** Words joined as Chinese text is set: a space only where Latin letters or digits meet Chinese. */
function joinWords(...parts: string[]): string {
  return parts.reduce((text, part) => (text && /[A-Za-z0-9]$/.test(text) !== /^[A-Za-z0-9]/.test(part) ? `${text} ${part}` : text + part), '');
}

/** A kind's list title: 云存储服务列表, CDN 服务列表, 融合 CDN 服务列表. */
export function listTitle(kind: ServiceKind): string {
  return joinWords(KINDS[kind].title, '服务列表');
}

/** The service page's way back to its list: 返回云存储服务列表, 返回 CDN 服务列表. */
export function backToListText(kind: ServiceKind): string {
  return joinWords('返回', listTitle(kind));
}

/** The tab name for a kind and family: domains + Cdn → domainsCdn; live's domains tab is domainLive. */
export function tabName(kind: ServiceKind, family: TabFamily): string {
  if (kind === 'live' && family === 'domains') return 'domainLive';
  return family + KINDS[kind].suffix;
}

/** The tabs a bucket shows, honouring the live rules of spec 002 §2. */
export function tabsFor(kind: ServiceKind, bucketId: number, opts: { liveTransportFile?: boolean } = {}): TabFamily[] {
  return KINDS[kind].tabs.filter((t) => {
    if (kind !== 'live') return true;
    if ((t === 'advanced' || t === 'antileech') && bucketId > LIVE_TABS_HIDDEN_ABOVE_BUCKET_ID) return false;
    // only file-type (push) live services that are not the new live kind (ids above 1796095)
    if (t === 'streamMonitor' && (!opts.liveTransportFile || bucketId > LIVE_TABS_HIDDEN_ABOVE_BUCKET_ID)) return false;
    return true;
  });
}

/** Parse a tab name back to the kinds that own it and its family; null if unknown. */
export function parseTab(tab: string): { family: TabFamily; kinds: ServiceKind[] } | null {
  const kinds: ServiceKind[] = [];
  let family: TabFamily | null = null;
  for (const kind of SERVICE_KINDS) {
    for (const f of KINDS[kind].tabs) {
      if (tabName(kind, f) === tab) {
        kinds.push(kind);
        family = f;
      }
    }
  }
  return family ? { family, kinds } : null;
}

export function kindBySection(section: string): KindInfo | undefined {
  return Object.values(KINDS).find((k) => k.section === section);
}

/** Page sizes and other global constants (spec 000 §9). */
export const SERVICE_LIST_PAGE_SIZE = 10;
export const DOMAIN_LIST_PAGE_SIZE = 15;
export const LOGIN_CODE_RESEND_SECONDS = 60;
export const SMS_CODES_PER_DAY = 10;
export const SEARCH_DEBOUNCE_MS = 500;
export const SUCCESS_NOTICE_MS = 2000;
/** The query ranges offered beside a date range (spec 000 §9): 30 days, 3 months, 6 months. */
export const QUERY_RANGES = [
  { label: '近 30 天', amount: 30, unit: 'day' },
  { label: '近 3 个月', amount: 3, unit: 'month' },
  { label: '近 6 个月', amount: 6, unit: 'month' },
] as const;

/** The first day (YYYY-MM-DD) of a quick range that ends on `today` (included): 30 days back to day 29, a month to the day after. */
export function rangeStart(range: (typeof QUERY_RANGES)[number], today: string): string {
  const [y, m, d] = today.split('-').map(Number);
  const t = new Date(Date.UTC(y, m - 1, d));
  if (range.unit === 'day') t.setUTCDate(t.getUTCDate() - (range.amount - 1));
  else {
    const day = t.getUTCDate();
    t.setUTCDate(1);
    t.setUTCMonth(t.getUTCMonth() - range.amount);
    const last = new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth() + 1, 0)).getUTCDate();
    t.setUTCDate(Math.min(day, last) + 1);
  }
  return t.toISOString().slice(0, 10);
}
/** The lifetime of an alert message (spec 000 §9 "Alert message lifetime": 2000 ms). */
export const ALERT_TTL_MS = 2000;

/** Overseas creation needs this much balance (integer part), unless the account's switch is on (spec 000 §5). */
export const OVERSEAS_BALANCE_THRESHOLD = 399;
/** Kinds whose creation is blocked for key customers (spec 000 §5: "Creating file or CDN services"). */
export const LOCKED_CREATION_KINDS: readonly ServiceKind[] = ['file', 'cdn', 'scdn', 'fusion'];

/**
 * Whether an account may create a service of a kind: null, or the error code that refuses it.
 * One rule for the console (which disables and explains) and the server (which refuses).
 */
export function creationRefusal(
  kind: ServiceKind,
  account: { custom_prohibit_configuration: boolean; overseas_acceleration_switch: boolean; money: number },
): number | null {
  if (account.custom_prohibit_configuration && LOCKED_CREATION_KINDS.includes(kind)) return 21210;
  if (kind === 'overseas' && Math.trunc(account.money) < OVERSEAS_BALANCE_THRESHOLD && !account.overseas_acceleration_switch) return 21212;
  return null;
}
