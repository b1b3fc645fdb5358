import type { EdgeCompiler } from '../../edge';

interface RefererAntileech {
  mode: 'off' | 'whitelist' | 'blacklist';
  domains: string[];
  allow_empty_referer: boolean;
}

/**
 * Referer 防盗链 on the edge (edge.lua), checked first in the access chain (after only a forced-HTTPS
 * redirect):
 *
 * - the Referer's host is what follows `http://` or `https://` (and any `user@`) up to `/`, `:`, `?` or
 *   `#` (any case); a Referer that is not such a URL has no host, so it is never listed;
 * - `www.example.com` lists that host; `*.example.com` every subdomain (any depth), not example.com
 *   itself (nginx's `hostnames` wildcard, as the setting's help says);
 * - 白名单: a listed host passes, any other Referer gets 403; 黑名单: a listed host gets 403;
 * - no Referer, or an empty one, passes when 允许空 Referer is on and gets 403 when it is off, in both modes.
 *
 * A refusal is the edge's own (防盗链拦截 40310002, `req:refuse`), so 自定义错误页面 may give it a page.
 */
const edge: EdgeCompiler = (v: RefererAntileech) => {
  if (v.mode !== 'whitelist' && v.mode !== 'blacklist') return null;
  const domains = [...new Set(v.domains.map((d) => d.trim().toLowerCase()).filter(Boolean))];
  if (!domains.length) return null;
  return { data: { mode: v.mode, domains, allow_empty: v.allow_empty_referer } };
};

export default edge;
