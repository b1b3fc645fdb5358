import type { EdgeCompiler } from '../../edge';

interface Origin {
  protocol: 'http' | 'https' | 'follow';
  host: string;
  servers: { address: string; port: number; weight: number; backup: boolean }[];
  failover: { enable: boolean; timeout: number; max_fails: number };
}

/**
 * 回源设置 on the edge (docs/edge.md "Access control, paused services and origins"): data for the node's
 * fetch server, whose balancer (src/edge/lua/edge_fetch.lua) chooses a server per request:
 *
 * - round robin by weight among the primaries; backups only while every primary rests;
 * - the protocol: HTTP or HTTPS to each server's port; 协议跟随 uses the client's scheme, to the same
 *   port except that a server on 80 is asked for HTTPS on 443;
 * - the Host sent is the 回源 Host, else the requested host; over HTTPS it is also the SNI name (the
 *   origin's certificate is not verified, as at the provider);
 * - failover on: a server that fails `max_fails` times within `timeout` seconds rests for that long,
 *   connecting waits at most `timeout` seconds, and a failed attempt (error, timeout, 502/503/504) moves
 *   on to the next server; off: one attempt, its failure is the answer.
 */
const edge: EdgeCompiler = (v: Origin) => {
  if (!v.servers?.length) return null;
  return {
    origin: {
      protocol: v.protocol,
      host: v.host || undefined,
      servers: v.servers.map((s) => ({ address: s.address, port: s.port, weight: s.weight, backup: s.backup })),
      failover: v.failover.enable,
      timeout: v.failover.timeout,
      max_fails: v.failover.enable ? v.failover.max_fails : 0,
    },
  };
};

export default edge;
