/** Certificate facts both sides use. */

/** Upload statuses of spec 002 §4: 0 parsed, 1 parse failed, 2 already exists, 3 expired, 4 key mismatch. */
export const CERT_STATUS = { OK: 0, PARSE_FAILED: 1, EXISTS: 2, EXPIRED: 3, KEY_MISMATCH: 4 } as const;

/**
 * Whether a certificate's names cover a domain: an exact name, or a wildcard one level deep
 * (*.example.com covers www.example.com, not example.com nor a.b.example.com).
 */
export function covers(names: string[], domain: string): boolean {
  const d = domain.toLowerCase();
  return names.some((raw) => {
    const n = raw.toLowerCase();
    if (n === d) return true;
    if (!n.startsWith('*.')) return false;
    const rest = n.slice(2);
    const dot = d.indexOf('.');
    return dot > 0 && d.slice(dot + 1) === rest;
  });
}

/** Whole days from now until a date (negative once expired). */
export function daysLeft(validTo: string | Date, now = Date.now()): number {
  return Math.floor((new Date(validTo).getTime() - now) / 86_400_000);
}

export interface CertificateInfo {
  certificate_id: number;
  common_name: string;
  domains: string[];
  issuer: string;
  serial: string;
  fingerprint: string;
  valid_from: string;
  valid_to: string;
  days_left: number;
  gm: boolean;
  remark: string | null;
  created_at: string;
  /** domains of the account's services using it */
  bound?: string[];
}
