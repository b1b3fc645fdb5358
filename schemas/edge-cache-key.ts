/**
 * A URL's cache key on the edge, as the runtime computes it (`M.cache_key` in src/edge/lua/edge_core.lua:
 * `s<id>/<host><uri>?<args>`, set as `$edge_cache_key` for `proxy_cache_key`), so that a purge finds the
 * object a URL was cached under (docs/edge.md "Compression, error pages and cache"). This is the one
 * TypeScript source of the key's rule: keep it and the Lua in step (each names the other). The edge's file
 * for a key is `<cache>/<md5 last char>/<md5 two chars before>/<md5 of key>`.
 *
 * - service: the service's id — the cache belongs to a service, so that a domain moved to another service
 *   (or account) never meets the first one's objects;
 * - host: the request's host, lower case, without the port;
 * - path: the path as nginx normalises it ($uri: percent-decoded, `//` merged, `.`/`..` resolved);
 * - the query part: empty when the first cache rule (缓存规则) whose pattern matches the path ignores URL
 *   parameters, else what URL 参数缓存 (query_string) keeps of the query as sent (keyArgs).
 */
import { ruleRegex, type MatchType } from './edge-match';
import { keyArgs } from './settings/query_string/edge';

interface Settings {
  query_string?: { mode: 'keep_all' | 'ignore_all' | 'keep_some' | 'ignore_some'; params: string[] };
  cache_rules?: { rules: { type: MatchType; value: string; ignore_query: boolean }[] };
}

/** The key's service part: `s<id>/` (edge_core.lua M.cache_key). */
export const cacheKeyPrefix = (service: number) => `s${service}/`;

export function edgeCacheKey(service: number, host: string, path: string, args: string, settings: Settings): string {
  const rule = (settings.cache_rules?.rules ?? []).find((r) => {
    const { re, caseless } = ruleRegex(r.type, r.value);
    return new RegExp(re, caseless ? 'i' : '').test(path);
  });
  const kept = rule?.ignore_query ? '' : settings.query_string ? keyArgs(settings.query_string, args) : args;
  return `${cacheKeyPrefix(service)}${host.toLowerCase().replace(/:\d+$/, '')}${path}?${kept}`;
}

/** A key without its service part (`<host><uri>?<args>`), or null when it is not a key of this design. */
export function keyWithoutService(key: string): { service: number; rest: string } | null {
  const m = /^s(\d+)\//.exec(key);
  return m ? { service: Number(m[1]), rest: key.slice(m[0].length) } : null;
}
