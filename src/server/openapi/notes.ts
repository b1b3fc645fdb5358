/**
 * Chinese one-line summaries of the routes whose files do not say it themselves, and the tags
 * (sections of the reference) by path prefix. A route may instead carry `config.openapi.summary`
 * or `schema.summary`, which win. A route missing here is still documented, without a summary.
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
  { name: '服务', description: '服务列表与详情', prefixes: ['/api/buckets/'] },
  { name: '服务设置', description: '由 schemas/settings 下的声明生成的设置接口', prefixes: ['/api/settings/'] },
  { name: '设置样例库', description: '产品与测试人员查看设置声明与样例', prefixes: ['/api/schemas/'] },
  { name: 'API 文档', description: '本文档与参考页面', prefixes: ['/api/openapi.json', '/api/docs/'] },
  { name: '测试工具', description: '仅测试服务器提供', prefixes: ['/api/dev/'] },
  { name: '统计分析', description: '流量统计、占比、用量历史、95 带宽、下载与数据上报（docs/statistics.md）', prefixes: ['/api/flow/', '/api/cdn/', '/api/scdn/', '/api/stats/', '/api/domains/'] },
  { name: '其他', description: '其他接口', prefixes: [] },
];

export function tagOf(url: string): string {
  return (TAGS.find((t) => t.prefixes.some((p) => url.startsWith(p))) ?? TAGS[TAGS.length - 1]).name;
}
