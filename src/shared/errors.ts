/**
 * The error catalogue: error_code → the Chinese text a person reads.
 * One source for the console (alerts, dialogs) and the server (error responses).
 * Texts quoted in the specification are used verbatim; the others are ours and are
 * listed in docs/api.md.
 */
export const ERROR_TEXTS: Readonly<Record<number, string>> = {
  // generic
  20001: '提交的数据不符合要求，请检查后重试',
  21000: '系统未知错误',
  // 211xx account and sign-in
  21001: '测试登录需要销售权限',
  21100: '该账号已存在，请重新输入',
  21101: '短信发送过于频繁，请稍后再试',
  21102: '验证码错误',
  21103: '验证码已过期，请重新获取',
  21104: '账号已被冻结，请联系客服',
  21105: '账号或密码长度不符合要求',
  21106: '密码不符合规则',
  21107: '登录尝试过于频繁，请 15 分钟后再试',
  21108: '账号或密码错误',
  21109: '请输入验证码',
  21110: '登录已失效，请重新登录',
  21111: '您没有权限进行此操作',
  21112: '请求来源不合法，操作已被拒绝',
  // 212xx services
  21201: '该设置不适用于此类型的服务',
  21202: '设置项不存在',
  21203: 'TLS 1.3 功能未开启，请先开启 TLS 1.3 后再选择 TLSv1.3',
  21204: '当前最低 TLS 版本为 TLSv1.3，请先修改最低 TLS 版本后再关闭 TLS 1.3',
  21205: 'HTTP/3 基于 TLS 1.3，请先开启 TLS 1.3 后再开启 HTTP/3',
  21206: '已开启 HTTP/3，请先关闭 HTTP/3 后再关闭 TLS 1.3',
  21207: '该服务的此项配置固定开启，无需修改',
  21208: '请先开启 HTTP/2 后再开启 Server Push',
  21209: '请选择本账号下的云存储空间',
  21210: '因贵司属于重要客户，为防止误操作，已对相关配置进行锁定保护，如需修改请联系我们。',
  21211: '已开启 Server Push，请先关闭 Server Push 后再关闭 HTTP/2',
  21212: '账户余额不足 399 元，暂不能创建海外加速服务，请充值或联系客服开通',
  21213: '服务名称已存在，请换一个名称',
  21215: '域名已被其他服务绑定',
  21221: '同一 URL 或规则 10 分钟内只能刷新一次',
  21222: '同一规则每天最多刷新 5 次',
  21223: '今日刷新额度已用完，请明天再试',
  21224: '只能刷新或预热本账号服务下的域名',
  21225: '今日预热额度已用完，请明天再试',
  21905: '服务不存在或无权访问',
  // 217xx certificates
  21701: '证书解析失败，请检查证书内容',
  21702: '证书与私钥不匹配',
  21703: '暂不支持带密码的私钥，请先去除私钥密码',
  21704: '该证书已存在',
  21705: '证书已过期',
  21706: '证书正在被域名使用，请先为这些域名更换证书或关闭 HTTPS',
  21707: '证书不包含该域名，请选择包含该域名的证书',
  21708: '开启 HTTPS 前请先选择证书',
  21709: '证书不存在或无权访问',
  21710: '私钥解析失败，请检查私钥内容',
  // 22xxx
  22005: '请先完成实名认证',
  // 237xx SMS verification
  23701: '验证码发送过于频繁，请 60 秒后再试',
  23702: '今日验证码发送次数已达上限',
  23801: '直播配置不存在',
  // 41xxx sub-accounts
  41006: '子账号数量已达上限（最多 10 个）',
  41001: '子账号不存在',
  41002: '授权空间出错',
  41003: '取消授权空间出错',
  41004: '每类服务最多授权 100 个',
  41005: '请至少选择一项权限',
  41007: '子账号没有该类服务的权限，请先勾选该类服务',
  41008: '请先开通内容识别后再授权子账号',
  41009: '该账号不支持授予费用中心权限',
  41010: '请先开启 SSL 证书权限后再禁止下载证书',
  41011: '请先选择授权的服务',
  41012: '仅选择了直播服务时不能授予监控和缓存刷新权限',
  41013: '授权记录不存在',
  41014: '该子账号已被禁用，请联系主账号',
  41015: '该服务类型不能授权给子账号',
};

export const UNKNOWN_ERROR_CODE = 21000;

/** The text for a code; unknown codes fall back to 21000 (spec 000 §8). */
export function errorText(code: number | string | undefined | null): string {
  const n = Number(code);
  return ERROR_TEXTS[n] ?? ERROR_TEXTS[UNKNOWN_ERROR_CODE];
}

/** Central texts of spec 000 §8 for transport-level failures. */
export const HTTP_4XX_TEXT = '请求出错了，刷新试试';
export const HTTP_5XX_TEXT = '网络似乎不稳定，刷新试试';
export const THROWN_FAILURE_TEXT = '未知错误，请联系我们的客服';
export const LOGIN_UNKNOWN_TEXT = '发生了未知错误';
export const LOGIN_EXCEPTION_TEXT = '发生了点错误，请稍后再尝试';

/** A field error as the server sends it and the console shows it. */
export interface FieldError {
  path: string;
  message: string;
  /** For refusals by a rule between settings: the error code the server answers with. */
  code?: number;
  /** A way out the console offers: open another setting's panel. */
  link?: { setting: string; text: string };
}

/** The body of every refused call. */
export interface ErrorBody {
  result: false;
  error_code: number;
  message: string;
  errors?: FieldError[];
}

export function errorBody(code: number, errors?: FieldError[]): ErrorBody {
  return { result: false, error_code: code, message: errorText(code), ...(errors ? { errors } : {}) };
}

/*
 * Edge rules (spec 002 §5, §8, §9): the 230xx codes and the texts of the rule language.
 * The codes are added to ERROR_TEXTS below so errorText() knows them; the language's own
 * reasons (syntax and runtime) carry {placeholders} filled by fillText().
 */
export const EDGE_RULE_ERROR_TEXTS: Readonly<Record<number, string>> = {
  23001: '边缘规则不存在或已被删除',
  23002: '规则程序不能超过 4096 个字符',
  23003: '规则总长度不能超过 5120 个字符',
  23004: '优先级调整失败',
  23005: '状态修改失败',
  23006: '删除 Rewrite 失败',
  23007: '元数据校验未通过',
  23008: '每个服务最多配置 100 条边缘规则',
};
Object.assign(ERROR_TEXTS as Record<number, string>, EDGE_RULE_ERROR_TEXTS);

/** Texts of the edge-rule screens that are not errors of a call (spec 002 §8). */
export const EDGE_RULE_TEXTS = {
  checkOk: '元数据校验成功',
  checkFailed: '元数据校验未通过',
  /** A syntax error or runtime failure with its place: "第 2 行第 5 列：…". */
  at: '第 {line} 行第 {column} 列：{reason}',
  /** The check of the URI extraction pattern. */
  patternInvalid: 'URI 提取模式不是合法的正则表达式',
  needRequest: '请提供服务名称或要测试的规则',
} as const;

/** Why a program in the rule language does not parse. */
export const EDGE_SYNTAX_TEXTS = {
  unterminatedString: '单引号字符串没有结束',
  danglingEscape: '转义符 \\ 后缺少字符',
  badDollar: '$ 之后须为函数名、变量（$_名称）或分组（$1），如需原样使用请写作 \\$',
  unknownFunction: '未知的函数 {name}',
  missingParen: '函数 {name} 之后缺少左括号 (',
  unclosedCall: '函数 {name} 缺少右括号 )',
  strayRParen: '多余的右括号 )，如需原样使用请写作 \\)',
  strayLParen: '左括号 ( 只能紧跟在函数名之后，如需原样使用请写作 \\(',
  strayComma: '逗号只能用于分隔函数参数，如需原样使用请写作 \\,',
  tooFewArgs: '函数 {name} 至少需要 {min} 个参数，实际只有 {n} 个',
  unknownVariable: '未知的变量 {name}',
  emptyVariable: '变量 {name} 缺少名称',
  breakNotAtEnd: '$$ 只能出现在规则末尾',
  noCapture: '{name} 引用的第 {n} 个 $CAPTURE 不存在',
  noPattern: '未填写 URI 提取模式，不能引用分组 {name}',
  noGroup: 'URI 提取模式只有 {count} 个分组，不能引用 {name}',
  empty: '规则不能为空',
} as const;

/** Why a rule stopped while it ran (the tester shows these). */
export const EDGE_RUNTIME_TEXTS = {
  notNumber: '{fn} 的参数不是数字：{value}',
  divideByZero: '{fn} 的除数不能为 0',
  badRegex: '正则表达式不合法：{value}',
  badCode: '{fn} 的状态码不合法：{value}',
  badUnit: '{fn} 的单位只能是 k 或 m：{value}',
  badAmount: '{fn} 的数值须为正整数：{value}',
  badMethod: '不支持的请求方法：{value}',
  methodWithBody: '请求带有请求体时只能改为 PUT 或 POST',
  bodyMethod: '只有 PUT 或 POST 请求才能设置请求体',
  badBase64: '不是合法的 Base64 文本',
  badEscape: '不是合法的 URI 编码文本',
  badBase: '{fn} 的进制须为 2 到 36：{value}',
  protectedHeader: '响应头 {name} 受保护，不能删除',
  forbiddenRequestHeader: '请求头 {name} 不允许修改',
  rewriteMissing: '改写目标引用的变量 {name} 不存在，URI 未改写',
  rewriteOverridden: '优先级 {priority} 的改写被后面的规则覆盖',
  rewriteCancelled: '规则集提前结束，URI 改写未执行',
} as const;

/** "{name}" placeholders filled from values. */
export function fillText(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (m, k: string) => (k in values ? String(values[k]) : m));
}
