/** The message centre's constants and the message as the API sends it (spec 000 §2.8, §3, §9). */
import type { MessageType } from './messages';

/** Unread messages shown in the top bar's menu; popups at a time. */
export const MESSAGE_MENU_UNREAD = 5;
export const MESSAGE_POPUP_COUNT = 1;
/** How often the console asks again (spec 000 §9: 900000 ms). */
export const MESSAGE_REFRESH_MS = 900_000;
export const MESSAGE_PAGE_SIZE = 10;

/** The message centre's home, /{cat}/message/ with cat account, and one message's page /{cat}/message/{id}/ (spec 000 §2.8). */
export const MESSAGE_HOME = '/account/message/';
export const messagePath = (id: number | string): string => `${MESSAGE_HOME}${id}/`;

export const MESSAGE_STATUS_TEXTS = { unread: '未读', readed: '已读' } as const;

export const MESSAGE_TEXTS = {
  title: '消息中心',
  all: '全部消息',
  empty: '暂无消息',
  markRead: '标为已读',
  markAllRead: '全部标为已读',
  remove: '删除',
  removeConfirm: '确定删除选中的消息吗？删除后不可恢复。',
  removed: '删除成功',
  marked: '已标为已读',
  loadFailed: '消息加载失败，请稍后重试',
  back: '返回消息列表',
} as const;

export interface AccountMessage {
  account_message_id: number;
  type: MessageType;
  category: string;
  title: string;
  /** in a list: the first 80 characters */
  summary?: string;
  /** in the detail */
  body?: string;
  link: string | null;
  status: 'unread' | 'readed';
  mode: 'popup' | null;
  /** unix seconds */
  create_at: number;
}

export interface UnreadSummary {
  total: number;
  by_type: Record<MessageType, number>;
  latest: AccountMessage[];
  popup: AccountMessage | null;
}
