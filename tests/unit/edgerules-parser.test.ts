/**
 * The parser of the edge-rule language (src/shared/edgerules/parser.ts): valid programs and their
 * shape, invalid programs with the exact reason and position.
 */
import { FUNCTIONS, parse, formatSyntaxError, checkProgram, type Program, type Piece } from '../../src/shared/edgerules';

function ok(src: string, groups?: number | null): Program {
  const r = parse(src, groups === undefined ? {} : { groups });
  if (!r.ok) throw new Error(`${src}: ${formatSyntaxError(r.error)}`);
  return r.program;
}

/** A compact picture of pieces: text "x", string 'x', $_VAR, $1, $1.2, CALL(…). */
function shape(pieces: Piece[]): string {
  return pieces
    .map((p) => {
      switch (p.kind) {
        case 'text':
          return JSON.stringify(p.value);
        case 'string':
          return `'${p.value}'`;
        case 'bool':
          return p.value ? 'TRUE' : 'FALSE';
        case 'var':
          return `$_${p.name}`;
        case 'group':
          return `$${p.n}`;
        case 'capture':
          return `$${p.n}.${p.m}`;
        case 'call':
          return `${p.name}(${p.args.map((a) => shape(a.pieces)).join(' | ')})`;
      }
    })
    .join(' ');
}

describe('valid programs', () => {
  it.each([
    // the examples of the language document
    ["$WHEN($MATCH($_URI, '\\.m3u8$'), $NOT($_GET_sign))$EXIT(403)", "WHEN(MATCH($_URI | '\\.m3u8$') | NOT($_GET_sign)) EXIT(\"403\")"],
    ['$ADD_RSP_HEADER(X-Served-By, edge, 1)', 'ADD_RSP_HEADER("X-Served-By" | "edge" | "1")'],
    ['$REDIRECT(https://blog.example.com/$1, 301)', 'REDIRECT("https://blog.example.com/" $1 | "301")'],
    ['/$3?w=$1&h=$2', '"/" $3 "?w=" $1 "&h=" $2'],
    // whitespace in literal text is dropped, kept inside quotes
    ['$ADD_REQ_HEADER( X-A , a b c )', 'ADD_REQ_HEADER("X-A" | "abc")'],
    ["$ADD_REQ_HEADER(X-A, 'a b c')", "ADD_REQ_HEADER(\"X-A\" | 'a b c')"],
    // escapes: a backslash escapes the next character in text; in quotes only \' and \\
    ['/foo/bar\\,\\(x\\)', '"/foo/bar,(x)"'],
    ["'it\\'s \\\\ \\d'", "'it's \\ \\d'"],
    ["'$_HOST'", "'$_HOST'"],
    // adjacent pieces concatenate
    ["'abc'$_GET_t$_URI", "'abc' $_GET_t $_URI"],
    // nesting, empty and boolean arguments
    ['$SELECT($EQ($_METHOD, GET), true, false)', 'SELECT(EQ($_METHOD | "GET") | TRUE | FALSE)'],
    ['$GSUB($_URI, a, , )', 'GSUB($_URI | "a" |  | )'],
    ['$ALL()', 'ALL()'],
    ['$WHEN ( $_IP )', 'WHEN($_IP)'],
    // captures of $CAPTURE
    ["$CAPTURE($_HEADER_user-agent, '(\\w+)/(\\d+)', )$1.0$1.2", "CAPTURE($_HEADER_user-agent | '(\\w+)/(\\d+)' | ) $1.0 $1.2"],
    // variables
    ['$_HOST_2$_RANDOM_16$_COOKIE_session-id$_POST_a$_GEOIP_COUNTRY_CODE', '$_HOST_2 $_RANDOM_16 $_COOKIE_session-id $_POST_a $_GEOIP_COUNTRY_CODE'],
    // a hyphen ends a plain variable
    ['/$_URI-x', '"/" $_URI "-x"'],
    // several lines
    ['$WHEN(\n  $EQ($_SCHEME, http)\n)\n$REDIRECT(https://$_HOST$_URI, 301)', 'WHEN(EQ($_SCHEME | "http")) REDIRECT("https://" $_HOST $_URI | "301")'],
  ])('%s', (src, expected) => {
    expect(shape(ok(src).pieces)).toBe(expected);
  });

  it('reads a trailing ? (drop the query), ?? (no query) and $$ (break)', () => {
    expect(ok('/foo?bar=$1?', 1)).toEqual(expect.objectContaining({ query: 'drop', breakAtEnd: false }));
    expect(shape(ok('/foo?bar=$1?', 1).pieces)).toBe('"/foo?bar=" $1');
    expect(ok('/foo??')).toEqual(expect.objectContaining({ query: 'none' }));
    expect(shape(ok('/foo??').pieces)).toBe('"/foo"');
    expect(ok('/foo??$$')).toEqual(expect.objectContaining({ query: 'none', breakAtEnd: true }));
    expect(ok('$EXIT(403)$$')).toEqual(expect.objectContaining({ query: 'keep', breakAtEnd: true }));
    expect(ok('/a?b')).toEqual(expect.objectContaining({ query: 'keep' }));
    // an escaped ? is literal
    expect(ok('/a\\?')).toEqual(expect.objectContaining({ query: 'keep' }));
    expect(shape(ok('/a\\?').pieces)).toBe('"/a?"');
  });

  it('numbers the $CAPTURE calls in source order', () => {
    const p = ok('$CAPTURE($_URI, a, )$CAPTURE($_HOST, b, true)');
    expect(p.captures).toBe(2);
    expect(p.pieces.map((x) => (x.kind === 'call' ? x.index : null))).toEqual([1, 2]);
  });

  it('accepts every function of the catalogue with its minimum arguments', () => {
    for (const f of FUNCTIONS) {
      const src = `$${f.name}(${Array.from({ length: f.min }, (_, i) => `a${i}`).join(', ')})`;
      expect(parse(src).ok).toBe(true);
    }
  });

  it('keeps the positions of pieces', () => {
    const p = ok('  $EXIT(403)');
    expect(p.pieces[0]).toEqual(expect.objectContaining({ kind: 'call', start: 2, end: 12, nameEnd: 7 }));
  });
});

describe('invalid programs report the reason and the position', () => {
  it.each([
    ['$FOO(1)', '未知的函数 $FOO', 1, 1, 0, 4],
    ['/a$WHEN', '函数 $WHEN 之后缺少左括号 (', 1, 3, 2, 7],
    ['$WHEN($_URI', '函数 $WHEN 缺少右括号 )', 1, 1, 0, 5],
    ['$WHEN($MATCH($_URI, x)', '函数 $WHEN 缺少右括号 )', 1, 1, 0, 5],
    ['/a)b', '多余的右括号 )，如需原样使用请写作 \\)', 1, 3, 2, 3],
    ['/a(b', '左括号 ( 只能紧跟在函数名之后，如需原样使用请写作 \\(', 1, 3, 2, 3],
    ['/a,b', '逗号只能用于分隔函数参数，如需原样使用请写作 \\,', 1, 3, 2, 3],
    ['$$/a', '$$ 只能出现在规则末尾', 1, 1, 0, 2],
    ['$NOT($$)', '$$ 只能出现在规则末尾', 1, 6, 5, 7],
    ["$EXIT(403, 'denied)", '单引号字符串没有结束', 1, 12, 11, 19],
    ['/a\\', '转义符 \\ 后缺少字符', 1, 3, 2, 3],
    ['$when(1)', '$ 之后须为函数名、变量（$_名称）或分组（$1），如需原样使用请写作 \\$', 1, 1, 0, 1],
    ['/a$ b', '$ 之后须为函数名、变量（$_名称）或分组（$1），如需原样使用请写作 \\$', 1, 3, 2, 3],
    ['$REDIRECT(/a)', '函数 $REDIRECT 至少需要 2 个参数，实际只有 1 个', 1, 1, 0, 13],
    ['$SELECT(a, b)', '函数 $SELECT 至少需要 3 个参数，实际只有 2 个', 1, 1, 0, 13],
    ['$NOT()', '函数 $NOT 至少需要 1 个参数，实际只有 0 个', 1, 1, 0, 6],
    // the documented signatures (issue 19 item 20): $SUB(E, from, to), $UNIXT(y, m, d, h, min, s), $CAPTURE(E1, E2, E3), $GSUB(E, find, replace, n)
    ['$SUB(x, 1)', '函数 $SUB 至少需要 3 个参数，实际只有 2 个', 1, 1, 0, 10],
    ['$UNIXT(2018, 2, 23)', '函数 $UNIXT 至少需要 6 个参数，实际只有 3 个', 1, 1, 0, 19],
    ['$CAPTURE(a, b)', '函数 $CAPTURE 至少需要 3 个参数，实际只有 2 个', 1, 1, 0, 14],
    ["$GSUB(a, b, c)", '函数 $GSUB 至少需要 4 个参数，实际只有 3 个', 1, 1, 0, 14],
    ['$_NOPE', '未知的变量 $_NOPE', 1, 1, 0, 6],
    ['$_HEADER_', '变量 $_HEADER_ 缺少名称', 1, 1, 0, 9],
    ['$_RANDOM_33', '未知的变量 $_RANDOM_33', 1, 1, 0, 11],
    ['$_HOST_0', '未知的变量 $_HOST_0', 1, 1, 0, 8],
    ['$1.1', '$1.1 引用的第 1 个 $CAPTURE 不存在', 1, 1, 0, 4],
    ['$CAPTURE($_URI, a, )$2.1', '$2.1 引用的第 2 个 $CAPTURE 不存在', 1, 21, 20, 24],
    ['$WHEN(\n  $EQ($_URI, /a),\n  $FOO()\n)', '未知的函数 $FOO', 3, 3, 27, 31],
    ['  \n ', '规则不能为空', 1, 1, 0, 0],
  ])('%j', (src, reason, line, column, start, end) => {
    const r = parse(src);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toEqual({ reason, line, column, start, end });
  });

  it('checks groups against the URI extraction pattern', () => {
    expect(parse('/$2', { groups: 1 })).toEqual({ ok: false, error: expect.objectContaining({ reason: 'URI 提取模式只有 1 个分组，不能引用 $2', column: 2 }) });
    expect(parse('/$1', { groups: null })).toEqual({ ok: false, error: expect.objectContaining({ reason: '未填写 URI 提取模式，不能引用分组 $1' }) });
    expect(parse('/$1').ok).toBe(true);
    expect(parse('/$0', { groups: 0 }).ok).toBe(true);
  });

  it('formats an error with its line and column', () => {
    const r = parse('$EXIT(403)\n$BAD()');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(formatSyntaxError(r.error)).toBe('第 2 行第 1 列：未知的函数 $BAD');
  });
});

describe('checkProgram (the check call)', () => {
  it('checks the pattern first, then the program with its groups', () => {
    expect(checkProgram('/$1', '^/(a)$')).toEqual({ ok: true });
    expect(checkProgram('/x', '(a')).toEqual({ ok: false, part: 'pattern', error: expect.objectContaining({ reason: 'URI 提取模式不是合法的正则表达式' }) });
    expect(checkProgram('/$1', '')).toEqual({ ok: false, part: 'rule', error: expect.objectContaining({ reason: '未填写 URI 提取模式，不能引用分组 $1' }) });
    expect(checkProgram('/$1', '(?i)^/(a)$')).toEqual({ ok: true });
  });
});
