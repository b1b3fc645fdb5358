/** Table types of the operational tools (./migrations.ts 0070), added to the Database interface. */
import type { ColumnType, Generated, JSONColumnType } from 'kysely';
import type { Timestamp } from '../db/schema';

export interface MonitorTasksTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  metric: string;
  operator: string;
  threshold: number;
  period: number;
  /** service names */
  buckets: JSONColumnType<string[], string, string>;
  notify_message: boolean;
  notify_sms: boolean;
  visible: Generated<boolean>;
  /** normal | alarm | no_data */
  state: Generated<string>;
  last_value: number | null;
  checked_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface MonitorAlertsTable {
  id: Generated<number>;
  account_id: number;
  task_id: number;
  value: number;
  threshold: number;
  started_at: Timestamp;
  recovered_at: Timestamp | null;
}

export interface WorkOrdersTable {
  id: Generated<number>;
  account_id: number;
  user_id: number;
  type: string;
  title: string;
  content: string;
  mobile: string | null;
  /** pending | replied | closed */
  status: Generated<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
  closed_at: Timestamp | null;
}

export interface WorkOrderRepliesTable {
  id: Generated<number>;
  order_id: number;
  /** user | support */
  author: string;
  user_id: number | null;
  author_name: string;
  content: string;
  created_at: Timestamp;
}

export interface WorkOrderAttachmentsTable {
  id: Generated<number>;
  account_id: number;
  user_id: number;
  order_id: number | null;
  reply_id: number | null;
  name: string;
  type: string;
  size: number;
  data: Uint8Array;
  created_at: Timestamp;
}

export interface AccessLogsTable {
  id: Generated<number>;
  account_id: number;
  bucket_id: number;
  domain_id: number;
  domain: string;
  at: Timestamp;
  ip: string;
  method: string;
  url: string;
  status: number;
  bytes: ColumnType<number, number, number>;
  referer: Generated<string>;
  ua: Generated<string>;
}

export interface ThirdBackupConfigsTable {
  id: Generated<number>;
  account_id: number;
  bucket_id: number;
  name: string;
  platform: string;
  region: string;
  target_bucket: string;
  prefix: Generated<string>;
  access_key_id: string;
  /** '' = the platform's endpoint for the region (src/shared/monitor.ts backupEndpoint) */
  endpoint: Generated<string>;
  /** AES-256-GCM of the secret: base64 of iv ‖ tag ‖ ciphertext (src/server/backup/crypto.ts) */
  secret_enc: string;
  enabled: Generated<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ThirdBackupLogsTable {
  id: Generated<number>;
  account_id: number;
  config_id: number;
  config_name: string;
  user_id: number | null;
  action: string;
  detail: Generated<string>;
  created_at: Timestamp;
}

export interface ThirdBackupRunsTable {
  id: Generated<number>;
  config_id: number;
  trigger: string;
  status: Generated<string>;
  files_total: Generated<number>;
  files_done: Generated<number>;
  files_copied: Generated<number>;
  files_skipped: Generated<number>;
  bytes_copied: ColumnType<number, number | undefined, number>;
  error: string | null;
  created_at: Timestamp;
  started_at: Date | string | null;
  finished_at: Date | string | null;
}

/** What a configuration has copied: a file is copied again when its size or time changed. */
export interface ThirdBackupObjectsTable {
  config_id: number;
  path: string;
  size: ColumnType<number, number, number>;
  source_updated_at: ColumnType<Date, Date | string, Date | string>;
  copied_at: Timestamp;
}

declare module '../db/schema' {
  interface Database {
    monitor_tasks: MonitorTasksTable;
    monitor_alerts: MonitorAlertsTable;
    work_orders: WorkOrdersTable;
    work_order_replies: WorkOrderRepliesTable;
    work_order_attachments: WorkOrderAttachmentsTable;
    access_logs: AccessLogsTable;
    third_backup_configs: ThirdBackupConfigsTable;
    third_backup_logs: ThirdBackupLogsTable;
    third_backup_runs: ThirdBackupRunsTable;
    third_backup_objects: ThirdBackupObjectsTable;
  }
}
