import type { ColumnType, Generated } from 'kysely';
import type { Timestamp } from '../db/schema';

type Big = ColumnType<number, number | undefined, number>;

/**
 * One row (id 1): `version` is the counter of migration 0100 (no longer moved), `xid_base` what a
 * transaction id is added to for its version (migration 0102, docs/edge.md "Versions").
 */
export interface EdgeConfigTable {
  id: number;
  version: Big;
  xid_base: Big;
}

/** One row per transaction that changed what a node is answered: its version (migration 0102). */
export interface EdgeChangesTable {
  version: Big;
}

/** An edge node: its name and the SHA-256 of its key; what it last applied. */
export interface EdgeNodesTable {
  id: Generated<number>;
  name: string;
  key_hash: string;
  created_at: Generated<Date>;
  last_seen_at: Timestamp | null;
  applied_version: ColumnType<number | null, number | null | undefined, number | null>;
  applied_at: Timestamp | null;
  ok: boolean | null;
  message: string | null;
}

/** Every apply (reload) a node reported, with its version. */
export interface EdgeAppliesTable {
  id: Generated<number>;
  node_id: number;
  version: Big;
  ok: boolean;
  message: string | null;
  refused: ColumnType<number, number | undefined, number>;
  /** JSON: { compile, test, reload } in ms */
  timings: string;
  created_at: Generated<Date>;
}

/** A service a node refused, or applied with notes (what it cannot do as asked). */
export interface EdgeServiceStatusTable {
  node_id: number;
  bucket_id: number;
  version: Big;
  /** refused | applied */
  state: string;
  message: string | null;
  /** JSON: { setting id: Chinese note } */
  notes: string;
  updated_at: Timestamp;
}

declare module '../db/schema' {
  interface Database {
    edge_config: EdgeConfigTable;
    edge_changes: EdgeChangesTable;
    edge_nodes: EdgeNodesTable;
    edge_applies: EdgeAppliesTable;
    edge_service_status: EdgeServiceStatusTable;
  }
  interface BucketsTable {
    edge_version: Generated<number>;
  }
  interface ServiceSettingsTable {
    edge_version: Generated<number>;
  }
}
