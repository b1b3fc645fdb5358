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
/** The task's state is what the edge did (set by the edge node's report, docs/operations-tools.md "Purge and preheat"). */
export const PURGE_STATUS_LABELS: Record<PurgeStatus, string> = { waiting: '处理中', success: '成功', failed: '失败' };

/** A task no edge node has finished this long after it was due fails (the provider's "within 10 minutes"). */
export const PURGE_TASK_TIMEOUT_MINUTES = 10;
/** An edge node counts as online while it has called the edge API within this many seconds. */
export { EDGE_NODE_ALIVE_SECONDS as PURGE_NODE_ALIVE_SECONDS } from './edge';

/** The reasons and notes the purge log shows (both the server and the edge node write them). */
export const PURGE_TEXTS = {
  noEdge: '本环境未运行边缘节点（EDGE=off），任务未执行',
  noNode: '没有在线的边缘节点，任务未执行',
  timeout: `边缘节点未在 ${PURGE_TASK_TIMEOUT_MINUTES} 分钟内完成该任务`,
  pausedPreheat: '服务已因带宽封顶暂停，预热未执行',
  noServicePreheat: '该域名已不属于任何服务（服务或域名已删除），预热未执行',
  preheatStatus: (status: number) => `边缘节点返回 HTTP ${status}，未缓存`,
  preheatNotCacheable: (cacheControl?: string) => `源站响应不可缓存${cacheControl ? `（Cache-Control: ${cacheControl}）` : ''}，未缓存`,
  preheatError: (why: string) => `预热请求失败：${why}`,
  purgeError: (why: string) => `清除缓存失败：${why}`,
  removed: (n: number) => `已清除 ${n.toLocaleString('zh-CN')} 个缓存对象`,
  cached: '已缓存到边缘节点',
  onNode: (node: string, message: string) => `${node}：${message}`,
} as const;

export interface PurgeTask {
  id: number;
  kind: PurgeKind;
  target: string;
  domain: string;
  status: PurgeStatus;
  created_at: string;
  finished_at: string | null;
  /** Why it failed (Chinese), from the edge node's report or the server. */
  message: string | null;
  /** Purges: the cached objects the edge removed (summed over nodes); null until done. */
  removed: number | null;
}

/**
 * The edge API's purge calls (src/server/edge/purge.ts ⇄ src/edge/purge/): a node pulls the tasks due
 * for it and reports each one's outcome.
 *
 *   GET  /edge/v1/purge?wait=S     { tasks: EdgePurgeTask[] }   (long poll: waits up to S seconds for one)
 *   POST /edge/v1/purge/report     { results: EdgePurgeResult[] }
 */
export interface EdgePurgeTask {
  id: number;
  kind: PurgeKind;
  /** The URL or rule as submitted. */
  target: string;
  /** Its host, lower-cased (the cache key starts with it). */
  host: string;
  /**
   * The service the host belongs to now (null when the domain is no longer any service's): whether the
   * bandwidth cap paused it, and the effective values of the settings a URL's cache key depends on
   * (query_string, cache_rules — schemas/edge-cache-key.ts).
   */
  service: { id: number; paused: boolean; settings: CacheKeySettings } | null;
}

/** The settings a URL's cache key depends on, as edgeCacheKey (schemas/edge-cache-key.ts) takes them. */
export type CacheKeySettings = Partial<Record<(typeof CACHE_KEY_SETTINGS)[number], unknown>>;
export const CACHE_KEY_SETTINGS = ['query_string', 'cache_rules'] as const;

export interface EdgePurgeResult {
  id: number;
  ok: boolean;
  /** Chinese: why it failed. */
  message?: string;
  /** Purges: how many cached objects were removed. */
  removed?: number;
}

export const EDGE_PURGE_MAX_TASKS = 1000;

export interface PurgeQuota {
  kind: PurgeKind;
  used: number;
  limit: number;
  remaining: number;
}

/** A URL or rule with its scheme and host lower-cased (host names are case-insensitive; the path is not). */
export function normalizeTarget(target: string): string {
  return target.replace(/^https?:\/\/[^/\s]+/i, (m) => m.toLowerCase());
}

/** What the message of a finished submission says (nofi = 1). */
export const PURGE_NOTICE = {
  title: (kind: string) => `${kind}任务已完成`,
  body: (kind: string, at: string, total: number, failed: number, first: string) =>
    `您于 ${at} 提交的 ${total} 条${kind}任务（${first}${total > 1 ? ' 等' : ''}）已全部结束：成功 ${total - failed} 条${failed ? `，失败 ${failed} 条，失败原因见操作记录` : ''}。`,
};

/** The host of a URL or rule, lower-cased; null if it has none. */
export function hostOf(target: string): string | null {
  const m = /^https?:\/\/([^/:\s]+)/i.exec(target);
  return m ? m[1].toLowerCase() : null;
}
