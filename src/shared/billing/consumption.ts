/**
 * Usage of the external products that resource packages pay for (docs/billing.md "Usage reported by
 * the external products"): SMS, one-click login and blockchain notarisation run on partner consoles
 * (docs/external-products.md) and report what each account used; the account's packages of the kind
 * cover it first, the rest is charged on the next day bill at the price configuration's ladder.
 */
export const CONSUMED_PRODUCTS = ['sms', 'oneclicklogin', 'blockchain'] as const;
export type ConsumedProduct = (typeof CONSUMED_PRODUCTS)[number];
export const isConsumedProduct = (t: string): t is ConsumedProduct => (CONSUMED_PRODUCTS as readonly string[]).includes(t);

export const CONSUMED_PRODUCT_INFO: Record<ConsumedProduct, { label: string; unit: string; usage: string }> = {
  sms: { label: '短信服务', unit: '条', usage: '短信发送量' },
  oneclicklogin: { label: '一键登录', unit: '次', usage: '一键登录认证次数' },
  blockchain: { label: '区块链存证', unit: '次', usage: '区块链存证次数' },
};

/** A report's own id (the partner's, for retries): letters, digits, _ and -, at most 64. */
export const REPORT_ID_PATTERN = '^[A-Za-z0-9_-]{1,64}$';
/** The usage records of a package kind (GET /api/resources/usage) reach this many days back. */
export const USAGE_DAYS_MAX = 182;
/** The most one report may carry. */
export const REPORT_MAX_QUANTITY = 1_000_000;
/** The report's fields with their messages (POST /accounts/app/usage). */
export const REPORT_FIELDS = {
  product: { type: 'string', enum: [...CONSUMED_PRODUCTS] },
  report_id: { type: 'string', pattern: REPORT_ID_PATTERN, errorMessage: { pattern: '报告编号仅限 1-64 位英文、数字、下划线和中划线' } },
  account_id: { type: 'integer', minimum: 1 },
  quantity: { type: 'integer', minimum: 1, maximum: REPORT_MAX_QUANTITY, errorMessage: { type: '用量须为正整数', minimum: '用量须为正整数', maximum: `单次上报的用量不超过 ${REPORT_MAX_QUANTITY}` } },
};
/** A calendar month (GET /api/billing/other). */
export const MONTH_FIELD = { type: 'string', pattern: '^\\d{4}-(0[1-9]|1[0-2])$', errorMessage: { pattern: '月份格式为 YYYY-MM' } };

/** GET /api/billing/other: a month of one product on /billing/other/ (其他服务). */
export interface OtherServiceMonth {
  product: ConsumedProduct;
  unit: string;
  /** reported in the month */
  quantity: number;
  covered: number;
  charged_quantity: number;
  /** yuan, from the month's day bills (after discount) */
  amount: number;
  /** reported on days whose bill is not made yet (today) */
  unbilled_quantity: number;
  /** what the kind's valid packages hold now */
  remain: number;
}
/** How many months back /billing/other/ reaches. */
export const OTHER_MONTHS_BACK = 6;

/** The answer to a usage report. */
export interface UsageReportResult {
  report_id: string;
  product: ConsumedProduct;
  account_id: number;
  quantity: number;
  /** covered by the account's packages of the kind */
  covered: number;
  /** left for the day bill */
  charged_quantity: number;
  /** the CST day whose bill carries the rest */
  bill_day: string;
  /** what the account's valid packages of the kind still hold, after this report */
  remain: number;
  /** true when the same report had already been received (nothing was deducted again) */
  duplicate: boolean;
}
