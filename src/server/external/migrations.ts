/**
 * Tables of external products, partner sign-in, the toolbox landing pages and referrals
 * (docs/external-products.md, docs/referrals.md). Numbers 0091…0099 are this section's.
 */
import { type Kysely, type Migration, sql } from 'kysely';

export const externalMigrations: Record<string, Migration> = {
  '0091_external': {
    async up(db: Kysely<any>) {
      // one-time entry tokens (stored hashed): an external product's entry or a partner's sign-in
      await db.schema
        .createTable('external_tokens')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('account_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('product', 'text', (c) => c.notNull())
        .addColumn('app_id', 'text')
        .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
        .addColumn('used_at', 'timestamptz')
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema.createIndex('external_tokens_expires').on('external_tokens').column('expires_at').execute();
      // partner applications allowed to ask for a sign-in (platform command partner-app-add)
      await db.schema
        .createTable('partner_apps')
        .addColumn('app_id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('redirect_prefix', 'text', (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      // accounts that hold an account on the external audit console (platform command audit-account-add)
      await db.schema
        .createTable('audit_accounts')
        .addColumn('account_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      // referral rebates credited: one per invitee recharge order (idempotent sweep)
      await db.schema
        .createTable('referral_credits')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('order_id', 'integer', (c) => c.notNull().unique().references('billing_orders.id').onDelete('cascade'))
        .addColumn('inviter_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('invitee_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('recharge', sql`numeric(14,2)`, (c) => c.notNull())
        .addColumn('rebate', sql`numeric(14,2)`, (c) => c.notNull())
        .addColumn('rebate_credit_id', 'integer', (c) => c.references('rebate_credits.id').onDelete('set null'))
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema.createIndex('referral_credits_inviter').on('referral_credits').columns(['inviter_id', 'invitee_id']).execute();
    },
  },
  '0092_announcements': {
    async up(db: Kysely<any>) {
      // platform announcements shown once per user as a popup (platform command announcement-add)
      await db.schema
        .createTable('announcements')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('link', 'text')
        .addColumn('starts_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('ends_at', 'timestamptz', (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema
        .createTable('announcement_views')
        .addColumn('announcement_id', 'integer', (c) => c.notNull().references('announcements.id').onDelete('cascade'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('seen_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addPrimaryKeyConstraint('announcement_views_pk', ['announcement_id', 'user_id'])
        .execute();
    },
  },
  '0093_content_audit': {
    async up(db: Kysely<any>) {
      // content audit enabled per service (toolbox.audit), and the audit engine's records with their review state
      await db.schema
        .createTable('audit_services')
        .addColumn('bucket_id', 'integer', (c) => c.primaryKey().references('buckets.id').onDelete('cascade'))
        .addColumn('account_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('enabled_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema.createIndex('audit_services_account').on('audit_services').column('account_id').execute();
      await db.schema
        .createTable('audit_records')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('account_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('bucket_id', 'integer', (c) => c.notNull().references('buckets.id').onDelete('cascade'))
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('media', 'text', (c) => c.notNull())
        .addColumn('label', 'text', (c) => c.notNull())
        .addColumn('confidence', 'integer', (c) => c.notNull())
        .addColumn('review_state', 'text', (c) => c.notNull().defaultTo('pending'))
        .addColumn('reviewed_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('reviewed_at', 'timestamptz')
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema.createIndex('audit_records_account').on('audit_records').columns(['account_id', 'id']).execute();
    },
  },
};
