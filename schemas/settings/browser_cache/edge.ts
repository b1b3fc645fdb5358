import type { EdgeCompiler } from '../../edge';
import { ruleRegex, type MatchType } from '../../edge-match';

interface BrowserRule { type: MatchType; value: string; ttl: number; follow_origin: boolean }
interface BrowserCache { rules: BrowserRule[] }

/** The answers whose browser caching a rule sets (an error page is never made cacheable by a rule). */
export const BROWSER_CACHED_STATUSES = [200, 206, 304];

/**
 * 浏览器缓存 on the edge (edge.lua acts on this data): the rules in their order as regular expressions of
 * the path, and the statuses they apply to. The first rule that matches the path writes
 * `Cache-Control: max-age=<ttl>` (or `no-cache` for 0) and `Expires` — unless it follows the origin and
 * the origin sent Cache-Control or Expires, which are then passed as they are. A path no rule matches
 * keeps the origin's headers. The edge's own cache is not affected.
 */
const edge: EdgeCompiler = (v: BrowserCache) => {
  if (!v.rules?.length) return null;
  return {
    data: {
      statuses: BROWSER_CACHED_STATUSES,
      rules: v.rules.map((r) => ({ ...ruleRegex(r.type, r.value), ttl: r.ttl, follow: r.follow_origin })),
    },
  };
};

export default edge;
