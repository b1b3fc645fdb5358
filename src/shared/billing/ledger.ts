/**
 * The balance ledger (docs/billing-money.md "The ledger"): every change of an account's balance is one
 * row of one of these kinds; the balance is the sum of the rows.
 */
export const LEDGER_KINDS = {
  opening: '期初余额',
  recharge: '充值',
  gift: '赠送',
  bill: '账单结算',
  payment: '余额支付',
  refund: '退款',
  adjust: '人工调账',
} as const;

export type LedgerKind = keyof typeof LEDGER_KINDS;

/** Rows of 收支明细 a page (the route's default page size). */
export const LEDGER_PAGE_SIZE = 20;

export function isLedgerKind(k: string): k is LedgerKind {
  return Object.prototype.hasOwnProperty.call(LEDGER_KINDS, k);
}

/** A row as GET /api/billing/ledger answers it (yuan, unix seconds). */
export interface LedgerEntry {
  id: number;
  kind: LedgerKind;
  kind_label: string;
  amount: number;
  recharge: number;
  balance: number;
  ref: string | null;
  memo: string | null;
  created_at: number;
}
