/**
 * The operation log (spec 000 §2.4 "log/", §7 GET /api/logs/): what each recorded action is
 * called in Chinese. A section that records a new action adds its text here; the page shows the
 * raw action name for one it does not know.
 */
export const ACTION_TEXTS: Record<string, string> = {
  'setting.update': '修改服务配置',
  'child.create': '创建子账号',
  'child.update': '更新子账号',
  'child.enable': '启用子账号',
  'child.disable': '禁用子账号',
  'child.delete': '删除子账号',
  'child.grant': '授权空间',
  'child.revoke': '取消授权空间',
  'bucket.create': '创建服务',
  'edge_rule.create': '添加边缘规则',
  'edge_rule.update': '修改边缘规则',
  'edge_rule.delete': '删除边缘规则',
  'edge_rule.priority': '调整边缘规则优先级',
  'edge_rule.status': '修改边缘规则状态',
  'certificate.upload': '上传证书',
  'certificate.delete': '删除证书',
  'certificate.download': '下载证书',
  'https.update': '修改域名 HTTPS 配置',
  'purge.url': 'URL 刷新',
  'purge.rule': '规则刷新',
  'purge.preheat': '预热',
  'ddos.order': '创建 DDoS 高防订单',
  'ddos.pay': '支付 DDoS 高防订单',
  'ddos.l7.create': '添加高防网站业务规则',
  'ddos.l7.update': '修改高防网站业务规则',
  'ddos.l7.delete': '删除高防业务规则',
  'ddos.non_website.create': '添加高防非网站业务规则',
  'ddos.non_website.update': '修改高防非网站业务规则',
  'ddos.waf': '修改高防 WAF',
  'ddos.l4.create': '添加四层防护策略',
  'ddos.l4.update': '修改四层防护策略',
  'ddos.l4.delete': '删除四层防护策略',
  'domain.add': '添加域名',
  'domain.remove': '删除域名',
  'domain.takeover': '验证所有权后转入域名',
  'bucket.remark': '修改服务备注',
  'account.password': '修改登录密码',
  'account.mobile': '修改手机号',
  'account.email': '修改邮箱',
  'account.two_step.enable': '开启登录验证',
  'account.two_step.disable': '关闭登录验证',
  'account.profile': '修改账号资料',
  'account.verify': '提交实名认证',
  'operator.create': '添加操作员',
  'operator.update': '编辑操作员',
  'operator.delete': '删除操作员',
  'operator.enable': '启用操作员',
  'operator.disable': '禁用操作员',
  'operator.bind': '为操作员授权服务',
  'operator.deprive': '取消操作员服务授权',
};

export function actionText(action: string): string {
  return ACTION_TEXTS[action] ?? action;
}

/** One entry as GET /api/logs/ lists it. */
export interface LogEntry {
  id: number;
  user_id: number;
  /** who: the user's name at the time (kept after a sub-account is deleted) */
  username: string | null;
  action: string;
  action_text: string;
  target: string;
  detail: unknown;
  ip: string | null;
  created_at: string;
}

/** Page size of the operation log. */
export const LOG_PAGE_SIZE = 20;
