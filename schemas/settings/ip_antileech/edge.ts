import type { EdgeCompiler } from '../../edge';
import { EDGE_REFUSALS } from '../../../src/shared/edge';

interface IpAntileech {
  mode: 'off' | 'blacklist' | 'whitelist';
  ips: string[];
}

/**
 * IP 黑白名单 on the edge: nginx's `geo` of the client's address (an address is a /32, a network its
 * CIDR), checked first (the server's rewrite phase, after only a forced-HTTPS redirect). 黑名单: a listed
 * address gets 403; 白名单: any other address gets 403.
 *
 * The client's address is the connection's on plain HTTP; over HTTPS it is the one the SNI router passes
 * in the PROXY protocol (realip, trusted from the node's own Unix sockets only), so that both ports judge
 * the real client. Headers such as X-Forwarded-For are never believed.
 *
 * A refusal names itself in `$edge_refusal` (IP/地区限制 40310001) for 自定义错误页面.
 */
const edge: EdgeCompiler = (v: IpAntileech, ctx) => {
  if (v.mode !== 'whitelist' && v.mode !== 'blacklist') return null;
  const ips = [...new Set(v.ips.map((ip) => ip.trim()).filter(Boolean))];
  if (!ips.length) return null;
  const p = ctx.prefix;
  const listed = v.mode === 'blacklist' ? '1' : '0';
  return {
    http: [`geo $${p}_ip_refused {`, `  default ${v.mode === 'blacklist' ? '0' : '1'};`, ...ips.map((ip) => `  ${ip} ${listed};`), '}'],
    server: [`if ($${p}_ip_refused) { set $edge_refusal ${EDGE_REFUSALS.ip}; return 403; }`],
  };
};

export default edge;
