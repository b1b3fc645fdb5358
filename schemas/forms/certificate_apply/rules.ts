/**
 * The CA message's domains against the order (spec 002 §5): the rules of orderDomainsErrors
 * (src/shared/certificates.ts) with the order as context. Run by the console before sending and by
 * the server before the CA sees the order.
 */
import { orderDomainsErrors, type OrderDomainContext } from '../../../src/shared/certificates';
import type { FieldError } from '../../../src/shared/errors';

export function ruleErrors(value: { domains?: string[] }, context?: OrderDomainContext): FieldError[] {
  if (!context) return [];
  return orderDomainsErrors(value.domains ?? [], context).map((e) => ({ path: `/domains${e.path}`, message: e.message }));
}
