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
  21905: '服务不存在或无权访问',
  // 22xxx
  22005: '请先完成实名认证',
  // 237xx SMS verification
  23701: '验证码发送过于频繁，请 60 秒后再试',
  23702: '今日验证码发送次数已达上限',
  23801: '直播配置不存在',
  // 41xxx sub-accounts
  41006: '子账号数量已达上限（最多 10 个）',
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
