import { type Kysely, type Migration, sql } from 'kysely';

export const messageMigrations: Record<string, Migration> = {
  '0008_messages': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('messages')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('account_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('category', 'text', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('link', 'text')
        .addColumn('read_at', 'timestamptz')
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema.createIndex('messages_account_id').on('messages').columns(['account_id', 'id']).execute();
    },
  },
};
