/**
 * A URL's cache key on the edge, as the runtime computes it (`s<service id>/<host><uri>?<kept query>`,
 * edge_core.lua cache_key), so that a purge finds the object a URL was cached under (docs/edge.md
 * "Compression, error pages and cache"). The edge's file for a key is `<cache>/<md5 last char>/<md5 two
 * chars before>/<md5 of key>`.
 *
 * - service: the service's id (the key starts with `s<id>/`, so that a domain moved to another service
 *   never meets the first one's objects); without it, the key without that prefix;
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

export function edgeCacheKey(host: string, path: string, args: string, settings: Settings, service?: number): string {
  const rule = (settings.cache_rules?.rules ?? []).find((r) => {
    const { re, caseless } = ruleRegex(r.type, r.value);
    return new RegExp(re, caseless ? 'i' : '').test(path);
  });
  const kept = rule?.ignore_query ? '' : settings.query_string ? keyArgs(settings.query_string, args) : args;
  return `${service === undefined ? '' : `s${service}/`}${host.toLowerCase().replace(/:\d+$/, '')}${path}?${kept}`;
}
