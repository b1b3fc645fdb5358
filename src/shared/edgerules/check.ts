/**
 * The check of programming mode (POST /api/buckets/rewrite/check/, the console's markers): the URI
 * extraction pattern must compile and the program must parse, with its groups checked against the
 * pattern. A regular expression written as a constant argument ($MATCH, $CAPTURE, $GSUB) must compile
 * too — in JavaScript and in the edge's PCRE (regex.ts) — so that a rule is refused when it is checked
 * or saved, not discovered failing on the edge.
 */
import { EDGE_RULE_TEXTS, EDGE_RUNTIME_TEXTS, fillText } from '../errors';
import { lineColumn, parse, type Piece, type Program, type SyntaxError } from './parser';
import { groupCount, pcre } from './regex';

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
  if (!r.ok) return { ok: false, part: 'rule', error: r.error };
  const bad = badConstantRegex(r.program) ?? controlInValue(r.program);
  if (bad) return { ok: false, part: 'rule', error: bad };
  return { ok: true };
}

/** CR, LF, the other characters below 0x20 and DEL (issue 34 item 14). */
// eslint-disable-next-line no-control-regex
export const CONTROL_CHARACTER = /[\x00-\x1f\x7f]/;

/**
 * The first text or quoted string of the program that holds a control character: such a value would
 * reach a header or a URI on the edge (which then answers 500). Whitespace between a program's pieces is
 * layout and dropped by the parser; a control character written inside a quote or escaped with `\` is a
 * value's.
 */
function controlInValue(program: Program): SyntaxError | null {
  const walk = (pieces: Piece[]): SyntaxError | null => {
    for (const p of pieces) {
      if ((p.kind === 'text' || p.kind === 'string') && CONTROL_CHARACTER.test(p.value)) {
        return { reason: EDGE_RULE_TEXTS.controlChar, start: p.start, end: p.end, ...lineColumn(program.source, p.start) };
      }
      if (p.kind === 'call') for (const a of p.args) {
        const inner = walk(a.pieces);
        if (inner) return inner;
      }
    }
    return null;
  };
  return walk(program.pieces);
}

/** The argument that holds the regular expression of each matching function (0-based). */
const REGEX_ARGUMENT: Record<string, number> = { MATCH: 1, CAPTURE: 1, GSUB: 1 };

/** The first constant regular expression argument that does not compile, as a syntax error at its place. */
function badConstantRegex(program: Program): SyntaxError | null {
  const walk = (pieces: Piece[]): SyntaxError | null => {
    for (const p of pieces) {
      if (p.kind !== 'call') continue;
      const at = REGEX_ARGUMENT[p.name];
      const arg = at === undefined ? undefined : p.args[at];
      if (arg && arg.pieces.length && arg.pieces.every((x) => x.kind === 'text' || x.kind === 'string')) {
        const value = arg.pieces.map((x) => (x as { value: string }).value).join('');
        // an empty $CAPTURE pattern captures the whole value
        if (!(p.name === 'CAPTURE' && value === '') && !pcre(value)) {
          return { reason: fillText(EDGE_RUNTIME_TEXTS.badRegex, { value }), start: arg.start, end: arg.end, ...lineColumn(program.source, arg.start) };
        }
      }
      for (const a of p.args) {
        const inner = walk(a.pieces);
        if (inner) return inner;
      }
    }
    return null;
  };
  return walk(program.pieces);
}
