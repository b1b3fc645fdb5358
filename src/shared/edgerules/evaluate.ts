/**
 * The evaluator: runs a service's rules, in priority order, on a sample request and answers what
 * the edge would do (docs/edge-rules.md "Evaluation").
 *
 * Each rule is compiled once into closures (compileRuleSet); run() then costs one pass over them per
 * request. Semantics, from ../../../../shared/edge-rules-language.md:
 *  - OFF rules are skipped; DEBUG rules apply only to requests from their IP;
 *  - a pattern that does not match the URI makes the rule do nothing; its groups are $1…$9;
 *  - $WHEN with a false argument stops the rule (what it did before stays);
 *  - a matched rule with break set, or whose program ends with $$, stops the remaining rules;
 *  - $REDIRECT, $EXIT and $ERROR_PAGE end the whole rule set at once;
 *  - the text a rule leaves (its rewrite target) is applied only after every rule has run, and not
 *    at all when the set ended early; a later rewrite replaces an earlier one;
 *  - a variable missing from the request makes the rewrite fail (the URI stays); inside a function
 *    it is empty;
 *  - protected response headers cannot be deleted.
 * Variables read the request as it arrived; $SET_METHOD, $DEL_ARG and the header functions change
 * what is sent on.
 */
import { EDGE_RUNTIME_TEXTS as R, fillText } from '../errors';
import { METHODS, PROTECTED_RESPONSE_HEADERS, FORBIDDEN_REQUEST_HEADERS, EDGE_LIMITS } from './catalogue';
import { base64Decode, base64Encode, hex, latin1, md5, utf8Decode, utf8Encode } from './codec';
import { programOf } from './compile';
import { parse, type Expr, type Piece, type QueryMode } from './parser';
import { groupCount, pcre } from './regex';
import type { EdgeOutcome, HeaderChange, MatchedRule, RuleTrace, RunnableRule, SampleRequest } from './types';

type Val = string | boolean | Uint8Array;

/** A failure while a rule runs: the rule stops there (the tester shows the reason). */
export class EdgeRuntimeError extends Error {}

const fail = (template: string, values: Record<string, string | number> = {}): never => {
  throw new EdgeRuntimeError(fillText(template, values));
};

interface ParsedRequest {
  method: string;
  scheme: string;
  host: string;
  hostLabels: string[];
  uri: string;
  query: string;
  args: Map<string, string>;
  headers: Map<string, string>;
  cookies: Map<string, string>;
  post: Map<string, string>;
  body: string;
  ip: string;
  country: string;
  time: number;
}

interface State {
  status: number | null;
  location: string | null;
  body: string | null;
  errorPage: string | null;
  method: string;
  requestBody: string | null;
  deletedArgs: string[];
  requestHeaders: HeaderChange[];
  responseHeaders: HeaderChange[];
  after: number | null;
  rate: number | null;
  notes: string[];
}

interface Ctx {
  req: ParsedRequest;
  st: State;
  groups: RegExpExecArray | null;
  caps: (RegExpExecArray | string[] | null)[];
  /** 0 running, 1 this rule stops ($WHEN false), 2 the rule set ends. */
  halt: 0 | 1 | 2;
  ended: MatchedRule['ended'];
  /** A variable of the rewrite target that the request does not have. */
  missing: string | null;
  priority: number;
  random: () => number;
}

type Code = (c: Ctx) => Val;

// ---------------------------------------------------------------------------------------------
// values

export function str(v: Val): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  return latin1(v);
}

export function truthy(v: Val): boolean {
  if (typeof v === 'boolean') return v;
  return v.length > 0;
}

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

function num(v: Val, fn: string): number {
  const s = str(v).trim();
  if (!NUMBER.test(s)) fail(R.notNumber, { fn: `$${fn}`, value: s });
  return Number(s);
}

function fmt(n: number): string {
  return Number.isInteger(n) ? String(n) : String(Number(n.toPrecision(15)));
}

function bytes(v: Val): Uint8Array {
  return v instanceof Uint8Array ? v : utf8Encode(str(v));
}

const iequals = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

// ---------------------------------------------------------------------------------------------
// the request

function parsePairs(s: string, sep: RegExp, plus: boolean): Map<string, string> {
  const out = new Map<string, string>();
  if (!s) return out;
  for (const part of s.split(sep)) {
    if (!part) continue;
    const eq = part.indexOf('=');
    const k = decode(eq < 0 ? part : part.slice(0, eq), plus).trim();
    const v = eq < 0 ? '' : decode(part.slice(eq + 1), plus);
    if (k && !out.has(k)) out.set(k, v);
  }
  return out;
}

function decode(s: string, plus: boolean): string {
  const t = plus ? s.replace(/\+/g, ' ') : s;
  try {
    return decodeURIComponent(t);
  } catch {
    return t;
  }
}

export function parseRequest(r: SampleRequest, now = Date.now()): ParsedRequest {
  let uri = r.uri || '/';
  let query = r.query ?? '';
  const q = uri.indexOf('?');
  if (q >= 0) {
    if (r.query === undefined) query = uri.slice(q + 1);
    uri = uri.slice(0, q);
  }
  if (query.startsWith('?')) query = query.slice(1);
  const headers = new Map<string, string>();
  for (const [k, v] of Object.entries(r.headers ?? {})) headers.set(k.toLowerCase(), String(v));
  const host = r.host ?? headers.get('host') ?? '';
  const body = r.body ?? '';
  const cookies = r.cookies ? new Map(Object.entries(r.cookies)) : parsePairs(headers.get('cookie') ?? '', /;\s*/, false);
  const post = r.post
    ? new Map(Object.entries(r.post))
    : (headers.get('content-type') ?? '').includes('application/x-www-form-urlencoded')
      ? parsePairs(body, /&/, true)
      : new Map<string, string>();
  return {
    method: (r.method ?? 'GET').toUpperCase(),
    scheme: (r.scheme ?? 'http').toLowerCase(),
    host,
    hostLabels: host.replace(/:\d+$/, '').split('.').filter(Boolean),
    uri,
    query,
    args: parsePairs(query, /&/, true),
    headers,
    cookies,
    post,
    body: body.slice(0, EDGE_LIMITS.body),
    ip: (r.ip ?? '').trim(),
    country: (r.country ?? '').toUpperCase(),
    time: r.time ?? Math.floor(now / 1000),
  };
}

// ---------------------------------------------------------------------------------------------
// variables: a getter per name, undefined when the request does not have it

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function randomText(c: Ctx, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += ALNUM[Math.floor(c.random() * ALNUM.length)];
  return s;
}

function variable(name: string): (c: Ctx) => string | undefined {
  switch (name) {
    case 'IP':
      return (c) => c.req.ip;
    case 'HOST':
      return (c) => c.req.host || undefined;
    case 'URI':
      return (c) => c.req.uri;
    case 'QUERY':
      return (c) => c.req.query;
    case 'METHOD':
      return (c) => c.req.method;
    case 'SCHEME':
      return (c) => c.req.scheme;
    case 'TIME':
      return (c) => String(c.req.time);
    case 'BODY':
      return (c) => c.req.body;
    case 'RANDOM':
      return (c) => randomText(c, 8);
    case 'GEOIP_COUNTRY_CODE':
      return (c) => c.req.country || undefined;
  }
  let m: RegExpExecArray | null;
  if ((m = /^HOST_(\d+)$/.exec(name))) {
    const i = Number(m[1]) - 1;
    return (c) => c.req.hostLabels[i];
  }
  if ((m = /^RANDOM_(\d+)$/.exec(name))) {
    const n = Number(m[1]);
    return (c) => randomText(c, n);
  }
  if (name.startsWith('GET_')) {
    const k = name.slice(4);
    return (c) => c.req.args.get(k);
  }
  if (name.startsWith('POST_')) {
    const k = name.slice(5);
    return (c) => c.req.post.get(k);
  }
  if (name.startsWith('HEADER_')) {
    const k = name.slice(7).toLowerCase();
    return (c) => c.req.headers.get(k);
  }
  if (name.startsWith('COOKIE_')) {
    const k = name.slice(7);
    return (c) => c.req.cookies.get(k);
  }
  return () => undefined;
}

// ---------------------------------------------------------------------------------------------
// compiling pieces into closures

const EMPTY: Code = () => '';

function compileExpr(e: Expr | undefined): Code {
  if (!e || e.pieces.length === 0) return EMPTY;
  if (e.pieces.length === 1) return compilePiece(e.pieces[0], false);
  const parts = e.pieces.map((p) => compilePiece(p, false));
  return (c) => {
    let s = '';
    for (let i = 0; i < parts.length; i++) {
      const v = parts[i](c);
      if (c.halt) return '';
      s += str(v);
    }
    return s;
  };
}

function compilePiece(p: Piece, top: boolean): Code {
  switch (p.kind) {
    case 'text':
    case 'string': {
      const v = p.value;
      return () => v;
    }
    case 'bool': {
      const v = p.value;
      return () => v;
    }
    case 'var': {
      const get = variable(p.name);
      if (!top) return (c) => get(c) ?? '';
      const name = `$_${p.name}`;
      return (c) => {
        const v = get(c);
        if (v === undefined) {
          c.missing ??= name;
          return '';
        }
        return v;
      };
    }
    case 'group': {
      const n = p.n;
      return (c) => c.groups?.[n] ?? '';
    }
    case 'capture': {
      const n = p.n - 1;
      const m = p.m;
      return (c) => c.caps[n]?.[m] ?? '';
    }
    case 'call': {
      const build = BUILDERS[p.name];
      return build ? build(p.args.map(compileExpr), p) : EMPTY;
    }
  }
}

type Builder = (a: Code[], node: Extract<Piece, { kind: 'call' }>) => Code;

/** Numeric function of two arguments. */
const arith =
  (fn: string, op: (x: number, y: number) => number, zeroCheck = false): Builder =>
  ([a, b]) =>
  (c) => {
    const x = num(a(c), fn);
    const y = num(b(c), fn);
    if (zeroCheck && y === 0) fail(R.divideByZero, { fn: `$${fn}` });
    return fmt(op(x, y));
  };

const unary =
  (op: (v: Val, c: Ctx) => Val): Builder =>
  ([a]) =>
  (c) =>
    op(a(c), c);

function regexOrFail(pattern: string, ignoreCase = false): RegExp {
  const re = pcre(pattern, ignoreCase);
  if (!re) fail(R.badRegex, { value: pattern });
  return re!;
}

function statusCode(v: Val, fn: string, allowed: (n: number) => boolean): number {
  const s = str(v).trim();
  const n = Number(s);
  if (!/^\d{3}$/.test(s) || !allowed(n)) fail(R.badCode, { fn: `$${fn}`, value: s });
  return n;
}

function amount(v: Val, unitV: Val, fn: string): number {
  const s = str(v).trim();
  if (!/^\d+$/.test(s) || Number(s) < 1) fail(R.badAmount, { fn: `$${fn}`, value: s });
  const u = str(unitV).trim().toLowerCase();
  if (u !== 'k' && u !== 'm' && u !== 'kb' && u !== 'mb') fail(R.badUnit, { fn: `$${fn}`, value: str(unitV) });
  return Number(s) * (u.startsWith('m') ? 1024 * 1024 : 1024);
}

const cover = (v: Val | undefined) => v !== undefined && truthy(v) && str(v).trim() !== '0';

function headerChange(c: Ctx, list: HeaderChange[], change: Omit<HeaderChange, 'priority' | 'applied'>, refused?: string): void {
  list.push({ ...change, priority: c.priority, applied: !refused, ...(refused ? { note: refused } : {}) });
  if (refused) c.st.notes.push(refused);
}

/** nginx sends no header with an empty value, so adding one does nothing on the edge. */
const emptyHeader = (name: string, value: string) => (value === '' ? fillText(R.emptyHeader, { name }) : undefined);

/** Lua's string.sub on characters: 1-based, inclusive, negatives from the end. */
function sub(s: string, from: number, to: number): string {
  const chars = Array.from(s);
  const len = chars.length;
  let i = from < 0 ? len + from + 1 : from;
  let j = to < 0 ? len + to + 1 : to;
  if (i < 1) i = 1;
  if (j > len) j = len;
  return i > j ? '' : chars.slice(i - 1, j).join('');
}

/** Beijing time (UTC+8), as the provider's edges report it. */
const BEIJING = 8 * 3600;

function strfTime(t: number, sep: string): string {
  const d = new Date((t + BEIJING) * 1000);
  const p = (n: number) => String(n).padStart(2, '0');
  return [String(d.getUTCFullYear()), p(d.getUTCMonth() + 1), p(d.getUTCDate()), p(d.getUTCHours()), p(d.getUTCMinutes())].join(sep);
}

const BUILDERS: Record<string, Builder> = {
  // control and logic
  WHEN: (args) => (c) => {
    for (let i = 0; i < args.length; i++) {
      const v = args[i](c);
      if (c.halt) return '';
      if (!truthy(v)) {
        c.halt = 1;
        return '';
      }
    }
    return '';
  },
  NOT: unary((v) => !truthy(v)),
  ALL: (args) => (c) => {
    if (args.length === 0) return false;
    for (const a of args) if (!truthy(a(c))) return false;
    return true;
  },
  ANY: (args) => (c) => {
    for (const a of args) if (truthy(a(c))) return true;
    return false;
  },
  OR: (args) => (c) => {
    for (const a of args) {
      const v = a(c);
      if (truthy(v)) return v;
    }
    return false;
  },
  SELECT:
    ([a, b, d]) =>
    (c) =>
      truthy(a(c)) ? b(c) : d(c),
  PCALL:
    ([a]) =>
    (c) => {
      try {
        return a(c);
      } catch (e) {
        if (e instanceof EdgeRuntimeError) return '';
        throw e;
      }
    },
  // matching
  MATCH:
    ([a, b]) =>
    (c) =>
      regexOrFail(str(b(c))).test(str(a(c))),
  CAPTURE: ([a, b, d], node) => {
    const slot = (node.index ?? 1) - 1;
    return (c) => {
      const subject = str(a(c));
      const pattern = str(b(c));
      const icase = d ? truthy(d(c)) : false;
      c.caps[slot] = pattern === '' ? [subject] : regexOrFail(pattern, icase).exec(subject);
      return '';
    };
  },
  // request and response
  ADD_REQ_HEADER:
    ([n, v, k]) =>
    (c) => {
      const name = str(n(c)).trim();
      const value = str(v(c));
      const cov = k ? cover(k(c)) : false;
      if (c.halt) return '';
      const refused = FORBIDDEN_REQUEST_HEADERS.some((h) => iequals(h, name)) ? fillText(R.forbiddenRequestHeader, { name }) : emptyHeader(name, value);
      headerChange(c, c.st.requestHeaders, { action: 'add', name, value, ...(cov ? { cover: true } : {}) }, refused);
      return '';
    },
  DEL_REQ_HEADER:
    ([n]) =>
    (c) => {
      const name = str(n(c)).trim();
      if (c.halt) return '';
      const refused = FORBIDDEN_REQUEST_HEADERS.some((h) => iequals(h, name)) ? fillText(R.forbiddenRequestHeader, { name }) : undefined;
      headerChange(c, c.st.requestHeaders, { action: 'delete', name }, refused);
      return '';
    },
  ADD_RSP_HEADER:
    ([n, v, k]) =>
    (c) => {
      const name = str(n(c)).trim();
      const value = str(v(c));
      const cov = k ? cover(k(c)) : false;
      if (c.halt) return '';
      headerChange(c, c.st.responseHeaders, { action: 'add', name, value, ...(cov ? { cover: true } : {}) }, emptyHeader(name, value));
      return '';
    },
  DEL_RSP_HEADER:
    ([n]) =>
    (c) => {
      const name = str(n(c)).trim();
      if (c.halt) return '';
      const refused = PROTECTED_RESPONSE_HEADERS.some((h) => iequals(h, name)) ? fillText(R.protectedHeader, { name }) : undefined;
      headerChange(c, c.st.responseHeaders, { action: 'delete', name }, refused);
      return '';
    },
  DEL_ARG:
    ([n]) =>
    (c) => {
      const name = str(n(c));
      if (c.halt) return '';
      if (!c.st.deletedArgs.includes(name)) c.st.deletedArgs.push(name);
      return '';
    },
  SET_METHOD:
    ([m]) =>
    (c) => {
      const method = str(m(c)).trim().toUpperCase();
      if (c.halt) return '';
      if (!(METHODS as readonly string[]).includes(method)) fail(R.badMethod, { value: method });
      if (c.req.body && method !== 'PUT' && method !== 'POST') fail(R.methodWithBody);
      c.st.method = method;
      return '';
    },
  SET_BODY:
    ([b]) =>
    (c) => {
      const body = str(b(c));
      if (c.halt) return '';
      if (c.st.method !== 'PUT' && c.st.method !== 'POST') fail(R.bodyMethod);
      c.st.requestBody = body;
      return '';
    },
  REDIRECT:
    ([u, k]) =>
    (c) => {
      const url = str(u(c));
      const code = statusCode(k(c), 'REDIRECT', (n) => n === 301 || n === 302);
      if (c.halt) return '';
      c.st.status = code;
      c.st.location = url;
      c.halt = 2;
      c.ended = 'redirect';
      return '';
    },
  EXIT:
    ([k, b]) =>
    (c) => {
      const code = statusCode(k(c), 'EXIT', (n) => n >= 100 && n <= 599);
      const body = b ? str(b(c)) : '';
      if (c.halt) return '';
      c.st.status = code;
      c.st.body = body;
      c.halt = 2;
      c.ended = 'exit';
      return '';
    },
  ERROR_PAGE:
    ([k, u]) =>
    (c) => {
      const code = statusCode(k(c), 'ERROR_PAGE', (n) => n >= 400 && n <= 599);
      const url = str(u(c));
      if (c.halt) return '';
      c.st.status = code;
      c.st.errorPage = url;
      c.halt = 2;
      c.ended = 'error_page';
      return '';
    },
  LIMIT_RATE_AFTER:
    ([n, u]) =>
    (c) => {
      const v = amount(n(c), u(c), 'LIMIT_RATE_AFTER');
      if (!c.halt) c.st.after = v;
      return '';
    },
  LIMIT_RATE:
    ([n, u]) =>
    (c) => {
      const v = amount(n(c), u(c), 'LIMIT_RATE');
      if (!c.halt) c.st.rate = v;
      return '';
    },
  // numbers
  ADD: arith('ADD', (x, y) => x + y),
  MSUB: arith('MSUB', (x, y) => x - y),
  MULTIPLY: arith('MULTIPLY', (x, y) => x * y),
  DIVIDE: arith('DIVIDE', (x, y) => x / y, true),
  MOD: arith('MOD', (x, y) => x % y, true),
  FLOOR: unary((v) => fmt(Math.floor(num(v, 'FLOOR')))),
  CEIL: unary((v) => fmt(Math.ceil(num(v, 'CEIL')))),
  BYTE: unary((v) => {
    const s = str(v);
    return s ? String(s.charCodeAt(0)) : '';
  }),
  GT:
    ([a, b]) =>
    (c) =>
      num(a(c), 'GT') > num(b(c), 'GT'),
  GE:
    ([a, b]) =>
    (c) =>
      num(a(c), 'GE') >= num(b(c), 'GE'),
  INT:
    ([a, f, t]) =>
    (c) => {
      const s = str(a(c)).trim().toLowerCase();
      const base = (v: Code | undefined) => {
        const raw = v ? str(v(c)).trim() : '';
        if (!raw) return 10;
        const n = Number(raw);
        if (!Number.isInteger(n) || n < 2 || n > 36) fail(R.badBase, { fn: '$INT', value: raw });
        return n;
      };
      const from = base(f);
      const to = base(t);
      const digits = '0123456789abcdefghijklmnopqrstuvwxyz'.slice(0, from);
      const body = s.startsWith('-') ? s.slice(1) : s;
      if (!body || [...body].some((ch) => !digits.includes(ch))) fail(R.notNumber, { fn: '$INT', value: s });
      return parseInt(s, from).toString(to);
    },
  RANDI:
    ([a, b]) =>
    (c) => {
      const lo = Math.ceil(num(a(c), 'RANDI'));
      const hi = Math.floor(num(b(c), 'RANDI'));
      const [x, y] = lo <= hi ? [lo, hi] : [hi, lo];
      return String(x + Math.floor(c.random() * (y - x + 1)));
    },
  // strings
  SUB:
    ([e, f, t]) =>
    (c) =>
      sub(str(e(c)), num(f(c), 'SUB'), t ? (str(t(c)).trim() === '' ? -1 : num(t(c), 'SUB')) : -1),
  GSUB:
    ([e, f, r, n]) =>
    (c) => {
      const subject = str(e(c));
      const re = regexOrFail(str(f(c)));
      const repl = str(r(c));
      const limitRaw = n ? str(n(c)).trim() : '';
      const limit = limitRaw === '' ? -1 : num(limitRaw, 'GSUB');
      const global = new RegExp(re.source, re.flags.includes('g') ? re.flags : `${re.flags}g`);
      let count = 0;
      return subject.replace(global, (...m: unknown[]) => {
        const whole = m[0] as string;
        if (limit >= 0 && count >= limit) return whole;
        count++;
        return repl.replace(/\$(\d)/g, (_x, d: string) => (m[Number(d)] as string | undefined) ?? '');
      });
    },
  EQ:
    ([a, b]) =>
    (c) =>
      str(a(c)) === str(b(c)),
  UPPER: unary((v) => str(v).toUpperCase()),
  LOWER: unary((v) => str(v).toLowerCase()),
  LEN: unary((v) => String(v instanceof Uint8Array ? v.length : Array.from(str(v)).length)),
  // encoding and time
  ENCODE_BASE64: unary((v) => base64Encode(bytes(v))),
  DECODE_BASE64: unary((v) => {
    const b = base64Decode(str(v));
    if (!b) fail(R.badBase64);
    return utf8Decode(b!) ?? latin1(b!);
  }),
  ESCAPE: unary((v) => {
    try {
      return encodeURIComponent(str(v));
    } catch {
      return fail(R.badEscape);
    }
  }),
  UNESCAPE: unary((v) => {
    try {
      return decodeURIComponent(str(v));
    } catch {
      return fail(R.badEscape);
    }
  }),
  MD5: unary((v) => hex(md5(bytes(v)))),
  MD5_BIN: unary((v) => md5(bytes(v))),
  UNIXT: (args) => (c) => {
    const [y, mo, d, h, mi, s] = [0, 1, 2, 3, 4, 5].map((i) => (args[i] ? (str(args[i](c)).trim() === '' ? 0 : num(args[i](c), 'UNIXT')) : 0));
    return fmt(Date.UTC(y, mo - 1, d, h, mi, s) / 1000 - BEIJING);
  },
  STRF_TIME:
    ([t, s]) =>
    (c) =>
      strfTime(Math.floor(num(t(c), 'STRF_TIME')), s ? str(s(c)) : ''),
};

// ---------------------------------------------------------------------------------------------
// rules

export interface CompiledRule {
  rule: RunnableRule;
  rewrite_id?: number;
  describe: string;
  priority: number;
  status: RunnableRule['status'];
  ip: string;
  pattern: RegExp | null;
  codes: Code[];
  query: QueryMode;
  breaks: boolean;
  /** Why the rule cannot run (its program or pattern does not compile). */
  invalid?: string;
  /** The program the rule runs (custom text, or the general rule compiled). */
  source: { pattern: string; rule: string };
}

export interface CompiledRuleSet {
  rules: CompiledRule[];
}

export function compileRule(rule: RunnableRule): CompiledRule {
  const source = programOf(rule);
  const base = {
    rule,
    ...(rule.rewrite_id !== undefined ? { rewrite_id: rule.rewrite_id } : {}),
    describe: rule.describe,
    priority: rule.priority,
    status: rule.status,
    ip: (rule.ip ?? '').trim(),
    source,
  };
  let pattern: RegExp | null = null;
  if (source.pattern) {
    pattern = pcre(source.pattern);
    if (!pattern) return { ...base, pattern: null, codes: [], query: 'keep', breaks: Boolean(rule.break), invalid: fillText(R.badRegex, { value: source.pattern }) };
  }
  const parsed = parse(source.rule, { groups: source.pattern ? groupCount(source.pattern) : null });
  if (!parsed.ok) return { ...base, pattern, codes: [], query: 'keep', breaks: Boolean(rule.break), invalid: parsed.error.reason };
  const p = parsed.program;
  return { ...base, pattern, codes: p.pieces.map((x) => compilePiece(x, true)), query: p.query, breaks: Boolean(rule.break) || p.breakAtEnd };
}

/** Rules in priority order (then by id), compiled once. */
export function compileRuleSet(rules: readonly RunnableRule[]): CompiledRuleSet {
  const sorted = [...rules].sort((a, b) => a.priority - b.priority || (a.rewrite_id ?? Infinity) - (b.rewrite_id ?? Infinity));
  return { rules: sorted.map(compileRule) };
}

export interface RunOptions {
  /** Random numbers in [0, 1) for $_RANDOM and $RANDI (tests pass a fixed one). */
  random?: () => number;
  /** Current time in ms when the request has none. */
  now?: number;
}

function finalQuery(query: string, deleted: string[]): string {
  if (!deleted.length || !query) return query;
  return query
    .split('&')
    .filter((part) => {
      const eq = part.indexOf('=');
      return !deleted.includes(decode(eq < 0 ? part : part.slice(0, eq), true));
    })
    .join('&');
}

/** What the edge would do with one request. */
export function run(set: CompiledRuleSet, request: SampleRequest, opts: RunOptions = {}): EdgeOutcome {
  const req = parseRequest(request, opts.now);
  const st: State = {
    status: null,
    location: null,
    body: null,
    errorPage: null,
    method: req.method,
    requestBody: null,
    deletedArgs: [],
    requestHeaders: [],
    responseHeaders: [],
    after: null,
    rate: null,
    notes: [],
  };
  const c: Ctx = { req, st, groups: null, caps: [], halt: 0, ended: undefined, missing: null, priority: 0, random: opts.random ?? Math.random };
  const trace: RuleTrace[] = [];
  const matched: MatchedRule[] = [];
  let stopped = false;
  let endedEarly = false;
  let rewrite: { text: string; query: QueryMode; priority: number } | null = null;

  for (const r of set.rules) {
    const t: RuleTrace = { ...(r.rewrite_id !== undefined ? { rewrite_id: r.rewrite_id } : {}), describe: r.describe, priority: r.priority, outcome: 'matched' };
    trace.push(t);
    if (stopped) {
      t.outcome = 'not_reached';
      continue;
    }
    if (r.status === 'OFF') {
      t.outcome = 'off';
      continue;
    }
    if (r.status === 'DEBUG' && r.ip.toLowerCase() !== req.ip.toLowerCase()) {
      t.outcome = 'debug_ip';
      continue;
    }
    if (r.invalid) {
      t.outcome = 'invalid';
      t.detail = r.invalid;
      continue;
    }
    if (r.pattern) {
      const m = r.pattern.exec(req.uri);
      if (!m) {
        t.outcome = 'no_match';
        continue;
      }
      c.groups = m;
    } else c.groups = null;
    c.caps.length = 0;
    c.halt = 0;
    c.ended = undefined;
    c.missing = null;
    c.priority = r.priority;
    let text = '';
    try {
      const codes = r.codes;
      for (let i = 0; i < codes.length; i++) {
        const v = codes[i](c);
        if (c.halt) break;
        // a true or false left at the top level adds nothing to the rewrite target
        if (typeof v === 'string') text += v;
        else if (v instanceof Uint8Array) text += latin1(v);
      }
    } catch (e) {
      if (!(e instanceof EdgeRuntimeError)) throw e;
      t.outcome = 'error';
      t.detail = e.message;
      continue;
    }
    const halt = c.halt as Ctx['halt'];
    if (halt === 1) {
      t.outcome = 'condition_false';
      continue;
    }
    const m: MatchedRule = { ...(r.rewrite_id !== undefined ? { rewrite_id: r.rewrite_id } : {}), describe: r.describe, priority: r.priority };
    matched.push(m);
    if (halt === 2) {
      m.ended = c.ended;
      stopped = true;
      endedEarly = true;
      continue;
    }
    if (text) {
      if (c.missing) st.notes.push(fillText(R.rewriteMissing, { name: c.missing }));
      else {
        if (rewrite) st.notes.push(fillText(R.rewriteOverridden, { priority: rewrite.priority }));
        rewrite = { text, query: r.query, priority: r.priority };
      }
    }
    if (r.breaks) {
      m.ended = 'break';
      stopped = true;
    }
  }

  const originalQuery = finalQuery(req.query, st.deletedArgs);
  let path = req.uri;
  let query = originalQuery;
  let rewritten = false;
  if (rewrite && endedEarly) st.notes.push(R.rewriteCancelled);
  else if (rewrite) {
    rewritten = true;
    const q = rewrite.text.indexOf('?');
    path = q >= 0 ? rewrite.text.slice(0, q) : rewrite.text;
    const own = q >= 0 ? rewrite.text.slice(q + 1) : '';
    if (!path.startsWith('/') && !/^https?:\/\//.test(path)) path = `/${path}`;
    query = rewrite.query === 'none' ? '' : rewrite.query === 'drop' ? own : [own, originalQuery].filter(Boolean).join('&');
  }
  return {
    status: st.status,
    location: st.location,
    body: st.body,
    error_page: st.errorPage,
    uri: query ? `${path}?${query}` : path,
    rewritten,
    method: st.method,
    request_body: st.requestBody,
    deleted_args: st.deletedArgs,
    request_headers: st.requestHeaders,
    response_headers: st.responseHeaders,
    limit_rate: { after: st.after, rate: st.rate },
    matched,
    trace,
    notes: st.notes,
  };
}

/** Compiles and runs in one go (the API's test call; the benchmark compiles once). */
export function evaluate(rules: readonly RunnableRule[], request: SampleRequest, opts: RunOptions = {}): EdgeOutcome {
  return run(compileRuleSet(rules), request, opts);
}
