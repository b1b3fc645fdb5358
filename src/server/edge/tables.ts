import type { ColumnType, Generated } from 'kysely';
import type { Timestamp } from '../db/schema';

type Big = ColumnType<number, number | undefined, number>;

/** The configuration version (one row, id 1), moved by triggers (migration 0100, docs/edge.md). */
export interface EdgeConfigTable {
  id: number;
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
