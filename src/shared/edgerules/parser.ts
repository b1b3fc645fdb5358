/**
 * Lexer and parser of the edge-rule language (docs/edge-rules.md "The language").
 *
 * A program is a sequence of pieces: function calls `$NAME(E1, …)`, variables `$_NAME`, groups of the
 * URI extraction pattern `$1`…`$9`, groups of a `$CAPTURE` (`$n.m`), single-quoted strings and plain
 * literal text (whitespace dropped, `\` escapes one character). `$$` at the very end means break; one
 * `?` at the end of the remaining text drops the original query string, `??` leaves no query at all.
 *
 * parse() never throws: it answers the program or the first error with its position (offset, line,
 * column, all from the source text) and a Chinese reason from src/shared/errors.ts.
 */
import { EDGE_RULE_TEXTS, EDGE_SYNTAX_TEXTS as T, fillText } from '../errors';
import { FUNCTION_BY_NAME, NAMED_FAMILIES, variableKind } from './catalogue';

export interface Span {
  /** Offset of the first character (0-based, UTF-16 units). */
  start: number;
  /** Offset after the last character. */
  end: number;
}

export type Piece =
  | ({ kind: 'text'; value: string } & Span)
  | ({ kind: 'string'; value: string } & Span)
  | ({ kind: 'bool'; value: boolean } & Span)
  | ({ kind: 'var'; name: string } & Span)
  | ({ kind: 'group'; n: number } & Span)
  | ({ kind: 'capture'; n: number; m: number } & Span)
  | ({ kind: 'call'; name: string; args: Expr[]; nameEnd: number; /** ordinal of a $CAPTURE (1-based) */ index?: number } & Span);

export interface Expr extends Span {
  pieces: Piece[];
}

export type QueryMode = 'keep' | 'drop' | 'none';

export interface Program {
  source: string;
  /** The top-level pieces: calls run for their effects, the rest is the rewrite target. */
  pieces: Piece[];
  /** Ends with `$$`. */
  breakAtEnd: boolean;
  /** Trailing `?` (drop) or `??` (none) of the rewrite target; keep otherwise. */
  query: QueryMode;
  /** How many $CAPTURE calls the program has. */
  captures: number;
}

export interface SyntaxError extends Span {
  reason: string;
  /** 1-based line and column of `start`. */
  line: number;
  column: number;
}

export type ParseResult = { ok: true; program: Program } | { ok: false; error: SyntaxError };

export interface ParseOptions {
  /**
   * Groups of the URI extraction pattern: a number checks `$n` against it; null means there is no
   * pattern, so any `$n` is an error; undefined leaves `$n` unchecked.
   */
  groups?: number | null;
}

type Token =
  | ({ t: 'call'; name: string; nameEnd: number } & Span)
  | ({ t: 'var'; name: string } & Span)
  | ({ t: 'group'; n: number } & Span)
  | ({ t: 'capture'; n: number; m: number } & Span)
  | ({ t: 'break' } & Span)
  | ({ t: 'string'; value: string } & Span)
  | ({ t: 'text'; value: string; escaped: boolean } & Span)
  | ({ t: 'comma' | 'lparen' | 'rparen' } & Span);

class Failure {
  constructor(
    readonly reason: string,
    readonly start: number,
    readonly end: number,
  ) {}
}

const isSpace = (c: string) => c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f' || c === '\v';
const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';
const isUpper = (c: string | undefined) => c !== undefined && c >= 'A' && c <= 'Z';
const NAME_CHAR = /[A-Za-z0-9_]/;
const PARAM_CHAR = /[A-Za-z0-9_-]/;
const FN_CHAR = /[A-Z0-9_]/;
const TEXT_STOP = new Set(['\\', "'", '$', '(', ')', ',']);

/** Tokens of a source text; throws Failure on a lexical error. */
export function tokenize(src: string): Token[] {
  const out: Token[] = [];
  const n = src.length;
  let i = 0;
  while (i < n) {
    const c = src[i];
    if (isSpace(c)) {
      i++;
      continue;
    }
    if (c === '\\') {
      if (i + 1 >= n) throw new Failure(T.danglingEscape, i, i + 1);
      out.push({ t: 'text', value: src[i + 1], escaped: true, start: i, end: i + 2 });
      i += 2;
      continue;
    }
    if (c === "'") {
      let j = i + 1;
      let buf = '';
      let closed = false;
      while (j < n) {
        const ch = src[j];
        if (ch === '\\' && j + 1 < n) {
          const nx = src[j + 1];
          // inside quotes only \' and \\ are escapes; other backslashes stay (regular expressions)
          buf += nx === "'" || nx === '\\' ? nx : ch + nx;
          j += 2;
          continue;
        }
        if (ch === "'") {
          closed = true;
          break;
        }
        buf += ch;
        j++;
      }
      if (!closed) throw new Failure(T.unterminatedString, i, n);
      out.push({ t: 'string', value: buf, start: i, end: j + 1 });
      i = j + 1;
      continue;
    }
    if (c === ',') {
      out.push({ t: 'comma', start: i, end: i + 1 });
      i++;
      continue;
    }
    if (c === '(' || c === ')') {
      out.push({ t: c === '(' ? 'lparen' : 'rparen', start: i, end: i + 1 });
      i++;
      continue;
    }
    if (c === '$') {
      const nx = src[i + 1];
      if (nx === '$') {
        out.push({ t: 'break', start: i, end: i + 2 });
        i += 2;
        continue;
      }
      if (nx === '_') {
        let j = i + 2;
        while (j < n && NAME_CHAR.test(src[j])) j++;
        const head = src.slice(i + 2, j);
        if (NAMED_FAMILIES.some((p) => head.startsWith(p))) while (j < n && PARAM_CHAR.test(src[j])) j++;
        out.push({ t: 'var', name: src.slice(i + 2, j), start: i, end: j });
        i = j;
        continue;
      }
      if (isDigit(nx)) {
        if (src[i + 2] === '.' && isDigit(src[i + 3])) {
          out.push({ t: 'capture', n: Number(nx), m: Number(src[i + 3]), start: i, end: i + 4 });
          i += 4;
        } else {
          out.push({ t: 'group', n: Number(nx), start: i, end: i + 2 });
          i += 2;
        }
        continue;
      }
      if (isUpper(nx)) {
        let j = i + 1;
        while (j < n && FN_CHAR.test(src[j])) j++;
        const name = src.slice(i + 1, j);
        if (!FUNCTION_BY_NAME.has(name)) throw new Failure(fillText(T.unknownFunction, { name: `$${name}` }), i, j);
        let k = j;
        while (k < n && isSpace(src[k])) k++;
        if (src[k] !== '(') throw new Failure(fillText(T.missingParen, { name: `$${name}` }), i, j);
        out.push({ t: 'call', name, nameEnd: j, start: i, end: k + 1 });
        i = k + 1;
        continue;
      }
      throw new Failure(T.badDollar, i, i + 1);
    }
    // plain literal text up to whitespace or a special character
    let j = i;
    while (j < n && !isSpace(src[j]) && !TEXT_STOP.has(src[j])) j++;
    out.push({ t: 'text', value: src.slice(i, j), escaped: false, start: i, end: j });
    i = j;
  }
  return out;
}

type TextPiece = Extract<Piece, { kind: 'text' }> & { escaped?: boolean };

class Parser {
  private pos = 0;
  private captureCalls = 0;
  private readonly groupRefs: Extract<Piece, { kind: 'group' }>[] = [];
  private readonly captureRefs: Extract<Piece, { kind: 'capture' }>[] = [];

  constructor(
    private readonly src: string,
    private readonly toks: Token[],
    private readonly opts: ParseOptions,
  ) {}

  program(): Program {
    const pieces: Piece[] = [];
    let breakAtEnd = false;
    const toks = this.toks;
    while (this.pos < toks.length) {
      const tok = toks[this.pos];
      if (tok.t === 'comma') throw new Failure(T.strayComma, tok.start, tok.end);
      if (tok.t === 'rparen') throw new Failure(T.strayRParen, tok.start, tok.end);
      if (tok.t === 'lparen') throw new Failure(T.strayLParen, tok.start, tok.end);
      if (tok.t === 'break') {
        if (this.pos !== toks.length - 1) throw new Failure(T.breakNotAtEnd, tok.start, tok.end);
        breakAtEnd = true;
        this.pos++;
        continue;
      }
      pieces.push(this.piece());
    }
    // the rewrite target's trailing ? or ?? (unescaped)
    let query: QueryMode = 'keep';
    const joined = joinRuns(pieces);
    const last = joined[joined.length - 1] as TextPiece | undefined;
    if (last && last.kind === 'text' && !last.escaped && last.value.endsWith('?')) {
      const two = last.value.endsWith('??');
      query = two ? 'none' : 'drop';
      last.value = last.value.slice(0, two ? -2 : -1);
      if (!last.value) joined.pop();
    }
    this.checkRefs();
    return { source: this.src, pieces: mergeTexts(joined), breakAtEnd, query, captures: this.captureCalls };
  }

  private checkRefs(): void {
    for (const r of this.captureRefs) {
      if (r.n < 1 || r.n > this.captureCalls) throw new Failure(fillText(T.noCapture, { name: `$${r.n}.${r.m}`, n: r.n }), r.start, r.end);
    }
    const groups = this.opts.groups;
    if (groups === undefined) return;
    for (const r of this.groupRefs) {
      if (groups === null) throw new Failure(fillText(T.noPattern, { name: `$${r.n}` }), r.start, r.end);
      if (r.n > groups) throw new Failure(fillText(T.noGroup, { name: `$${r.n}`, count: groups }), r.start, r.end);
    }
  }

  private piece(): Piece {
    const tok = this.toks[this.pos];
    switch (tok.t) {
      case 'text':
        this.pos++;
        return { kind: 'text', value: tok.value, escaped: tok.escaped, start: tok.start, end: tok.end } as TextPiece;
      case 'string':
        this.pos++;
        return { kind: 'string', value: tok.value, start: tok.start, end: tok.end };
      case 'var': {
        this.pos++;
        const k = variableKind(tok.name);
        if (k === 'empty') throw new Failure(fillText(T.emptyVariable, { name: `$_${tok.name}` }), tok.start, tok.end);
        if (k === 'unknown') throw new Failure(fillText(T.unknownVariable, { name: `$_${tok.name}` }), tok.start, tok.end);
        return { kind: 'var', name: tok.name, start: tok.start, end: tok.end };
      }
      case 'group': {
        this.pos++;
        const p = { kind: 'group' as const, n: tok.n, start: tok.start, end: tok.end };
        this.groupRefs.push(p);
        return p;
      }
      case 'capture': {
        this.pos++;
        const p = { kind: 'capture' as const, n: tok.n, m: tok.m, start: tok.start, end: tok.end };
        this.captureRefs.push(p);
        return p;
      }
      case 'call':
        return this.call(tok);
      default:
        // comma, parentheses and break are handled by the callers
        throw new Failure(T.strayComma, tok.start, tok.end);
    }
  }

  private call(tok: Extract<Token, { t: 'call' }>): Piece {
    const info = FUNCTION_BY_NAME.get(tok.name)!;
    const index = tok.name === 'CAPTURE' ? ++this.captureCalls : undefined;
    this.pos++;
    const args: Expr[] = [];
    const toks = this.toks;
    let end = tok.end;
    if (toks[this.pos]?.t === 'rparen') {
      end = toks[this.pos].end;
      this.pos++;
    } else {
      for (;;) {
        args.push(this.expr());
        const next = toks[this.pos];
        if (!next) throw new Failure(fillText(T.unclosedCall, { name: `$${tok.name}` }), tok.start, tok.nameEnd);
        this.pos++;
        if (next.t === 'rparen') {
          end = next.end;
          break;
        }
        // a comma: another argument follows (possibly empty)
      }
    }
    if (args.length < info.min) throw new Failure(fillText(T.tooFewArgs, { name: `$${tok.name}`, min: info.min, n: args.length }), tok.start, end);
    return { kind: 'call', name: tok.name, args, nameEnd: tok.nameEnd, start: tok.start, end, ...(index ? { index } : {}) };
  }

  private expr(): Expr {
    const toks = this.toks;
    const start = toks[this.pos]?.start ?? this.src.length;
    const pieces: Piece[] = [];
    while (this.pos < toks.length) {
      const tok = toks[this.pos];
      if (tok.t === 'comma' || tok.t === 'rparen') break;
      if (tok.t === 'lparen') throw new Failure(T.strayLParen, tok.start, tok.end);
      if (tok.t === 'break') throw new Failure(T.breakNotAtEnd, tok.start, tok.end);
      pieces.push(this.piece());
    }
    const end = pieces.length ? pieces[pieces.length - 1].end : start;
    const merged = mergeTexts(joinRuns(pieces));
    // a whole argument written true or false is a boolean
    const plain = pieces.every((p) => p.kind === 'text' && !(p as TextPiece).escaped);
    if (plain && merged.length === 1 && merged[0].kind === 'text' && (merged[0].value === 'true' || merged[0].value === 'false')) {
      return { pieces: [{ kind: 'bool', value: merged[0].value === 'true', start: merged[0].start, end: merged[0].end }], start, end };
    }
    return { pieces: merged, start, end };
  }
}

/** Joins runs of unescaped text split by whitespace ("a b" is "ab"), keeping escaped characters apart. */
function joinRuns(pieces: Piece[]): Piece[] {
  const out: Piece[] = [];
  for (const p of pieces) {
    const prev = out[out.length - 1] as TextPiece | undefined;
    if (p.kind === 'text' && !(p as TextPiece).escaped && prev?.kind === 'text' && !prev.escaped) {
      out[out.length - 1] = { ...prev, value: prev.value + p.value, end: p.end };
    } else out.push(p.kind === 'text' ? { ...p } : p);
  }
  return out;
}

/** Adjacent texts become one piece (escaped or not); empty texts go. */
function mergeTexts(pieces: Piece[]): Piece[] {
  const out: Piece[] = [];
  for (const p of pieces) {
    if (p.kind === 'text') {
      if (!p.value) continue;
      const prev = out[out.length - 1];
      if (prev?.kind === 'text') {
        out[out.length - 1] = { kind: 'text', value: prev.value + p.value, start: prev.start, end: p.end };
        continue;
      }
      out.push({ kind: 'text', value: p.value, start: p.start, end: p.end });
    } else out.push(p);
  }
  return out;
}

/** 1-based line and column of an offset. */
export function lineColumn(src: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < src.length; i++) {
    if (src[i] === '\n') {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

export function parse(src: string, opts: ParseOptions = {}): ParseResult {
  try {
    if (!src.trim()) throw new Failure(T.empty, 0, 0);
    const program = new Parser(src, tokenize(src), opts).program();
    return { ok: true, program };
  } catch (e) {
    if (!(e instanceof Failure)) throw e;
    return { ok: false, error: { reason: e.reason, start: e.start, end: Math.max(e.end, e.start), ...lineColumn(src, e.start) } };
  }
}

/** "第 2 行第 5 列：未知的函数 $FOO" */
export function formatSyntaxError(e: Pick<SyntaxError, 'line' | 'column' | 'reason'>): string {
  return fillText(EDGE_RULE_TEXTS.at, { line: e.line, column: e.column, reason: e.reason });
}
