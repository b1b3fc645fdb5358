/**
 * Chinese one-line summaries of the routes whose files do not say it themselves, and the tags
 * (sections of the reference) by path prefix. A route may instead carry `config.openapi.summary`
 * or `schema.summary`, which win; the section routes' summaries and refusals are in ./section-notes.ts.
 * Every operation must have a Chinese summary (tests/server/openapi-valid.test.ts). The tags'
 * `prefixes` stay here: the document gives each tag only its name and description.
 */
export const ROUTE_NOTES: Record<string, { summary: string; description?: string }> = {
  'GET /accounts/two_step_verify/status/': { summary: '查询账号是否开启登录验证', description: '返回体的 result 为 true 时，登录需要短信验证码。' },
  'PUT /accounts/two_step_verify/code': { summary: '发送登录短信验证码', description: '先校验账号与密码，再向账号绑定的手机号发送验证码；返回脱敏的手机号。' },
  'POST /accounts/signin/': { summary: '登录', description: '账号、邮箱或手机号加密码登录；开启登录验证的账号还需 code。成功后设置会话 Cookie sid。' },
  'GET /accounts/signout/': { summary: '退出登录（跳转到登录页）' },
  'POST /accounts/signout/': { summary: '退出登录' },
  'GET /api/accounts/v2/usage/': { summary: '当前用户与账户余额' },
  'GET /api/buckets/': { summary: '服务列表（按游标分页，可按名称搜索）' },
  'GET /api/buckets/summary/': { summary: '各类服务的数量' },
  'GET /api/buckets/info/': { summary: '服务详情' },
  'GET /api/settings/': { summary: '所有设置声明的简要信息' },
  'GET /api/settings/:id/': { summary: '读取一个服务的某项设置', description: '每个设置另有一条具体路径 /api/settings/<id>/，列出其返回值的模式。' },
  'POST /api/settings/:id/': { summary: '保存一个服务的某项设置', description: '请求体为 bucket_name 加上该设置的值；每个设置另有一条具体路径 /api/settings/<id>/，列出其请求体的模式。' },
  'GET /api/dev/sms_outbox/': { summary: '测试用：某手机号最近收到的短信', description: '仅在 SMS_OUTBOX_API=1 的测试服务器上提供，生产环境不开放。' },
};

/** Descriptions of parameters whose schema has neither title nor description. */
export const PARAM_NOTES: Record<string, string> = {
  bucket_name: '服务名称',
  id: '设置 ID（schemas/settings/<id>/）',
  mobile: '手机号',
  username: '账号、邮箱或手机号',
};

/** Sections of the reference, in order; the first prefix that matches wins. */
export const TAGS: { name: string; description: string; prefixes: string[] }[] = [
  { name: '账号与登录', description: '登录、退出、登录验证、当前用户', prefixes: ['/accounts/', '/api/accounts/'] },
  { name: '服务', description: '服务列表与详情', prefixes: ['/api/buckets/', '/api/srs/'] },
  { name: '服务设置', description: '由 schemas/settings 下的声明生成的设置接口', prefixes: ['/api/settings/'] },
  { name: '设置样例库', description: '产品与测试人员查看设置声明与样例', prefixes: ['/api/schemas/'] },
  { name: 'API 文档', description: '本文档与参考页面', prefixes: ['/api/openapi.json', '/api/docs/'] },
  { name: '测试工具', description: '仅测试服务器提供', prefixes: ['/api/dev/'] },
  { name: '统计分析', description: '流量统计、占比、用量历史、95 带宽、下载与数据上报（docs/statistics.md）', prefixes: ['/api/flow/', '/api/cdn/', '/api/scdn/', '/api/stats/', '/api/domains/'] },
  { name: '子账号与操作员', description: '子账号、服务授权与操作员（docs/accounts.md）', prefixes: ['/api/account/child/', '/api/bucket/child/', '/api/operators/'] },
  { name: '域名', description: '服务的域名与 CNAME（docs/service-tabs.md）', prefixes: ['/api/account/domains/', '/api/fusion/'] },
  {
    name: '费用中心',
    description: '账单、代金券、资源包、充值与支付、发票、返利（docs/billing.md、docs/billing-money.md）',
    prefixes: ['/api/account/invoice', '/api/account/rebate', '/accounts/invoice/', '/api/bill', '/api/billing/', '/api/coin/', '/api/orders/', '/orders/', '/api/v2/orders/', '/api/pay/', '/api/resource', '/api/ticket'],
  },
  { name: '证书与 HTTPS', description: 'SSL 证书、免费与付费证书、域名的 HTTPS（docs/certificates.md）', prefixes: ['/api/https/', '/.well-known/'] },
  { name: 'DDoS 高防', description: '高防 IP 的订购、规则、攻击统计（docs/ddos.md）', prefixes: ['/api/ddos/', '/api/buried'] },
  { name: '文件与媒体处理', description: '云存储的文件管理、媒体处理与跨平台备份（docs/files-and-media.md）', prefixes: ['/folder/', '/av/', '/api/logs/', '/api/third_backup/'] },
  {
    name: '运营工具',
    description: '刷新预热、监控告警、工单、日志分析（docs/operations-tools.md）',
    prefixes: ['/api/purge/', '/api/preheat', '/api/buckets/purge/', '/api/monitor/', '/api/workorder', '/work_order/', '/api/analysis/'],
  },
  { name: '消息与公告', description: '消息中心与弹窗公告', prefixes: ['/api/message', '/api/announcements/'] },
  { name: '外部产品', description: '外部产品入口、合作方登录、内容审核、邀请返利（docs/external-products.md、docs/referrals.md）', prefixes: ['/api/external/', '/accounts/app/', '/api/oauth/', '/api/audit/', '/api/accounts/invit'] },
  { name: '边缘节点', description: '边缘节点拉取配置、上报与回源（docs/edge.md）', prefixes: ['/edge/'] },
  { name: '其他', description: '其他接口', prefixes: [] },
];

export function tagOf(url: string): string {
  return (TAGS.find((t) => t.prefixes.some((p) => url.startsWith(p))) ?? TAGS[TAGS.length - 1]).name;
}
