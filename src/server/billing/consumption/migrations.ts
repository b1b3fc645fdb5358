/**
 * Usage reported by the external products (docs/billing.md "Usage reported by the external products"):
 * one row per report, and the products' keys (only their sha256).
 */
import { type Kysely, type Migration, sql } from 'kysely';

export const consumptionMigrations: Record<string, Migration> = {
  '0014_billing_consumption': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('external_product_keys')
        .addColumn('product', 'text', (c) => c.primaryKey())
        .addColumn('key_hash', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('last_used_at', 'timestamptz')
        .execute();
      await db.schema
        .createTable('external_usage')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('product', 'text', (c) => c.notNull())
        .addColumn('report_id', 'text', (c) => c.notNull())
        .addColumn('account_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('quantity', 'integer', (c) => c.notNull())
        // covered by packages at the report; the rest is on the day bill of `day`
        .addColumn('covered', 'integer', (c) => c.notNull())
        .addColumn('day', 'date', (c) => c.notNull())
        .addColumn('packages', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addUniqueConstraint('external_usage_report', ['product', 'report_id'])
        .execute();
      await db.schema.createIndex('external_usage_account_day').on('external_usage').columns(['account_id', 'day']).execute();
    },
  },
};
