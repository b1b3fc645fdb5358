/**
 * Tables of the operational tools (spec 002 "Other tools"): monitor alarms, work orders, access logs
 * for log analysis and cross-platform backup. Number range 0070–0079; one file for all of them
 * (docs/operations-tools.md).
 */
import { type Kysely, type Migration, sql } from 'kysely';

export const opsMigrations: Record<string, Migration> = {
  '0070_ops_tools': {
    async up(db: Kysely<any>) {
      // monitor alarms: the tasks, and one row per incident (open while recovered_at is null)
      await db.schema
        .createTable('monitor_tasks')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('account_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('metric', 'text', (c) => c.notNull())
        .addColumn('operator', 'text', (c) => c.notNull())
        .addColumn('threshold', 'double precision', (c) => c.notNull())
        .addColumn('period', 'integer', (c) => c.notNull())
        .addColumn('buckets', 'jsonb', (c) => c.notNull())
        .addColumn('notify_message', 'boolean', (c) => c.notNull().defaultTo(true))
        .addColumn('notify_sms', 'boolean', (c) => c.notNull().defaultTo(false))
        .addColumn('visible', 'boolean', (c) => c.notNull().defaultTo(true))
        .addColumn('state', 'text', (c) => c.notNull().defaultTo('normal'))
        .addColumn('last_value', 'double precision')
        .addColumn('checked_at', 'timestamptz')
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema.createIndex('monitor_tasks_account').on('monitor_tasks').columns(['account_id', 'id']).execute();
      await db.schema
        .createTable('monitor_alerts')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('account_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('task_id', 'integer', (c) => c.notNull().references('monitor_tasks.id').onDelete('cascade'))
        .addColumn('value', 'double precision', (c) => c.notNull())
        .addColumn('threshold', 'double precision', (c) => c.notNull())
        .addColumn('started_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('recovered_at', 'timestamptz')
        .execute();
      await db.schema.createIndex('monitor_alerts_account').on('monitor_alerts').columns(['account_id', 'id']).execute();
      // one open incident per task, whatever runs the worker
      await sql`create unique index monitor_alerts_open on monitor_alerts (task_id) where recovered_at is null`.execute(db);

      // work orders, their replies and attachments
      await db.schema
        .createTable('work_orders')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('account_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('user_id', 'integer', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('mobile', 'text')
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('closed_at', 'timestamptz')
        .execute();
      await db.schema.createIndex('work_orders_account').on('work_orders').columns(['account_id', 'id']).execute();
      await db.schema
        .createTable('work_order_replies')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('order_id', 'integer', (c) => c.notNull().references('work_orders.id').onDelete('cascade'))
        .addColumn('author', 'text', (c) => c.notNull())
        .addColumn('user_id', 'integer')
        .addColumn('author_name', 'text', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema.createIndex('work_order_replies_order').on('work_order_replies').columns(['order_id', 'id']).execute();
      await db.schema
        .createTable('work_order_attachments')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('account_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('user_id', 'integer', (c) => c.notNull())
        .addColumn('order_id', 'integer', (c) => c.references('work_orders.id').onDelete('cascade'))
        .addColumn('reply_id', 'integer', (c) => c.references('work_order_replies.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('size', 'integer', (c) => c.notNull())
        .addColumn('data', 'bytea', (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema.createIndex('work_order_attachments_order').on('work_order_attachments').columns(['order_id']).execute();

      // access logs, one row a request, for log analysis and the hourly archives
      await db.schema
        .createTable('access_logs')
        .addColumn('id', 'bigserial', (c) => c.primaryKey())
        .addColumn('account_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('bucket_id', 'integer', (c) => c.notNull())
        .addColumn('domain_id', 'integer', (c) => c.notNull())
        .addColumn('domain', 'text', (c) => c.notNull())
        .addColumn('at', 'timestamptz', (c) => c.notNull())
        .addColumn('ip', 'text', (c) => c.notNull())
        .addColumn('method', 'text', (c) => c.notNull())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('status', 'integer', (c) => c.notNull())
        .addColumn('bytes', 'bigint', (c) => c.notNull())
        .addColumn('referer', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('ua', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema.createIndex('access_logs_domain_time').on('access_logs').columns(['domain_id', 'at']).execute();
      await db.schema.createIndex('access_logs_bucket_time').on('access_logs').columns(['bucket_id', 'at']).execute();

      // cross-platform backup
      await db.schema
        .createTable('third_backup_configs')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('account_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('bucket_id', 'integer', (c) => c.notNull().references('buckets.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('platform', 'text', (c) => c.notNull())
        .addColumn('region', 'text', (c) => c.notNull())
        .addColumn('target_bucket', 'text', (c) => c.notNull())
        .addColumn('prefix', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('access_key_id', 'text', (c) => c.notNull())
        .addColumn('secret_enc', 'text', (c) => c.notNull())
        .addColumn('enabled', 'boolean', (c) => c.notNull().defaultTo(true))
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema.createIndex('third_backup_configs_account').on('third_backup_configs').columns(['account_id', 'id']).execute();
      await db.schema
        .createTable('third_backup_logs')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('account_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('config_id', 'integer', (c) => c.notNull())
        .addColumn('config_name', 'text', (c) => c.notNull())
        .addColumn('user_id', 'integer')
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('detail', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema.createIndex('third_backup_logs_account').on('third_backup_logs').columns(['account_id', 'id']).execute();
    },
  },
  /**
   * Backup copies for real (issue 19 item 25): a configuration's own endpoint, its runs (progress and
   * result) and what each configuration has copied (so a run copies only new or changed files).
   */
  '0071_backup_runs': {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('third_backup_configs').addColumn('endpoint', 'text', (c) => c.notNull().defaultTo('')).execute();
      await db.schema
        .createTable('third_backup_runs')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('config_id', 'integer', (c) => c.notNull().references('third_backup_configs.id').onDelete('cascade'))
        .addColumn('trigger', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('queued'))
        .addColumn('files_total', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('files_done', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('files_copied', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('files_skipped', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('bytes_copied', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('error', 'text')
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('started_at', 'timestamptz')
        .addColumn('finished_at', 'timestamptz')
        .execute();
      await db.schema.createIndex('third_backup_runs_config').on('third_backup_runs').columns(['config_id', 'id']).execute();
      await db.schema.createIndex('third_backup_runs_status').on('third_backup_runs').columns(['status', 'id']).execute();
      await db.schema
        .createTable('third_backup_objects')
        .addColumn('config_id', 'integer', (c) => c.notNull().references('third_backup_configs.id').onDelete('cascade'))
        .addColumn('path', 'text', (c) => c.notNull())
        .addColumn('size', 'bigint', (c) => c.notNull())
        .addColumn('source_updated_at', 'timestamptz', (c) => c.notNull())
        .addColumn('copied_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addPrimaryKeyConstraint('third_backup_objects_pk', ['config_id', 'path'])
        .execute();
    },
  },
};
