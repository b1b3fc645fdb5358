import type { EdgeCompiler } from '../../edge';

interface Origin {
  protocol: 'http' | 'https' | 'follow';
  host: string;
  servers: { address: string; port: number; weight: number; backup: boolean }[];
  failover: { enable: boolean; timeout: number; max_fails: number };
}

/**
 * 回源设置 on the edge (docs/edge.md "Access control, paused services and origins"):
 *
 * - an upstream of the servers, round robin by weight; backups only while every primary rests;
 * - the protocol: HTTP or HTTPS to each server's port; 协议跟随 uses the client's scheme, to the same
 *   port except that a server on 80 is asked for HTTPS on 443 (an origin that follows must answer on
 *   both, as the provider's documentation says);
 * - the Host sent is the 回源 Host, else the requested host; over HTTPS it is also the SNI name (the
 *   origin's certificate is not verified, as at the provider);
 * - failover on: a server that fails `max_fails` times within `timeout` seconds rests for that long,
 *   connecting waits at most `timeout` seconds, and a failed attempt (error, timeout, 502/503/504) moves
 *   on to the next server; off: one attempt, its failure is the answer.
 */
const edge: EdgeCompiler = (v: Origin, ctx) => {
  if (!v.servers?.length) return null;
  const name = `${ctx.prefix}_origin`;
  const fails = v.failover.enable ? ` max_fails=${v.failover.max_fails} fail_timeout=${v.failover.timeout}s` : ' max_fails=0';
  const upstream = (upstreamName: string, port: (p: number) => number) => [
    `upstream ${upstreamName} {`,
    ...v.servers.map((s) => `  server ${s.address}:${port(s.port)} weight=${s.weight}${fails}${s.backup ? ' backup' : ''};`),
    '  keepalive 16;',
    '}',
  ];
  const http =
    v.protocol === 'follow'
      ? [...upstream(`${name}_http`, (p) => p), ...upstream(`${name}_https`, (p) => (p === 80 ? 443 : p))]
      : upstream(name, (p) => p);
  // follow: a variable pass, which nginx looks up among the upstreams by name
  const pass = v.protocol === 'follow' ? `$scheme://${name}_$scheme` : `${v.protocol}://${name}`;
  return {
    http,
    origin: { pass, host: v.host || undefined },
    proxy: [
      `proxy_ssl_name ${v.host ? ctx.q(v.host) : '$host'};`,
      `proxy_connect_timeout ${v.failover.timeout}s;`,
      v.failover.enable ? 'proxy_next_upstream error timeout http_502 http_503 http_504;' : 'proxy_next_upstream off;',
    ],
  };
};

export default edge;
