/**
 * Money in the billing centre (spec 001 §2.5–§2.6, §3–§9; docs/billing-money.md): recharge and
 * payment, orders, invoices, rebates and payees. Limits, labels and texts read by both the console
 * and the server. The payee form's own rules and messages live in its declaration
 * (schemas/forms/payee/).
 */
import { errorText } from './errors';

/** Payment methods of the chooser (spec 001 §2.6: balance and alipay only), in display order. */
export const PAY_METHODS = ['balance', 'alipay'] as const;
export type PayMethod = (typeof PAY_METHODS)[number];
export const PAY_METHOD_LABELS: Record<PayMethod, string> = { balance: '余额支付', alipay: '支付宝' };

/** The active choice falls back to the first supported method (spec 001 §2.6). */
export function activePayMethod(supported: readonly PayMethod[], wanted?: string | null): PayMethod | undefined {
  const usable = PAY_METHODS.filter((m) => supported.includes(m));
  return usable.find((m) => m === wanted) ?? usable[0];
}

/** The QR-code widget's defaults (spec 001 §2.6). */
export const QR_DEFAULTS = { size: 256, level: 'M', logoSize: 20 } as const;

/** Recharge amounts (yuan): at least 1, at most 1,000,000, 2 decimals. */
export const RECHARGE_MIN = 1;
export const RECHARGE_MAX = 1_000_000;
/** The recharge amount's rule, as the charge page shows it and POST /api/orders/recharge refuses with it. */
export const RECHARGE_AMOUNT_TEXT = `请填写 ${RECHARGE_MIN} - ${RECHARGE_MAX} 元之间的金额，最多两位小数`;
/** Preset amounts of the charge page. */
export const RECHARGE_PRESETS = [100, 500, 1000, 5000];

/**
 * The recharge discount (GET /orders/recharge/discount; fields not in the spec, ours): a recharge of at
 * least `min` yuan adds `rate` percent of it as gift money (money grows, actual_charge by the paid amount).
 */
export interface RechargeDiscount {
  min: number;
  rate: number;
}
export const RECHARGE_DISCOUNTS: RechargeDiscount[] = [
  { min: 5000, rate: 2 },
  { min: 20000, rate: 5 },
];

/** The gift (yuan, 2 decimals) a recharge of `amount` earns. */
export function rechargeGift(amount: number, tiers: RechargeDiscount[] = RECHARGE_DISCOUNTS): number {
  const tier = [...tiers].sort((a, b) => b.min - a.min).find((t) => amount >= t.min);
  return tier ? Math.floor(amount * tier.rate) / 100 : 0;
}

/** Orders (spec 001 §7 GET /api/v2/orders/); the history always asks for status=success. */
export const ORDER_STATUSES = { pending: '待支付', success: '已支付', closed: '已关闭' } as const;
export type OrderStatus = keyof typeof ORDER_STATUSES;
export const ORDER_KIND_LABELS: Record<string, string> = {
  recharge: '账户充值',
  resource: '资源包',
  certificate: 'SSL 证书',
  ddos: 'DDoS 防护',
  scdn: 'SCDN 防护',
};
export interface OrderRow {
  order_no: string;
  kind: string;
  title: string;
  amount: number;
  gift: number;
  pay_method: PayMethod | null;
  status: OrderStatus;
  /** unix seconds */
  created_at: number;
  paid_at: number | null;
}
export const ORDERS_PAGE_SIZE = 20;
/** "End-date filters for orders, vouchers and resources add one day (86400 seconds)" (spec 001 §7). */
export const END_DATE_EXTRA_SECONDS = 86400;

/** The pay confirmation (spec 001 §7): an SMS code to the account's mobile, resent after 60 s. */
export const PAY_CODE_RESEND_SECONDS = 60;
export const PAY_CODE_TTL_SECONDS = 300;
export const PAY_CODE_MAX_ATTEMPTS = 5;

/** Insufficient balance (222xx): the message shows the amount to top up with a link (spec 001 §2.6, §8). */
export const CHARGE_PATH = '/billing/charge/';
export function topUpText(need: number): string {
  return `账户余额不足，还需充值 ${need.toFixed(2)} 元`;
}

// ---- rebates (spec 001 §3, §4, §5, §9) ----
export const REBATE_MIN = 20;
export const REBATE_PAGE_SIZE = 20;
export const REBATE_PAGE_LINKS = 5;
/** A rebate turned into a voucher is valid 1 calendar year (spec 001 §9): to the same day next year, 365 or 366 days. */
export const REBATE_VOUCHER_MONTHS = 12;
export const MAX_PAYEES = 6;
export const REBATE_EMPTY_TEXT = '还没有返利金额记录';
export const REBATE_TEXTS = {
  required: '请填写提现金额',
  min: '单笔申请，金额 20 元起提交',
  max: '最大提现金额为 {amount}',
  notEnough: '累计返利金额满 20 元才可申请提现',
  deleted: '删除成功',
  deleteFailed: '发生了未知错误，请您联系我们的客服',
} as const;
export const REBATE_STATUS = { INIT: '待审核', DONE: '已完成', CANCEL: '已取消' } as const;
export type RebateStatus = keyof typeof REBATE_STATUS;
export const DRAW_TYPES = { TICKET: '转为代金券', WITHDRAWAL: '提现' } as const;
export type DrawType = keyof typeof DRAW_TYPES;
export const RECEIVE_TYPES = { ALIPAY: '支付宝', BANK_CARD: '银行卡' } as const;
export type ReceiveType = keyof typeof RECEIVE_TYPES;

/** Rebate amounts (spec 001 §3): total withdrawable, frozen pending review, actually withdrawable. */
export interface RebateTotals {
  total: number;
  freeze: number;
  available: number;
}

export interface RebateRecord {
  rebate_id: number;
  create_at: number;
  update_at: number | null;
  sum: number;
  draw_type: DrawType;
  receive_type: ReceiveType | null;
  status: RebateStatus;
  reason: string | null;
  name: string | null;
  open_account: string | null;
  id_code: string | null;
}

export interface PayeeInfo {
  rebate_info_id: number;
  receive_type: ReceiveType;
  name: string;
  open_account: string;
  id_code: string;
  id_front_pic: string;
  id_reverse_pic: string;
  default: boolean;
}

/** Masking of the applicant on the detail page: the one helper each of src/shared/mask.ts. */
export { maskAccount, maskName } from './mask';

// ---- pictures (spec 001 §5 "Image upload") ----
export const PICTURE_MAX_BYTES = 5242880;
export const PICTURE_TYPES = ['jpeg', 'png', 'jpg', 'bmp', 'gif'];
/** The same texts as the server's refusals 21123 / 21124. */
export const PICTURE_TEXTS = { type: errorText(21123), size: errorText(21124) } as const;
/** The URL an uploaded picture is served at (owner only). */
export const PICTURE_URL_PATTERN = '^/accounts/invoice/pic/[0-9a-f]{32}$';

// ---- invoices (fields not in the spec: ours, docs/billing-money.md) ----
export const INVOICE_TYPES = { NORMAL: '增值税普通发票', SPECIAL: '增值税专用发票' } as const;
export type InvoiceType = keyof typeof INVOICE_TYPES;
export const INVOICE_STATUS = { INIT: '待开具', DONE: '已开具', CANCEL: '已取消' } as const;
export type InvoiceStatus = keyof typeof INVOICE_STATUS;
export const INVOICE_PAGE_SIZE = 20;
export const MAX_INVOICE_INFOS = 10;
export const MAX_INVOICE_ADDRESSES = 10;
/** The invoice amount's rule, as the apply page shows it and PUT /api/account/invoice refuses with it. */
export const INVOICE_AMOUNT_TEXT = '请填写大于 0 的开票金额，最多两位小数';

/** What may still be invoiced (GET /api/account/invoice/consume/). */
export interface InvoiceConsume {
  /** paid recharges and settled bills, yuan */
  total: number;
  /** in invoices waiting to be issued */
  freeze: number;
  /** already issued */
  invoiced: number;
  /** total − freeze − invoiced */
  available: number;
}

/** 2-decimal yuan arithmetic without float drift. */
export const yuan = (n: number) => Math.round(n * 100) / 100;

/** Whether an amount has at most 2 decimals (1.005 has 3; 0.07 × 100 is not exactly 7, hence the tolerance). */
export function hasAtMostTwoDecimals(n: number): boolean {
  const cents = n * 100;
  return Math.abs(cents - Math.round(cents)) < 1e-6;
}
