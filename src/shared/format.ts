/**
 * Sizes are 1024-based with 3 decimals (spec 000 §9); the one implementation is the statistics'
 * formatBytes (src/shared/stats/units.ts), bandwidth is formatBandwidth there (1000-based).
 */
import { TZ_OFFSET_S } from './stats/time';

export { formatBytes as formatSize, formatBandwidth } from './stats/units';

/** The shapes a time is shown in (spec 001 §9's date format and its shorter forms). */
export type TimeShape = 'YYYY-MM-DD HH:mm:ss' | 'YYYY-MM-DD HH:mm' | 'YYYY-MM-DD' | 'MM-DD HH:mm' | 'MM-DD' | 'HH:mm';

const ZONELESS = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/;

/**
 * Every time a customer reads, in China Standard Time (UTC+8, no daylight saving — the provider's
 * time), whatever the time zone of the browser or the server: an ISO string or Date from the API, or
 * epoch seconds (the statistics' and messages' times). A date-time without a zone is already CST.
 * Nothing (null, '', an unreadable value) shows as '-'.
 */
export function formatAt(value: string | number | Date | null | undefined, shape: TimeShape = 'YYYY-MM-DD HH:mm:ss'): string {
  if (value === null || value === undefined || value === '') return '-';
  const ms = typeof value === 'number' ? value * 1000 : value instanceof Date ? value.getTime() : Date.parse(ZONELESS.test(value) ? `${value.replace(' ', 'T')}+08:00` : value);
  if (!Number.isFinite(ms)) return '-';
  const iso = new Date(ms + TZ_OFFSET_S * 1000).toISOString();
  const [date, time] = [iso.slice(0, 10), iso.slice(11, 19)];
  switch (shape) {
    case 'YYYY-MM-DD HH:mm:ss':
      return `${date} ${time}`;
    case 'YYYY-MM-DD HH:mm':
      return `${date} ${time.slice(0, 5)}`;
    case 'YYYY-MM-DD':
      return date;
    case 'MM-DD HH:mm':
      return `${date.slice(5)} ${time.slice(0, 5)}`;
    case 'MM-DD':
      return date.slice(5);
    case 'HH:mm':
      return time.slice(0, 5);
  }
}

/**
 * Money the customer reads (balances, prices, payments, deductions, vouchers, rebates): yuan with two
 * decimals and comma thousands separators, one style everywhere — "1,288.50". The bills' usage fees
 * keep spec 001 §9's three decimals (formatFee).
 */
export function formatMoney(yuan: number): string {
  return yuan.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

/** A bill's usage fee: three decimals (spec 001 §9 "Usage and fees 3 decimals"), the same separators. */
export function formatFee(yuan: number): string {
  return yuan.toLocaleString('en-US', { minimumFractionDigits: 3, maximumFractionDigits: 3 });
}

/** Counts (条, 次, 张, 个): integers with the same comma thousands separators as money. */
export function formatCount(n: number): string {
  return n.toLocaleString('en-US', { maximumFractionDigits: 0 });
}
