/** Table types of the billing centre's money (money-migrations.ts), added to `Database`. */
import type { ColumnType, Generated, JSONColumnType } from 'kysely';
import type { Timestamp } from '../db/schema';

type Money = ColumnType<string, string | number, string | number>;
type MoneyDefault = ColumnType<string, string | number | undefined, string | number>;

export interface BillingOrdersTable {
  id: Generated<number>;
  order_no: string;
  account_id: number;
  user_id: number | null;
  /** recharge | resource | certificate | ddos | scdn … */
  kind: string;
  title: string;
  amount: Money;
  gift: MoneyDefault;
  pay_method: string | null;
  /** pending | success | closed */
  status: Generated<string>;
  /** the sandbox payment page's secret (null once used) */
  pay_token: string | null;
  detail: JSONColumnType<Record<string, unknown>, string | undefined, string>;
  created_at: Timestamp;
  paid_at: Timestamp | null;
}

export interface BillingPicturesTable {
  id: string;
  account_id: number;
  mime: string;
  size: number;
  data: Buffer;
  created_at: Timestamp;
}

export interface JsonValueTable {
  id: Generated<number>;
  account_id: number;
  value: JSONColumnType<Record<string, unknown>, string, string>;
  created_at: Timestamp;
}

export interface InvoicesTable {
  id: Generated<number>;
  account_id: number;
  amount: Money;
  info: JSONColumnType<Record<string, unknown>, string, string>;
  address: JSONColumnType<Record<string, unknown>, string, string>;
  remark: string | null;
  status: Generated<string>;
  reason: string | null;
  created_at: Timestamp;
  updated_at: Timestamp | null;
}

export interface RebateCreditsTable {
  id: Generated<number>;
  account_id: number;
  amount: Money;
  source: string;
  remark: string | null;
  created_at: Timestamp;
}

export interface RebatesTable {
  id: Generated<number>;
  account_id: number;
  user_id: number | null;
  sum: Money;
  draw_type: string;
  receive_type: string | null;
  name: string | null;
  open_account: string | null;
  id_code: string | null;
  id_front_pic: string | null;
  id_reverse_pic: string | null;
  status: Generated<string>;
  reason: string | null;
  voucher_id: number | null;
  created_at: Timestamp;
  updated_at: Timestamp | null;
}

export interface RebateInfosTable {
  id: Generated<number>;
  account_id: number;
  receive_type: string;
  name: string;
  open_account: string;
  id_code: string;
  id_front_pic: string;
  id_reverse_pic: string;
  is_default: Generated<boolean>;
  created_at: Timestamp;
}

declare module '../db/schema' {
  interface Database {
    billing_orders: BillingOrdersTable;
    billing_pictures: BillingPicturesTable;
    invoice_infos: JsonValueTable;
    invoice_addresses: JsonValueTable;
    invoices: InvoicesTable;
    rebate_credits: RebateCreditsTable;
    rebates: RebatesTable;
    rebate_infos: RebateInfosTable;
  }
}
