/**
 * The billing header (spec 001 §2.6, §3 "Usage (account)") and the visibility rules of listed accounts
 * (spec 001 §2.6, §6: lists not shown; ours are server configuration, docs/billing.md).
 */

/** Sub-navigation items that listed accounts do not see (spec 001 §2.6). */
export const HIDEABLE_ITEMS = ['balance', 'history', 'bills', 'invoicing'] as const;
export type HideableItem = (typeof HIDEABLE_ITEMS)[number];

/** Server configuration: who sees what of the billing centre. */
export interface BillingVisibility {
  /** usernames for which balance, billing history, bill management and invoice management are hidden */
  hiddenItemsAccounts: string[];
  /** usernames sent to the dashboard from bill detail, billing history and invoice detail */
  detailRedirectAccounts: string[];
  /** usernames sent to the dashboard from the whole billing centre (the spec's two special usernames) */
  containerRedirectAccounts: string[];
}

/** GET /api/billing/usage/: spec 001 §3 "Usage (account)" plus what this account may see. */
export interface BillingUsage {
  money: number;
  actual_charge: number;
  gift: number;
  money_int: string;
  money_decimal: string;
  total_rebate: number;
  freeze_rebate: number;
  ticket_count: number;
  resource_flow_remain: number;
  resource_flow_remain_value: number;
  resource_flow_remain_unit: string;
  /** milliseconds (the console shows minutes: ÷ 60000) */
  transcode_remains: number;
  transcode_narrowband_remains: number;
  pcdn_open: boolean;
  mingmou: boolean;
  hidden: HideableItem[];
  /** 'container': leave the billing centre; 'detail': leave bill detail, history and invoice detail */
  redirect: 'container' | 'detail' | null;
}

/** Integer and decimal parts of a balance as the header shows them ("1,234" and ".56"; negative kept). */
export function moneyParts(money: number): { int: string; decimal: string } {
  const fixed = Math.abs(money).toFixed(2);
  const [i, d] = fixed.split('.');
  return { int: `${money < 0 ? '-' : ''}${Number(i).toLocaleString('en-US')}`, decimal: `.${d}` };
}

/** The billing sub-navigation (spec 001 §2.5 named states), with the item that hides it. */
export const BILLING_NAV: { path: string; label: string; hide?: HideableItem }[] = [
  { path: '/billing/charge/', label: '充值', hide: 'balance' },
  { path: '/billing/history/', label: '充值记录', hide: 'history' },
  { path: '/billing/ledger/', label: '收支明细', hide: 'balance' },
  { path: '/billing/bills/', label: '账单管理', hide: 'bills' },
  { path: '/billing/vouchers/', label: '代金券' },
  { path: '/billing/resources/', label: '资源包' },
  { path: '/billing/other/', label: '其他服务' },
  { path: '/billing/invoicing/', label: '发票管理', hide: 'invoicing' },
  { path: '/billing/rebateAmount/', label: '返利金额' },
];
