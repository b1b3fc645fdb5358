/**
 * The rebate application's rule that depends on the account (spec 001 §5): the amount may not exceed
 * what is actually withdrawable (最大提现金额为 {amount}). The server runs it with the account's
 * amounts (src/server/billing/rebates/routes.ts); the console with the amounts it shows.
 */
import type { FieldError } from '../../../src/shared/errors';

export interface RebateApplyForm {
  sum?: number;
  draw_type?: 'TICKET' | 'WITHDRAWAL';
  rebate_info_id?: number;
}

export interface RebateApplyContext {
  /** actually withdrawable: total minus frozen */
  available: number;
}

export const MAX_TEXT = '最大提现金额为 {amount}';

export function ruleErrors(value: RebateApplyForm, ctx?: RebateApplyContext): FieldError[] {
  if (ctx && typeof value.sum === 'number' && value.sum > ctx.available) return [{ path: '/sum', message: MAX_TEXT.replace('{amount}', ctx.available.toFixed(2)) }];
  return [];
}
