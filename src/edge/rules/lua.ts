/**
 * Edge rules compiled to Lua (docs/edge-rules.md "On the edge"). The rules are parsed by
 * src/shared/edgerules — the one parser, the tester's — and each parsed piece becomes a call of the Lua
 * runtime's builders (src/edge/lua/edgerules/fn.lua): text S("…"), boolean B(true), variable V("URI"),
 * group G(1), capture K(1, 2), call F("NAME", {args}, index), argument E{pieces}. The rule-set semantics
 * (priority order, OFF, DEBUG, break, the pending rewrite, redirect and exit) are in
 * src/edge/lua/edgerules.lua. A rule that does not parse is kept as invalid and skipped, as the tester
 * reports it.
 */
import type { EdgeRuleRow } from '../../shared/edge';
import { EDGE_RUNTIME_TEXTS } from '../../shared/errors';
import { FORBIDDEN_REQUEST_HEADERS, PROTECTED_RESPONSE_HEADERS, groupCount, parse, pcre, programOf, type Expr, type Piece, type RunnableRule } from '../../shared/edgerules';

/** A Lua string literal holding exactly `s` (UTF-8 bytes; anything but plain characters as \ddd). */
export function luaString(s: string): string {
  let out = '"';
  for (const b of Buffer.from(s, 'utf8')) {
    const ch = String.fromCharCode(b);
    out += /[A-Za-z0-9 _.\-/:=&?#@!~*+%^|<>;]/.test(ch) ? ch : `\\${String(b).padStart(3, '0')}`;
  }
  return out + '"';
}

function expr(e: Expr | undefined): string {
  if (!e || e.pieces.length === 0) return 'E{}';
  if (e.pieces.length === 1) return piece(e.pieces[0], false);
  return `E{${e.pieces.map((p) => piece(p, false)).join(', ')}}`;
}

function piece(p: Piece, top: boolean): string {
  switch (p.kind) {
    case 'text':
    case 'string':
      return `S(${luaString(p.value)})`;
    case 'bool':
      return `B(${p.value})`;
    case 'var':
      return `V(${luaString(p.name)}${top ? ', true' : ''})`;
    case 'group':
      return `G(${p.n})`;
    case 'capture':
      return `K(${p.n}, ${p.m})`;
    case 'call':
      return `F(${luaString(p.name)}, {${p.args.map(expr).join(', ')}}${p.index ? `, ${p.index}` : ''})`;
  }
}

/** A stored row as the evaluator takes it. */
export function runnable(row: EdgeRuleRow): RunnableRule {
  return {
    rewrite_id: row.id,
    describe: '',
    type: row.type,
    priority: row.priority,
    break: row.break,
    status: row.status,
    ...(row.ip ? { ip: row.ip } : {}),
    ...(row.type === 'general' ? { content: row.content as RunnableRule['content'] } : { pattern: row.pattern ?? '', rule: row.rule ?? '' }),
  };
}

const BODY_VARS = /^(BODY|POST_)/;

function usesBody(pieces: Piece[]): boolean {
  return pieces.some((p) => (p.kind === 'var' && BODY_VARS.test(p.name)) || (p.kind === 'call' && (p.name === 'SET_METHOD' || p.name === 'SET_BODY' || p.args.some((a) => usesBody(a.pieces)))));
}

export interface CompiledRules {
  /** A Lua function of the runtime (`function(R) … end`) answering {rules, body}. */
  factory: string;
  /** Rules that can run (ON or DEBUG). */
  active: number;
}

/** The Lua of a service's rules, in priority order (then id), as the evaluator orders them. */
export function compileRules(rows: readonly EdgeRuleRow[]): CompiledRules {
  const sorted = [...rows].sort((a, b) => a.priority - b.priority || a.id - b.id);
  let body = false;
  const entries: string[] = [];
  let active = 0;
  for (const row of sorted) {
    const rule = runnable(row);
    if (rule.status !== 'OFF') active++;
    const src = programOf(rule);
    const head = `id = ${row.id}, p = ${row.priority}, st = ${luaString(row.status)}, ip = ${luaString((row.ip ?? '').trim())}`;
    let invalid: string | null = null;
    if (src.pattern && !pcre(src.pattern)) invalid = 'pattern';
    const parsed = invalid ? null : parse(src.rule, { groups: src.pattern ? groupCount(src.pattern) : null });
    if (!parsed || !parsed.ok) {
      entries.push(`{ ${head}, invalid = true, code = {} }`);
      continue;
    }
    const prog = parsed.program;
    if (rule.status !== 'OFF' && usesBody(prog.pieces)) body = true;
    const code = prog.pieces.map((p) => piece(p, true)).join(',\n      ');
    entries.push(
      `{ ${head}, brk = ${Boolean(row.break) || prog.breakAtEnd}, q = ${luaString(prog.query)}, pat = ${src.pattern ? luaString(src.pattern) : 'nil'},\n    code = {\n      ${code}\n    } }`,
    );
  }
  const texts = Object.entries(EDGE_RUNTIME_TEXTS)
    .map(([k, v]) => `${k} = ${luaString(v)}`)
    .join(', ');
  const factory = [
    'function(R)',
    '  local S, B, V, G, K, F, E = R.S, R.B, R.V, R.G, R.K, R.F, R.E',
    `  R.T = { ${texts} }`,
    `  R.protect({ ${PROTECTED_RESPONSE_HEADERS.map(luaString).join(', ')} }, { ${FORBIDDEN_REQUEST_HEADERS.map(luaString).join(', ')} })`,
    `  return { body = ${body}, rules = {`,
    ...entries.map((e) => `    ${e},`),
    '  } }',
    'end',
  ].join('\n');
  return { factory, active };
}
