/** Donation addresses (spec 001 §3 "Donation: type (BTC or ETH), address"; docs/billing.md "Donation addresses"). */
import { type Kysely, type Migration, sql } from 'kysely';

export const donationMigrations: Record<string, Migration> = {
  '0015_billing_coin_addresses': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('coin_addresses')
        .addColumn('account_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('address', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addPrimaryKeyConstraint('coin_addresses_pk', ['account_id', 'type'])
        .execute();
    },
  },
};
