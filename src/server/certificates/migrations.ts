/**
 * Tables of free and paid certificates (issue #9, docs/certificates.md); numbers 0080–0089.
 */
import { type Kysely, type Migration, sql } from 'kysely';

export const certificateMigrations: Record<string, Migration> = {
  '0080_certificate_acme': {
    async up(db: Kysely<any>) {
      // one ACME account per directory (the key is ours, not the customer's)
      await db.schema
        .createTable('acme_accounts')
        .addColumn('directory_url', 'text', (c) => c.primaryKey())
        .addColumn('account_key', 'text', (c) => c.notNull())
        .addColumn('account_url', 'text')
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      // HTTP-01 answers served under /.well-known/acme-challenge/<token>
      await db.schema
        .createTable('acme_challenges')
        .addColumn('token', 'text', (c) => c.primaryKey())
        .addColumn('key_authorization', 'text', (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      // free certificate applications (apply_id = id)
      await db.schema
        .createTable('certificate_applications')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('account_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('agent', 'text', (c) => c.notNull())
        .addColumn('domains', 'jsonb', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('certificate_id', 'integer', (c) => c.references('certificates.id').onDelete('set null'))
        .addColumn('error', 'text')
        .addColumn('auto_renew', 'boolean', (c) => c.notNull().defaultTo(true))
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('issued_at', 'timestamptz')
        .execute();
      await db.schema.createIndex('certificate_applications_account').on('certificate_applications').columns(['account_id', 'id']).execute();
      await db.schema.createIndex('certificate_applications_status').on('certificate_applications').column('status').execute();
    },
  },
  '0081_default_domain_https': {
    async up(db: Kysely<any>) {
      // HTTPS of a service's default domain (<bucket>.<default suffix>), served with the platform's certificate
      await db.schema
        .createTable('default_domain_https')
        .addColumn('bucket_id', 'integer', (c) => c.primaryKey().references('buckets.id').onDelete('cascade'))
        .addColumn('https', 'boolean', (c) => c.notNull().defaultTo(false))
        .addColumn('force_https', 'boolean', (c) => c.notNull().defaultTo(false))
        .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
    },
  },
  '0082_certificate_orders': {
    async up(db: Kysely<any>) {
      // the local test CA of the sandbox provider, generated at first use (one row)
      await db.schema
        .createTable('sandbox_ca')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('certificate', 'text', (c) => c.notNull())
        .addColumn('private_key', 'text', (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      // the organisation details sent to the CA with an order (OV/EV)
      await db.schema
        .createTable('certificate_templates')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('account_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('data', 'jsonb', (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema.createIndex('certificate_templates_account').on('certificate_templates').columns(['account_id', 'id']).execute();
      // paid certificate orders (order_id = id)
      await db.schema
        .createTable('certificate_orders')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('account_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('product_id', 'text', (c) => c.notNull())
        .addColumn('brand', 'text', (c) => c.notNull())
        .addColumn('level', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('agent', 'text', (c) => c.notNull())
        .addColumn('years', 'integer', (c) => c.notNull())
        .addColumn('default_domain', 'integer', (c) => c.notNull())
        .addColumn('general_domain', 'integer', (c) => c.notNull())
        .addColumn('price', sql`numeric(12,2)`, (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('apply_id', 'text')
        .addColumn('ca_message', 'jsonb')
        .addColumn('domains', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
        .addColumn('dcv', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
        .addColumn('error', 'text')
        .addColumn('certificate_id', 'integer', (c) => c.references('certificates.id').onDelete('set null'))
        .addColumn('old_order_id', 'integer', (c) => c.references('certificate_orders.id').onDelete('set null'))
        .addColumn('reissued_type', 'text')
        .addColumn('billing_order_no', 'text')
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('paid_at', 'timestamptz')
        .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema.createIndex('certificate_orders_account').on('certificate_orders').columns(['account_id', 'id']).execute();
      await db.schema.createIndex('certificate_orders_status').on('certificate_orders').column('status').execute();
    },
  },
  '0083_certificate_sslpack': {
    async up(db: Kysely<any>) {
      // a free certificate beyond the 20 free ones takes one unit of a free-certificate extension package
      // (docs/certificates.md "Beyond 20"); the unit goes back when the application fails
      await db.schema
        .alterTable('certificate_applications')
        .addColumn('pack_id', 'integer', (c) => c.references('resource_packages.id').onDelete('set null'))
        .execute();
    },
  },
};
