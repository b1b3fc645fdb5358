/** Vouchers (spec 001 §3, §4). */
export const VOUCHER_STATUSES = ['USING', 'USED', 'EXPIRED'] as const;
export type VoucherStatus = (typeof VOUCHER_STATUSES)[number];
export const VOUCHER_STATUS_LABELS: Record<VoucherStatus, string> = { USING: '可使用', USED: '已用完', EXPIRED: '已过期' };

export interface Voucher {
  id: number;
  value: number;
  remain: number;
  used: number;
  /** epoch seconds */
  expired_at: number;
  created_at: number;
  source: string;
  remark: string | null;
  status: VoucherStatus;
}

/**
 * The status derived on display (spec 001 §4), later rules overriding earlier ones: USING when remain
 * is at most value; USED when remain is 0; EXPIRED when expired_at is earlier than now.
 */
export function voucherStatus(v: { value: number; remain: number; expired_at: number }, nowS: number): VoucherStatus {
  let status: VoucherStatus = 'USING';
  if (v.remain <= v.value) status = 'USING';
  if (v.remain === 0) status = 'USED';
  if (v.expired_at < nowS) status = 'EXPIRED';
  return status;
}

export const VOUCHERS_PAGE_SIZE = 10;
/** The activation code's pattern and messages are the declaration's: schemas/forms/voucher_activate/. */
/** Wrong activation codes allowed per account and hour before 22104. */
export const TICKET_TRIES_PER_HOUR = 10;
export const VOUCHER_SOURCE_LABELS: Record<string, string> = { activation: '券码激活', rebate: '返利兑换', platform: '平台赠送', compensation: '补偿' };
