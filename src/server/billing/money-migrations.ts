/**
 * Tables of the billing centre's money (docs/billing-money.md): orders and their payment, uploaded
 * pictures, invoices with their titles and addresses, rebates with their payees. Names 0020_… to 0029_….
 */
import { type Kysely, type Migration, sql } from 'kysely';

const money = sql`numeric(14,2)`;

export const moneyMigrations: Record<string, Migration> = {
  '0020_billing_money': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('billing_orders')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('order_no', 'text', (c) => c.notNull().unique())
        .addColumn('account_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('amount', money, (c) => c.notNull())
        .addColumn('gift', money, (c) => c.notNull().defaultTo(0))
        .addColumn('pay_method', 'text')
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
        .addColumn('pay_token', 'text', (c) => c.unique())
        .addColumn('detail', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('paid_at', 'timestamptz')
        .execute();
      await db.schema.createIndex('billing_orders_account').on('billing_orders').columns(['account_id', 'status', 'created_at']).execute();
      await db.schema
        .createTable('billing_pictures')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('mime', 'text', (c) => c.notNull())
        .addColumn('size', 'integer', (c) => c.notNull())
        .addColumn('data', 'bytea', (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema
        .createTable('invoice_infos')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('account_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('value', 'jsonb', (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema
        .createTable('invoice_addresses')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('account_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('value', 'jsonb', (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema
        .createTable('invoices')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('account_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('amount', money, (c) => c.notNull())
        .addColumn('info', 'jsonb', (c) => c.notNull())
        .addColumn('address', 'jsonb', (c) => c.notNull())
        .addColumn('remark', 'text')
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('INIT'))
        .addColumn('reason', 'text')
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('updated_at', 'timestamptz')
        .execute();
      await db.schema.createIndex('invoices_account').on('invoices').columns(['account_id', 'id']).execute();
      await db.schema
        .createTable('rebate_credits')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('account_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('amount', money, (c) => c.notNull())
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('remark', 'text')
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema.createIndex('rebate_credits_account').on('rebate_credits').column('account_id').execute();
      await db.schema
        .createTable('rebates')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('account_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('sum', money, (c) => c.notNull())
        .addColumn('draw_type', 'text', (c) => c.notNull())
        .addColumn('receive_type', 'text')
        .addColumn('name', 'text')
        .addColumn('open_account', 'text')
        .addColumn('id_code', 'text')
        .addColumn('id_front_pic', 'text')
        .addColumn('id_reverse_pic', 'text')
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('INIT'))
        .addColumn('reason', 'text')
        .addColumn('voucher_id', 'integer')
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('updated_at', 'timestamptz')
        .execute();
      await db.schema.createIndex('rebates_account').on('rebates').columns(['account_id', 'created_at']).execute();
      await db.schema
        .createTable('rebate_infos')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('account_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('receive_type', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('open_account', 'text', (c) => c.notNull())
        .addColumn('id_code', 'text', (c) => c.notNull())
        .addColumn('id_front_pic', 'text', (c) => c.notNull())
        .addColumn('id_reverse_pic', 'text', (c) => c.notNull())
        .addColumn('is_default', 'boolean', (c) => c.notNull().defaultTo(false))
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
    },
  },
};
