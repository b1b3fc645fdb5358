/**
 * Units of spec 001 §9: bytes are 1024-based (B … TB), bandwidth 1000-based (bps … Tbps, default
 * Kbps), request counts in the natural Chinese units 次 / 万次 / 亿次 (issue 20; spec 001 §9 names only the
 * rate units, below); values rounded to 3 decimals; the axis maximum is
 * 1.1 × the peak in the chosen unit, rounded up, at least 1.
 */
export interface Unit {
  label: string;
  factor: number;
}

export const BYTE_UNITS: Unit[] = [
  { label: 'B', factor: 1 },
  { label: 'KB', factor: 1024 },
  { label: 'MB', factor: 1024 ** 2 },
  { label: 'GB', factor: 1024 ** 3 },
  { label: 'TB', factor: 1024 ** 4 },
];

/** Bandwidth in bits per second; the smallest unit shown is Kbps (the default unit). */
export const BANDWIDTH_UNITS: Unit[] = [
  { label: 'Kbps', factor: 1e3 },
  { label: 'Mbps', factor: 1e6 },
  { label: 'Gbps', factor: 1e9 },
  { label: 'Tbps', factor: 1e12 },
];

export const REQUEST_UNITS: Unit[] = [
  { label: '次', factor: 1 },
  { label: '万次', factor: 1e4 },
  { label: '亿次', factor: 1e8 },
];

/** Spec 001 §9: "per second, thousand, ten-thousand, ten-million per second". */
export const RATE_UNITS: Unit[] = [
  { label: '次/秒', factor: 1 },
  { label: '千次/秒', factor: 1e3 },
  { label: '万次/秒', factor: 1e4 },
  { label: '千万次/秒', factor: 1e7 },
];

/** Rounded to 3 decimals (spec 001 §9). */
export function round3(v: number): number {
  return Math.round(v * 1000) / 1000;
}

/** The largest unit in which the value is at least 1 (the first unit for 0 and values below it). */
export function pickUnit(value: number, units: Unit[]): Unit {
  let u = units[0];
  for (const x of units) if (Math.abs(value) >= x.factor) u = x;
  return u;
}

/** A value in a unit, 3 decimals. */
export function inUnit(value: number, unit: Unit): number {
  return round3(value / unit.factor);
}

/** '1.234 GB' — a value in its own best unit. */
export function formatIn(value: number, units: Unit[]): string {
  const u = pickUnit(value, units);
  return `${inUnit(value, u)} ${u.label}`;
}

export const formatBytes = (bytes: number) => formatIn(bytes, BYTE_UNITS);
export const formatBandwidth = (bps: number) => formatIn(bps, BANDWIDTH_UNITS);
export const formatRequests = (n: number) => formatIn(n, REQUEST_UNITS);

/** Axis maximum: 1.1 × the peak, rounded up, at least `min` (1; the attack chart uses 2). */
export function axisMax(peak: number, min = 1): number {
  if (!Number.isFinite(peak) || peak <= 0) return min;
  return Math.max(min, Math.ceil(round3(peak * 1.1)));
}

/** Health percentages: two decimals. */
export function percent2(part: number, whole: number): number {
  if (!whole) return 0;
  return Math.round((part / whole) * 10000) / 100;
}

/** Bits per second of a byte count over a number of seconds. */
export function bandwidthOf(bytes: number, seconds: number): number {
  return seconds > 0 ? (bytes * 8) / seconds : 0;
}
