/**
 * Schema migrations, in order. Each runs once (kysely's Migrator records them) on PGlite and PostgreSQL alike.
 */
import { type Kysely, type Migration, type MigrationProvider, sql } from 'kysely';
import { messageMigrations } from '../messages/migrations';
import { serviceTabMigrations } from '../domains/migrations';
import { opsMigrations } from '../monitor/migrations';
import { accountMigrations } from '../accounts/migrations';
import { eventMigrations } from '../events/migrations';
import { billingMigrations } from '../billing/migrations';
import { moneyMigrations } from '../billing/money-migrations';
import { ledgerMigrations } from '../billing/ledger/migrations';
import { storageMigrations } from '../billing/storage/migrations';
import { certificateMigrations } from '../certificates/migrations';
import { fileMigrations } from '../files/migrations';
import { ddosMigrations } from '../ddos/migrations';
import { externalMigrations } from '../external/migrations';
import { consumptionMigrations } from '../billing/consumption/migrations';
import { donationMigrations } from '../billing/donation/migrations';
import { edgeMigrations } from '../edge/migrations';
import { purgeMigrations } from '../purge/migrations';
import { edgeTrafficMigrations } from '../edge/traffic-migrations';
import { sessionCacheMigrations } from '../accounts/session-cache';
import { bucketCacheMigrations } from '../buckets/bucket-cache';

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
  '0004_subaccounts': {
    // buckets granted to sub-accounts (spec 000 §3 "Bucket authorization"), and the operation log's
    // "who" kept after a sub-account is deleted
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('child_buckets')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('child_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('bucket_id', 'integer', (c) => c.notNull().references('buckets.id').onDelete('cascade'))
        .addColumn('bucket_type', 'text', (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addUniqueConstraint('child_buckets_child_bucket', ['child_id', 'bucket_id'])
        .execute();
      await db.schema.createIndex('child_buckets_child_type').on('child_buckets').columns(['child_id', 'bucket_type', 'id']).execute();
      await db.schema.createIndex('child_buckets_bucket').on('child_buckets').column('bucket_id').execute();
      await db.schema.createIndex('users_parent').on('users').column('parent_id').execute();
      await db.schema.alterTable('operation_logs').addColumn('username', 'text').execute();
      await db.schema.createIndex('operation_logs_account_id').on('operation_logs').columns(['account_id', 'id']).execute();
    },
  },
  '0006_certificates': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('certificates')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('account_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('common_name', 'text', (c) => c.notNull())
        .addColumn('domains', 'jsonb', (c) => c.notNull())
        .addColumn('issuer', 'text', (c) => c.notNull())
        .addColumn('serial', 'text', (c) => c.notNull())
        .addColumn('fingerprint', 'text', (c) => c.notNull())
        .addColumn('valid_from', 'timestamptz', (c) => c.notNull())
        .addColumn('valid_to', 'timestamptz', (c) => c.notNull())
        .addColumn('certificate', 'text', (c) => c.notNull())
        .addColumn('private_key', 'text', (c) => c.notNull())
        .addColumn('enc_crt', 'text')
        .addColumn('enc_pkey', 'text')
        .addColumn('gm', 'boolean', (c) => c.notNull().defaultTo(false))
        .addColumn('remark', 'text')
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addUniqueConstraint('certificates_account_fingerprint', ['account_id', 'fingerprint'])
        .execute();
      await db.schema
        .createTable('domain_https')
        .addColumn('domain_id', 'integer', (c) => c.primaryKey().references('bucket_domains.id').onDelete('cascade'))
        .addColumn('certificate_id', 'integer', (c) => c.references('certificates.id').onDelete('restrict'))
        .addColumn('https', 'boolean', (c) => c.notNull().defaultTo(false))
        .addColumn('force_https', 'boolean', (c) => c.notNull().defaultTo(false))
        .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema.createIndex('domain_https_certificate').on('domain_https').column('certificate_id').execute();
    },
  },
  '0003_edge_rules': {
    // edge rules of a service (spec 002 §3): priorities 1..n per bucket, kept without gaps by src/server/edgerules/repo.ts
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('edge_rules')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('bucket_id', 'integer', (c) => c.notNull().references('buckets.id').onDelete('cascade'))
        .addColumn('describe', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('priority', 'integer', (c) => c.notNull())
        .addColumn('break', 'boolean', (c) => c.notNull().defaultTo(false))
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('ip', 'text')
        .addColumn('content', 'jsonb')
        .addColumn('pattern', 'text')
        .addColumn('rule', 'text')
        .addColumn('created_by', 'integer', (c) => c.notNull())
        .addColumn('updated_by', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema.createIndex('edge_rules_bucket_priority').on('edge_rules').columns(['bucket_id', 'priority']).execute();
    },
  },
  '0005_statistics': {
    // traffic statistics (docs/statistics.md): 5-minute rows without region/carrier, hourly and daily
    // rollups, region × carrier breakdowns hourly and daily, the ingestion landing table, ingestion
    // tokens and the per-account billing mode (amount_cal_type) that turns the 95 line on
    async up(db: Kysely<any>) {
      const metrics = (t: any) =>
        t
          .addColumn('account_id', 'integer', (c: any) => c.notNull())
          .addColumn('bucket_id', 'integer', (c: any) => c.notNull())
          .addColumn('bytes', 'bigint', (c: any) => c.notNull().defaultTo(0))
          .addColumn('reqs', 'bigint', (c: any) => c.notNull().defaultTo(0))
          .addColumn('hit_reqs', 'bigint', (c: any) => c.notNull().defaultTo(0))
          .addColumn('dyn_reqs', 'bigint', (c: any) => c.notNull().defaultTo(0))
          .addColumn('https_reqs', 'bigint', (c: any) => c.notNull().defaultTo(0))
          .addColumn('bytes_v6', 'bigint', (c: any) => c.notNull().defaultTo(0))
          .addColumn('reqs_v6', 'bigint', (c: any) => c.notNull().defaultTo(0))
          .addColumn('bs_bytes', 'bigint', (c: any) => c.notNull().defaultTo(0))
          .addColumn('bs_reqs', 'bigint', (c: any) => c.notNull().defaultTo(0))
          .addColumn('p_bytes', 'bigint', (c: any) => c.notNull().defaultTo(0))
          .addColumn('p_reqs', 'bigint', (c: any) => c.notNull().defaultTo(0));
      const health = (t: any) =>
        t
          .addColumn('s2xx', 'bigint', (c: any) => c.notNull().defaultTo(0))
          .addColumn('s3xx', 'bigint', (c: any) => c.notNull().defaultTo(0))
          .addColumn('s4xx', 'bigint', (c: any) => c.notNull().defaultTo(0))
          .addColumn('s5xx', 'bigint', (c: any) => c.notNull().defaultTo(0))
          .addColumn('time_ms', 'bigint', (c: any) => c.notNull().defaultTo(0))
          .addColumn('attack_bytes', 'bigint', (c: any) => c.notNull().defaultTo(0))
          .addColumn('filtered_bytes', 'bigint', (c: any) => c.notNull().defaultTo(0))
          .addColumn('xss', 'bigint', (c: any) => c.notNull().defaultTo(0))
          .addColumn('sql_inj', 'bigint', (c: any) => c.notNull().defaultTo(0))
          .addColumn('other_attack', 'bigint', (c: any) => c.notNull().defaultTo(0));
      // 5-minute rows: one per domain, stored flow type, live direction ('' otherwise) and slot
      await health(metrics(db.schema.createTable('traffic_5m').addColumn('domain_id', 'integer', (c) => c.notNull()).addColumn('flow_type', 'text', (c) => c.notNull()).addColumn('direction', 'text', (c) => c.notNull()).addColumn('slot', 'timestamptz', (c) => c.notNull())))
        .addPrimaryKeyConstraint('traffic_5m_pk', ['domain_id', 'flow_type', 'direction', 'slot'])
        .execute();
      for (const [table, time] of [['traffic_1h', 'hour'], ['traffic_1d', 'day']] as const) {
        await health(metrics(db.schema.createTable(table).addColumn('domain_id', 'integer', (c) => c.notNull()).addColumn('flow_type', 'text', (c) => c.notNull()).addColumn('direction', 'text', (c) => c.notNull()).addColumn(time, 'timestamptz', (c) => c.notNull())))
          // the largest 5-minute edge byte count inside the hour or day, and when
          .addColumn('peak_bytes', 'bigint', (c: any) => c.notNull().defaultTo(0))
          .addColumn('peak_at', 'timestamptz')
          .addPrimaryKeyConstraint(`${table}_pk`, ['domain_id', 'flow_type', 'direction', time])
          .execute();
      }
      for (const [table, time] of [['traffic_geo_1h', 'hour'], ['traffic_geo_1d', 'day']] as const) {
        await metrics(db.schema.createTable(table).addColumn('domain_id', 'integer', (c) => c.notNull()).addColumn('flow_type', 'text', (c) => c.notNull()).addColumn('direction', 'text', (c) => c.notNull()).addColumn(time, 'timestamptz', (c) => c.notNull()).addColumn('region', 'text', (c) => c.notNull()).addColumn('carrier', 'text', (c) => c.notNull()))
          .addPrimaryKeyConstraint(`${table}_pk`, ['domain_id', 'flow_type', 'direction', time, 'region', 'carrier'])
          .execute();
      }
      // what a log pipeline sent for a slot, at full grain; rollups are rebuilt from it
      await health(
        db.schema
          .createTable('traffic_ingest')
          .addColumn('account_id', 'integer', (c) => c.notNull())
          .addColumn('bucket_id', 'integer', (c) => c.notNull())
          .addColumn('domain_id', 'integer', (c) => c.notNull())
          .addColumn('slot', 'timestamptz', (c) => c.notNull())
          .addColumn('flow_type', 'text', (c) => c.notNull())
          .addColumn('direction', 'text', (c) => c.notNull())
          .addColumn('region', 'text', (c) => c.notNull())
          .addColumn('carrier', 'text', (c) => c.notNull())
          .addColumn('flow_source', 'text', (c) => c.notNull())
          .addColumn('ip_type', 'text', (c) => c.notNull())
          .addColumn('bytes', 'bigint', (c) => c.notNull().defaultTo(0))
          .addColumn('reqs', 'bigint', (c) => c.notNull().defaultTo(0))
          .addColumn('hit_reqs', 'bigint', (c) => c.notNull().defaultTo(0))
          .addColumn('dyn_reqs', 'bigint', (c) => c.notNull().defaultTo(0))
          .addColumn('https_reqs', 'bigint', (c) => c.notNull().defaultTo(0)) as any,
      )
        .addColumn('received_at', 'timestamptz', (c: any) => c.notNull().defaultTo(sql`now()`))
        .addPrimaryKeyConstraint('traffic_ingest_pk', ['domain_id', 'slot', 'flow_type', 'direction', 'region', 'carrier', 'flow_source', 'ip_type'])
        .execute();
      await db.schema.createIndex('traffic_ingest_account_slot').on('traffic_ingest').columns(['account_id', 'slot']).execute();
      await db.schema
        .createTable('stats_ingest_tokens')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('account_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('last_used_at', 'timestamptz')
        .execute();
      // the billing mode of spec 001 §3 price_config.<service>.amount_cal_type, until billing owns it
      await db.schema
        .createTable('account_price_config')
        .addColumn('account_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('service_type', 'text', (c) => c.notNull())
        .addColumn('amount_cal_type', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addPrimaryKeyConstraint('account_price_config_pk', ['account_id', 'service_type'])
        .execute();
      // how far back each fine tier reaches for an account (the coarse tiers keep the whole history)
      await db.schema
        .createTable('traffic_coverage')
        .addColumn('account_id', 'integer', (c) => c.notNull())
        .addColumn('tier', 'text', (c) => c.notNull())
        .addColumn('since', 'timestamptz', (c) => c.notNull())
        .addPrimaryKeyConstraint('traffic_coverage_pk', ['account_id', 'tier'])
        .execute();
      // the usage flags of spec 001 §3 (pcdn_open, mingmou)
      await db.schema.alterTable('users').addColumn('pcdn_open', 'boolean', (c) => c.notNull().defaultTo(false)).execute();
      await db.schema.alterTable('users').addColumn('mingmou', 'boolean', (c) => c.notNull().defaultTo(false)).execute();
    },
  },
  '0007_purge': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('purge_tasks')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('account_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('user_id', 'integer', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('target', 'text', (c) => c.notNull())
        .addColumn('domain', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('waiting'))
        .addColumn('run_at', 'timestamptz', (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('finished_at', 'timestamptz')
        .execute();
      await db.schema.createIndex('purge_tasks_account_time').on('purge_tasks').columns(['account_id', 'created_at']).execute();
      await db.schema.createIndex('purge_tasks_due').on('purge_tasks').columns(['status', 'run_at']).execute();
    },
  },
};

/**
 * Sections keep their own migrations beside their code (src/server/<section>/migrations.ts) under
 * their own number range, and are listed here, one line each. Names must stay unique; kysely runs
 * them in name order.
 */
const sectionMigrations: Record<string, Migration>[] = [
  serviceTabMigrations,
  messageMigrations,
  opsMigrations,
  accountMigrations,
  eventMigrations,
  billingMigrations,
  moneyMigrations,
  ledgerMigrations,
  storageMigrations,
  certificateMigrations,
  fileMigrations,
  ddosMigrations,
  externalMigrations,
  consumptionMigrations,
  donationMigrations,
  edgeMigrations,
  purgeMigrations,
  edgeTrafficMigrations,
  sessionCacheMigrations,
  bucketCacheMigrations,
];

/** What the migrations are: their names and code (a snapshot of a migrated database is valid for exactly these). */
export function migrationsFingerprint(): string {
  return [migrations, ...sectionMigrations]
    .flatMap((m) => Object.entries(m))
    .map(([name, m]) => `${name}\n${m.up.toString()}\n${m.down?.toString() ?? ''}`)
    .join('\n');
}

export const migrationProvider: MigrationProvider = {
  async getMigrations() {
    const all: Record<string, Migration> = { ...migrations };
    for (const section of sectionMigrations) {
      for (const [name, migration] of Object.entries(section)) {
        if (all[name]) throw new Error(`migration ${name} is declared twice`);
        all[name] = migration;
      }
    }
    return all;
  },
};
