import type { EdgeCompiler } from '../../edge';
import { ruleRegex, type MatchType } from '../../edge-match';

interface CacheRule { type: MatchType; value: string; ttl: number; ignore_query: boolean }
interface CacheRules { rules: CacheRule[] }

/** The answers a rule's cache time applies to (others follow the origin's headers, as without a rule). */
export const CACHED_STATUSES = [200, 206, 301, 302];

/**
 * 缓存规则 on the edge: the rules in their order as regular expressions of the path (edge.lua takes the
 * first that matches). The rule's time replaces the origin's caching headers for the edge's cache (the
 * fetch server sets them aside and X-Accel-Expires to the time, src/edge/lua/edge_fetch.lua; the client
 * still gets them), for CACHED_STATUSES; 忽略 URL 参数 empties the query part of the cache key. A path no
 * rule matches is cached as the origin's headers say.
 */
const edge: EdgeCompiler = (v: CacheRules) => {
  if (!v.rules?.length) return null;
  return { data: v.rules.map((r) => ({ ...ruleRegex(r.type, r.value), ttl: r.ttl, ignore_query: r.ignore_query })) };
};

export default edge;
