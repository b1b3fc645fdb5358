/**
 * The message centre's table (spec 000 §2.8 "messages"): one row per message to an account, written by
 * every section that tells the user something (bill threshold, alarms, certificate expiry, reviews).
 */
import type { Generated } from 'kysely';
import type { Timestamp } from '../db/schema';

export interface MessagesTable {
  id: Generated<number>;
  /** the main account the message belongs to */
  account_id: number;
  /** a MESSAGE_CATEGORIES key (src/shared/messages.ts); its spec type (messageTypeOf) is what the centre lists */
  category: string;
  title: string;
  body: string;
  /** where the message leads in the console, e.g. /billing/charge/ */
  link: string | null;
  read_at: Timestamp | null;
  created_at: Timestamp;
}

declare module '../db/schema' {
  interface Database {
    messages: MessagesTable;
  }
}
