import type { ColumnType } from 'kysely';
import type { Timestamp } from '../db/schema';

/** One edge node's outcome of one purge or preheat task (migration 0117). */
export interface PurgeTaskNodesTable {
  task_id: number;
  node_id: number;
  ok: boolean;
  message: string | null;
  removed: ColumnType<number, number | undefined, number>;
  finished_at: ColumnType<Date, Date | undefined, Date>;
}

declare module '../db/schema' {
  interface Database {
    purge_task_nodes: PurgeTaskNodesTable;
  }
  interface PurgeTasksTable {
    /** Why it failed (Chinese). */
    message: ColumnType<string | null, string | null | undefined, string | null>;
    /** Purges: cached objects removed, summed over the nodes. */
    removed: ColumnType<number | null, number | null | undefined, number | null>;
    /** nofi: the first task id of the submission while its message is owed; null once sent, or not asked (migration 0118). */
    notify_batch: ColumnType<number | null, number | null | undefined, number | null>;
  }
}

export type { Timestamp };
