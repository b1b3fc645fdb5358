/**
 * Tables of the service tabs (docs/service-tabs.md): the last CNAME lookup of each domain, and the
 * bandwidth-cap state of each service (cost control).
 */

import type { Timestamp } from '../db/schema';

export interface DomainChecksTable {
  /** bucket_domains.id */
  domain_id: number;
  /** a CnameStatus (src/shared/domains.ts) */
  status: string;
  /** the CNAME targets seen, as JSON text */
  resolved: string;
  checked_at: Timestamp;
}

export interface CostControlStateTable {
  bucket_id: number;
  /** paused by the bandwidth cap (buckets.status was set to PAUSED by the job) */
  paused: boolean;
  /** the last 5-minute sample looked at, in Mbps, and its slot */
  last_mbps: number;
  last_slot: Timestamp | null;
  /** the last notice sent for this excess (so one excess is told once) */
  notified_slot: Timestamp | null;
  /** when the job paused the service, and the sample that made it */
  paused_at: Timestamp | null;
  paused_mbps: number;
  updated_at: Timestamp;
}

declare module '../db/schema' {
  interface Database {
    domain_checks: DomainChecksTable;
    cost_control_state: CostControlStateTable;
  }
}
