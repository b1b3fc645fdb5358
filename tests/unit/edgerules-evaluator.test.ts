/**
 * The evaluator (src/shared/edgerules/evaluate.ts): the documented semantics of a rule set, the
 * examples of the language document, the functions and variables, and general rules compiled to
 * the language.
 */
import { evaluate, compileGeneral, type RunnableRule, type SampleRequest, type Condition, type Action } from '../../src/shared/edgerules';

let nextPriority = 1;
function custom(rule: string, extra: Partial<RunnableRule> = {}): RunnableRule {
  return { describe: `r${nextPriority}`, type: 'custom', priority: nextPriority++, break: false, status: 'ON', pattern: '', rule, ...extra };
}
function general(conditions: Condition[], action: Action, extra: Partial<RunnableRule> = {}): RunnableRule {
  return { describe: `g${nextPriority}`, type: 'general', priority: nextPriority++, break: false, status: 'ON', content: { conditions, actions: [action] }, ...extra };
}
const cond = (value: string, rvalue: string, operator: Condition['operator'] = 'equal', case_sensitive = true): Condition => ({ lvalue: { type: 'variable', value }, rvalue: { type: 'literal', value: rvalue }, operator, case_sensitive });
const req = (uri: string, extra: Partial<SampleRequest> = {}): SampleRequest => ({ uri, ip: '10.0.0.1', ...extra });
const fixed = { random: () => 0.5, now: Date.UTC(2018, 1, 23, 1, 55, 0) };
const run = (rules: RunnableRule[], r: SampleRequest) => evaluate(rules, r, fixed);
/** The value a program leaves as its rewrite target (without query handling). */
const value = (expr: string, r: SampleRequest = req('/')) => {
  const out = run([custom(`/$PCALL(${expr})??`)], r);
  return out.uri.slice(1);
};

beforeEach(() => {
  nextPriority = 1;
});

describe('the examples of the language document', () => {
  const m3u8 = "$WHEN($MATCH($_URI, '\\.m3u8$'), $NOT($_GET_sign))$EXIT(403)";

  it('denies .m3u8 requests that carry no sign parameter', () => {
    expect(run([custom(m3u8)], req('/live/a.m3u8')).status).toBe(403);
    expect(run([custom(m3u8)], req('/live/a.m3u8', { query: 'sign=abc' })).status).toBeNull();
    expect(run([custom(m3u8)], req('/live/a.ts')).status).toBeNull();
  });

  it('adds a response header on every request', () => {
    expect(run([custom('$ADD_RSP_HEADER(X-Served-By, edge, 1)')], req('/anything')).response_headers).toEqual([
      { action: 'add', name: 'X-Served-By', value: 'edge', cover: true, priority: 1, applied: true },
    ]);
  });

  it('sends old blog paths to a new host', () => {
    const out = run([custom('$REDIRECT(https://blog.example.com/$1, 301)', { pattern: '^/blog/(.*)$' })], req('/blog/2018/hello.html'));
    expect(out).toEqual(expect.objectContaining({ status: 301, location: 'https://blog.example.com/2018/hello.html' }));
    expect(run([custom('$REDIRECT(https://blog.example.com/$1, 301)', { pattern: '^/blog/(.*)$' })], req('/news/1')).status).toBeNull();
  });

  it('rewrites /img/200x100/cat.png to a query form, keeping the original query', () => {
    const rule = custom('/$3?w=$1&h=$2', { pattern: '^/img/([0-9]+)x([0-9]+)/(.+)$' });
    expect(run([rule], req('/img/200x100/cat.png'))).toEqual(expect.objectContaining({ uri: '/cat.png?w=200&h=100', rewritten: true }));
    expect(run([rule], req('/img/200x100/cat.png?v=2')).uri).toBe('/cat.png?w=200&h=100&v=2');
  });
});

describe('rule set semantics', () => {
  it('runs rules in priority order whatever order they are given in', () => {
    const a = custom('$ADD_RSP_HEADER(X-Order, a)', { priority: 2 });
    const b = custom('$ADD_RSP_HEADER(X-Order, b)', { priority: 1 });
    expect(run([a, b], req('/')).response_headers.map((h) => h.value)).toEqual(['b', 'a']);
  });

  it('skips OFF rules and applies DEBUG rules only to their IP', () => {
    const rules = [custom('$ADD_RSP_HEADER(X-Off, 1)', { status: 'OFF' }), custom('$ADD_RSP_HEADER(X-Debug, 1)', { status: 'DEBUG', ip: '10.0.0.1' })];
    const mine = run(rules, req('/'));
    expect(mine.response_headers.map((h) => h.name)).toEqual(['X-Debug']);
    expect(mine.trace.map((t) => t.outcome)).toEqual(['off', 'matched']);
    const other = run(rules, req('/', { ip: '10.0.0.2' }));
    expect(other.response_headers).toEqual([]);
    expect(other.trace.map((t) => t.outcome)).toEqual(['off', 'debug_ip']);
  });

  it('stops the remaining rules after a matched rule with break, or whose text ends with $$', () => {
    const rules = [custom('$WHEN($EQ($_URI, /stop))$ADD_RSP_HEADER(X-1, 1)', { break: true }), custom('$ADD_RSP_HEADER(X-2, 1)$$'), custom('$ADD_RSP_HEADER(X-3, 1)')];
    const stop = run(rules, req('/stop'));
    expect(stop.response_headers.map((h) => h.name)).toEqual(['X-1']);
    expect(stop.matched).toEqual([expect.objectContaining({ priority: 1, ended: 'break' })]);
    expect(stop.trace.map((t) => t.outcome)).toEqual(['matched', 'not_reached', 'not_reached']);
    // the first rule did not match, so its break does not apply; the second breaks with $$
    const go = run(rules, req('/go'));
    expect(go.response_headers.map((h) => h.name)).toEqual(['X-2']);
    expect(go.trace.map((t) => t.outcome)).toEqual(['condition_false', 'matched', 'not_reached']);
  });

  it('ends the whole set at a redirect or an exit', () => {
    const rules = [custom('$ADD_RSP_HEADER(X-Before, 1)'), custom('$EXIT(404, gone)'), custom('$ADD_RSP_HEADER(X-After, 1)')];
    const out = run(rules, req('/'));
    expect(out).toEqual(expect.objectContaining({ status: 404, body: 'gone' }));
    expect(out.response_headers.map((h) => h.name)).toEqual(['X-Before']);
    expect(out.matched.map((m) => m.ended)).toEqual([undefined, 'exit']);
    expect(out.trace[2].outcome).toBe('not_reached');
    // and what follows the redirect in the same rule does not happen
    const r = run([custom('$REDIRECT(/new, 302)$ADD_RSP_HEADER(X-Late, 1)')], req('/'));
    expect(r).toEqual(expect.objectContaining({ status: 302, location: '/new', response_headers: [] }));
  });

  it('applies a URI rewrite only after all other rules, even when it comes first', () => {
    const out = run([custom('/new$_URI'), custom('$WHEN($EQ($_URI, /a))$ADD_REQ_HEADER(X-Seen, $_URI)')], req('/a'));
    expect(out.uri).toBe('/new/a');
    // the second rule still saw the original URI
    expect(out.request_headers).toEqual([expect.objectContaining({ name: 'X-Seen', value: '/a' })]);
  });

  it('does not apply the rewrite at all when a later rule ends the set', () => {
    const out = run([custom('/new$_URI'), custom('$EXIT(403)')], req('/a', { query: 'x=1' }));
    expect(out).toEqual(expect.objectContaining({ status: 403, uri: '/a?x=1', rewritten: false }));
    expect(out.notes).toEqual(['规则集提前结束，URI 改写未执行']);
  });

  it('lets a later rewrite replace an earlier one', () => {
    const out = run([custom('/first'), custom('/second')], req('/a'));
    expect(out.uri).toBe('/second');
    expect(out.notes).toEqual(['优先级 1 的改写被后面的规则覆盖']);
  });

  it('leaves the URI when the rewrite target names a missing variable; inside a function it is empty', () => {
    const out = run([custom('/v/$_GET_version')], req('/a'));
    expect(out).toEqual(expect.objectContaining({ uri: '/a', rewritten: false }));
    expect(out.notes).toEqual(['改写目标引用的变量 $_GET_version 不存在，URI 未改写']);
    expect(run([custom('/v/$LOWER($_GET_version)x')], req('/a')).uri).toBe('/v/x');
  });

  it('handles the query of a rewrite: kept and appended, dropped with ?, none with ??', () => {
    const r = req('/a', { query: 'x=1&y=2' });
    expect(run([custom('/b')], r).uri).toBe('/b?x=1&y=2');
    expect(run([custom('/b?z=3')], r).uri).toBe('/b?z=3&x=1&y=2');
    expect(run([custom('/b?z=3?')], r).uri).toBe('/b?z=3');
    expect(run([custom('/b?')], r).uri).toBe('/b');
    expect(run([custom('/b??')], r).uri).toBe('/b');
    // the query in the uri of the sample works too, and $DEL_ARG removes one parameter
    expect(run([custom('$DEL_ARG(x)')], req('/a?x=1&y=2')).uri).toBe('/a?y=2');
    expect(run([custom('$DEL_ARG(y)/b')], r)).toEqual(expect.objectContaining({ uri: '/b?x=1', deleted_args: ['y'] }));
  });

  it('stops a rule at a false $WHEN; what it did before stays', () => {
    const out = run([custom('$ADD_RSP_HEADER(X-A, 1)$WHEN(false)$ADD_RSP_HEADER(X-B, 1)')], req('/'));
    expect(out.response_headers.map((h) => h.name)).toEqual(['X-A']);
    expect(out.trace[0].outcome).toBe('condition_false');
    expect(out.matched).toEqual([]);
  });

  it('does not let protected response headers be deleted (case-insensitive)', () => {
    const out = run([custom('$DEL_RSP_HEADER(Server)$DEL_RSP_HEADER(x-cache)$DEL_RSP_HEADER(X-Powered-By)')], req('/'));
    expect(out.response_headers.map((h) => [h.name, h.applied])).toEqual([
      ['Server', false],
      ['x-cache', false],
      ['X-Powered-By', true],
    ]);
    expect(out.response_headers[0].note).toBe('响应头 Server 受保护，不能删除');
    expect(out.notes).toEqual(['响应头 Server 受保护，不能删除', '响应头 x-cache 受保护，不能删除']);
  });

  it('does nothing when the pattern does not match, and reports rules that cannot run', () => {
    const out = run([custom('$EXIT(403)', { pattern: '^/private/' }), custom('$EXIT(', { describe: 'broken' }), custom('$ADD_RSP_HEADER(X-Ok, 1)')], req('/public'));
    expect(out.trace.map((t) => t.outcome)).toEqual(['no_match', 'invalid', 'matched']);
    expect(out.trace[1].detail).toBe('函数 $EXIT 缺少右括号 )');
  });

  it('stops a rule at a runtime error, and $PCALL catches it', () => {
    const out = run([custom('$ADD_RSP_HEADER(X-A, $DIVIDE(1, 0))'), custom('$ADD_RSP_HEADER(X-B, $PCALL($DIVIDE(1, 0))x)')], req('/'));
    expect(out.trace[0]).toEqual(expect.objectContaining({ outcome: 'error', detail: '$DIVIDE 的除数不能为 0' }));
    expect(out.response_headers).toEqual([expect.objectContaining({ name: 'X-B', value: 'x' })]);
  });

  it('rate limits: units k and m, the last rule wins', () => {
    expect(run([custom('$LIMIT_RATE_AFTER(2, m)$LIMIT_RATE(100, k)')], req('/')).limit_rate).toEqual({ after: 2 * 1024 * 1024, rate: 100 * 1024 });
    expect(run([custom('$LIMIT_RATE(100, k)'), custom('$LIMIT_RATE(1, m)')], req('/')).limit_rate).toEqual({ after: null, rate: 1024 * 1024 });
    expect(run([custom('$LIMIT_RATE(100, g)')], req('/')).trace[0].detail).toBe('$LIMIT_RATE 的单位只能是 k 或 m：g');
  });

  it('changes the method and body with their restrictions', () => {
    expect(run([custom('$SET_METHOD(post)$SET_BODY(a=1)')], req('/')).method).toBe('POST');
    expect(run([custom('$SET_METHOD(post)$SET_BODY(a=1)')], req('/')).request_body).toBe('a=1');
    expect(run([custom('$SET_BODY(a=1)')], req('/')).trace[0].detail).toBe('只有 PUT 或 POST 请求才能设置请求体');
    expect(run([custom('$SET_METHOD(GET)')], req('/', { method: 'POST', body: 'x' })).trace[0].detail).toBe('请求带有请求体时只能改为 PUT 或 POST');
    expect(run([custom('$SET_METHOD(FETCH)')], req('/')).trace[0].detail).toBe('不支持的请求方法：FETCH');
  });

  it('checks the codes of redirects, exits and error pages', () => {
    expect(run([custom('$REDIRECT(/a, 307)')], req('/')).trace[0].detail).toBe('$REDIRECT 的状态码不合法：307');
    expect(run([custom('$ERROR_PAGE(503, /busy.html)')], req('/'))).toEqual(expect.objectContaining({ status: 503, error_page: '/busy.html' }));
  });

  it('refuses to touch Content-Length and Transfer-Encoding of the request', () => {
    const out = run([custom('$ADD_REQ_HEADER(content-length, 1)$DEL_REQ_HEADER(X-Forwarded-For)')], req('/'));
    expect(out.request_headers.map((h) => [h.action, h.name, h.applied])).toEqual([
      ['add', 'content-length', false],
      ['delete', 'X-Forwarded-For', true],
    ]);
  });
});

describe('variables', () => {
  const r = req('/p/a.html', {
    method: 'post',
    scheme: 'https',
    host: 'img.cdn.example.com',
    query: 'q=%E4%B8%AD&empty=',
    headers: { 'User-Agent': 'curl/8.0', Cookie: 'sid=abc; theme=dark', 'Content-Type': 'application/x-www-form-urlencoded' },
    body: 'name=a+b&x=1',
    ip: '192.0.2.10',
    country: 'cn',
    time: 1519350900,
  });
  it.each([
    ['$_IP', '192.0.2.10'],
    ['$_HOST', 'img.cdn.example.com'],
    ['$_HOST_1', 'img'],
    ['$_HOST_3', 'example'],
    ['$_GET_q', '中'],
    ['$_GET_empty', ''],
    ['$_POST_name', 'a b'],
    ['$_HEADER_user-agent', 'curl/8.0'],
    ['$_HEADER_User-Agent', 'curl/8.0'],
    ['$_COOKIE_theme', 'dark'],
    ['$_URI', '/p/a.html'],
    ['$_QUERY', 'q=%E4%B8%AD&empty='],
    ['$_METHOD', 'POST'],
    ['$_SCHEME', 'https'],
    ['$_TIME', '1519350900'],
    ['$_BODY', 'name=a+b&x=1'],
    ['$_GEOIP_COUNTRY_CODE', 'CN'],
    ['$LEN($_RANDOM)', '8'],
    ['$LEN($_RANDOM_20)', '20'],
    ['$_GET_missing', ''],
    ['$_HOST_9', ''],
  ])('%s', (v, expected) => {
    const out = run([custom(`$ADD_RSP_HEADER(X-V, ${v})`)], r);
    expect(out.response_headers[0].value).toBe(expected);
  });
});

describe('functions', () => {
  it.each([
    // logic
    ['$SELECT($EQ(a, a), yes, no)', 'yes'],
    ['$SELECT($ALL(), yes, no)', 'no'],
    ['$SELECT($ANY(, x), yes, no)', 'yes'],
    ['$OR(, , third)', 'third'],
    ['$SELECT($NOT($_GET_none), yes, no)', 'yes'],
    ["$SELECT($MATCH(Hello, '(?i)^hello$'), yes, no)", 'yes'],
    // numbers
    ['$ADD(2, 3)', '5'],
    ['$MSUB(2, 3)', '-1'],
    ['$MULTIPLY(1.5, 4)', '6'],
    ['$DIVIDE(7, 2)', '3.5'],
    ['$MOD(7, 3)', '1'],
    ['$FLOOR(3.7)', '3'],
    ['$CEIL(3.2)', '4'],
    ['$BYTE(A)', '65'],
    ['$SELECT($GT(10, 9), yes, no)', 'yes'],
    ['$SELECT($GE(9, 9), yes, no)', 'yes'],
    ['$INT(ff, 16)', '255'],
    ['$INT(255, 10, 2)', '11111111'],
    ['$RANDI(1, 10)', '6'],
    ['$ADD(a, 1)', ''],
    // strings
    ['$SUB(abcdef, 2, 4)', 'bcd'],
    ['$SUB(abcdef, -3, -1)', 'def'],
    ['$SUB(abcdef, -3, )', 'def'],
    ['$SUB(中文字符, 2, 3)', '文字'],
    ["$GSUB(a-b-c, '-', _, )", 'a_b_c'],
    ["$GSUB(a-b-c, '-', _, 1)", 'a_b-c'],
    ["$GSUB(2018-02, '(\\d+)-(\\d+)', '$2.$1', -1)", '02.2018'],
    ['$UPPER(abc)', 'ABC'],
    ['$LOWER(ABC)', 'abc'],
    ['$LEN(中文)', '2'],
    // encoding and time
    ['$ENCODE_BASE64(中文)', '5Lit5paH'],
    ['$DECODE_BASE64(5Lit5paH)', '中文'],
    ['$MD5(abc)', '900150983cd24fb0d6963f7d28e17f72'],
    ['$ENCODE_BASE64($MD5_BIN(abc))', 'kAFQmDzST7DWlj99KOF/cg=='],
    ["$ESCAPE('a b/中')", 'a%20b%2F%E4%B8%AD'],
    ['$UNESCAPE(a%20b)', 'a b'],
    ['$UNIXT(2018, 2, 23, 9, 55, 0)', '1519350900'],
    ['$STRF_TIME(1519350900)', '201802230955'],
    ['$STRF_TIME(1519350900, -)', '2018-02-23-09-55'],
    ['$STRF_TIME($_TIME)', '201802230955'],
  ])('%s → %j', (expr, expected) => {
    const out = run([custom(`$ADD_RSP_HEADER(X-V, ${expr})`)], req('/'));
    if (out.trace[0].outcome === 'error') expect(expected).toBe('');
    else expect(out.response_headers[0]?.value).toBe(expected);
  });

  it('gives the groups of each $CAPTURE as $n.m', () => {
    const out = run([custom("$CAPTURE($_HEADER_user-agent, '(\\w+)/(\\d+)', )$CAPTURE($_URI, '', )$ADD_RSP_HEADER(X-V, $1.1-$1.2-$2.0)")], req('/x', { headers: { 'user-agent': 'curl/8' } }));
    expect(out.response_headers[0].value).toBe('curl-8-/x');
    // case-insensitive capture
    expect(value("$CAPTURE(ABC, '(b)', true)")).toBe('');
    expect(run([custom("$CAPTURE(ABC, '(b)', true)$ADD_RSP_HEADER(X-V, $1.1)")], req('/')).response_headers[0].value).toBe('B');
  });

  it('reports a bad regular expression at run time', () => {
    expect(run([custom("$WHEN($MATCH($_URI, '('))")], req('/')).trace[0].detail).toBe('正则表达式不合法：(');
  });
});

describe('general rules compiled to the language', () => {
  it('compiles conditions and actions to a program the parser accepts', () => {
    expect(compileGeneral({ conditions: [cond('http_uri', '/a'), cond('http_header_User-Agent', "It's", 'equal', false)], actions: [{ type: 'header', kind: 'response', operate: 'add', name: 'X-A', value: 'v 1', cover: true }] })).toEqual({
      pattern: '',
      rule: "$WHEN($EQ($_URI, '/a'), $EQ($LOWER($_HEADER_user-agent), 'it\\'s'))$ADD_RSP_HEADER('X-A', 'v 1', 1)",
    });
    expect(compileGeneral({ conditions: [cond('http_uri', '\\.(jpg|png)$', 'not_match', false)], actions: [{ type: 'movement', kind: 'redirect', code: 301, capture: '^/(.*)$', target: 'https://x.com/$1 ($_HOST)' }] })).toEqual({
      pattern: '^/(.*)$',
      rule: "$WHEN($NOT($MATCH($_URI, '(?i)\\\\.(jpg|png)$')))$REDIRECT(https://x.com/$1\\ \\($_HOST\\), 301)",
    });
    expect(compileGeneral({ conditions: [], actions: [{ type: 'limit_rate', rate: '100KB', after: '2MB' }] }).rule).toBe('$LIMIT_RATE_AFTER(2, m)$LIMIT_RATE(100, k)');
  });

  it('runs each of the seven functions of general mode', () => {
    const uri = (u: string) => [cond('http_uri', u)];
    const rules = [
      general(uri('/h'), { type: 'header', kind: 'request', operate: 'add', name: 'X-From', value: 'edge', cover: false }),
      general(uri('/h'), { type: 'header', kind: 'response', operate: 'delete', name: 'X-Powered-By' }),
      general(uri('/old'), { type: 'movement', kind: 'redirect', code: 302, target: 'https://new.example.com/old' }),
      general(uri('/rw'), { type: 'uri_rewrite', newuri: '/rewritten' }),
      general(uri('/slow'), { type: 'limit_rate', rate: '1MB' }),
      general(uri('/deny'), { type: 'access_control', code: 404 }),
      general(uri('/down'), { type: 'movement', kind: 'errorpage', code: 503, target: '/maintenance.html' }),
    ];
    const h = run(rules, req('/h'));
    expect(h.request_headers).toEqual([expect.objectContaining({ action: 'add', name: 'X-From', value: 'edge' })]);
    expect(h.response_headers).toEqual([expect.objectContaining({ action: 'delete', name: 'X-Powered-By', applied: true })]);
    expect(run(rules, req('/old'))).toEqual(expect.objectContaining({ status: 302, location: 'https://new.example.com/old' }));
    expect(run(rules, req('/rw')).uri).toBe('/rewritten');
    expect(run(rules, req('/slow')).limit_rate).toEqual({ after: null, rate: 1024 * 1024 });
    expect(run(rules, req('/deny')).status).toBe(404);
    expect(run(rules, req('/down'))).toEqual(expect.objectContaining({ status: 503, error_page: '/maintenance.html' }));
    expect(run(rules, req('/other')).matched).toEqual([]);
  });

  it('matches case-sensitively or not, with every operator and variable', () => {
    const deny = { type: 'access_control', code: 403 } as Action;
    const t = (c: Condition, r: SampleRequest) => run([general([c], deny)], r).status === 403;
    expect(t(cond('http_uri', '/A'), req('/a'))).toBe(false);
    expect(t(cond('http_uri', '/A', 'equal', false), req('/a'))).toBe(true);
    expect(t(cond('http_uri', '/A', 'not_equal', false), req('/a'))).toBe(false);
    expect(t(cond('http_uri', '^/IMG/', 'match'), req('/img/x'))).toBe(false);
    expect(t(cond('http_uri', '^/IMG/', 'match', false), req('/img/x'))).toBe(true);
    expect(t(cond('http_uri', '^/img/', 'not_match'), req('/img/x'))).toBe(false);
    expect(t(cond('http_method', 'POST'), req('/', { method: 'post' }))).toBe(true);
    expect(t(cond('http_scheme', 'https'), req('/', { scheme: 'https' }))).toBe(true);
    expect(t(cond('country_code', 'US'), req('/', { country: 'US' }))).toBe(true);
    expect(t(cond('remote_ip', '10.0.0.1', 'not_equal'), req('/'))).toBe(false);
    expect(t(cond('http_args_token', 'x'), req('/?token=x'))).toBe(true);
    expect(t(cond('http_post_user', 'bob'), req('/', { post: { user: 'bob' } }))).toBe(true);
    expect(t(cond('http_cookie_session-id', '^s', 'match'), req('/', { headers: { cookie: 'session-id=s1' } }))).toBe(true);
    expect(t(cond('http_header_X-Token', 'abc'), req('/', { headers: { 'x-token': 'abc' } }))).toBe(true);
  });

  it('needs every condition (and), and applies with none', () => {
    const deny = { type: 'access_control', code: 403 } as Action;
    const both = [cond('http_uri', '/a'), { ...cond('http_method', 'GET'), combination: 'and' as const }];
    expect(run([general(both, deny)], req('/a')).status).toBe(403);
    expect(run([general(both, deny)], req('/a', { method: 'HEAD' })).status).toBeNull();
    expect(run([general([], deny)], req('/anything')).status).toBe(403);
  });

  it('uses the capture of a redirect or rewrite as the rule\'s pattern', () => {
    const rw = general([], { type: 'uri_rewrite', capture: '^/v1/(.*)$', newuri: '/api/$1?' });
    expect(run([rw], req('/v1/users?x=1')).uri).toBe('/api/users');
    expect(run([rw], req('/v2/users')).rewritten).toBe(false);
  });
});
