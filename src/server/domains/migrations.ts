import { type Kysely, type Migration, sql } from 'kysely';

/** Migrations of the service tabs (numbers 0050–0059). */
export const serviceTabMigrations: Record<string, Migration> = {
  '0050_domain_checks_and_cost_control': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('domain_checks')
        .addColumn('domain_id', 'integer', (c) => c.primaryKey().references('bucket_domains.id').onDelete('cascade'))
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('resolved', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('checked_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema
        .createTable('cost_control_state')
        .addColumn('bucket_id', 'integer', (c) => c.primaryKey().references('buckets.id').onDelete('cascade'))
        .addColumn('paused', 'boolean', (c) => c.notNull().defaultTo(false))
        .addColumn('last_mbps', sql`double precision`, (c) => c.notNull().defaultTo(0))
        .addColumn('last_slot', 'timestamptz')
        .addColumn('notified_slot', 'timestamptz')
        .addColumn('paused_at', 'timestamptz')
        .addColumn('paused_mbps', sql`double precision`, (c) => c.notNull().defaultTo(0))
        .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
    },
  },
};
