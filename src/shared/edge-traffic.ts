/**
 * The edge's traffic report (docs/statistics.md "Edge traffic"): what an edge node's agent sends to
 * POST /edge/v1/traffic — its access log, summed per domain, 5-minute slot and client place. Read by
 * the agent (src/edge/logs/) and the server (src/server/edge/traffic.ts).
 */
import { EDGE_API_PREFIX } from './edge';

export const EDGE_TRAFFIC_PATH = `${EDGE_API_PREFIX}/traffic`;

/** How often the agent reports (ms); the issue asks for at least every 30 seconds. */
export const EDGE_TRAFFIC_INTERVAL_MS = 10_000;

/**
 * Counters of one record, summed over the requests of its grain. `bf_cp_bytes`: the bytes the requests
 * would have taken without the edge's compression (each compressed body counted at its size before
 * gzip or Brotli; equal to `bytes` where nothing was compressed). A record without it (an agent of an
 * earlier version) counts as uncompressed.
 */
export const EDGE_TRAFFIC_COUNTERS = ['bytes', 'reqs', 'hit_reqs', 'dyn_reqs', 'https_reqs', 's2xx', 's3xx', 's4xx', 's5xx', 'time_ms', 'bs_bytes', 'bs_reqs', 'bf_cp_bytes'] as const;
export type EdgeTrafficCounter = (typeof EDGE_TRAFFIC_COUNTERS)[number];

/** One grain: the requests of one host (of service `svc`) in one slot from one kind of client place. */
export interface EdgeTrafficRecord extends Record<EdgeTrafficCounter, number> {
  host: string;
  /** the service id nginx served it under ($edge_service) */
  svc: number;
  /** the 5-minute slot's start (epoch seconds) */
  slot: number;
  /** statistics region code (src/shared/stats/constants REGIONS) or other */
  region: string;
  /** carrier code or other */
  isp: string;
  ip_type: 'ipv4' | 'ipv6';
  /** the client was the node's own machine (loopback) */
  local: boolean;
}

export interface EdgeTrafficBatch {
  /** unique per batch; a batch sent again with the same id is counted once */
  batch: string;
  node: string;
  /** log lines the batch covers, lines skipped because they could not be read, lines of no service */
  lines: number;
  bad: number;
  unknown: number;
  records: EdgeTrafficRecord[];
}

export interface EdgeTrafficAnswer {
  /** false: the batch had been received before (nothing was counted again) */
  counted: boolean;
  /** records whose host the server does not know or whose slot cannot be stored any more */
  dropped: number;
}
