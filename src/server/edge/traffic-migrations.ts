import { type Kysely, type Migration, sql } from 'kysely';

/**
 * The edge's traffic (docs/statistics.md "Edge traffic"), in the edge section's range (0100–0109):
 * the batches nodes sent (an id is counted once), what the edge counted per domain, slot and client
 * place (summed over batches and nodes; the slot's raw statistics rows are rebuilt from it), and the
 * domains whose traffic comes from the edge (the demo's replay leaves them alone).
 */
export const edgeTrafficMigrations: Record<string, Migration> = {
  '0108_edge_traffic': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('edge_traffic_batches')
        .addColumn('node_id', 'integer', (c) => c.notNull().references('edge_nodes.id').onDelete('cascade'))
        .addColumn('batch', 'text', (c) => c.notNull())
        .addColumn('received_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('lines', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('bad', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('unknown', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('records', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('dropped', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('repeats', 'integer', (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('edge_traffic_batches_pk', ['node_id', 'batch'])
        .execute();
      let t = db.schema
        .createTable('edge_traffic')
        .addColumn('domain_id', 'integer', (c) => c.notNull())
        .addColumn('slot', 'timestamptz', (c) => c.notNull())
        .addColumn('region', 'text', (c) => c.notNull())
        .addColumn('carrier', 'text', (c) => c.notNull())
        .addColumn('ip_type', 'text', (c) => c.notNull())
        .addColumn('local', 'boolean', (c) => c.notNull());
      for (const k of ['bytes', 'reqs', 'hit_reqs', 'dyn_reqs', 'https_reqs', 's2xx', 's3xx', 's4xx', 's5xx', 'time_ms', 'bs_bytes', 'bs_reqs']) {
        t = t.addColumn(k, 'bigint', (c) => c.notNull().defaultTo(0));
      }
      await t.addPrimaryKeyConstraint('edge_traffic_pk', ['domain_id', 'slot', 'region', 'carrier', 'ip_type', 'local']).execute();
      await db.schema
        .createTable('edge_traffic_domains')
        .addColumn('domain_id', 'integer', (c) => c.primaryKey())
        .addColumn('since', 'timestamptz', (c) => c.notNull())
        .execute();
    },
  },
  /**
   * Bytes before compression (spec 001 flow history `bf_cp_bytes`, docs/statistics.md "Compression"): the
   * edge's sums and every statistics tier carry them beside the bytes as sent. In the statistics tables
   * NULL means not measured — a row stored before this migration, or written without the figure — and
   * counts as uncompressed (its bytes); the edge's own sums always have it.
   */
  '0109_traffic_bytes_before_compression': {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('edge_traffic').addColumn('bf_cp_bytes', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
      await sql`update edge_traffic set bf_cp_bytes = bytes`.execute(db);
      for (const table of ['traffic_ingest', 'traffic_5m', 'traffic_1h', 'traffic_1d']) {
        await db.schema.alterTable(table).addColumn('bf_cp_bytes', 'bigint').execute();
      }
    },
  },
};
