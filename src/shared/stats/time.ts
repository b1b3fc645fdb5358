/**
 * Calendar arithmetic for statistics. The product's days are China Standard Time days
 * (UTC+8, no daylight saving), whatever the time zone of the server or the browser, so
 * both sides compute them with plain epoch arithmetic instead of the host's zone.
 */
export const TZ_OFFSET_S = 8 * 3600;
export const DAY_S = 86400;
export const HOUR_S = 3600;
export const SLOT_S = 300;

const DAY_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** 'YYYY-MM-DD' (CST) → the epoch second of its midnight, or null when it is not a real date. */
export function dayStart(day: string): number | null {
  const m = DAY_RE.exec(day);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const ms = Date.UTC(y, mo - 1, d);
  const back = new Date(ms);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) return null;
  return ms / 1000 - TZ_OFFSET_S;
}

/** The CST day of an epoch second, 'YYYY-MM-DD'. */
export function dayOf(epochS: number): string {
  return new Date((epochS + TZ_OFFSET_S) * 1000).toISOString().slice(0, 10);
}

/** Midnight (CST) of the day holding an epoch second. */
export function midnightOf(epochS: number): number {
  return Math.floor((epochS + TZ_OFFSET_S) / DAY_S) * DAY_S - TZ_OFFSET_S;
}

/** 'YYYY-MM-DD' plus n days. */
export function addDays(day: string, n: number): string {
  return dayOf((dayStart(day) as number) + n * DAY_S + 1);
}

/** Whole days from a to b ('YYYY-MM-DD'), b − a. */
export function daysBetween(a: string, b: string): number {
  return Math.round(((dayStart(b) as number) - (dayStart(a) as number)) / DAY_S);
}

/** 'YYYY-MM-DD HH:mm:ss' (CST) of an epoch second: the date format of spec 001 §9. */
export function formatTime(epochS: number, withSeconds = true): string {
  const iso = new Date((epochS + TZ_OFFSET_S) * 1000).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, withSeconds ? 19 : 16)}`;
}

/** 'HH:mm' (CST). */
export function formatClock(epochS: number): string {
  return new Date((epochS + TZ_OFFSET_S) * 1000).toISOString().slice(11, 16);
}

/** Floor an epoch second to its 5-minute slot, hour or CST day. */
export function floorTo(epochS: number, step: number): number {
  if (step >= DAY_S) return midnightOf(epochS);
  return Math.floor(epochS / step) * step;
}
