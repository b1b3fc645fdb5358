/**
 * The billing centre's tables (src/server/billing/migrations.ts), merged into `Database`.
 */
import type { ColumnType, Generated, JSONColumnType } from 'kysely';
import type { Timestamp } from '../db/schema';

type Num = ColumnType<string, string | number, string | number>;

export interface VouchersTable {
  id: Generated<number>;
  /** null while an unbound code waits for activation (POST /api/ticket/) */
  account_id: number | null;
  /** the activation code; null for vouchers issued straight to an account */
  ticket_id: string | null;
  value: Num;
  remain: Num;
  valid_days: number;
  /** how it came: rebate, activation, platform, compensation … */
  source: string;
  remark: string | null;
  created_at: Timestamp;
  activated_at: Timestamp | null;
  expired_at: Timestamp | null;
}

export interface ResourcePackagesTable {
  id: Generated<number>;
  account_id: number;
  /** resources (traffic) | transcode | sms | oneclicklogin | sslpack | blockchain */
  kind: string;
  /** the spec id of GET /api/resources/specs/ (or a platform name) */
  spec: string;
  amount: Num;
  remain: Num;
  /** GB, 分钟, 条, 次, 个 */
  unit: string;
  price: ColumnType<string, string | number | undefined, string | number>;
  auto_renew: Generated<boolean>;
  starts_at: ColumnType<Date, Date | string | undefined, Date | string>;
  expires_at: Timestamp;
  created_at: Timestamp;
}

export interface BillsTable {
  /** YYYYMMDD + D|M + account id (docs/billing.md "Bill ids") */
  id: string;
  account_id: number;
  /** DAY_BILL | MONTH_BILL */
  type: string;
  start_time: Timestamp;
  end_time: Timestamp;
  original: ColumnType<string, string | number | undefined, string | number>;
  voucher_deduct: ColumnType<string, string | number | undefined, string | number>;
  settlement: ColumnType<string, string | number | undefined, string | number>;
  /** UNSETTLED | SETTLED */
  status: Generated<string>;
  detail: JSONColumnType<any, any, any>;
  created_at: Timestamp;
  settled_at: Timestamp | null;
}

export interface BillThresholdsTable {
  account_id: number;
  threshold: Num;
  warned_at: Timestamp | null;
  updated_at: Timestamp;
}

export interface TicketAttemptsTable {
  id: Generated<number>;
  account_id: number;
  ok: boolean;
  created_at: Timestamp;
}

export interface BillDaySamplesTable {
  account_id: number;
  service_type: string;
  day: Timestamp;
  slots: JSONColumnType<number[] | null, string | null, string | null>;
  cheap_slots: JSONColumnType<number[] | null, string | null, string | null>;
  attacks: JSONColumnType<{ bucket_name: string; bytes: number }[] | null, string | null, string | null>;
}

declare module '../db/schema' {
  interface Database {
    bill_day_samples: BillDaySamplesTable;
    ticket_attempts: TicketAttemptsTable;
    vouchers: VouchersTable;
    resource_packages: ResourcePackagesTable;
    bills: BillsTable;
    bill_thresholds: BillThresholdsTable;
  }
  /** billing's columns on statistics' account_price_config (migration 0011) */
  interface AccountPriceConfigTable {
    period_bill_type: ColumnType<string, string | undefined, string>;
    charge_dimension: ColumnType<string, string | undefined, string>;
    storage_deduction: ColumnType<boolean, boolean | undefined, boolean>;
    discount: ColumnType<number, number | undefined, number>;
    prices: JSONColumnType<any, any, any>;
  }
}
