/**
 * Bills as the API sends them and the console shows them (spec 001 §3 "Bill detail", §9 units and
 * rounding). The computation is on the server (src/server/billing/bills/compute.ts).
 */
import type { PriceConfig, PriceServiceType } from './price';

export const BILL_TYPES = ['DAY_BILL', 'MONTH_BILL'] as const;
export type BillType = (typeof BILL_TYPES)[number];
export const BILL_TYPE_LABELS: Record<BillType, string> = { DAY_BILL: '日账单', MONTH_BILL: '月账单' };
export const BILL_STATUS_LABELS: Record<string, string> = { UNSETTLED: '未结算', SETTLED: '已结算' };

/** Daily breakdown of a month bill (spec 001 §4, §9). */
export const DAY_BILLS_LIMIT = 31;
/** Bills before this day use the old layout, bandwidth divided by 1048576 (spec 001 §2.5, §9). */
export const OLD_LAYOUT_BEFORE = '2017-01-01';
export const OLD_BANDWIDTH_DIVISOR = 1048576;
/** ddos_attack's max_peak is in bit/s; shown in Gbps after dividing by 10^9 (spec 001 §9). */
export const DDOS_PEAK_DIVISOR = 1e9;
export const BILLS_PAGE_SIZE = 20;

/** One ladder step as used: how much of the usage fell in it and what it cost. */
export interface StepUse {
  min: number;
  max: number;
  unit_price: number;
  used: number;
  amount: number;
}

/** The 5-minute sample (or day peak) a bandwidth mode billed. */
export interface BilledSample {
  /** epoch seconds of the slot (CST shown) */
  time: number;
  /** Mbps */
  value: number;
  /** its rank from the highest (1 = the peak) */
  rank: number;
  /** samples or days considered, and how many were dropped from the top */
  count: number;
  dropped: number;
}

/** One charge of a service with its explanation (issue 8: "every bill line explains itself"). */
export interface BillLine {
  /** discharge | cheap_discharge | bandwidth | cheap_bandwidth | https | times | storage | live_upload */
  item: string;
  label: string;
  /** the usage in `unit` before packages */
  usage: number;
  unit: string;
  /** deducted from resource packages, in `unit` (ddos_attack:*: the instance's guaranteed protection) */
  package: number;
  /** what the ladder was applied to (usage − package, or the billed bandwidth) */
  billed: number;
  steps: StepUse[];
  /** yuan, 3 decimals, before the discount */
  amount: number;
  /** bandwidth modes: the billed sample, and the daily values for averages */
  sample?: BilledSample;
  daily?: { day: string; value: number; time?: number }[];
  /** a multiplier applied after the ladder (a month with partial days), with its reason */
  factor?: { value: number; reason: string };
  note?: string;
}

/** The usage keys of spec 001 §3 for one service, plus its lines. */
export interface ServiceBill {
  service_type: PriceServiceType;
  /** charged in this bill; false: shown for reference (charged on the day or month bill) */
  charged: boolean;
  used: Record<string, number | { bucket_name: string; peak: number }[] | { code: string; max_peak: number }[]>;
  lines: BillLine[];
  /** yuan before the discount, 3 decimals */
  amount: number;
  discount: number;
  /** yuan after the discount (what this bill charges for the service when `charged`) */
  total: number;
  note?: string;
}

export interface BillDetail {
  used: Partial<Record<PriceServiceType, ServiceBill>>;
  price_config: PriceConfig;
  /** the settlement: vouchers used, money taken, packages consumed */
  settlement?: { vouchers: { id: number; amount: number }[]; money: number; packages: { id: number; amount: number; unit: string }[] };
}

/** A bill in the list (GET /api/bills/). */
export interface BillSummary {
  id: string;
  type: BillType;
  /** epoch seconds */
  start_time: number;
  end_time: number;
  /** yuan, 3 decimals: the computed amount and what was paid from the balance */
  original: number;
  voucher_deduct: number;
  settlement: number;
  status: string;
  /** billed bandwidth (Mbps) per service type billed by bandwidth: the daily bandwidth detail of a month */
  bandwidth: Record<string, number>;
}

export interface BillFull extends BillSummary {
  detail: BillDetail;
}

/** The groups of the bill detail (spec 001 §2.6). */
export const BILL_GROUPS: { key: string; label: string; types: PriceServiceType[] }[] = [
  { key: 'basic', label: '基础云服务', types: ['cdn', 'file', 'fusion', 'websocket', 'overseas', 'https', 'ucdn', 'storage'] },
  { key: 'live', label: '直播服务', types: ['live'] },
  { key: 'media', label: '音视频处理', types: ['media'] },
  { key: 'ddos', label: 'DDoS 防护', types: ['ddos'] },
  { key: 'scdn', label: 'SCDN 防护', types: ['scdn'] },
  { key: 'other', label: '其他服务', types: ['sms', 'oneclicklogin', 'blockchain'] },
];

/** Usage and fees: 3 decimals (spec 001 §9). */
export function round3(v: number): number {
  return Math.round((v + Number.EPSILON) * 1000) / 1000;
}
export function fixed3(v: number): string {
  return round3(v).toFixed(3);
}

/** Bill ids start with the period's first day: YYYYMMDD, then D or M, then the account id. */
export function billId(day: string, type: BillType, accountId: number): string {
  return `${day.replace(/-/g, '')}${type === 'DAY_BILL' ? 'D' : 'M'}${accountId}`;
}
export const BILL_ID_RE = /^(\d{4})(\d{2})(\d{2})[DM]\d+$/;
/** The day a bill id starts with, 'YYYY-MM-DD', or null. */
export function billDay(id: string): string | null {
  const m = BILL_ID_RE.exec(id);
  return m ? `${m[1]}-${m[2]}-${m[3]}` : null;
}
export function isOldLayout(id: string): boolean {
  const d = billDay(id);
  return d !== null && d < OLD_LAYOUT_BEFORE;
}
