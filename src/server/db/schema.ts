import type { ColumnType, Generated, JSONColumnType } from 'kysely';

export type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

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
  /** business flag: the smart compression setting is offered (spec 002 §2; migration 0038) */
  smart_compression: Generated<boolean>;
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
  /** who, by name at the time (migration 0004; null in older rows) */
  username: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A bucket granted to a sub-account (migration 0004). */
export interface ChildBucketsTable {
  id: Generated<number>;
  child_id: number;
  bucket_id: number;
  /** the kind permission the bucket falls under: cdn, file, live, scdn, ws, overseas */
  bucket_type: string;
  created_at: Timestamp;
}

export interface CertificatesTable {
  id: Generated<number>;
  account_id: number;
  common_name: string;
  domains: JSONColumnType<string[], string, string>;
  issuer: string;
  serial: string;
  fingerprint: string;
  valid_from: Timestamp;
  valid_to: Timestamp;
  certificate: string;
  private_key: string;
  enc_crt: string | null;
  enc_pkey: string | null;
  gm: Generated<boolean>;
  remark: string | null;
  created_at: Timestamp;
}

export interface DomainHttpsTable {
  domain_id: number;
  certificate_id: number | null;
  https: Generated<boolean>;
  force_https: Generated<boolean>;
  updated_at: Timestamp;
}

export interface PurgeTasksTable {
  id: Generated<number>;
  account_id: number;
  user_id: number;
  kind: string;
  target: string;
  domain: string;
  status: Generated<string>;
  run_at: Timestamp;
  created_at: Timestamp;
  finished_at: Timestamp | null;
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
  certificates: CertificatesTable;
  domain_https: DomainHttpsTable;
  purge_tasks: PurgeTasksTable;
  child_buckets: ChildBucketsTable;
}

/** An edge rule of a service (migration 0003, spec 002 §3); src/server/edgerules/repo.ts keeps priorities 1..n. */
export interface EdgeRulesTable {
  id: Generated<number>;
  bucket_id: number;
  describe: string;
  /** general | custom */
  type: string;
  priority: number;
  break: boolean;
  /** ON | OFF | DEBUG */
  status: string;
  /** DEBUG only */
  ip: string | null;
  /** general rules: { conditions, actions } */
  content: JSONColumnType<any, string | null, string | null>;
  /** custom rules: the URI extraction pattern and the program */
  pattern: string | null;
  rule: string | null;
  created_by: number;
  updated_by: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- merged into Database above
export interface Database {
  edge_rules: EdgeRulesTable;
}

/* Statistics (migration 0005, docs/statistics.md). Counters are bigint; both drivers return them as numbers. */
type Count = ColumnType<number, number | undefined, number>;

/** Metrics every traffic table has: edge (flow source cdn), its IPv6 part, back-to-origin and PCDN. */
export interface TrafficMetrics {
  account_id: number;
  bucket_id: number;
  domain_id: number;
  flow_type: string;
  /** live: up | down; '' for every other flow type */
  direction: string;
  bytes: Count;
  reqs: Count;
  hit_reqs: Count;
  dyn_reqs: Count;
  https_reqs: Count;
  bytes_v6: Count;
  reqs_v6: Count;
  bs_bytes: Count;
  bs_reqs: Count;
  p_bytes: Count;
  p_reqs: Count;
}

/** Status codes, response time and (security CDN) attacks. */
export interface TrafficHealth {
  s2xx: Count;
  s3xx: Count;
  s4xx: Count;
  s5xx: Count;
  time_ms: Count;
  attack_bytes: Count;
  filtered_bytes: Count;
  xss: Count;
  sql_inj: Count;
  other_attack: Count;
}

/**
 * The edge bytes before compression (migration 0109, docs/statistics.md "Compression"); equal to bytes
 * where nothing was compressed; null where not measured (counts as bytes: BEFORE_COMPRESSION).
 */
export interface TrafficCompression {
  bf_cp_bytes: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface Traffic5mTable extends TrafficMetrics, TrafficHealth, TrafficCompression {
  slot: Timestamp;
}
export interface Traffic1hTable extends TrafficMetrics, TrafficHealth, TrafficCompression {
  hour: Timestamp;
  peak_bytes: Count;
  peak_at: Timestamp | null;
}
export interface Traffic1dTable extends TrafficMetrics, TrafficHealth, TrafficCompression {
  day: Timestamp;
  peak_bytes: Count;
  peak_at: Timestamp | null;
}
export interface TrafficGeo1hTable extends TrafficMetrics {
  hour: Timestamp;
  region: string;
  carrier: string;
}
export interface TrafficGeo1dTable extends TrafficMetrics {
  day: Timestamp;
  region: string;
  carrier: string;
}
export interface TrafficIngestTable extends TrafficHealth, TrafficCompression {
  account_id: number;
  bucket_id: number;
  domain_id: number;
  slot: Timestamp;
  flow_type: string;
  direction: string;
  region: string;
  carrier: string;
  /** cdn | backsource | pcdn */
  flow_source: string;
  /** ipv4 | ipv6 */
  ip_type: string;
  bytes: Count;
  reqs: Count;
  hit_reqs: Count;
  dyn_reqs: Count;
  https_reqs: Count;
  received_at: Timestamp;
}
export interface StatsIngestTokensTable {
  id: Generated<number>;
  account_id: number;
  /** SHA-256 of the token, hex */
  token_hash: string;
  created_at: Timestamp;
  last_used_at: Timestamp | null;
}
/** price_config.<service_type>.amount_cal_type (spec 001 §3), until the billing section owns it. */
export interface AccountPriceConfigTable {
  account_id: number;
  service_type: string;
  amount_cal_type: string;
  updated_at: Timestamp;
}

/** The earliest instant a fine tier ('5m', 'geo_1h') holds for an account. */
export interface TrafficCoverageTable {
  account_id: number;
  tier: string;
  since: Timestamp;
}

// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- merged into Database above
export interface Database {
  traffic_5m: Traffic5mTable;
  traffic_1h: Traffic1hTable;
  traffic_1d: Traffic1dTable;
  traffic_geo_1h: TrafficGeo1hTable;
  traffic_geo_1d: TrafficGeo1dTable;
  traffic_ingest: TrafficIngestTable;
  stats_ingest_tokens: StatsIngestTokensTable;
  account_price_config: AccountPriceConfigTable;
  traffic_coverage: TrafficCoverageTable;
}

/** Usage flags of spec 001 §3 (migration 0005): PCDN opened, the mingmou product enabled. */
export interface UsersTable {
  pcdn_open: Generated<boolean>;
  mingmou: Generated<boolean>;
}
