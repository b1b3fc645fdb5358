/**
 * Tables of file management and media processing (./migrations.ts, docs/files-and-media.md).
 */
import type { ColumnType, Generated, JSONColumnType } from 'kysely';
import type { Timestamp } from '../db/schema';

type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export interface FileObjectsTable {
  id: Generated<number>;
  bucket_id: number;
  /** full path inside the service, no leading slash; a folder's ends with / */
  path: string;
  /** the folder holding it ('' = the root) */
  parent: string;
  name: string;
  is_folder: boolean;
  /** bytes (bigint: read as a string on PostgreSQL) */
  size: ColumnType<string | number, number | undefined, number>;
  content_type: string | null;
  created_by: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface FileSeedQueueTable {
  id: Generated<number>;
  bucket_id: number;
  path: string;
  content: Buffer | null;
  generator: string | null;
  content_type: string | null;
}

export interface MediaTasksTable {
  id: Generated<number>;
  account_id: number;
  bucket_id: number;
  user_id: number;
  /** a MEDIA_TASK_TYPES key (src/shared/media.ts) */
  type: string;
  params: JSONColumnType<Record<string, unknown>, string, string>;
  /** waiting | processing | success | failed */
  status: Generated<string>;
  progress: Generated<number>;
  error: string | null;
  result: JSONColumnType<Record<string, unknown> | null, string | null, string | null>;
  usage_key: string | null;
  minutes: ColumnType<string | null, number | null | undefined, number | null>;
  created_at: Timestamp;
  started_at: NullableTimestamp;
  finished_at: NullableTimestamp;
}

/** Billing reads this: minutes of processing per account, day (server's local date) and usage key. */
export interface MediaUsageTable {
  account_id: number;
  day: ColumnType<string | Date, string, string>;
  usage_key: string;
  minutes: ColumnType<string, number | undefined, number>;
  tasks: ColumnType<number, number | undefined, number>;
}

declare module '../db/schema' {
  interface Database {
    file_objects: FileObjectsTable;
    file_seed_queue: FileSeedQueueTable;
    media_tasks: MediaTasksTable;
    media_usage: MediaUsageTable;
  }
}

/* The column migration 0049 adds to users. */
declare module '../db/schema' {
  interface UsersTable {
    /** spec 000 §3 account_status, one of ACCOUNT_STATUSES (src/shared/files.ts) */
    account_status: Generated<string>;
  }
}
