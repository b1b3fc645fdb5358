/** Table types of the account section's own migrations (./migrations.ts). */
import type { ColumnType, Generated, JSONColumnType } from 'kysely';
import type { Timestamp } from '../db/schema';

export interface OperatorsTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  realname: string;
  password_hash: string;
  ak: string;
  can_read: boolean;
  can_write: boolean;
  can_delete: boolean;
  enabled: Generated<boolean>;
  created_at: Timestamp;
}

export interface OperatorBucketsTable {
  id: Generated<number>;
  operator_id: number;
  bucket_id: number;
  created_at: Timestamp;
}

export interface ContactCodesTable {
  id: Generated<number>;
  target: string;
  purpose: string;
  code_hash: string;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  attempts: Generated<number>;
  created_at: Timestamp;
}

export interface EmailOutboxTable {
  id: Generated<number>;
  user_id: number | null;
  email: string;
  purpose: string;
  subject: string;
  text: string;
  created_at: Timestamp;
}

export interface EmailTokensTable {
  id: Generated<number>;
  user_id: number;
  email: string;
  token_hash: string;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_at: Timestamp;
}

export interface CaptchasTable {
  id: string;
  answer_hash: string;
  dev_answer: string | null;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_at: Timestamp;
}

export interface IdentityVerificationsTable {
  id: Generated<number>;
  account_id: number;
  kind: string;
  name: string;
  id_number: string;
  status: Generated<string>;
  reason: string | null;
  reviewed_at: Timestamp | null;
  created_at: Timestamp;
}

export interface IdentityImagesTable {
  id: Generated<number>;
  verification_id: number;
  field: string;
  mime: string;
  bytes: Uint8Array;
}

/** Attempts per key in a fixed window (migration 0032, src/server/accounts/limits.ts). */
export interface RateLimitsTable {
  key: string;
  window_start: Date;
  count: number;
}

/** A user's profile picture (migration 0033, src/server/accounts/avatar.ts). */
export interface UserAvatarsTable {
  user_id: number;
  content_type: string;
  bytes: Buffer;
  updated_at: Generated<Date>;
}

/* Columns migration 0030 adds to users. */
declare module '../db/schema' {
  interface Database {
    operators: OperatorsTable;
    operator_buckets: OperatorBucketsTable;
    contact_codes: ContactCodesTable;
    email_outbox: EmailOutboxTable;
    email_tokens: EmailTokensTable;
    captchas: CaptchasTable;
    identity_verifications: IdentityVerificationsTable;
    identity_images: IdentityImagesTable;
    rate_limits: RateLimitsTable;
    user_avatars: UserAvatarsTable;
  }
  interface UsersTable {
    email_verified: Generated<boolean>;
    mobile_verified: Generated<boolean>;
    invited_by: ColumnType<number | null, number | null | undefined, number | null>;
    invite_code: ColumnType<string | null, string | null | undefined, string | null>;
    /** the /register/ page's referer query (a console path or a URL), null when there was none */
    register_referer: ColumnType<string | null, string | null | undefined, string | null>;
    profile: JSONColumnType<Record<string, string>, string | undefined, string>;
  }
}
