/**
 * The check of programming mode (POST /api/buckets/rewrite/check/, the console's markers): the URI
 * extraction pattern must compile and the program must parse, with its groups checked against the
 * pattern.
 */
import { EDGE_RULE_TEXTS } from '../errors';
import { lineColumn, parse, type SyntaxError } from './parser';
import { groupCount } from './regex';

export type CheckResult =
  | { ok: true }
  | { ok: false; part: 'pattern' | 'rule'; error: SyntaxError };

export function checkProgram(rule: string, pattern = ''): CheckResult {
  let groups: number | null = null;
  if (pattern) {
    groups = groupCount(pattern);
    if (groups === null) return { ok: false, part: 'pattern', error: { reason: EDGE_RULE_TEXTS.patternInvalid, start: 0, end: pattern.length, ...lineColumn(pattern, 0) } };
  }
  const r = parse(rule, { groups });
  return r.ok ? { ok: true } : { ok: false, part: 'rule', error: r.error };
}
