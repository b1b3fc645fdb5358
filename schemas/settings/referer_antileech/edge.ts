import type { EdgeCompiler } from '../../edge';
import { EDGE_REFUSALS } from '../../../src/shared/edge';

interface RefererAntileech {
  mode: 'off' | 'whitelist' | 'blacklist';
  domains: string[];
  allow_empty_referer: boolean;
}

/**
 * Referer 防盗链 on the edge, with nginx's own maps (no Lua), checked first
 * (the server's rewrite phase, after only a forced-HTTPS redirect):
 *
 * - the Referer's host is what follows `http://` or `https://` up to `/`, `:`, `?` or `#` (any case);
 *   a Referer that is not such a URL has no host, so it is never listed;
 * - `www.example.com` lists that host; `*.example.com` every subdomain, not example.com itself (nginx's
 *   `hostnames` wildcard, as the setting's help says);
 * - 白名单: a listed host passes, any other Referer gets 403; 黑名单: a listed host gets 403;
 * - no Referer, or an empty one, passes when 允许空 Referer is on and gets 403 when it is off, in both modes.
 *
 * A refusal names itself in `$edge_refusal` (防盗链拦截 40310002) for 自定义错误页面.
 */
const edge: EdgeCompiler = (v: RefererAntileech, ctx) => {
  if (v.mode !== 'whitelist' && v.mode !== 'blacklist') return null;
  const domains = [...new Set(v.domains.map((d) => d.trim().toLowerCase()).filter(Boolean))];
  if (!domains.length) return null;
  const p = ctx.prefix;
  const listed = v.mode === 'whitelist' ? '0' : '1';
  return {
    http: [
      `map $http_referer $${p}_referer_host {`,
      `  "~*^https?://([^/?#@]*@)?(?<${p}_rh>[^/:?#]+)" $${p}_rh;`,
      '  default "";',
      '}',
      `map $${p}_referer_host $${p}_referer_listed {`,
      '  hostnames;',
      `  default ${v.mode === 'whitelist' ? '1' : '0'};`,
      ...domains.map((d) => `  ${ctx.q(d)} ${listed};`),
      '}',
      `map $http_referer $${p}_referer_refused {`,
      `  "" ${v.allow_empty_referer ? '0' : '1'};`,
      `  default $${p}_referer_listed;`,
      '}',
    ],
    server: [`if ($${p}_referer_refused) { set $edge_refusal ${EDGE_REFUSALS.referer}; return 403; }`],
  };
};

export default edge;
