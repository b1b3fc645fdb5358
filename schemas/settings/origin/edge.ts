import type { EdgeCompiler } from '../../edge';

interface Origin {
  protocol: 'http' | 'https' | 'follow';
  host: string;
  servers: { address: string; port: number; weight: number; backup: boolean }[];
  failover: { enable: boolean; timeout: number; max_fails: number };
}

/**
 * 回源设置 on the edge: an upstream of the servers (weights, backups), the protocol (follow: the client's
 * scheme), the Host sent to the origin, and failover — a server that fails `max_fails` times within
 * `timeout` seconds rests for that long, and a failed attempt moves on to the next server.
 */
const edge: EdgeCompiler = (v: Origin, ctx) => {
  if (!v.servers?.length) return null;
  const name = `${ctx.prefix}_origin`;
  const fails = v.failover.enable ? ` max_fails=${v.failover.max_fails} fail_timeout=${v.failover.timeout}s` : ' max_fails=0';
  const scheme = v.protocol === 'follow' ? '$scheme' : v.protocol;
  return {
    http: [
      `upstream ${name} {`,
      ...v.servers.map((s) => `  server ${s.address}:${s.port} weight=${s.weight}${fails}${s.backup ? ' backup' : ''};`),
      '  keepalive 16;',
      '}',
    ],
    origin: { pass: `${scheme}://${name}`, host: v.host || undefined },
    proxy: [
      `proxy_connect_timeout ${v.failover.timeout}s;`,
      v.failover.enable ? 'proxy_next_upstream error timeout http_502 http_503 http_504;' : 'proxy_next_upstream off;',
    ],
  };
};

export default edge;
