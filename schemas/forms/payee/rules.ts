/**
 * The payee form's rule that JSON Schema cannot say (spec 001 §5): when editing, the payment method
 * cannot be switched. The server runs it on every update (src/server/billing/rebates/payees.ts); the
 * console disables the method control while editing and runs it on the value it would send.
 * Type-only imports: the folder can be copied anywhere.
 */
import type { FieldError } from '../../../src/shared/errors';

export interface PayeeForm {
  rebate_info_id?: number;
  receive_type?: 'ALIPAY' | 'BANK_CARD';
  name?: string;
  open_account?: string;
  id_code?: string;
  id_front_pic?: string;
  id_reverse_pic?: string;
  default?: boolean;
}

export interface PayeeContext {
  /** the stored method of the payee being edited; absent when creating */
  held_receive_type?: 'ALIPAY' | 'BANK_CARD';
}

/** 22410 编辑收款信息时不能切换收款方式 */
export const METHOD_SWITCH = { code: 22410, path: '/receive_type', message: '编辑收款信息时不能切换收款方式' } as const;

export function ruleErrors(value: PayeeForm, ctx?: PayeeContext): FieldError[] {
  if (ctx?.held_receive_type && value.receive_type && value.receive_type !== ctx.held_receive_type) return [{ ...METHOD_SWITCH }];
  return [];
}
