import type { ColumnType, Generated, JSONColumnType } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface UsersTable {
  id: Generated<number>;
  username: string;
  email: string | null;
  mobile: string | null;
  password_hash: string;
  /** normal | blocked | frozen */
  status: Generated<string>;
  /** yes | not (real-name verification) */
  verify_status: Generated<string>;
  two_step: Generated<boolean>;
  parent_id: number | null;
  nickname: string | null;
  permissions: JSONColumnType<string[], string[] | string, string[] | string>;
  money: ColumnType<string, string | number | undefined, string | number>;
  actual_charge: ColumnType<string, string | number | undefined, string | number>;
  resource_flow_remain: ColumnType<number, number | undefined, number>;
  /** key customer: configuration locked (spec 000 §5) */
  custom_prohibit_configuration: Generated<boolean>;
  overseas_acceleration_switch: Generated<boolean>;
  created_at: Timestamp;
}

export interface SessionsTable {
  id: string;
  user_id: number;
  created_at: Timestamp;
  expires_at: Timestamp;
  ip: string | null;
}

export interface SigninAttemptsTable {
  id: Generated<number>;
  username: string;
  ip: string | null;
  ok: boolean;
  created_at: Timestamp;
}

export interface SmsOutboxTable {
  id: Generated<number>;
  user_id: number | null;
  mobile: string;
  purpose: string;
  text: string;
  created_at: Timestamp;
}

export interface VerificationCodesTable {
  id: Generated<number>;
  user_id: number;
  purpose: string;
  code_hash: string;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  attempts: Generated<number>;
  created_at: Timestamp;
}

export interface BucketsTable {
  id: Generated<number>;
  name: string;
  owner_id: number;
  /** file | cdn | scdn | live | websocket | overseas | fusion */
  kind: string;
  remark: string | null;
  /** NORMAL | PENDING | DEPLOYING (overseas) */
  status: Generated<string>;
  storage_used: ColumnType<number, number | undefined, number>;
  created_at: Timestamp;
}

export interface BucketDomainsTable {
  id: Generated<number>;
  bucket_id: number;
  domain: string;
  cname: string;
  created_at: Timestamp;
}

export interface ServiceSettingsTable {
  bucket_id: number;
  setting_id: string;
  value: JSONColumnType<any, string, string>;
  updated_at: Timestamp;
  updated_by: number;
}

export interface OperationLogsTable {
  id: Generated<number>;
  account_id: number;
  user_id: number;
  action: string;
  target: string;
  detail: JSONColumnType<any, string, string>;
  ip: string | null;
  created_at: Timestamp;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  signin_attempts: SigninAttemptsTable;
  sms_outbox: SmsOutboxTable;
  verification_codes: VerificationCodesTable;
  buckets: BucketsTable;
  bucket_domains: BucketDomainsTable;
  service_settings: ServiceSettingsTable;
  operation_logs: OperationLogsTable;
}
