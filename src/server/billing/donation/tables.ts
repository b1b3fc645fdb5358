/** The table of ./migrations.ts, merged into `Database`. */
import type { Timestamp } from '../../db/schema';

export interface CoinAddressesTable {
  account_id: number;
  /** BTC | ETH */
  type: string;
  address: string;
  updated_at: Timestamp;
}

declare module '../../db/schema' {
  interface Database {
    coin_addresses: CoinAddressesTable;
  }
}
