/** Statistics event counters (src/shared/events.ts); account_id 0 for a visitor who is not signed in. */
export interface EventCountsTable {
  family: string;
  type: number;
  /** YYYY-MM-DD in the server's time zone */
  day: string;
  account_id: number;
  count: number;
}

declare module '../db/schema' {
  interface Database {
    event_counts: EventCountsTable;
  }
}
