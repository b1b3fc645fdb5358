/**
 * The error catalogue: error_code → the Chinese text a person reads.
 * One source for the console (alerts, dialogs) and the server (error responses).
 * Texts quoted in the specification are used verbatim; the others are ours and are
 * listed in docs/api.md.
 */
import { BIDI_CONTROL_MESSAGE } from './text';
export const ERROR_TEXTS: Readonly<Record<number, string>> = {
  // generic
  20001: '提交的数据不符合要求，请检查后重试',
  // the edge API (docs/edge.md)
  20010: '边缘节点密钥无效',
  20011: '源站地址不能是本机、链路本地或元数据地址',
  20012: '源站地址不能是内网、运营商级 NAT、组播或保留地址，请填写公网地址或域名',
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
  21107: '登录尝试过于频繁，请输入图形验证码后再登录',
  21108: '账号或密码错误',
  21109: '请输入验证码',
  21110: '登录已失效，请重新登录',
  21111: '您没有权限进行此操作',
  21112: '请求来源不合法，操作已被拒绝',
  // 2111x–2113x: registration, security, real-name, operators, messages (docs/accounts.md)
  21113: '账号尚未激活，请先点击激活邮件中的链接',
  21114: '原密码错误',
  21115: '该邮箱已被使用',
  21116: '该手机号已被使用',
  21117: '激活链接无效或已过期',
  21118: '请先完成手机号和邮箱的验证',
  21119: '邀请码无效',
  21120: '账号不存在',
  21121: '实名认证正在审核中，请勿重复提交',
  21122: '已完成实名认证，无需重复提交',
  21123: '仅支持 .jpg .jpeg .bmp .gif .png 格式',
  21124: '照片大小不超过5M',
  21125: '操作员名称已存在',
  21126: '操作员不存在',
  21127: '该服务未授权给此操作员',
  21128: '该服务已授权给此操作员',
  21129: '消息不存在',
  21130: '图形验证码已过期，请刷新后重试',
  21131: '邮箱已验证，无需重复验证',
  21132: '该账号未绑定所选的验证方式',
  21133: '查询过于频繁，请稍后再试',
  21134: '头像大小不超过 30 KB',
  21135: '尚未设置头像',
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
  21216: '该功能暂未对您的账号开通，如需使用请联系我们',
  21221: '同一 URL 或规则 10 分钟内只能刷新一次',
  21222: '同一规则每天最多刷新 5 次',
  21223: '今日刷新额度已用完，请明天再试',
  21224: '只能刷新或预热本账号服务下的域名',
  21225: '今日预热额度已用完，请明天再试',
  // service tabs: domains, thumbnails, access control (docs/service-tabs.md)
  21240: '每个服务最多绑定 10 个域名',
  21241: '域名不存在或不属于该服务',
  21242: '自定义版本最多 50 个',
  21243: 'IP 列表最多 100 条',
  21244: '文件大小不能超过 60 KB',
  21245: '该域名已绑定到此服务',
  // 216xx CDN origin and cache
  21601: '缓存规则最多 50 条',
  21602: '缓存时间为 5 - 31536000 秒',
  21603: '源站最多 10 个',
  21604: '请至少配置一个主源站',
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
  // 236xx free certificates (docs/certificates.md)
  23601: '免费证书服务暂不可用，请稍后重试',
  23602: '免费证书只能为您服务中已添加的域名申请',
  23603: '免费证书不支持泛域名',
  23604: '该域名已有申请中的免费证书',
  23605: '申请记录不存在或无权访问',
  23606: '当前状态不能执行此操作',
  23607: '该免费证书每次只能申请一个域名',
  // 246xx certificate orders
  24601: '免费证书最多申请 20 张',
  24602: '订单不存在或无权访问',
  24603: '订单当前状态不能执行此操作',
  24604: '证书产品不存在',
  24605: '证书模板不存在',
  24606: '申购域名填写重复',
  24607: '您填写的域名数量与购买的域名数量不符',
  24608: '该订单不支持泛域名',
  24609: '不能使用本平台的域名申请证书',
  // 22xxx
  22005: '请先完成实名认证',
  22201: '账户余额不足，请先充值',
  // the listed accounts of the server configuration (docs/billing.md "Listed accounts")
  22006: '该功能暂不对您的账号开放',
  // 221xx vouchers, 225xx bills and resource packages (docs/billing.md)
  22101: '代金券不存在，请检查券号',
  22102: '该代金券已被激活',
  22103: '该代金券已过期，不能激活',
  22104: '代金券激活尝试过于频繁，请 1 小时后再试',
  22501: '账单不存在或无权访问',
  22502: '资源包规格不存在',
  22503: '资源包不存在或无权访问',
  22504: '100 GB 与 500 GB 优惠流量包每 3 个月限购其一',
  22505: '仅能删除已用完或已过期的资源包',
  22651: '该币种尚未绑定捐赠地址',
  // 222xx payment, 223xx invoices, 224xx rebates and payees (docs/billing-money.md)
  22211: '订单不存在或已关闭',
  22212: '该订单已支付，请勿重复支付',
  22213: '充值订单只能使用支付宝支付',
  22214: '该订单不支持此支付方式',
  22215: '账号未绑定手机号，无法发送支付验证码',
  22216: '请输入支付验证码',
  22217: '未开通在线支付，请联系客服充值',
  22301: '开票金额超过可开票金额',
  22302: '发票已开具，不能删除',
  22303: '发票不存在或无权访问',
  22304: '发票抬头不存在，请重新选择',
  22305: '收件地址不存在，请重新选择',
  22306: '发票抬头最多保存 10 个',
  22307: '收件地址最多保存 10 个',
  22403: '请选择要上传的图片',
  22404: '返利记录不存在或无权访问',
  22405: '已完成的返利申请不能删除',
  22406: '收款信息最多保存 6 个',
  22407: '收款信息不存在或无权访问',
  22408: '该返利申请已处理',
  22410: '编辑收款信息时不能切换收款方式',
  22411: '照片不存在，请重新上传',
  // 237xx SMS verification
  23701: '验证码发送过于频繁，请 60 秒后再试',
  23702: '今日验证码发送次数已达上限',
  23801: '直播配置不存在',
  23802: '该直播服务的配置已暂停，暂不能修改，如需恢复请提交工单',
  // 240xx DDoS 高防 IP (src/server/ddos/)
  24001: '高防实例不存在或无权访问',
  24002: '该 IP 不是此高防实例的 IP',
  24003: '该域名已添加到此高防实例',
  24004: '网站业务规则数已达套餐上限',
  24005: '非网站业务规则数已达套餐上限',
  24006: '该 IP 的此协议端口已被其他转发规则使用',
  24007: '规则不存在或无权访问',
  24008: '高防实例已过期，请续费后再操作',
  24009: '高防订单不存在或无权访问',
  24010: '该高防订单已支付，请勿重复支付',
  24011: 'WAF 仅适用于网站业务规则',
  24012: '查询的时间范围不正确，结束时间须晚于开始时间且跨度不超过 31 天',
  24013: '该 IP 已有同类型的四层防护策略，请直接修改',
  24018: '尚未开通 DDoS 高防 IP',
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
/** The server could not get its database in time (503 with Retry-After; docs/operations.md): the 5xx text. */
export const SERVER_BUSY_CODE = 21002;
(ERROR_TEXTS as Record<number, string>)[SERVER_BUSY_CODE] = HTTP_5XX_TEXT;
export const THROWN_FAILURE_TEXT = '未知错误，请联系我们的客服';
/** A request that got no answer at all (spec 000 §8 "a generic transport failure"). */
export const TRANSPORT_FAILURE_TEXT = '出了点问题，请稍后再试';
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
  23009: '规则测试超时：正则表达式过于复杂，请简化后再试',
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
  /** A value of a rule holding CR, LF or another control character (issue 34 item 14): the edge would answer 500. */
  controlChar: '不能包含回车、换行、制表符等控制字符，如需在地址中使用请写作 URL 编码（如 %0A）',
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
  emptyHeader: '头部 {name} 的值为空，边缘节点不会发送',
  rewriteMissing: '改写目标引用的变量 {name} 不存在，URI 未改写',
  rewriteOverridden: '优先级 {priority} 的改写被后面的规则覆盖',
  rewriteCancelled: '规则集提前结束，URI 改写未执行',
} as const;

/** "{name}" placeholders filled from values. */
export function fillText(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (m, k: string) => (k in values ? String(values[k]) : m));
}

/*
 * Operational tools (spec 002 "Other tools": monitor alarms 261xx, work orders 262xx, log analysis
 * 263xx, cross-platform backup 264xx). The texts are ours (spec 002 §8/§9: not shown); see
 * docs/operations-tools.md.
 */
export const OPS_ERROR_TEXTS: Readonly<Record<number, string>> = {
  26101: '告警任务不存在或已被删除',
  26102: '告警任务数量已达上限（最多 50 个）',
  26103: '请选择本账号下的服务',
  26201: '工单不存在或无权访问',
  26202: '附件大小不能超过 5 MB',
  26203: '附件类型不支持，仅支持 png、jpg、gif、pdf、txt、zip',
  26204: '附件不存在或已被使用',
  26205: '工单已关闭，不能继续回复',
  26206: '请选择要上传的附件',
  26401: '备份配置不存在或已被删除',
  26402: '备份配置数量已达上限（最多 20 个）',
  26403: '该服务已存在相同目标的备份配置',
  26404: '该配置正在备份中，请等待本次备份结束',
  26405: '备份配置已停用，请先启用',
  26406: '目标地址不能是本机、链路本地或云服务器元数据地址',
};
Object.assign(ERROR_TEXTS as Record<number, string>, OPS_ERROR_TEXTS);

/*
 * File management (271xx) and media processing (272xx) of file services (spec 000 §2.11, spec 002 §7).
 * The texts are ours (not shown in the spec); see docs/files-and-media.md.
 */
export const FILE_MEDIA_ERROR_TEXTS: Readonly<Record<number, string>> = {
  27101: '路径不合法：不能为空，不能包含 .. 、反斜杠或控制字符',
  27102: '文件或目录不存在',
  27103: '同名的文件或目录已存在',
  27104: '目录不为空，请先删除其中的文件',
  27105: '文件大小超出限制',
  27106: '仅云存储服务支持文件管理与媒体处理',
  27107: '请选择要上传的文件',
  27108: '账号处于禁用、冻结或锁定状态，暂时无法管理文件',
  27109: '一次上传的文件个数超出限制',
  27110: BIDI_CONTROL_MESSAGE,
  27111: '存储空间已达账号配额，无法上传：请先删除不需要的文件，或联系客服提高配额',
  27201: '源文件不存在，请先上传',
  27202: '媒体处理任务不存在',
  27203: '输出文件不能与源文件相同',
};
Object.assign(ERROR_TEXTS as Record<number, string>, FILE_MEDIA_ERROR_TEXTS);

/* External products and partner sign-in (2760x), referrals (2765x); docs/external-products.md. Texts are ours. */
export const EXTERNAL_ERROR_TEXTS: Readonly<Record<number, string>> = {
  27601: '令牌无效或已被使用',
  27602: '令牌已过期，请重新进入',
  27603: '令牌不属于该产品',
  27604: '合作应用不存在',
  27605: '回调地址不在该应用允许的范围内',
  27606: '产品密钥缺失或无效',
  27607: '该密钥不能上报此产品的用量',
  27608: '账号不存在或不是主账号',
  27609: '该编号的用量报告已收到，内容与本次不同',
  27651: '邀请记录不存在',
  27661: '审核记录不存在或无权访问',
  27662: '该记录已复审，不能重复操作',
  27663: '仅云存储与 CDN 服务可开通内容审核',
};
Object.assign(ERROR_TEXTS as Record<number, string>, EXTERNAL_ERROR_TEXTS);
