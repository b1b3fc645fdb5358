import type { ColumnType, Generated } from 'kysely';
import type { Timestamp } from '../db/schema';

type Big = ColumnType<number, number | undefined, number>;

/** A traffic batch a node sent (migration 0108, docs/statistics.md "Edge traffic"): counted once per id. */
export interface EdgeTrafficBatchesTable {
  node_id: number;
  batch: string;
  received_at: Generated<Date>;
  lines: ColumnType<number, number | undefined, number>;
  bad: ColumnType<number, number | undefined, number>;
  unknown: ColumnType<number, number | undefined, number>;
  records: ColumnType<number, number | undefined, number>;
  dropped: ColumnType<number, number | undefined, number>;
  /** how many times it came again */
  repeats: ColumnType<number, number | undefined, number>;
}

/** What the edge counted per domain, slot and client place, summed over batches and nodes. */
export interface EdgeTrafficTable {
  domain_id: number;
  slot: Timestamp;
  region: string;
  carrier: string;
  ip_type: string;
  /** loopback clients (the node's own machine) */
  local: boolean;
  bytes: Big;
  reqs: Big;
  hit_reqs: Big;
  dyn_reqs: Big;
  https_reqs: Big;
  s2xx: Big;
  s3xx: Big;
  s4xx: Big;
  s5xx: Big;
  time_ms: Big;
  bs_bytes: Big;
  bs_reqs: Big;
  /** the bytes before the edge's compression (migration 0109) */
  bf_cp_bytes: Big;
}

/** The domains whose traffic comes from the edge, from their first slot (the demo's replay leaves them alone). */
export interface EdgeTrafficDomainsTable {
  domain_id: number;
  since: Timestamp;
}

declare module '../db/schema' {
  interface Database {
    edge_traffic_batches: EdgeTrafficBatchesTable;
    edge_traffic: EdgeTrafficTable;
    edge_traffic_domains: EdgeTrafficDomainsTable;
  }
}
