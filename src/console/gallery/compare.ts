/**
 * Expected errors of a fixture against the errors the form's data produces, compared as a set of
 * (path, message) pairs, the way `npm run schemas -- check` does (docs/testing-schemas.md).
 */
import type { FieldError } from '../../shared/errors';

export interface Comparison {
  matches: boolean;
  /** Expected but not produced (缺少预期的错误). */
  missing: FieldError[];
  /** Produced but not listed (出现未列出的错误). */
  unexpected: FieldError[];
}

const key = (e: FieldError) => `${e.path}\u0000${e.message}`;

export function uniqueSorted(errors: FieldError[]): FieldError[] {
  const seen = new Map<string, FieldError>();
  for (const e of errors) if (!seen.has(key(e))) seen.set(key(e), { path: e.path, message: e.message });
  return [...seen.values()].sort((a, b) => a.path.localeCompare(b.path) || a.message.localeCompare(b.message));
}

export function compareErrors(expected: FieldError[], actual: FieldError[]): Comparison {
  const exp = uniqueSorted(expected);
  const act = uniqueSorted(actual);
  const actKeys = new Set(act.map(key));
  const expKeys = new Set(exp.map(key));
  const missing = exp.filter((e) => !actKeys.has(key(e)));
  const unexpected = act.filter((e) => !expKeys.has(key(e)));
  return { matches: missing.length === 0 && unexpected.length === 0, missing, unexpected };
}

export function isSameError(a: FieldError, b: FieldError): boolean {
  return key(a) === key(b);
}
