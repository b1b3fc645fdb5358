/**
 * Every case of the evaluator's tests (tests/unit/edgerules-evaluator.test.ts) and every example of
 * docs/edge-rules.md, as data: the rules and the sample request. tests/edge/rules-lua.test.ts runs them
 * through the Lua runtime and tests/edge/rules-diff.test.ts through a real edge, both against evaluate().
 * A new case of the evaluator's tests belongs here too.
 */
import type { Action, Condition, RunnableRule, SampleRequest } from '../../src/shared/edgerules';

export interface RuleCase {
  name: string;
  rules: RunnableRule[];
  request: SampleRequest;
  /** Values made of random characters: compare their length only. */
  random?: boolean;
  /** Reads the request time ($_TIME): the edge's clock and the sample's may differ by a second. */
  time?: boolean;
}

let n = 1;
const custom = (rule: string, extra: Partial<RunnableRule> = {}): RunnableRule => ({ rewrite_id: n, describe: `r${n}`, type: 'custom', priority: n++, break: false, status: 'ON', pattern: '', rule, ...extra });
const general = (conditions: Condition[], action: Action, extra: Partial<RunnableRule> = {}): RunnableRule => ({ rewrite_id: n, describe: `g${n}`, type: 'general', priority: n++, break: false, status: 'ON', content: { conditions, actions: [action] }, ...extra });
const cond = (value: string, rvalue: string, operator: Condition['operator'] = 'equal', case_sensitive = true): Condition => ({ lvalue: { type: 'variable', value }, rvalue: { type: 'literal', value: rvalue }, operator, case_sensitive });
const req = (uri: string, extra: Partial<SampleRequest> = {}): SampleRequest => ({ uri, ip: '10.0.0.1', ...extra });

/** A case of several rules; priorities restart at 1 for each. */
function c(name: string, make: () => RunnableRule[], requests: SampleRequest[], extra: Partial<RuleCase> = {}): RuleCase[] {
  return requests.map((request, i) => {
    n = 1;
    return { name: requests.length > 1 ? `${name} #${i + 1}` : name, rules: make(), request, ...extra };
  });
}

const m3u8 = "$WHEN($MATCH($_URI, '\\.m3u8$'), $NOT($_GET_sign))$EXIT(403)";
const uriIs = (u: string) => [cond('http_uri', u)];
const seven = () => [
  general(uriIs('/h'), { type: 'header', kind: 'request', operate: 'add', name: 'X-From', value: 'edge', cover: false }),
  general(uriIs('/h'), { type: 'header', kind: 'response', operate: 'delete', name: 'X-Powered-By' }),
  general(uriIs('/old'), { type: 'movement', kind: 'redirect', code: 302, target: 'https://new.example.com/old' }),
  general(uriIs('/rw'), { type: 'uri_rewrite', newuri: '/rewritten' }),
  general(uriIs('/slow'), { type: 'limit_rate', rate: '1MB' }),
  general(uriIs('/deny'), { type: 'access_control', code: 404 }),
  general(uriIs('/down'), { type: 'movement', kind: 'errorpage', code: 503, target: '/maintenance.html' }),
];
const deny = { type: 'access_control', code: 403 } as Action;

const varsRequest = req('/p/a.html', {
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
const VARIABLES = ['$_IP', '$_HOST', '$_HOST_1', '$_HOST_3', '$_GET_q', '$_GET_empty', '$_POST_name', '$_HEADER_user-agent', '$_HEADER_User-Agent', '$_COOKIE_theme', '$_URI', '$_QUERY', '$_METHOD', '$_SCHEME', '$_TIME', '$_BODY', '$_GEOIP_COUNTRY_CODE', '$LEN($_RANDOM)', '$LEN($_RANDOM_20)', '$_GET_missing', '$_HOST_9'];

const FUNCTIONS = [
  '$SELECT($EQ(a, a), yes, no)',
  '$SELECT($ALL(), yes, no)',
  '$SELECT($ANY(, x), yes, no)',
  '$OR(, , third)',
  '$SELECT($NOT($_GET_none), yes, no)',
  "$SELECT($MATCH(Hello, '(?i)^hello$'), yes, no)",
  '$ADD(2, 3)',
  '$MSUB(2, 3)',
  '$MULTIPLY(1.5, 4)',
  '$DIVIDE(7, 2)',
  '$MOD(7, 3)',
  '$FLOOR(3.7)',
  '$CEIL(3.2)',
  '$BYTE(A)',
  '$SELECT($GT(10, 9), yes, no)',
  '$SELECT($GE(9, 9), yes, no)',
  '$INT(ff, 16)',
  '$INT(255, 10, 2)',
  '$ADD(a, 1)',
  '$SUB(abcdef, 2, 4)',
  '$SUB(abcdef, -3, -1)',
  '$SUB(abcdef, -3, )',
  '$SUB(中文字符, 2, 3)',
  "$GSUB(a-b-c, '-', _, )",
  "$GSUB(a-b-c, '-', _, 1)",
  "$GSUB(2018-02, '(\\d+)-(\\d+)', '$2.$1', -1)",
  '$UPPER(abc)',
  '$LOWER(ABC)',
  '$LEN(中文)',
  '$ENCODE_BASE64(中文)',
  '$DECODE_BASE64(5Lit5paH)',
  '$MD5(abc)',
  '$ENCODE_BASE64($MD5_BIN(abc))',
  "$ESCAPE('a b/中')",
  '$UNESCAPE(a%20b)',
  '$UNIXT(2018, 2, 23, 9, 55, 0)',
  '$STRF_TIME(1519350900)',
  '$STRF_TIME(1519350900, -)',
  '$STRF_TIME($_TIME)',
];

export const CASES: RuleCase[] = [
  // the examples of the language document (docs/edge-rules.md points to them)
  ...c('文档示例：没有 sign 的 .m3u8 被拒绝', () => [custom(m3u8)], [req('/live/a.m3u8'), req('/live/a.m3u8', { query: 'sign=abc' }), req('/live/a.ts')]),
  ...c('文档示例：每个请求加响应头', () => [custom('$ADD_RSP_HEADER(X-Served-By, edge, 1)')], [req('/anything')]),
  ...c('文档示例：旧博客路径重定向', () => [custom('$REDIRECT(https://blog.example.com/$1, 301)', { pattern: '^/blog/(.*)$' })], [req('/blog/2018/hello.html'), req('/news/1')]),
  ...c('文档示例：图片路径改写为查询参数', () => [custom('/$3?w=$1&h=$2', { pattern: '^/img/([0-9]+)x([0-9]+)/(.+)$' })], [req('/img/200x100/cat.png'), req('/img/200x100/cat.png?v=2')]),
  // rule set semantics
  ...c('按优先级执行', () => [custom('$ADD_RSP_HEADER(X-Order, a)', { priority: 2 }), custom('$ADD_RSP_HEADER(X-Order, b)', { priority: 1 })], [req('/')]),
  ...c('OFF 跳过，DEBUG 只对其 IP', () => [custom('$ADD_RSP_HEADER(X-Off, 1)', { status: 'OFF' }), custom('$ADD_RSP_HEADER(X-Debug, 1)', { status: 'DEBUG', ip: '10.0.0.1' })], [req('/'), req('/', { ip: '10.0.0.2' })]),
  ...c('break 与 $$', () => [custom('$WHEN($EQ($_URI, /stop))$ADD_RSP_HEADER(X-1, 1)', { break: true }), custom('$ADD_RSP_HEADER(X-2, 1)$$'), custom('$ADD_RSP_HEADER(X-3, 1)')], [req('/stop'), req('/go')]),
  ...c('EXIT 结束规则集', () => [custom('$ADD_RSP_HEADER(X-Before, 1)'), custom('$EXIT(404, gone)'), custom('$ADD_RSP_HEADER(X-After, 1)')], [req('/')]),
  ...c('REDIRECT 之后的内容不执行', () => [custom('$REDIRECT(/new, 302)$ADD_RSP_HEADER(X-Late, 1)')], [req('/')]),
  ...c('改写在其余规则之后生效', () => [custom('/new$_URI'), custom('$WHEN($EQ($_URI, /a))$ADD_REQ_HEADER(X-Seen, $_URI)')], [req('/a')]),
  ...c('后面的规则结束规则集时不改写', () => [custom('/new$_URI'), custom('$EXIT(403)')], [req('/a', { query: 'x=1' })]),
  ...c('后面的改写覆盖前面的', () => [custom('/first'), custom('/second')], [req('/a')]),
  ...c('改写目标引用不存在的变量', () => [custom('/v/$_GET_version')], [req('/a')]),
  ...c('函数内不存在的变量为空', () => [custom('/v/$LOWER($_GET_version)x')], [req('/a')]),
  ...c('改写的查询字符串：保留', () => [custom('/b')], [req('/a', { query: 'x=1&y=2' })]),
  ...c('改写的查询字符串：合并', () => [custom('/b?z=3')], [req('/a', { query: 'x=1&y=2' })]),
  ...c('改写的查询字符串：? 丢弃原查询', () => [custom('/b?z=3?')], [req('/a', { query: 'x=1&y=2' })]),
  ...c('改写的查询字符串：单独的 ?', () => [custom('/b?')], [req('/a', { query: 'x=1&y=2' })]),
  ...c('改写的查询字符串：??', () => [custom('/b??')], [req('/a', { query: 'x=1&y=2' })]),
  ...c('$DEL_ARG', () => [custom('$DEL_ARG(x)')], [req('/a?x=1&y=2')]),
  ...c('$DEL_ARG 与改写', () => [custom('$DEL_ARG(y)/b')], [req('/a', { query: 'x=1&y=2' })]),
  ...c('$WHEN 为假时停止本条规则', () => [custom('$ADD_RSP_HEADER(X-A, 1)$WHEN(false)$ADD_RSP_HEADER(X-B, 1)')], [req('/')]),
  ...c('受保护的响应头不能删除', () => [custom('$DEL_RSP_HEADER(Server)$DEL_RSP_HEADER(x-cache)$DEL_RSP_HEADER(X-Powered-By)')], [req('/')]),
  ...c('pattern 不匹配与无法运行的规则', () => [custom('$EXIT(403)', { pattern: '^/private/' }), custom('$EXIT(', { describe: 'broken' }), custom('$ADD_RSP_HEADER(X-Ok, 1)')], [req('/public')]),
  ...c('运行时错误与 $PCALL', () => [custom('$ADD_RSP_HEADER(X-A, $DIVIDE(1, 0))'), custom('$ADD_RSP_HEADER(X-B, $PCALL($DIVIDE(1, 0))x)')], [req('/')]),
  ...c('限速：k 与 m', () => [custom('$LIMIT_RATE_AFTER(2, m)$LIMIT_RATE(100, k)')], [req('/')]),
  ...c('限速：后面的规则为准', () => [custom('$LIMIT_RATE(100, k)'), custom('$LIMIT_RATE(1, m)')], [req('/')]),
  ...c('限速：单位不合法', () => [custom('$LIMIT_RATE(100, g)')], [req('/')]),
  ...c('$SET_METHOD 与 $SET_BODY', () => [custom('$SET_METHOD(post)$SET_BODY(a=1)')], [req('/')]),
  ...c('$SET_BODY 只用于 PUT 和 POST', () => [custom('$SET_BODY(a=1)')], [req('/')]),
  ...c('带请求体时只能改为 PUT 或 POST', () => [custom('$SET_METHOD(GET)')], [req('/', { method: 'POST', body: 'x' })]),
  ...c('不支持的请求方法', () => [custom('$SET_METHOD(FETCH)')], [req('/')]),
  ...c('重定向状态码不合法', () => [custom('$REDIRECT(/a, 307)')], [req('/')]),
  ...c('$ERROR_PAGE', () => [custom('$ERROR_PAGE(503, /busy.html)')], [req('/')]),
  ...c('Content-Length 不能修改', () => [custom('$ADD_REQ_HEADER(content-length, 1)$DEL_REQ_HEADER(X-Forwarded-For)')], [req('/')]),
  // variables
  ...VARIABLES.map((v) => ({ ...c(`变量 ${v}`, () => [custom(`$ADD_RSP_HEADER(X-V, ${v})`)], [varsRequest])[0], ...(v.includes('RANDOM') ? { random: true } : {}), ...(v === '$_TIME' ? { time: true } : {}) })),
  // functions
  ...FUNCTIONS.map((f) => ({ ...c(`函数 ${f}`, () => [custom(`$ADD_RSP_HEADER(X-V, ${f})`)], [req('/')])[0], ...(f.includes('$_TIME') ? { time: true } : {}) })),
  ...c('函数 $RANDI(1, 10)', () => [custom('$ADD_RSP_HEADER(X-V, $RANDI(1, 10))')], [req('/')], { random: true }),
  ...c('$CAPTURE 的 $n.m', () => [custom("$CAPTURE($_HEADER_user-agent, '(\\w+)/(\\d+)', )$CAPTURE($_URI, '', )$ADD_RSP_HEADER(X-V, $1.1-$1.2-$2.0)")], [req('/x', { headers: { 'user-agent': 'curl/8' } })]),
  ...c('$CAPTURE 本身为空', () => [custom("/$PCALL($CAPTURE(ABC, '(b)', true))??")], [req('/')]),
  ...c('$CAPTURE 忽略大小写', () => [custom("$CAPTURE(ABC, '(b)', true)$ADD_RSP_HEADER(X-V, $1.1)")], [req('/')]),
  ...c('运行时的非法正则', () => [custom("$WHEN($MATCH($_URI, '('))")], [req('/')]),
  // general rules
  ...c('常规模式：条件与响应头', () => [general([cond('http_uri', '/a'), cond('http_header_User-Agent', "It's", 'equal', false)], { type: 'header', kind: 'response', operate: 'add', name: 'X-A', value: 'v 1', cover: true })], [req('/a', { headers: { 'user-agent': "IT'S" } }), req('/a')]),
  ...c('常规模式：不匹配时重定向', () => [general([cond('http_uri', '\\.(jpg|png)$', 'not_match', false)], { type: 'movement', kind: 'redirect', code: 301, capture: '^/(.*)$', target: 'https://x.com/$1 ($_HOST)' })], [req('/page.html', { host: 'www.example.com' }), req('/a.PNG')]),
  ...c('常规模式：限速', () => [general([], { type: 'limit_rate', rate: '100KB', after: '2MB' })], [req('/')]),
  ...c('常规模式：七种功能', seven, ['/h', '/old', '/rw', '/slow', '/deny', '/down', '/other'].map((u) => req(u))),
  ...[
    [cond('http_uri', '/A'), req('/a')],
    [cond('http_uri', '/A', 'equal', false), req('/a')],
    [cond('http_uri', '/A', 'not_equal', false), req('/a')],
    [cond('http_uri', '^/IMG/', 'match'), req('/img/x')],
    [cond('http_uri', '^/IMG/', 'match', false), req('/img/x')],
    [cond('http_uri', '^/img/', 'not_match'), req('/img/x')],
    [cond('http_method', 'POST'), req('/', { method: 'post' })],
    [cond('http_scheme', 'https'), req('/', { scheme: 'https' })],
    [cond('country_code', 'US'), req('/', { country: 'US' })],
    [cond('remote_ip', '10.0.0.1', 'not_equal'), req('/')],
    [cond('http_args_token', 'x'), req('/?token=x')],
    [cond('http_post_user', 'bob'), req('/', { method: 'POST', body: 'user=bob', headers: { 'content-type': 'application/x-www-form-urlencoded' } })],
    [cond('http_cookie_session-id', '^s', 'match'), req('/', { headers: { cookie: 'session-id=s1' } })],
    [cond('http_header_X-Token', 'abc'), req('/', { headers: { 'x-token': 'abc' } })],
  ].flatMap(([cd, r], i) => c(`常规模式：条件 ${i + 1} ${(cd as Condition).lvalue.value} ${(cd as Condition).operator}`, () => [general([cd as Condition], deny)], [r as SampleRequest])),
  ...c('常规模式：条件须全部成立', () => [general([cond('http_uri', '/a'), { ...cond('http_method', 'GET'), combination: 'and' }], deny)], [req('/a'), req('/a', { method: 'HEAD' })]),
  ...c('常规模式：没有条件时总是执行', () => [general([], deny)], [req('/anything')]),
  ...c('常规模式：改写用 capture 作为 pattern', () => [general([], { type: 'uri_rewrite', capture: '^/v1/(.*)$', newuri: '/api/$1?' })], [req('/v1/users?x=1'), req('/v2/users')]),
];
