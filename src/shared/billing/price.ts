/**
 * The price configuration of an account (spec 001 §3 "Bill detail … detail.price_config", issue 8):
 * per service type its billing period, how the amount is calculated, the charged dimension, the ladder
 * of unit prices per region, and the cheaper-node variant. Read by the server (bills, GET
 * /api/accounts/price_config, the platform command) and the console (bill detail). docs/billing.md
 * "Prices" says where each default figure comes from.
 */

/** A ladder step's open end (spec 001 §9: a max equal to the largest safe integer has no upper bound). */
export const UNBOUNDED = Number.MAX_SAFE_INTEGER;

export interface LadderStep {
  /** in the dimension's unit: GB (traffic, storage), Mbps (bandwidth), 万次 (counts) */
  min: number;
  max: number;
  /** yuan per unit: per GB, per Mbps for the period (month or day), per 万次, per GB-month */
  unit_price: number;
}
export type Ladder = LadderStep[];

export const REGIONS = ['domestic', 'asia_pacific', 'other'] as const;
export type Region = (typeof REGIONS)[number];
export const REGION_LABELS: Record<Region, string> = { domestic: '中国大陆', asia_pacific: '亚太地区', other: '欧美及其他地区' };

/** Bandwidth modes (spec 001 §9). */
export const BANDWIDTH_CAL_TYPES = ['MONTHLY_95', 'DAILY_95', 'DAILY_95_AVERAGE', 'DAILY_BANDWIDTH', 'DAILY_HIGHEST', 'D_95', 'TOP_1', 'TOP_2', 'TOP_3', 'TOP_4', 'TOP_5', 'TOP_6', 'TOP_7', 'TOP_8', 'TOP_9'] as const;
/** Traffic and count modes (spec 001 §9). */
export const VOLUME_CAL_TYPES = ['HOURLY', 'DAILY', 'MONTHLY'] as const;
export const AMOUNT_CAL_TYPES = [...BANDWIDTH_CAL_TYPES, ...VOLUME_CAL_TYPES] as const;
export type AmountCalType = (typeof AMOUNT_CAL_TYPES)[number];

export const AMOUNT_CAL_LABELS: Record<AmountCalType, string> = {
  MONTHLY_95: '月 95 带宽',
  DAILY_95: '日 95 带宽',
  DAILY_95_AVERAGE: '日 95 带宽月平均',
  DAILY_BANDWIDTH: '日峰值带宽月平均',
  DAILY_HIGHEST: '日峰值带宽',
  D_95: '自然日 95 带宽',
  TOP_1: '月第 1 峰值带宽',
  TOP_2: '月第 2 峰值带宽',
  TOP_3: '月第 3 峰值带宽',
  TOP_4: '月第 4 峰值带宽',
  TOP_5: '月第 5 峰值带宽',
  TOP_6: '月第 6 峰值带宽',
  TOP_7: '月第 7 峰值带宽',
  TOP_8: '月第 8 峰值带宽',
  TOP_9: '月第 9 峰值带宽',
  HOURLY: '按小时流量',
  DAILY: '按日流量',
  MONTHLY: '按月流量',
};

/** Modes charged on the day bill; every other mode is charged on the month bill. */
export const DAILY_CAL_TYPES: readonly AmountCalType[] = ['DAILY_95', 'DAILY_HIGHEST', 'HOURLY', 'DAILY'];
export function periodOf(type: AmountCalType): 'DAY' | 'MONTH' {
  return DAILY_CAL_TYPES.includes(type) ? 'DAY' : 'MONTH';
}
export function isBandwidthMode(type: string): boolean {
  return (BANDWIDTH_CAL_TYPES as readonly string[]).includes(type);
}

/**
 * Price service types: the service kinds (their traffic or bandwidth), plus the request charges that
 * every kind's requests pay (https: HTTPS requests; ucdn: dynamic requests) and storage of file services,
 * and the external products' reported usage beyond their packages (sms, oneclicklogin, blockchain).
 */
export const PRICE_SERVICE_TYPES = ['cdn', 'file', 'fusion', 'scdn', 'live', 'websocket', 'overseas', 'https', 'ucdn', 'storage', 'media', 'ddos', 'sms', 'oneclicklogin', 'blockchain'] as const;
export type PriceServiceType = (typeof PRICE_SERVICE_TYPES)[number];
export const SERVICE_TYPE_LABELS: Record<PriceServiceType, string> = {
  cdn: 'CDN',
  file: '云存储流量',
  fusion: '明眸 CDN/PCDN',
  scdn: 'SCDN',
  live: '直播',
  websocket: 'WebSocket',
  overseas: '海外加速',
  https: 'HTTPS 请求',
  ucdn: '动态加速请求',
  storage: '云存储空间',
  media: '音视频处理',
  ddos: 'DDoS 弹性防护',
  sms: '短信服务',
  oneclicklogin: '一键登录',
  blockchain: '区块链存证',
};

export type ChargeDimension = 'discharge' | 'bandwidth' | 'times' | 'storage' | 'minutes' | 'attack_peak';

export interface ServicePriceConfig {
  service_type: PriceServiceType;
  /** DAY: charged on each day bill; MONTH: on the month bill (follows amount_cal_type) */
  period_bill_type: 'DAY' | 'MONTH';
  amount_cal_type: AmountCalType;
  charge_dimension: ChargeDimension;
  /** storage: the month's free tier is deducted (the ladder's first step at 0 yuan) — kept for spec 001 §3 */
  storage_deduction: boolean;
  /** per cent paid (100: no discount; spec 001 §9 shows 100 empty, multiples of 10 divided by 10) */
  discount: number;
  /** the domestic ladder (spec 001 §3 field), same as regions.domestic */
  unit_price_ladder: Ladder;
  regions: Record<Region, Ladder>;
  /** the cheaper-node variant: PCDN traffic or bandwidth of the service; null when not offered */
  cheap_unit_price_ladder: Ladder | null;
  /** media only: yuan per minute of output (per task for the keys of PER_TASK_MEDIA_KEYS) per usage key */
  processing?: Record<string, number>;
  /**
   * scdn only: the ladder of the day's attack peak per service, Gbps (docs/billing.md "Security");
   * ddos's own ladder (unit_price_ladder) prices the peak above an instance's guaranteed protection.
   */
  attack_ladder?: Ladder;
  /**
   * overseas only: guaranteed acceleration domains (spec 001 §3 overseas_acceleration_guaranteed_*),
   * priced per domain-day at price_month / days of the month; billed only when enabled for the account.
   */
  guaranteed_domain?: GuaranteedDomainPrice;
}
export interface GuaranteedDomainPrice {
  enabled: boolean;
  /** yuan per domain per month */
  price_month: number;
}
/** Guaranteed overseas acceleration: 300 yuan per domain-month (ours, docs/billing.md "Overseas guaranteed domains"). */
export const DEFAULT_GUARANTEED_DOMAIN_PRICE = 300;
export type PriceConfig = Partial<Record<PriceServiceType, ServicePriceConfig>>;

const flat = (p: number): Ladder => [{ min: 0, max: UNBOUNDED, unit_price: p }];
/** traffic per GB: mainland 0.29, Asia-Pacific 0.89, Europe/Americas 0.39 (provider-facts.md) */
const TRAFFIC = { domestic: flat(0.29), asia_pacific: flat(0.89), other: flat(0.39) };

function traffic(type: PriceServiceType): ServicePriceConfig {
  return { service_type: type, period_bill_type: 'DAY', amount_cal_type: 'DAILY', charge_dimension: 'discharge', storage_deduction: false, discount: 100, unit_price_ladder: TRAFFIC.domestic, regions: TRAFFIC, cheap_unit_price_ladder: flat(0.2) };
}

/**
 * DDoS elastic protection (ours, docs/billing.md "Security"): the day's attack peak of an instance above
 * its package's guaranteed protection, in Gbps, priced step by step per Gbps-day: the first 20 Gbps
 * above the guarantee 80 yuan each, the next 30 Gbps 60 yuan, beyond 50 Gbps 40 yuan.
 */
export const DDOS_ELASTIC_LADDER: Ladder = [
  { min: 0, max: 20, unit_price: 80 },
  { min: 20, max: 50, unit_price: 60 },
  { min: 50, max: UNBOUNDED, unit_price: 40 },
];
/**
 * SCDN attack protection (ours, docs/billing.md "Security"): the day's attack peak of a security-CDN
 * service in Gbps, the first 10 Gbps free (included in the SCDN service), then 50 yuan per Gbps-day up
 * to 50 Gbps and 30 yuan beyond.
 */
export const SCDN_ATTACK_LADDER: Ladder = [
  { min: 0, max: 10, unit_price: 0 },
  { min: 10, max: 50, unit_price: 50 },
  { min: 50, max: UNBOUNDED, unit_price: 30 },
];

/**
 * The external products' usage beyond their packages, yuan per 条 / 次 (ours, docs/billing.md "Usage
 * reported by the external products"): a little above the packages' own unit prices (0.045, 0.03, 0.02).
 */
export const EXTERNAL_UNIT_PRICES = { sms: 0.05, oneclicklogin: 0.035, blockchain: 0.025 } as const;
function perUnit(type: PriceServiceType, price: number): ServicePriceConfig {
  return { service_type: type, period_bill_type: 'DAY', amount_cal_type: 'DAILY', charge_dimension: 'times', storage_deduction: false, discount: 100, unit_price_ladder: flat(price), regions: { domestic: flat(price), asia_pacific: flat(price), other: flat(price) }, cheap_unit_price_ladder: null };
}

/**
 * The price configuration an account has when the platform set nothing: the published list prices of
 * provider-facts.md (traffic by GB, HTTPS per 万次 0.05/0.15/0.07, dynamic requests 0.02 per thousand =
 * 0.2 per 万次); storage 0.099 yuan per GB-month and the cheaper-node traffic 0.2 yuan per GB are ours.
 */
export function defaultPriceConfig(): Required<PriceConfig> {
  return {
    cdn: traffic('cdn'),
    file: traffic('file'),
    fusion: traffic('fusion'),
    scdn: { ...traffic('scdn'), attack_ladder: SCDN_ATTACK_LADDER },
    live: traffic('live'),
    websocket: traffic('websocket'),
    overseas: { ...traffic('overseas'), unit_price_ladder: TRAFFIC.asia_pacific, guaranteed_domain: { enabled: false, price_month: DEFAULT_GUARANTEED_DOMAIN_PRICE } },
    https: { service_type: 'https', period_bill_type: 'DAY', amount_cal_type: 'DAILY', charge_dimension: 'times', storage_deduction: false, discount: 100, unit_price_ladder: flat(0.05), regions: { domestic: flat(0.05), asia_pacific: flat(0.15), other: flat(0.07) }, cheap_unit_price_ladder: null },
    ucdn: { service_type: 'ucdn', period_bill_type: 'DAY', amount_cal_type: 'DAILY', charge_dimension: 'times', storage_deduction: false, discount: 100, unit_price_ladder: flat(0.2), regions: { domestic: flat(0.2), asia_pacific: flat(0.6), other: flat(0.3) }, cheap_unit_price_ladder: null },
    media: { service_type: 'media', period_bill_type: 'DAY', amount_cal_type: 'DAILY', charge_dimension: 'minutes', storage_deduction: false, discount: 100, unit_price_ladder: flat(0), regions: { domestic: flat(0), asia_pacific: flat(0), other: flat(0) }, cheap_unit_price_ladder: null, processing: { ...DEFAULT_PROCESSING_PRICES } },
    ddos: { service_type: 'ddos', period_bill_type: 'DAY', amount_cal_type: 'DAILY_HIGHEST', charge_dimension: 'attack_peak', storage_deduction: false, discount: 100, unit_price_ladder: DDOS_ELASTIC_LADDER, regions: { domestic: DDOS_ELASTIC_LADDER, asia_pacific: DDOS_ELASTIC_LADDER, other: DDOS_ELASTIC_LADDER }, cheap_unit_price_ladder: null },
    sms: perUnit('sms', EXTERNAL_UNIT_PRICES.sms),
    oneclicklogin: perUnit('oneclicklogin', EXTERNAL_UNIT_PRICES.oneclicklogin),
    blockchain: perUnit('blockchain', EXTERNAL_UNIT_PRICES.blockchain),
    storage: { service_type: 'storage', period_bill_type: 'DAY', amount_cal_type: 'DAILY', charge_dimension: 'storage', storage_deduction: false, discount: 100, unit_price_ladder: flat(0.099), regions: { domestic: flat(0.099), asia_pacific: flat(0.099), other: flat(0.099) }, cheap_unit_price_ladder: null },
  };
}

/**
 * Audio/video processing (the media worker's usage keys, spec 001 §3 video_* / audio_*; docs/billing.md
 * "Audio and video processing"). Prices are ours (the provider facts are silent): yuan per minute of
 * output by the output's resolution class for the re-encoding tasks, per minute for the others, per
 * task for thumbnails and probes.
 */
export const MEDIA_RESOLUTIONS = ['lt480p', 'gte480p', 'gte720p', 'gte1080p'] as const;
export const MEDIA_RESOLUTION_LABELS: Record<string, string> = { lt480p: '480P 以下', gte480p: '480P', gte720p: '720P', gte1080p: '1080P 及以上' };
const BY_RESOLUTION: Record<(typeof MEDIA_RESOLUTIONS)[number], number> = { lt480p: 0.025, gte480p: 0.05, gte720p: 0.1, gte1080p: 0.2 };
export const MEDIA_TASK_LABELS: Record<string, string> = {
  video_transcode: '视频转码',
  video_hls: '视频切片（HLS）',
  video_watermark: '视频水印',
  video_clip: '视频剪辑',
  video_vconcat: '视频拼接',
  video_thumbnail: '视频截图',
  audio_transcode_sync: '音频同步转码',
  audio_transcode_async: '音频转码',
  audio_clip: '音频剪辑',
  audio_aconcat: '音频拼接',
  probe: '音视频元信息',
};
export const DEFAULT_PROCESSING_PRICES: Record<string, number> = {
  ...Object.fromEntries(['video_transcode', 'video_hls', 'video_watermark', 'video_clip'].flatMap((k) => MEDIA_RESOLUTIONS.map((r) => [`${k}_${r}`, BY_RESOLUTION[r]]))),
  video_vconcat: 0.05,
  video_thumbnail: 0.001,
  audio_transcode_sync: 0.01,
  audio_transcode_async: 0.01,
  audio_clip: 0.005,
  audio_aconcat: 0.005,
  probe: 0,
};
/** Keys billed per task (their minutes are 0); every other key per minute of output. */
export const PER_TASK_MEDIA_KEYS: readonly string[] = ['video_thumbnail', 'probe'];
/** Keys whose minutes a transcode package (resource_packages kind transcode) covers before money. */
export function transcodePackageCovers(key: string): boolean {
  return /^(video_transcode_|video_hls_|audio_transcode_)/.test(key);
}
export const MEDIA_KEY_RE = /^((video|audio)_[a-z0-9_]+|probe)$/;
/** "视频转码 1080P 及以上" for video_transcode_gte1080p; unknown keys as they are. */
export function mediaKeyLabel(key: string): string {
  if (MEDIA_TASK_LABELS[key]) return MEDIA_TASK_LABELS[key];
  const m = /^(.+)_(lt480p|gte480p|gte720p|gte1080p)$/.exec(key);
  if (m && MEDIA_TASK_LABELS[m[1]]) return `${MEDIA_TASK_LABELS[m[1]]} ${MEDIA_RESOLUTION_LABELS[m[2]]}`;
  return key;
}

/** Default bandwidth prices when an account is switched to a bandwidth mode without a ladder (ours). */
export const DEFAULT_BANDWIDTH_LADDER: { month: Ladder; day: Ladder } = { month: flat(30), day: flat(1.2) };

/**
 * The region whose ladder a service kind's usage pays by default: the domestic kinds `domestic`,
 * `overseas` `asia_pacific` — except its traffic from the statistics regions of OVERSEAS_OTHER_REGIONS,
 * which pays `other` (overseasRegionOf; docs/billing.md "Regions").
 */
export function regionOf(type: PriceServiceType): Region {
  return type === 'overseas' ? 'asia_pacific' : 'domestic';
}

/** Statistics regions of overseas traffic billed at the `other` (Europe and the Americas) ladder (provider facts: 0.39 per GB). */
export const OVERSEAS_OTHER_REGIONS = ['europe', 'north_america', 'south_america', 'africa'] as const;

/** The price region of overseas traffic from a statistics region: Europe, the Americas and Africa `other`, every other (Asia-Pacific, Oceania, unknown) `asia_pacific`. */
export function overseasRegionOf(statsRegion: string): Region {
  return (OVERSEAS_OTHER_REGIONS as readonly string[]).includes(statsRegion) ? 'other' : 'asia_pacific';
}

/** A ladder is valid when steps start at 0, follow each other without gaps, end unbounded and cost ≥ 0. */
export function ladderProblem(ladder: unknown): string | null {
  if (!Array.isArray(ladder) || ladder.length === 0) return '阶梯价格至少包含一级';
  let expect = 0;
  for (const [i, s] of ladder.entries()) {
    if (!s || typeof s.min !== 'number' || typeof s.max !== 'number' || typeof s.unit_price !== 'number') return `第 ${i + 1} 级缺少 min、max 或 unit_price`;
    if (s.min !== expect) return `第 ${i + 1} 级的 min 应为 ${expect}`;
    if (!(s.max > s.min)) return `第 ${i + 1} 级的 max 应大于 min`;
    if (!(s.unit_price >= 0)) return `第 ${i + 1} 级的单价不能为负`;
    expect = s.max;
  }
  if (expect !== UNBOUNDED) return `最后一级的 max 应为 ${UNBOUNDED}（不封顶）`;
  return null;
}

/** Discount display of spec 001 §9: 100 empty, a multiple of 10 divided by 10 (80 → "8 折"), else "85 折". */
export function discountText(discount: number): string {
  if (discount === 100) return '';
  return discount % 10 === 0 ? `${discount / 10} 折` : `${discount} 折`;
}
