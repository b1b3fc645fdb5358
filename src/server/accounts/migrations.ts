/**
 * The account section's own tables (helper range 0030–0039): operators and their services, codes sent
 * to a mobile number or an e-mail address before there is a session (registration, lost password,
 * binding), the e-mail outbox, image captchas, real-name verifications with their photos, and the
 * columns registration and the security page need on users.
 */
import { type Kysely, type Migration, sql } from 'kysely';

export const accountMigrations: Record<string, Migration> = {
  '0030_accounts_self_service': {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('users')
        // existing accounts were made by the platform with checked contacts
        .addColumn('email_verified', 'boolean', (c) => c.notNull().defaultTo(true))
        .addColumn('mobile_verified', 'boolean', (c) => c.notNull().defaultTo(true))
        // who invited this account (the invite code of the registration, resolved to the inviter), for referrals
        .addColumn('invited_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('invite_code', 'text')
        .addColumn('profile', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
        .execute();
      await db.schema
        .createTable('operators')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('account_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull().unique())
        .addColumn('realname', 'text', (c) => c.notNull())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('ak', 'text', (c) => c.notNull())
        .addColumn('can_read', 'boolean', (c) => c.notNull())
        .addColumn('can_write', 'boolean', (c) => c.notNull())
        .addColumn('can_delete', 'boolean', (c) => c.notNull())
        .addColumn('enabled', 'boolean', (c) => c.notNull().defaultTo(true))
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema.createIndex('operators_account').on('operators').columns(['account_id', 'name']).execute();
      await db.schema
        .createTable('operator_buckets')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('operator_id', 'integer', (c) => c.notNull().references('operators.id').onDelete('cascade'))
        .addColumn('bucket_id', 'integer', (c) => c.notNull().references('buckets.id').onDelete('cascade'))
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addUniqueConstraint('operator_buckets_once', ['operator_id', 'bucket_id'])
        .execute();
      await db.schema
        .createTable('contact_codes')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        // a mobile number or an e-mail address
        .addColumn('target', 'text', (c) => c.notNull())
        // register | resetpwd | bind_mobile | bind_email
        .addColumn('purpose', 'text', (c) => c.notNull())
        .addColumn('code_hash', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
        .addColumn('used_at', 'timestamptz')
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema.createIndex('contact_codes_target').on('contact_codes').columns(['target', 'purpose', 'id']).execute();
      await db.schema
        .createTable('email_outbox')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('purpose', 'text', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('text', 'text', (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema.createIndex('email_outbox_email_time').on('email_outbox').columns(['email', 'created_at']).execute();
      await db.schema
        .createTable('email_tokens')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('token_hash', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
        .addColumn('used_at', 'timestamptz')
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema
        .createTable('captchas')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('answer_hash', 'text', (c) => c.notNull())
        // kept only on a test server (SMS_OUTBOX_API=1), so browser tests can read it
        .addColumn('dev_answer', 'text')
        .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
        .addColumn('used_at', 'timestamptz')
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema
        .createTable('identity_verifications')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('account_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        // personal | company
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('id_number', 'text', (c) => c.notNull())
        // pending | approved | rejected
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
        .addColumn('reason', 'text')
        .addColumn('reviewed_at', 'timestamptz')
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema.createIndex('identity_verifications_account').on('identity_verifications').columns(['account_id', 'id']).execute();
      await db.schema
        .createTable('identity_images')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('verification_id', 'integer', (c) => c.notNull().references('identity_verifications.id').onDelete('cascade'))
        .addColumn('field', 'text', (c) => c.notNull())
        .addColumn('mime', 'text', (c) => c.notNull())
        .addColumn('bytes', 'bytea', (c) => c.notNull())
        .execute();
    },
  },
  '0031_users_register_referer': {
    // where a registration came from (spec 000 §2.1 /register/ query referer): a console path or a URL
    async up(db: Kysely<any>) {
      await db.schema.alterTable('users').addColumn('register_referer', 'text').execute();
    },
  },
  '0032_sessions_hashed_and_rate_limits': {
    // docs/security.md: sessions.id keeps the SHA-256 of the cookie (the sessions that exist go on
    // working: their ids are hashed in place); rate_limits counts attempts per key and window in one
    // atomic statement (sign-in per account and per address, register_check per address)
    async up(db: Kysely<any>) {
      await sql`update sessions set id = encode(sha256(convert_to(id, 'UTF8')), 'hex')`.execute(db);
      await db.schema
        .createTable('rate_limits')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('window_start', 'timestamptz', (c) => c.notNull())
        .addColumn('count', 'integer', (c) => c.notNull())
        .execute();
    },
  },
  '0033_user_avatars': {
    // the profile picture of each user (sub-accounts too), at most AVATAR_MAX_BYTES (src/shared/security.ts)
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('user_avatars')
        .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
        .addColumn('content_type', 'text', (c) => c.notNull())
        .addColumn('bytes', 'bytea', (c) => c.notNull())
        .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
    },
  },
  '0038_users_smart_compression': {
    // spec 002 §2: the smart compression panel is "shown only when the business flag is set" — the flag
    // of the main account (issue 19 item 18); the demo seed sets it for demo
    async up(db: Kysely<any>) {
      await db.schema.alterTable('users').addColumn('smart_compression', 'boolean', (c) => c.notNull().defaultTo(false)).execute();
    },
  },
};
