/** The balance ledger's table (ledger/migrations.ts), merged into `Database`. */
import type { ColumnType, Generated } from 'kysely';
import type { Timestamp } from '../../db/schema';

type Num = ColumnType<string, string | number, string | number>;

export interface BalanceLedgerTable {
  id: Generated<string>;
  account_id: number;
  kind: string;
  amount: Num;
  recharge: ColumnType<string, string | number | undefined, string | number>;
  /** written by the trigger: the balance after the row */
  balance: Generated<string>;
  recharge_balance: Generated<string>;
  ref: string | null;
  memo: string | null;
  created_at: Timestamp;
}

declare module '../../db/schema' {
  interface Database {
    balance_ledger: BalanceLedgerTable;
  }
}
