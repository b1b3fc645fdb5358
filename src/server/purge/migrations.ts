import { type Kysely, type Migration, sql } from 'kysely';

/**
 * Purge and preheat on the edge (docs/operations-tools.md "Purge and preheat"): a task's outcome is
 * what the edge nodes reported — the reason it failed and the cached objects removed — and each
 * node's report is kept, so that a task is finished once every online node has done it.
 */
export const purgeMigrations: Record<string, Migration> = {
  '0117_purge_edge': {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('purge_tasks').addColumn('message', 'text').execute();
      await db.schema.alterTable('purge_tasks').addColumn('removed', 'integer').execute();
      await db.schema
        .createTable('purge_task_nodes')
        .addColumn('task_id', 'integer', (c) => c.notNull().references('purge_tasks.id').onDelete('cascade'))
        .addColumn('node_id', 'integer', (c) => c.notNull().references('edge_nodes.id').onDelete('cascade'))
        .addColumn('ok', 'boolean', (c) => c.notNull())
        .addColumn('message', 'text')
        .addColumn('removed', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('finished_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addPrimaryKeyConstraint('purge_task_nodes_pk', ['task_id', 'node_id'])
        .execute();
    },
  },
  /** nofi (spec 002 §3 "Batch: source_url, nofi, delay"): the tasks of a submission that asked for a message when they end. */
  '0118_purge_notify': {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('purge_tasks').addColumn('notify_batch', 'integer').execute();
      await db.schema.createIndex('purge_tasks_notify').on('purge_tasks').column('notify_batch').where(sql.ref('notify_batch'), 'is not', null).execute();
    },
  },
};
