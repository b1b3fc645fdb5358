/**
 * The functions and variables of the edge-rule language (../../../../shared/edge-rules-language.md),
 * each with its arity and a one-line Chinese description. The parser checks names and arities
 * against this table, the console's Monaco editor completes and explains from it, and the
 * reference drawer lists it.
 */

export type FunctionCategory = 'control' | 'match' | 'request' | 'number' | 'string' | 'encoding';

export interface FunctionInfo {
  name: string;
  /** Fewer arguments is a syntax error: every argument of the documented signature that is not in brackets
   *  is required (an empty argument, as in `$GSUB(E, find, replace, )`, counts). */
  min: number;
  /** Arguments after this many are evaluated but ignored; undefined: any number. */
  max?: number;
  /** How it is called, e.g. "$REDIRECT(url, code)". */
  signature: string;
  /** One line in Chinese. */
  description: string;
  category: FunctionCategory;
  /** Ours, not in the provider's documentation (docs/edge-rules.md says why). */
  extension?: boolean;
}

export const CATEGORY_LABELS: Record<FunctionCategory, string> = {
  control: '控制与逻辑',
  match: '匹配',
  request: '请求与响应',
  number: '数值',
  string: '字符串',
  encoding: '编码与时间',
};

const f = (name: string, min: number, max: number | undefined, signature: string, description: string, category: FunctionCategory, extension?: boolean): FunctionInfo => ({
  name,
  min,
  max,
  signature,
  description,
  category,
  ...(extension ? { extension } : {}),
});

export const FUNCTIONS: readonly FunctionInfo[] = [
  f('WHEN', 0, undefined, '$WHEN(E1, E2, …)', '所有参数都为真时继续执行并得到空字符串，否则结束本条规则', 'control'),
  f('NOT', 1, 1, '$NOT(E)', '逻辑非：E 为假时得到 true', 'control'),
  f('ALL', 0, undefined, '$ALL(E1, E2, …)', '所有参数都为真时得到 true；没有参数时为 false', 'control'),
  f('ANY', 0, undefined, '$ANY(E1, E2, …)', '任一参数为真时得到 true；没有参数时为 false', 'control'),
  f('OR', 0, undefined, '$OR(E1, E2, …)', '得到第一个为真的参数值，都为假时为 false', 'control'),
  f('SELECT', 3, 3, '$SELECT(E1, E2, E3)', 'E1 为真时得到 E2，否则得到 E3', 'control'),
  f('PCALL', 1, 1, '$PCALL(E)', '计算 E，出错时得到空字符串而不中断规则', 'control'),
  f('MATCH', 2, 2, '$MATCH(E1, E2)', '用正则表达式 E2 匹配 E1，得到 true 或 false', 'match'),
  f('CAPTURE', 3, 3, '$CAPTURE(E1, E2, E3)', '用正则 E2 提取 E1 的分组为 $n.m，E3 为真时忽略大小写', 'match'),
  f('ADD_REQ_HEADER', 2, 3, '$ADD_REQ_HEADER(name, value[, cover])', '添加请求头（回源时携带），cover 为 1 时覆盖同名请求头', 'request'),
  f('DEL_REQ_HEADER', 1, 1, '$DEL_REQ_HEADER(name)', '删除请求头（回源时不携带）', 'request'),
  f('ADD_RSP_HEADER', 2, 3, '$ADD_RSP_HEADER(name, value[, cover])', '添加响应头，cover 为 1 时覆盖同名响应头', 'request'),
  f('DEL_RSP_HEADER', 1, 1, '$DEL_RSP_HEADER(name)', '删除响应头（受保护的响应头不能删除）', 'request'),
  f('DEL_ARG', 1, 1, '$DEL_ARG(name)', '从查询字符串中删除一个参数', 'request'),
  f('SET_METHOD', 1, 1, '$SET_METHOD(m)', '修改回源请求方法（带请求体时只能改为 PUT 或 POST）', 'request'),
  f('SET_BODY', 1, 1, '$SET_BODY(text)', '修改回源请求体（仅 PUT 和 POST 请求）', 'request'),
  f('REDIRECT', 2, 2, '$REDIRECT(url, code)', '以 301 或 302 重定向到 url，并结束整个规则集', 'request'),
  f('EXIT', 1, 2, '$EXIT(code[, body])', '直接以状态码 code 和内容 body 响应，并结束整个规则集', 'request'),
  f('ERROR_PAGE', 2, 2, '$ERROR_PAGE(code, url)', '以状态码 code 返回错误页面 url 的内容，并结束整个规则集', 'request', true),
  f('LIMIT_RATE_AFTER', 2, 2, '$LIMIT_RATE_AFTER(n, unit)', '先不限速传输 n 个单位（k 为 KB，m 为 MB）后再开始限速', 'request'),
  f('LIMIT_RATE', 2, 2, '$LIMIT_RATE(n, unit)', '把响应速度限制为每秒 n 个单位（k 为 KB，m 为 MB）', 'request'),
  f('ADD', 2, 2, '$ADD(E1, E2)', '加法：E1 + E2', 'number'),
  f('MSUB', 2, 2, '$MSUB(E1, E2)', '减法：E1 - E2', 'number'),
  f('MULTIPLY', 2, 2, '$MULTIPLY(E1, E2)', '乘法：E1 × E2', 'number'),
  f('DIVIDE', 2, 2, '$DIVIDE(E1, E2)', '除法：E1 ÷ E2，除数为 0 时出错', 'number'),
  f('MOD', 2, 2, '$MOD(E1, E2)', '取模：E1 除以 E2 的余数，除数为 0 时出错', 'number'),
  f('FLOOR', 1, 1, '$FLOOR(E)', '向下取整', 'number'),
  f('CEIL', 1, 1, '$CEIL(E)', '向上取整', 'number'),
  f('BYTE', 1, 1, '$BYTE(E)', '得到 E 第一个字符的 ASCII 码', 'number'),
  f('GT', 2, 2, '$GT(E1, E2)', '数值比较：E1 大于 E2 时为 true', 'number'),
  f('GE', 2, 2, '$GE(E1, E2)', '数值比较：E1 大于或等于 E2 时为 true', 'number'),
  f('INT', 1, 3, '$INT(E, from, to)', '进制转换：把 from 进制（默认 10）的 E 转为 to 进制（默认 10）', 'number'),
  f('RANDI', 2, 2, '$RANDI(E1, E2)', '得到 E1 到 E2 之间（含两端）的随机整数', 'number'),
  f('SUB', 3, 3, '$SUB(E, from, to)', '截取第 from 到第 to 个字符（从 1 开始，负数从末尾数）', 'string'),
  f('GSUB', 4, 4, '$GSUB(E, find, replace, n)', '把 E 中匹配正则 find 的部分替换为 replace，最多 n 次（空或负数为全部）', 'string'),
  f('EQ', 2, 2, '$EQ(E1, E2)', '字符串相等时为 true', 'string'),
  f('UPPER', 1, 1, '$UPPER(E)', '转为大写', 'string'),
  f('LOWER', 1, 1, '$LOWER(E)', '转为小写', 'string'),
  f('LEN', 1, 1, '$LEN(E)', '得到字符个数', 'string'),
  f('ENCODE_BASE64', 1, 1, '$ENCODE_BASE64(E)', 'Base64 编码（UTF-8）', 'encoding'),
  f('DECODE_BASE64', 1, 1, '$DECODE_BASE64(E)', 'Base64 解码', 'encoding'),
  f('ESCAPE', 1, 1, '$ESCAPE(E)', 'URI 编码，同浏览器的 encodeURIComponent', 'encoding'),
  f('UNESCAPE', 1, 1, '$UNESCAPE(E)', 'URI 解码，同浏览器的 decodeURIComponent', 'encoding'),
  f('MD5', 1, 1, '$MD5(E)', '计算 MD5，得到 32 位十六进制小写文本', 'encoding'),
  f('MD5_BIN', 1, 1, '$MD5_BIN(E)', '计算 MD5，得到 16 字节的二进制值（可再做 Base64 编码）', 'encoding'),
  f('UNIXT', 6, 6, '$UNIXT(y, m, d, h, min, s)', '把北京时间的年月日时分秒转为 Unix 时间戳（秒）', 'encoding'),
  f('STRF_TIME', 1, 2, '$STRF_TIME(t[, sep])', '把 Unix 时间戳格式化为北京时间 201802230955，sep 为 - 时为 2018-02-23-09-55', 'encoding'),
];

export const FUNCTION_BY_NAME: ReadonlyMap<string, FunctionInfo> = new Map(FUNCTIONS.map((x) => [x.name, x]));

export interface VariableInfo {
  /** The name after "$_", e.g. "URI"; for families the prefix with a placeholder, e.g. "GET_name". */
  name: string;
  /** For a family: the prefix the parameter follows ("GET_"). */
  prefix?: string;
  /** What the completion inserts after "$_". */
  insert: string;
  description: string;
}

export const VARIABLES: readonly VariableInfo[] = [
  { name: 'IP', insert: 'IP', description: '客户端 IP 地址' },
  { name: 'HOST', insert: 'HOST', description: '请求的 Host 头' },
  { name: 'HOST_n', prefix: 'HOST_', insert: 'HOST_1', description: 'Host 从左数第 n 段（foo.bar.com 的 $_HOST_1 为 foo）' },
  { name: 'GET_name', prefix: 'GET_', insert: 'GET_', description: '查询参数 name 的值' },
  { name: 'POST_name', prefix: 'POST_', insert: 'POST_', description: '表单（application/x-www-form-urlencoded）字段 name 的值' },
  { name: 'HEADER_name', prefix: 'HEADER_', insert: 'HEADER_', description: '请求头 name 的值（名称用小写）' },
  { name: 'COOKIE_name', prefix: 'COOKIE_', insert: 'COOKIE_', description: 'Cookie name 的值' },
  { name: 'URI', insert: 'URI', description: '请求路径，不含查询字符串' },
  { name: 'QUERY', insert: 'QUERY', description: '查询字符串，不含 ?' },
  { name: 'METHOD', insert: 'METHOD', description: '请求方法，如 GET' },
  { name: 'SCHEME', insert: 'SCHEME', description: '请求协议：http 或 https（小写）' },
  { name: 'TIME', insert: 'TIME', description: '服务器当前时间，Unix 时间戳（秒）' },
  { name: 'BODY', insert: 'BODY', description: '请求体（最多前 16 KB）' },
  { name: 'RANDOM', insert: 'RANDOM', description: '8 位随机字母与数字' },
  { name: 'RANDOM_n', prefix: 'RANDOM_', insert: 'RANDOM_16', description: 'n 位随机字母与数字（1 ≤ n ≤ 32）' },
  { name: 'GEOIP_COUNTRY_CODE', insert: 'GEOIP_COUNTRY_CODE', description: '客户端所在国家或地区的 ISO 3166 代码，如 CN' },
];

/** Plain variables (no parameter). */
export const PLAIN_VARIABLES: ReadonlySet<string> = new Set(VARIABLES.filter((v) => !v.prefix).map((v) => v.name));

/** Families whose parameter may contain a hyphen (header and cookie names, query keys). */
export const NAMED_FAMILIES = ['HEADER_', 'COOKIE_', 'GET_', 'POST_'] as const;

/** A variable name (after "$_") is known: a plain one, a family with a parameter, HOST_n, RANDOM_n. */
export function variableKind(name: string): 'plain' | 'named' | 'indexed' | 'empty' | 'unknown' {
  if (PLAIN_VARIABLES.has(name)) return 'plain';
  for (const p of NAMED_FAMILIES) if (name.startsWith(p)) return name.length > p.length ? 'named' : 'empty';
  const m = /^(HOST|RANDOM)_(\d*)$/.exec(name);
  if (m) {
    if (!m[2]) return 'empty';
    const n = Number(m[2]);
    if (m[1] === 'RANDOM' && (n < 1 || n > 32)) return 'unknown';
    if (m[1] === 'HOST' && n < 1) return 'unknown';
    return 'indexed';
  }
  return 'unknown';
}

/** Response headers that cannot be deleted, nor named in a general-mode header action (case-insensitive). */
export const PROTECTED_RESPONSE_HEADERS = ['via', 'age', 'server', 'connection', 'x-cache', 'x-source', 'x-request-id', 'content-range', 'content-length', 'transfer-encoding'] as const;

/** Request headers a general-mode header action may not name (compared as written, spec 002 §5). */
export const FORBIDDEN_REQUEST_HEADERS = ['Content-Length', 'Transfer-Encoding'] as const;

export const METHODS = ['GET', 'HEAD', 'PUT', 'POST', 'DELETE', 'OPTIONS', 'PATCH'] as const;
export const SCHEMES = ['http', 'https'] as const;

/** Limits of spec 002 §9 and our 230xx limits (docs/edge-rules.md). */
export const EDGE_LIMITS = {
  pageSize: 10,
  maxConditions: 10,
  describe: 50,
  paramName: 60,
  matchValue: 400,
  headerName: 60,
  headerValue: 400,
  capture: 200,
  target: 400,
  /** A program (custom rule text, or a general rule compiled) — 23002. */
  program: 4096,
  /** The rule as stored (its JSON) — 23003. */
  total: 5120,
  /** Rules per service — 23008. */
  rulesPerService: 100,
  /** $_BODY sees at most this many characters. */
  body: 16 * 1024,
} as const;
