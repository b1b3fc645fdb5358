import type { EdgeCompiler } from '../../edge';

interface IpAntileech {
  mode: 'off' | 'blacklist' | 'whitelist';
  ips: string[];
}

/**
 * IP 黑白名单 on the edge (edge.lua): the client's address against the list (an address is a /32, a
 * network its CIDR), checked first in the access chain (after only a forced-HTTPS redirect). 黑名单: a
 * listed address gets 403; 白名单: any other address gets 403. The data is the mode and the list as
 * written; edge.lua parses it once per worker into tables by prefix length.
 *
 * The client's address is the connection's on plain HTTP; over HTTPS it is the one the SNI router passes
 * in the PROXY protocol (realip, trusted from the node's own Unix sockets only), so that both ports judge
 * the real client. Headers such as X-Forwarded-For are never believed.
 *
 * A refusal is the edge's own (IP/地区限制 40310001, `req:refuse`), so 自定义错误页面 may give it a page.
 */
const edge: EdgeCompiler = (v: IpAntileech) => {
  if (v.mode !== 'whitelist' && v.mode !== 'blacklist') return null;
  const ips = [...new Set(v.ips.map((ip) => ip.trim()).filter(Boolean))];
  if (!ips.length) return null;
  return { data: { mode: v.mode, ips } };
};

export default edge;
