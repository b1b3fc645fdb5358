/**
 * Tables of file management and media processing (docs/files-and-media.md), migrations 0040–0049.
 */
import { type Kysely, type Migration, sql } from 'kysely';

export const fileMigrations: Record<string, Migration> = {
  '0040_file_objects': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('file_objects')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('bucket_id', 'integer', (c) => c.notNull().references('buckets.id').onDelete('cascade'))
        // the full path, folders ending with '/'; parent is the folder holding it ('' = the root)
        .addColumn('path', 'text', (c) => c.notNull())
        .addColumn('parent', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('is_folder', 'boolean', (c) => c.notNull())
        .addColumn('size', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('content_type', 'text')
        .addColumn('created_by', 'integer')
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addUniqueConstraint('file_objects_bucket_path', ['bucket_id', 'path'])
        .execute();
      await db.schema.createIndex('file_objects_listing').on('file_objects').columns(['bucket_id', 'parent', 'id']).execute();
      // the demo seed's files, written to the storage by the files section at its first start
      await db.schema
        .createTable('file_seed_queue')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('bucket_id', 'integer', (c) => c.notNull().references('buckets.id').onDelete('cascade'))
        .addColumn('path', 'text', (c) => c.notNull())
        .addColumn('content', 'bytea')
        // 'testsrc-video': made with ffmpeg when the section starts (when ffmpeg is there)
        .addColumn('generator', 'text')
        .addColumn('content_type', 'text')
        .execute();
    },
  },
  '0041_media': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('media_tasks')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('account_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('bucket_id', 'integer', (c) => c.notNull().references('buckets.id').onDelete('cascade'))
        .addColumn('user_id', 'integer', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('params', 'jsonb', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('waiting'))
        .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('error', 'text')
        .addColumn('result', 'jsonb')
        .addColumn('usage_key', 'text')
        .addColumn('minutes', sql`numeric(14,3)`)
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('started_at', 'timestamptz')
        .addColumn('finished_at', 'timestamptz')
        .execute();
      await db.schema.createIndex('media_tasks_account').on('media_tasks').columns(['account_id', 'id']).execute();
      await db.schema.createIndex('media_tasks_status').on('media_tasks').columns(['status', 'id']).execute();
      // usage for billing (spec 001 §3 usage keys video_* / audio_*): minutes per account, day and key
      await db.schema
        .createTable('media_usage')
        .addColumn('account_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('day', 'date', (c) => c.notNull())
        .addColumn('usage_key', 'text', (c) => c.notNull())
        .addColumn('minutes', sql`numeric(14,3)`, (c) => c.notNull().defaultTo(0))
        .addColumn('tasks', 'integer', (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('media_usage_pk', ['account_id', 'day', 'usage_key'])
        .execute();
    },
  },
  '0049_account_status': {
    // the account's standing for its services (spec 000 §3 account_status: NORMAL, DISABLED, BLOCKED,
    // LOCKED), set by the platform (npm run platform -- account-status); apart from users.status, which
    // decides sign-in. The file manager is blocked while it is not NORMAL (spec 000 §2.11).
    async up(db: Kysely<any>) {
      await db.schema.alterTable('users').addColumn('account_status', 'text', (c) => c.notNull().defaultTo('NORMAL')).execute();
    },
  },
};
