/** Tables of free and paid certificates (migrations in ./migrations.ts). */
import type { ColumnType, Generated, JSONColumnType } from 'kysely';
import type { Timestamp } from '../db/schema';

export interface AcmeAccountsTable {
  directory_url: string;
  account_key: string;
  account_url: string | null;
  created_at: Timestamp;
}

export interface AcmeChallengesTable {
  token: string;
  key_authorization: string;
  created_at: Timestamp;
}

export interface CertificateApplicationsTable {
  id: Generated<number>;
  account_id: number;
  /** letsencrypt | trustasia | racent (FREE_AGENTS) */
  agent: string;
  domains: JSONColumnType<string[], string, string>;
  /** an APPLY_STATUS key */
  status: string;
  certificate_id: number | null;
  error: string | null;
  auto_renew: Generated<boolean>;
  attempts: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
  issued_at: Timestamp | null;
  /** the free-certificate extension package (sslpack) that paid for an application beyond the 20 free ones */
  pack_id: number | null;
}

export interface DefaultDomainHttpsTable {
  bucket_id: number;
  https: Generated<boolean>;
  force_https: Generated<boolean>;
  updated_at: Timestamp;
}

export interface SandboxCaTable {
  id: number;
  certificate: string;
  private_key: string;
  created_at: Timestamp;
}

/** What a template holds (the certificate_template declaration). */
export interface TemplateData {
  organization: string;
  department?: string;
  country: string;
  province: string;
  city: string;
  address: string;
  contact_name: string;
  contact_phone: string;
  contact_email: string;
}

export interface CertificateTemplatesTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  data: JSONColumnType<TemplateData, string, string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A domain-control validation record shown to the user (verify message). */
export interface DcvRecord {
  domain: string;
  method: 'DNS';
  type: 'TXT';
  host: string;
  value: string;
}

/** The CA message of an order (spec 002 §3): main_domain, multiple_domain, add_domains comma separated. */
export interface CaMessage {
  main_domain: string;
  multiple_domain: string;
  add_domains: string;
  template_id: number | null;
}

export interface CertificateOrdersTable {
  id: Generated<number>;
  account_id: number;
  product_id: string;
  brand: string;
  level: string;
  kind: string;
  agent: string;
  years: number;
  default_domain: number;
  general_domain: number;
  price: ColumnType<string, string | number, string | number>;
  status: string;
  apply_id: string | null;
  ca_message: JSONColumnType<CaMessage | null, string | null, string | null>;
  domains: JSONColumnType<string[], string | undefined, string>;
  dcv: JSONColumnType<DcvRecord[], string | undefined, string>;
  error: string | null;
  certificate_id: number | null;
  old_order_id: number | null;
  reissued_type: string | null;
  billing_order_no: string | null;
  created_at: Timestamp;
  paid_at: Timestamp | null;
  updated_at: Timestamp;
}

declare module '../db/schema' {
  interface Database {
    sandbox_ca: SandboxCaTable;
    certificate_templates: CertificateTemplatesTable;
    certificate_orders: CertificateOrdersTable;
    default_domain_https: DefaultDomainHttpsTable;
    acme_accounts: AcmeAccountsTable;
    acme_challenges: AcmeChallengesTable;
    certificate_applications: CertificateApplicationsTable;
  }
}
