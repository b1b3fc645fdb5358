/**
 * DDoS 高防 IP tables (0060–0064) and the live services' transport (0065). Registered with one line each in
 * src/server/db/migrations.ts; plain SQL types that PGlite and PostgreSQL both accept.
 */
import { type Kysely, type Migration, sql } from 'kysely';

export const ddosMigrations: Record<string, Migration> = {
  '0060_ddos': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('ddos_orders')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('account_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('package', 'text', (c) => c.notNull())
        .addColumn('nodes', 'jsonb', (c) => c.notNull())
        .addColumn('months', 'integer', (c) => c.notNull())
        .addColumn('price', sql`numeric(14,2)`, (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('unpaid'))
        .addColumn('instance_id', 'integer')
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('paid_at', 'timestamptz')
        .execute();
      await db.schema.createIndex('ddos_orders_account').on('ddos_orders').columns(['account_id', 'id']).execute();
      await db.schema
        .createTable('ddos_instances')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('account_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('package', 'text', (c) => c.notNull())
        .addColumn('start_time', 'timestamptz', (c) => c.notNull())
        .addColumn('end_time', 'timestamptz', (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema.createIndex('ddos_instances_account').on('ddos_instances').columns(['account_id', 'id']).execute();
      await db.schema
        .createTable('ddos_ips')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('instance_id', 'integer', (c) => c.notNull().references('ddos_instances.id').onDelete('cascade'))
        .addColumn('ip', 'text', (c) => c.notNull().unique())
        .addColumn('node_id', 'integer', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('normal'))
        .execute();
      await db.schema.createIndex('ddos_ips_instance').on('ddos_ips').column('instance_id').execute();
      await db.schema
        .createTable('ddos_l7_rules')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('instance_id', 'integer', (c) => c.notNull().references('ddos_instances.id').onDelete('cascade'))
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('ip', 'text', (c) => c.notNull())
        .addColumn('domain', 'text')
        .addColumn('protocols', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
        .addColumn('port', 'integer')
        .addColumn('origin_port', 'integer')
        .addColumn('origins', 'jsonb', (c) => c.notNull())
        .addColumn('cc_level', 'text')
        .addColumn('waf', 'boolean', (c) => c.notNull().defaultTo(false))
        .addColumn('waf_mode', 'text', (c) => c.notNull().defaultTo('block'))
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('on'))
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema.createIndex('ddos_l7_instance').on('ddos_l7_rules').columns(['instance_id', 'type', 'id']).execute();
      await db.schema
        .createTable('ddos_l4_rules')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('instance_id', 'integer', (c) => c.notNull().references('ddos_instances.id').onDelete('cascade'))
        .addColumn('ip', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('values', 'jsonb', (c) => c.notNull())
        .addColumn('limit', 'integer')
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('on'))
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema.createIndex('ddos_l4_instance').on('ddos_l4_rules').columns(['instance_id', 'id']).execute();
      await db.schema
        .createTable('ddos_attacks')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('instance_id', 'integer', (c) => c.notNull().references('ddos_instances.id').onDelete('cascade'))
        .addColumn('ip', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('start_time', 'timestamptz', (c) => c.notNull())
        .addColumn('end_time', 'timestamptz')
        .addColumn('peak_bps', 'bigint', (c) => c.notNull())
        .addColumn('peak_pps', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('ddos_attacks_instance_time').on('ddos_attacks').columns(['instance_id', 'start_time']).execute();
      await db.schema
        .createTable('ddos_flow_5m')
        .addColumn('instance_id', 'integer', (c) => c.notNull().references('ddos_instances.id').onDelete('cascade'))
        .addColumn('type', 'integer', (c) => c.notNull())
        .addColumn('ts', 'timestamptz', (c) => c.notNull())
        .addColumn('value', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('ddos_flow_5m_pk', ['instance_id', 'type', 'ts'])
        .execute();
    },
  },
  '0065_live_services': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('live_services')
        .addColumn('bucket_id', 'integer', (c) => c.primaryKey().references('buckets.id').onDelete('cascade'))
        .addColumn('transport', 'text', (c) => c.notNull())
        .addColumn('suspended', 'boolean', (c) => c.notNull().defaultTo(false))
        .addColumn('suspended_reason', 'text')
        .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
    },
  },
};
