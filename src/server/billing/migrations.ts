/**
 * The billing centre's tables (docs/billing.md "Tables"), names 0010_… to 0019_…. Helper sections of
 * billing that handle money (recharge, payment, invoices, rebates) keep theirs in money-migrations.ts.
 */
import { type Kysely, type Migration, sql } from 'kysely';

export const billingMigrations: Record<string, Migration> = {
  '0010_billing_vouchers_packages': {
    async up(db: Kysely<any>) {
      // vouchers (spec 001 §3): issued to an account, or created unbound with a ticket_id that an account activates
      await db.schema
        .createTable('vouchers')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('account_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
        .addColumn('ticket_id', 'text', (c) => c.unique())
        .addColumn('value', sql`numeric(14,2)`, (c) => c.notNull())
        .addColumn('remain', sql`numeric(14,2)`, (c) => c.notNull())
        .addColumn('valid_days', 'integer', (c) => c.notNull())
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('remark', 'text')
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('activated_at', 'timestamptz')
        // an unbound code: the last moment it can be activated; then: when the voucher expires
        .addColumn('expired_at', 'timestamptz')
        .execute();
      await db.schema.createIndex('vouchers_account').on('vouchers').columns(['account_id', 'id']).execute();
      // resource packages (traffic, sms, oneclicklogin, transcode, blockchain, sslpack)
      await db.schema
        .createTable('resource_packages')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('account_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('spec', 'text', (c) => c.notNull())
        .addColumn('amount', sql`numeric(20,6)`, (c) => c.notNull())
        .addColumn('remain', sql`numeric(20,6)`, (c) => c.notNull())
        .addColumn('unit', 'text', (c) => c.notNull())
        .addColumn('price', sql`numeric(14,2)`, (c) => c.notNull().defaultTo(0))
        .addColumn('auto_renew', 'boolean', (c) => c.notNull().defaultTo(false))
        .addColumn('starts_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema.createIndex('resource_packages_account').on('resource_packages').columns(['account_id', 'kind', 'expires_at']).execute();
    },
  },
  '0011_billing_bills': {
    async up(db: Kysely<any>) {
      // bills (spec 001 §3 "Bill detail"): one per account and day (DAY_BILL) or month (MONTH_BILL)
      await db.schema
        .createTable('bills')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('start_time', 'timestamptz', (c) => c.notNull())
        .addColumn('end_time', 'timestamptz', (c) => c.notNull())
        .addColumn('original', sql`numeric(14,3)`, (c) => c.notNull().defaultTo(0))
        .addColumn('voucher_deduct', sql`numeric(14,3)`, (c) => c.notNull().defaultTo(0))
        .addColumn('settlement', sql`numeric(14,3)`, (c) => c.notNull().defaultTo(0))
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('UNSETTLED'))
        .addColumn('detail', 'jsonb', (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('settled_at', 'timestamptz')
        .execute();
      await db.schema.createIndex('bills_account_time').on('bills').columns(['account_id', 'type', 'start_time']).execute();
      await db.schema
        .createTable('bill_thresholds')
        .addColumn('account_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
        .addColumn('threshold', sql`numeric(14,2)`, (c) => c.notNull())
        .addColumn('warned_at', 'timestamptz')
        .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      // the full price configuration of spec 001 §3 on statistics' account_price_config
      await db.schema.alterTable('account_price_config').addColumn('period_bill_type', 'text', (c) => c.notNull().defaultTo('DAY')).execute();
      await db.schema.alterTable('account_price_config').addColumn('charge_dimension', 'text', (c) => c.notNull().defaultTo('discharge')).execute();
      await db.schema.alterTable('account_price_config').addColumn('storage_deduction', 'boolean', (c) => c.notNull().defaultTo(false)).execute();
      await db.schema.alterTable('account_price_config').addColumn('discount', 'integer', (c) => c.notNull().defaultTo(100)).execute();
      // { domestic: ladder, asia_pacific: ladder, other: ladder, cheap?: {…} } (src/shared/billing/price.ts)
      await db.schema.alterTable('account_price_config').addColumn('prices', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`)).execute();
    },
  },
  '0012_billing_ticket_attempts': {
    async up(db: Kysely<any>) {
      // voucher activations tried, for the hourly limit on wrong codes (22104)
      await db.schema
        .createTable('ticket_attempts')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('account_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('ok', 'boolean', (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema.createIndex('ticket_attempts_account_time').on('ticket_attempts').columns(['account_id', 'created_at']).execute();
    },
  },
  '0013_billing_day_samples': {
    async up(db: Kysely<any>) {
      // the 5-minute samples a day bill was computed from, per service type: month bills read these 30
      // rows instead of re-summing every domain's 5-minute rows (docs/billing.md "Figures")
      await db.schema
        .createTable('bill_day_samples')
        .addColumn('account_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('service_type', 'text', (c) => c.notNull())
        .addColumn('day', 'timestamptz', (c) => c.notNull())
        // 288 summed edge bytes per slot (null: none), the PCDN part, SCDN attack peaks per service
        .addColumn('slots', 'jsonb')
        .addColumn('cheap_slots', 'jsonb')
        .addColumn('attacks', 'jsonb')
        .addPrimaryKeyConstraint('bill_day_samples_pk', ['account_id', 'service_type', 'day'])
        .execute();
    },
  },
};
