/** The message centre's categories (spec 000 §2.8), shown as the filter tabs of /message/. */
export const MESSAGE_CATEGORIES = {
  billing: '财务消息',
  alarm: '监控告警',
  certificate: '证书消息',
  service: '服务消息',
  security: '安全消息',
  system: '系统公告',
} as const;

export type MessageCategory = keyof typeof MESSAGE_CATEGORIES;
