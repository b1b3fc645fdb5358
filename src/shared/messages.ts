/**
 * The message centre (spec 000 §2.8, §3 "Account message"). A message has one of the spec's four
 * types, shown as the centre's tabs; the sections that write messages name a finer category, which
 * decides the type (so monitor alarms arrive as 服务反馈, the low-balance warning as 平台公告).
 */
export const MESSAGE_TYPES = {
  platform_notify: '平台公告',
  feature_update: '功能更新',
  market_activity: '市场活动',
  service_feedback: '服务反馈',
} as const;

export type MessageType = keyof typeof MESSAGE_TYPES;

/** What a section says a message is about → the spec's type it is listed under. */
export const MESSAGE_CATEGORIES = {
  billing: { label: '财务消息', type: 'service_feedback' },
  // the low-balance warning is the platform telling the account, not feedback on a request (issue 19)
  balance: { label: '余额提醒', type: 'platform_notify' },
  alarm: { label: '监控告警', type: 'service_feedback' },
  certificate: { label: '证书消息', type: 'service_feedback' },
  service: { label: '服务消息', type: 'service_feedback' },
  security: { label: '安全消息', type: 'service_feedback' },
  feature: { label: '功能更新', type: 'feature_update' },
  market: { label: '市场活动', type: 'market_activity' },
  system: { label: '系统公告', type: 'platform_notify' },
} as const satisfies Record<string, { label: string; type: MessageType }>;

export type MessageCategory = keyof typeof MESSAGE_CATEGORIES;

export function messageTypeOf(category: string): MessageType {
  return (MESSAGE_CATEGORIES as Record<string, { type: MessageType }>)[category]?.type ?? 'platform_notify';
}
