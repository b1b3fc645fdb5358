/**
 * The tables of ./migrations.ts, merged into `Database`.
 */
import type { ColumnType, Generated, JSONColumnType } from 'kysely';
import type { Timestamp } from '../../db/schema';

export interface ExternalProductKeysTable {
  product: string;
  key_hash: string;
  created_at: Timestamp;
  last_used_at: Date | null;
}

export interface ExternalUsageTable {
  id: Generated<number>;
  product: string;
  report_id: string;
  account_id: number;
  quantity: number;
  covered: number;
  /** the CST day (YYYY-MM-DD) whose bill carries the uncovered part */
  day: ColumnType<string, string, string>;
  packages: JSONColumnType<{ id: number; take: number }[], string, string>;
  created_at: Timestamp;
}

declare module '../../db/schema' {
  interface Database {
    external_product_keys: ExternalProductKeysTable;
    external_usage: ExternalUsageTable;
  }
}
