import { type Kysely, type Migration } from 'kysely';

export const eventMigrations: Record<string, Migration> = {
  // one counter row per family, type, day and account: the posts are frequent, the questions are counts
  '0090_event_counts': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('event_counts')
        .addColumn('family', 'text', (c) => c.notNull())
        .addColumn('type', 'integer', (c) => c.notNull())
        .addColumn('day', 'date', (c) => c.notNull())
        .addColumn('account_id', 'integer', (c) => c.notNull())
        .addColumn('count', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('event_counts_pk', ['family', 'day', 'type', 'account_id'])
        .execute();
    },
  },
};
