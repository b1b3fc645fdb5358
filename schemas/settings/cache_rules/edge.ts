import type { EdgeCompiler } from '../../edge';
import { nginxQuoted, ruleRegex, type MatchType } from '../../edge-match';

interface CacheRule { type: MatchType; value: string; ttl: number; ignore_query: boolean }
interface CacheRules { rules: CacheRule[] }

/** The answers a rule's cache time applies to (others follow the origin's headers, as without a rule). */
export const CACHED_STATUSES = [200, 206, 301, 302];

/**
 * 缓存规则 on the edge: one regex location per rule, in the rules' order, so that the first rule that
 * matches a path wins (nginx tries regex locations in order). In it the rule's time replaces the
 * origin's caching headers (Cache-Control, Expires, X-Accel-Expires are ignored for the cache, still
 * passed to the client), and 忽略 URL 参数 empties the query part of the cache key. A path no rule
 * matches is cached as the origin's headers say.
 */
const edge: EdgeCompiler = (v: CacheRules) => {
  if (!v.rules?.length) return null;
  return {
    locations: v.rules.map((r, i) => {
      const { re, caseless } = ruleRegex(r.type, r.value);
      return {
        match: `${caseless ? '~*' : '~'} ${nginxQuoted(re)}`,
        order: i,
        directives: [
          'proxy_ignore_headers Cache-Control Expires X-Accel-Expires;',
          `proxy_cache_valid ${CACHED_STATUSES.join(' ')} ${r.ttl}s;`,
          `set $edge_cache_ttl ${r.ttl};`, // the time, for the edge's Lua (mirror migration takes only what is cached over 24 hours)
          ...(r.ignore_query ? ['set $edge_key_args "";'] : []),
        ],
      };
    }),
  };
};

export default edge;
