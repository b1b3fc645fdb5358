import type { EdgeCompiler } from '../../edge';
import { nginxQuoted, ruleRegex, type MatchType } from '../../edge-match';

interface BrowserRule { type: MatchType; value: string; ttl: number; follow_origin: boolean }
interface BrowserCache { rules: BrowserRule[] }

/** The answers whose browser caching a rule sets (an error page is never made cacheable by a rule). */
export const BROWSER_CACHED_STATUSES = [200, 206, 304];

/**
 * 浏览器缓存 on the edge: a map from the path to the first matching rule (`ttl|follow`), and a header
 * filter that writes `Cache-Control: max-age=<ttl>` (or `no-cache` for 0) and `Expires` — unless the rule
 * follows the origin and the origin sent Cache-Control or Expires, which are then passed as they are.
 * A path no rule matches keeps the origin's headers. The edge's own cache is not affected.
 */
const edge: EdgeCompiler = (v: BrowserCache, ctx) => {
  if (!v.rules?.length) return null;
  const name = `${ctx.prefix}_browser_cache`;
  return {
    http: [
      `map $uri $${name} {`,
      '  default "";',
      ...v.rules.map((r) => {
        const { re, caseless } = ruleRegex(r.type, r.value);
        return `  ${nginxQuoted((caseless ? '~*' : '~') + re)} "${r.ttl}|${r.follow_origin ? 1 : 0}";`;
      }),
      '}',
    ],
    header_lua: [
      'do',
      `local bc = ngx.var.${name}`,
      `if bc ~= "" and (${BROWSER_CACHED_STATUSES.map((s) => `ngx.status == ${s}`).join(' or ')}) then`,
      '  local ttl = tonumber(string.match(bc, "^%d+"))',
      '  local h = ngx.header',
      '  if not (string.sub(bc, -1) == "1" and (h["Cache-Control"] or h["Expires"])) then',
      '    h["Cache-Control"] = ttl > 0 and ("max-age=" .. ttl) or "no-cache"',
      '    h["Expires"] = ngx.http_time(ngx.time() + ttl)',
      '  end',
      'end',
      'end',
    ],
  };
};

export default edge;
