/**
 * Schema migrations, in order. Each runs once (kysely's Migrator records them) on PGlite and PostgreSQL alike.
 */
import { type Kysely, type Migration, type MigrationProvider, sql } from 'kysely';

const migrations: Record<string, Migration> = {
  '0001_accounts_and_services': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('users')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('username', 'text', (c) => c.notNull().unique())
        .addColumn('email', 'text', (c) => c.unique())
        .addColumn('mobile', 'text')
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('normal'))
        .addColumn('verify_status', 'text', (c) => c.notNull().defaultTo('not'))
        .addColumn('two_step', 'boolean', (c) => c.notNull().defaultTo(false))
        .addColumn('parent_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
        .addColumn('nickname', 'text')
        .addColumn('permissions', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
        .addColumn('money', sql`numeric(14,2)`, (c) => c.notNull().defaultTo(0))
        .addColumn('actual_charge', sql`numeric(14,2)`, (c) => c.notNull().defaultTo(0))
        .addColumn('resource_flow_remain', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema
        .createTable('sessions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
        .addColumn('ip', 'text')
        .execute();
      await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();
      await db.schema
        .createTable('signin_attempts')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('username', 'text', (c) => c.notNull())
        .addColumn('ip', 'text')
        .addColumn('ok', 'boolean', (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema.createIndex('signin_attempts_user_time').on('signin_attempts').columns(['username', 'created_at']).execute();
      await db.schema
        .createTable('sms_outbox')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('mobile', 'text', (c) => c.notNull())
        .addColumn('purpose', 'text', (c) => c.notNull())
        .addColumn('text', 'text', (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema.createIndex('sms_outbox_mobile_time').on('sms_outbox').columns(['mobile', 'created_at']).execute();
      await db.schema
        .createTable('verification_codes')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('purpose', 'text', (c) => c.notNull())
        .addColumn('code_hash', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
        .addColumn('used_at', 'timestamptz')
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema.createIndex('verification_codes_user').on('verification_codes').columns(['user_id', 'purpose', 'created_at']).execute();
      await db.schema
        .createTable('buckets')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull().unique())
        .addColumn('owner_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('remark', 'text')
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('NORMAL'))
        .addColumn('storage_used', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema.createIndex('buckets_owner_kind').on('buckets').columns(['owner_id', 'kind', 'id']).execute();
      await db.schema
        .createTable('bucket_domains')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('bucket_id', 'integer', (c) => c.notNull().references('buckets.id').onDelete('cascade'))
        .addColumn('domain', 'text', (c) => c.notNull().unique())
        .addColumn('cname', 'text', (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema.createIndex('bucket_domains_bucket').on('bucket_domains').column('bucket_id').execute();
      await db.schema
        .createTable('service_settings')
        .addColumn('bucket_id', 'integer', (c) => c.notNull().references('buckets.id').onDelete('cascade'))
        .addColumn('setting_id', 'text', (c) => c.notNull())
        .addColumn('value', 'jsonb', (c) => c.notNull())
        .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('updated_by', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('service_settings_pk', ['bucket_id', 'setting_id'])
        .execute();
      await db.schema
        .createTable('operation_logs')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('account_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('user_id', 'integer', (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('target', 'text', (c) => c.notNull())
        .addColumn('detail', 'jsonb', (c) => c.notNull())
        .addColumn('ip', 'text')
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema.createIndex('operation_logs_account_time').on('operation_logs').columns(['account_id', 'created_at']).execute();
    },
  },
  '0002_key_customers': {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('users')
        .addColumn('custom_prohibit_configuration', 'boolean', (c) => c.notNull().defaultTo(false))
        .execute();
      await db.schema
        .alterTable('users')
        .addColumn('overseas_acceleration_switch', 'boolean', (c) => c.notNull().defaultTo(false))
        .execute();
    },
  },
};

export const migrationProvider: MigrationProvider = {
  async getMigrations() {
    return migrations;
  },
};
