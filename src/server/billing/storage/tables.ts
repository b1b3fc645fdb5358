/** storage_daily (storage/migrations.ts), merged into `Database`. */
import type { ColumnType } from 'kysely';
import type { Timestamp } from '../../db/schema';

export interface StorageDailyTable {
  bucket_id: number;
  /** the CST midnight of the day */
  day: ColumnType<Date, Date | string, Date | string>;
  bytes: ColumnType<string, string | number, string | number>;
  updated_at: Timestamp;
}

declare module '../../db/schema' {
  interface Database {
    storage_daily: StorageDailyTable;
  }
}
