/**
 * The vocabulary of statistics (spec 001 §2–§4, §9): flow types, carriers, regions, flow sources,
 * and the constants of the screens. Read by the server (validation, queries, seed) and the console.
 */
import type { ServiceKind } from '../services';

export const FLOW_TYPES = ['cdn', 'live', 'scdn', 'websocket', 'overseas', 'pcdn', 'mingmou'] as const;
export type FlowType = (typeof FLOW_TYPES)[number];

export const FLOW_TYPE_LABELS: Record<FlowType, string> = {
  cdn: 'CDN',
  live: '直播',
  scdn: 'SCDN',
  websocket: 'WebSocket',
  overseas: '海外加速',
  pcdn: 'PCDN',
  mingmou: '明眸 CDN/PCDN',
};

/**
 * Flow types as stored: pcdn has no rows of its own, it is the pcdn flow source (p_ columns) of the
 * account's CDN rows; the others are stored under their own name.
 */
export const STORED_FLOW_TYPES = ['cdn', 'live', 'scdn', 'websocket', 'overseas', 'mingmou'] as const;
export type StoredFlowType = (typeof STORED_FLOW_TYPES)[number];

/**
 * The stored flow type a service of a kind produces: storage is delivered by the CDN; fusion
 * services are the mingmou CDN/PCDN product (docs/statistics.md).
 */
export const KIND_FLOW_TYPE: Record<ServiceKind, StoredFlowType> = {
  file: 'cdn',
  cdn: 'cdn',
  fusion: 'mingmou',
  scdn: 'scdn',
  live: 'live',
  websocket: 'websocket',
  overseas: 'overseas',
};

/** Which service kinds a flow type's selector lists. mingmou runs on fusion services' domains. */
export const FLOW_TYPE_KINDS: Record<FlowType, ServiceKind[]> = {
  cdn: ['cdn', 'file'],
  pcdn: ['cdn', 'file'],
  live: ['live'],
  scdn: ['scdn'],
  websocket: ['websocket'],
  overseas: ['overseas'],
  mingmou: ['fusion'],
};

export const FLOW_SOURCES = ['cdn', 'backsource', 'pcdn'] as const;
export type FlowSource = (typeof FLOW_SOURCES)[number];
export const FLOW_SOURCE_LABELS: Record<FlowSource, string> = { cdn: '边缘访问', backsource: '回源', pcdn: 'PCDN' };

export const LIVE_TYPES = ['up', 'down'] as const;
export type LiveType = (typeof LIVE_TYPES)[number];
export const LIVE_TYPE_LABELS: Record<LiveType, string> = { up: '上行', down: '下行' };

export const MINGMOU_TYPES = ['cdn', 'pcdn'] as const;

/** Carriers in the order of spec 001 §9: telecom, mobile, unicom, small carriers. */
export const CARRIERS = ['ctn', 'cmn', 'cun', 'small_operator'] as const;
export type Carrier = (typeof CARRIERS)[number];
export const CARRIER_LABELS: Record<string, string> = {
  ctn: '电信',
  cmn: '移动',
  cun: '联通',
  small_operator: '小运营商',
  ttn: '铁通',
  edun: '教育网',
  sat: '卫星',
  drp: '鹏博士',
  wasu: '华数',
  ratn: '广电',
  bgctv: '歌华有线',
  bnc: '北方联合广电',
  other: '其他',
};
/** The small carriers summed under small_operator (spec 001 §3). */
export const SMALL_CARRIERS = ['ttn', 'edun', 'sat', 'drp', 'wasu', 'ratn', 'bgctv', 'bnc', 'other'] as const;

/** Mainland provinces, Hong Kong, Macau, Taiwan, and overseas areas (for overseas acceleration). */
export const REGIONS: Record<string, string> = {
  beijing: '北京', tianjin: '天津', hebei: '河北', shanxi: '山西', neimenggu: '内蒙古', liaoning: '辽宁', jilin: '吉林',
  heilongjiang: '黑龙江', shanghai: '上海', jiangsu: '江苏', zhejiang: '浙江', anhui: '安徽', fujian: '福建', jiangxi: '江西',
  shandong: '山东', henan: '河南', hubei: '湖北', hunan: '湖南', guangdong: '广东', guangxi: '广西', hainan: '海南',
  chongqing: '重庆', sichuan: '四川', guizhou: '贵州', yunnan: '云南', xizang: '西藏', shaanxi: '陕西', gansu: '甘肃',
  qinghai: '青海', ningxia: '宁夏', xinjiang: '新疆', hongkong: '香港', macau: '澳门', taiwan: '台湾',
  asia_pacific: '亚太', europe: '欧洲', north_america: '北美', south_america: '南美', africa: '非洲', oceania: '大洋洲',
};
export const OTHER_REGION = 'other';
export const OTHER_LABEL = '其他';

export function regionLabel(code: string): string {
  return code === OTHER_REGION ? OTHER_LABEL : (REGIONS[code] ?? code);
}
export function carrierLabel(code: string): string {
  return CARRIER_LABELS[code] ?? code;
}

/** Screen constants of spec 001 §9 and §5. */
export const STATS_REFRESH_MS = 300_000;
export const STATS_LOAD_DELAY_MS = 500;
export const STATS_SEARCH_DEBOUNCE_MS = 500;
export const SELECTOR_PAGE_SIZE = 10;
export const MULTI_SELECT_MAX = 100;
/**
 * Authorized-service sub-accounts (spec 001 §4): with nothing selected, up to 200 of their non-live
 * bucket binds are queried; they may choose fewer than 2 services themselves.
 */
export const AUTHORIZED_AUTOLOAD_LIMIT = 200;
export const AUTHORIZED_SELECT_MAX = 1;
/** The date picker reaches 182 days back (today is day 0). */
export const MAX_DAYS_BACK = 182;
export const SPAN_LIMIT_DAYS = 30;
/** In multi-select-over-limit mode the span may reach 91 days. */
export const SPAN_LIMIT_OVER_DAYS = 91;
/** More selected items than this is "over the limit" (ours: the spec does not show the count). */
export const SELECTION_OVER_LIMIT = 20;
/** Region share lists: top 10 plus "other"; the region pie shows 11; rankings 10. */
export const REGION_TOP = 10;
export const REGION_PIE_SLICES = 11;
/** Under a statistics chart that could not load (the error itself is a toast, §8). */
export const STATS_LOAD_FAILED_TEXT = '统计数据加载失败，请稍后刷新重试。';
export const NO_MATCH_TEXT = '未找到匹配项';
export const LINE_95_LABEL = '95 带宽峰值';

/** Bandwidth calculation types (spec 001 §9); MONTHLY_95 enables the 95 line. */
export const AMOUNT_CAL_TYPES = [
  'MONTHLY_95', 'DAILY_95', 'DAILY_95_AVERAGE', 'DAILY_BANDWIDTH', 'DAILY_HIGHEST', 'D_95',
  'TOP_1', 'TOP_2', 'TOP_3', 'TOP_4', 'TOP_5', 'TOP_6', 'TOP_7', 'TOP_8', 'TOP_9', 'HOURLY', 'DAILY', 'MONTHLY',
] as const;

/**
 * The 95 line shows only with no region or carrier, flow source cdn, flow type cdn and monthly-95
 * billing (spec 001 §4).
 */
export function shows95Line(p: { region?: string; isp?: string; flow_source?: string; flow_type?: string; amount_cal_type?: string | null }): boolean {
  return !p.region && !p.isp && (p.flow_source ?? 'cdn') === 'cdn' && (p.flow_type ?? 'cdn') === 'cdn' && p.amount_cal_type === 'MONTHLY_95';
}

/**
 * How long each traffic table keeps its rows, in days counted back from today (docs/statistics.md
 * "Retention"). The 5-minute rows reach three months back, so a month's 95th percentile can always
 * be computed from them; the daily tables cover the date picker's 182 days with room to spare.
 */
export const TRAFFIC_RETENTION_DAYS = {
  traffic_ingest: 3,
  traffic_5m: 93,
  traffic_1h: 186,
  traffic_geo_1h: 7,
  traffic_1d: 400,
  traffic_geo_1d: 400,
} as const;

/**
 * Back-to-origin traffic is counted per domain only for services whose origin Host follows the
 * accelerated domain (the origin setting's host left empty); otherwise only per service. In backsource
 * mode a domain selection that includes another service resets to the services (spec 001 §4
 * "Domain-follow check").
 */
export const BACKSOURCE_FOLLOW_TEXT = '所选域名所属服务的回源 Host 未跟随加速域名，回源统计已切换为按服务查询';
