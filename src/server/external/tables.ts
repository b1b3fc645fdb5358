/** Table types of external products and referrals (./migrations.ts). */
import type { ColumnType, Generated } from 'kysely';
import type { Timestamp } from '../db/schema';

export interface ExternalTokensTable {
  id: Generated<number>;
  /** sha256 of the token, hex */
  token_hash: string;
  /** the main account */
  account_id: number;
  /** who asked: the main account or one of its sub-accounts */
  user_id: number;
  /** an ExternalProduct, or 'oauth' for a partner sign-in */
  product: string;
  app_id: string | null;
  expires_at: ColumnType<Date, Date, Date>;
  used_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  created_at: Generated<Timestamp>;
}

export interface PartnerAppsTable {
  app_id: string;
  name: string;
  redirect_prefix: string;
  created_at: Generated<Timestamp>;
}

export interface AuditAccountsTable {
  account_id: number;
  created_at: Generated<Timestamp>;
}

export interface ReferralCreditsTable {
  id: Generated<number>;
  order_id: number;
  inviter_id: number;
  invitee_id: number;
  recharge: ColumnType<string, string, string>;
  rebate: ColumnType<string, string, string>;
  rebate_credit_id: number | null;
  created_at: Generated<Timestamp>;
}

export interface AnnouncementsTable {
  id: Generated<number>;
  title: string;
  body: string;
  link: string | null;
  starts_at: ColumnType<Date, Date | undefined, Date>;
  ends_at: ColumnType<Date, Date, Date>;
  created_at: Generated<Timestamp>;
}

export interface AnnouncementViewsTable {
  announcement_id: number;
  user_id: number;
  seen_at: Generated<Timestamp>;
}

export interface AuditServicesTable {
  bucket_id: number;
  account_id: number;
  enabled_at: Generated<Timestamp>;
}

export interface AuditRecordsTable {
  id: Generated<number>;
  account_id: number;
  bucket_id: number;
  url: string;
  /** image | video | text */
  media: string;
  /** normal | porn | politics | terror | ad */
  label: string;
  /** 0-100 */
  confidence: number;
  /** pending | passed | blocked */
  review_state: Generated<string>;
  reviewed_by: number | null;
  reviewed_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  created_at: ColumnType<Date, Date | undefined, Date>;
}

declare module '../db/schema' {
  interface Database {
    external_tokens: ExternalTokensTable;
    partner_apps: PartnerAppsTable;
    audit_accounts: AuditAccountsTable;
    referral_credits: ReferralCreditsTable;
    announcements: AnnouncementsTable;
    announcement_views: AnnouncementViewsTable;
    audit_services: AuditServicesTable;
    audit_records: AuditRecordsTable;
  }
}
