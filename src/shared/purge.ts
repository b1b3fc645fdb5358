/**
 * Purge and preheat limits (spec 000 §8 / 002 §9 name the families: a refresh interval of 10 minutes and
 * 5 refreshes a day; the per-day quotas follow comparable providers, provider-facts.md). The
 * per-submission maxima live in the declarations (schemas/forms/purge_url, purge_rule, preheat).
 */
export type PurgeKind = 'url' | 'rule' | 'preheat';

export const PURGE_KIND_LABELS: Record<PurgeKind, string> = { url: 'URL 刷新', rule: '规则刷新', preheat: 'URL 预热' };

/** Items a day per account. */
export const DAILY_QUOTA: Record<PurgeKind, number> = { url: 10000, rule: 100, preheat: 1000 };
/** The same URL or rule is not purged again within this many minutes (21221). */
export const REPEAT_INTERVAL_MINUTES = 10;
/** The same rule at most this many times a day (21222). */
export const RULE_TIMES_PER_DAY = 5;
/** Records are kept this many days. */
export const PURGE_RECORD_DAYS = 3;

export type PurgeStatus = 'waiting' | 'success' | 'failed';
export const PURGE_STATUS_LABELS: Record<PurgeStatus, string> = { waiting: '处理中', success: '已完成', failed: '失败' };

export interface PurgeTask {
  id: number;
  kind: PurgeKind;
  target: string;
  domain: string;
  status: PurgeStatus;
  created_at: string;
  finished_at: string | null;
}

export interface PurgeQuota {
  kind: PurgeKind;
  used: number;
  limit: number;
  remaining: number;
}

/** The host of a URL or rule, lower-cased; null if it has none. */
export function hostOf(target: string): string | null {
  const m = /^https?:\/\/([^/:\s]+)/i.exec(target);
  return m ? m[1].toLowerCase() : null;
}
