/**
 * The statistics events the console sends (spec 000 §3, §7; spec 001 §2): real-name funnel events
 * (POST /accounts/verify/statistics, types 1–21), service usage (POST /accounts/usage/statistics,
 * types 1–12) and the DDoS / security-CDN funnel (POST /api/buried, events 1–16). The numbers are the
 * positions in these lists, counted from 1.
 */
export const VERIFY_EVENTS = [
  'dashboard_icon', 'dashboard_button', 'account_profile', 'verify_personal', 'verify_uid', 'verify_uid_failed', 'verify_zmxy',
  'verify_zmxy_failed', 'verify_ubl', 'verify_ubl_submit', 'verify_ubl_failed', 'message', 'dashboard_popup', 'sms_guide',
  'cloud_audit', 'mobile_stats', 'child', 'profile_realname', 'verify_zmxy_700', 'user_recommended', 'blockchain_intro',
] as const;

export const USAGE_EVENTS = ['cdn', 'live', 'file', 'process', 'ssl', 'sms', 'audit', 'ddos', 'blockchain', 'short_video', 'scdn', 'websocket'] as const;

/**
 * The spec numbers the DDoS / SCDN funnel 1–16 without naming the steps; these are the steps the
 * console reports, in order (docs/events.md).
 */
export const BURIED_EVENTS = [
  'ddos_menu', 'ddos_intro', 'ddos_order_open', 'ddos_order_package', 'ddos_order_nodes', 'ddos_order_submit', 'ddos_pay_open', 'ddos_pay_done',
  'scdn_menu', 'scdn_intro', 'scdn_create_open', 'scdn_create_submit', 'scdn_domain_added', 'scdn_rule_open', 'scdn_rule_saved', 'scdn_stats_open',
] as const;

/**
 * The service usage event a product section counts when it is entered (its list or landing page;
 * docs/events.md). Fusion CDN counts as cdn; overseas acceleration, one-click login, CDP and phone
 * traffic have no usage type; short_video has no section in this console.
 */
export const USAGE_OF_SECTION: Readonly<Record<string, (typeof USAGE_EVENTS)[number]>> = {
  cdn: 'cdn', fusion: 'cdn', scdn: 'scdn', file: 'file', live: 'live', websocket: 'websocket',
  process: 'process', ssl: 'ssl', sms: 'sms', audit: 'audit', ddos: 'ddos', blockchain: 'blockchain',
};

export type EventFamily = 'verify' | 'usage' | 'buried';

export const EVENT_FAMILIES: Record<EventFamily, { names: readonly string[]; title: string }> = {
  verify: { names: VERIFY_EVENTS, title: '实名认证' },
  usage: { names: USAGE_EVENTS, title: '服务使用' },
  buried: { names: BURIED_EVENTS, title: 'DDoS / SCDN' },
};

/** The number of an event by name (1-based), for the console's calls. */
export function eventNumber(family: EventFamily, name: string): number {
  const i = EVENT_FAMILIES[family].names.indexOf(name);
  if (i < 0) throw new Error(`unknown ${family} event ${name}`);
  return i + 1;
}
