/**
 * The re-issue page's domains (spec 002 §5 "Re-issue domains"): the same rules as the CA message,
 * with the original order as context (src/shared/certificates.ts orderDomainsErrors).
 */
import { orderDomainsErrors, type OrderDomainContext } from '../../../src/shared/certificates';
import type { FieldError } from '../../../src/shared/errors';

export function ruleErrors(value: { domains?: string[] }, context?: OrderDomainContext): FieldError[] {
  if (!context) return [];
  return orderDomainsErrors(value.domains ?? [], context).map((e) => ({ path: `/domains${e.path}`, message: e.message }));
}
