/** What the billing layout hands its pages (react-router outlet context). */
import { useOutletContext } from 'react-router-dom';
import type { BillingUsage } from '../../shared/billing/header';
import { formatCount, formatFee } from '../../shared/format';

export interface BillingContext {
  usage: BillingUsage | null;
  /** reload the header after something changed the balance, vouchers or packages */
  reload(): void;
}

export function useBilling(): BillingContext {
  return useOutletContext<BillingContext | undefined>() ?? { usage: null, reload: () => undefined };
}

/** Yuan with 3 decimals (spec 001 §9: usage and fees), the shared separators (src/shared/format.ts). */
export const yuan3 = formatFee;

/** Counts (条, 次, 张) with thousands separators (spec 001 §9: counts are integers). */
export const count = formatCount;
