/**
 * The forwarding rule's origins may not be this machine, a link-local or a metadata address (20011, the
 * rule of src/shared/origins.ts that the CDN origin setting uses too); the console's dialog and the server
 * (src/server/ddos/routes.ts) both run it.
 */
import type { FieldError } from '../../../src/shared/errors';
import { localOriginErrors } from '../../../src/shared/origins';

export function ruleErrors(value: { origins?: unknown }): FieldError[] {
  return localOriginErrors(value?.origins);
}
