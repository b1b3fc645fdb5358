import path from 'node:path';
import { domainConfigFromEnv, type DomainConfig } from './domains/config';
import type { BillingVisibility } from '../shared/billing/header';
import { EXTERNAL_PRODUCTS, EXTERNAL_PRODUCT_INFO, type ExternalProduct } from '../shared/external';

/** Server configuration, read from the environment once (docs/operations.md lists every variable). */
export interface ServerConfig {
  port: number;
  host: string;
  /** PGlite data directory ('memory://' for an in-memory database). */
  dataDir: string;
  /** When set, PostgreSQL is used instead of PGlite. */
  databaseUrl?: string;
  /** Built console (webpack output). */
  distDir: string;
  /** Seed the demo accounts on an empty database. */
  seedDemo: boolean;
  /** Session lifetime in seconds. */
  sessionTtl: number;
  /** How long a server process remembers a signed-in session (SESSION_CACHE_MS, default 5,000 ms; 0: not at all). docs/performance.md */
  sessionCacheMs?: number;
  /** How long a server process remembers a service's row by name (BUCKET_CACHE_MS, default 5,000 ms; 0: not at all). docs/performance.md */
  bucketCacheMs?: number;
  /**
   * PGlite only: how long a request waits for the single database connection (DB_WAIT_MS, default 2,000 ms)
   * and how many may wait at once (DB_QUEUE_MAX, default 200); beyond either the answer is 503. docs/operations.md
   */
  dbQueue?: { waitMs: number; maxWaiting: number };
  /** Secure cookies always (SECURE_COOKIES=1); without it, a cookie is Secure whenever the request came over HTTPS (directly or through a trusted proxy). */
  secureCookies: boolean;
  /**
   * The addresses (or CIDR ranges) of the proxies whose X-Forwarded-For / X-Forwarded-Proto / X-Forwarded-Host
   * are believed (TRUST_PROXY, comma-separated; empty by default: no forwarded header is believed). docs/security.md
   */
  trustProxy: string[];
  /**
   * The console's public address (PUBLIC_URL, e.g. https://console.example.com), from which every link the
   * server builds is made (payment pages, invitations, activation links), never from the request's Host
   * header. Defaults to the listening address.
   */
  publicUrl: string;
  /**
   * The online payment provider (PAYMENT_PROVIDER): `sandbox` (the local sandbox page, no real money) or
   * `none` (online payment is off). Defaults to sandbox only for the demo (SEED_DEMO on), none otherwise.
   */
  paymentProvider: PaymentProviderName;
  /** Print SMS texts to the log (the outbox table always keeps them). */
  logSms: boolean;
  logLevel: string;
  /** The beta CNAME a domain must point to for HTTP/3 (shown when turning HTTP/3 on). */
  http3Cname: string;
  /** Expose the SMS outbox over HTTP for testers (GET /api/dev/sms_outbox/). Never in production. */
  smsOutboxApi: boolean;
  /** The schema gallery for product owners and testers (GET /api/schemas/gallery/, console /gallery/). Off in production. */
  schemaGallery: boolean;
  /**
   * The special main accounts for which the bill permission is hidden and refused in the sub-account
   * form (spec 000 §6: "hidden for two specific special accounts"; the list is not shown there).
   */
  billHiddenAccounts: string[];
  /** Billing centre visibility lists (docs/billing.md "Listed accounts"): BILLING_HIDDEN_ACCOUNTS, BILLING_REDIRECT_ACCOUNTS, BILLING_CONTAINER_REDIRECT_ACCOUNTS. */
  billing?: BillingVisibility;
  /** The provider's tech-blog feed (RSS or Atom) shown on the dashboard; none: the block is hidden. */
  techBlogFeed: string | null;
  /** Service tabs (docs/service-tabs.md): default domains, CNAME lookups, the bandwidth-cap job. */
  domains?: DomainConfig;
  /** File storage (docs/files-and-media.md): S3-compatible when S3_ENDPOINT is set, else the local disk under DATA_DIR; the upload limit per file; the storage quota per account (STORAGE_QUOTA_BYTES). */
  storage?: { s3Endpoint?: string; s3Bucket?: string; s3Region?: string; s3AccessKey?: string; s3SecretKey?: string; uploadMaxBytes?: number; quotaBytes?: number };
  /** Cross-platform backup (docs/operations-tools.md): BACKUP_ALLOW_LOCAL_ENDPOINTS lets a target be on this machine (tests); BACKUP_INTERVAL_MINUTES how often enabled configurations run. */
  backup?: { allowLocalEndpoints?: boolean; intervalMinutes?: number };
  /** Free certificates (docs/certificates.md): the ACME directory URL ('' = applications wait), a CA file trusted for it, the contact e-mail, renew this many days before expiry. */
  acme: { directoryUrl: string; caFile?: string; email: string; renewDays: number };
  /** External products' addresses (docs/external-products.md): EXTERNAL_SMS_URL, EXTERNAL_ONECLICKLOGIN_URL, EXTERNAL_CDP_URL, EXTERNAL_AUDIT_URL, EXTERNAL_WORKORDER_URL; unset: the in-console landing page. */
  external?: Partial<Record<ExternalProduct, string>>;
  /**
   * The edge (docs/edge.md): EDGE=off runs without one; EDGE_NODE_KEY / EDGE_NODE_NAME register the node
   * that `npm start` runs beside the server; the demo origin's address (DEMO_ORIGIN) may be an origin of
   * the demo's services although it is a loopback address.
   */
  edge: { enabled: boolean; nodeKey?: string; nodeName: string; demoOrigin: string; /** EDGE_ALLOWED_ORIGINS: origins customers may write in a private range (comma-separated host or host:port). */ allowedOrigins?: string; /** The local edge's plain-HTTP address (EDGE_LISTEN, EDGE_HTTP_PORT): the rule tester's real requests. */ httpUrl?: string };
}

/** An on/off variable: 1, true, yes, on turn it on; 0, false, no, off turn it off; anything else keeps the default. */
export function flag(value: string | undefined, fallback: boolean): boolean {
  const v = (value ?? '').trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(v)) return true;
  if (['0', 'false', 'no', 'off'].includes(v)) return false;
  return fallback;
}

/** The payment providers PAYMENT_PROVIDER may name (docs/billing-money.md "Payment providers"). */
export const PAYMENT_PROVIDERS = ['sandbox', 'none'] as const;
export type PaymentProviderName = (typeof PAYMENT_PROVIDERS)[number];

/** PUBLIC_URL without its trailing slash, else the listening address (a wildcard address as 127.0.0.1). */
export function publicUrlOf(env: NodeJS.ProcessEnv, host: string, port: number): string {
  const configured = env.PUBLIC_URL?.trim();
  if (configured) {
    const u = new URL(configured); // a malformed PUBLIC_URL stops the start here, with the URL's own error
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error(`PUBLIC_URL 须以 http:// 或 https:// 开头：${configured}`);
    return `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}`;
  }
  const h = host === '0.0.0.0' || host === '::' || host === '' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return `http://${h}:${port}`;
}

function paymentProviderOf(env: NodeJS.ProcessEnv, seedDemo: boolean): PaymentProviderName {
  const v = env.PAYMENT_PROVIDER?.trim().toLowerCase();
  if (!v) return seedDemo ? 'sandbox' : 'none';
  if (!(PAYMENT_PROVIDERS as readonly string[]).includes(v)) throw new Error(`PAYMENT_PROVIDER 只能是 ${PAYMENT_PROVIDERS.join('、')}：${v}`);
  return v as PaymentProviderName;
}

const list = (v: string | undefined) => (v ?? '').split(',').map((s) => s.trim()).filter(Boolean);

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const root = path.resolve(__dirname, '../..');
  const port = Number(env.PORT ?? 8080);
  const host = env.HOST ?? '127.0.0.1';
  const seedDemo = flag(env.SEED_DEMO, true);
  return {
    port,
    host,
    trustProxy: list(env.TRUST_PROXY),
    publicUrl: publicUrlOf(env, host, port),
    paymentProvider: paymentProviderOf(env, seedDemo),
    dataDir: env.DATA_DIR ?? path.join(root, 'data'),
    databaseUrl: env.DATABASE_URL || undefined,
    distDir: env.DIST_DIR ?? path.join(root, 'dist'),
    seedDemo,
    sessionTtl: Number(env.SESSION_TTL ?? 7 * 24 * 3600),
    sessionCacheMs: Number(env.SESSION_CACHE_MS ?? 5000),
    bucketCacheMs: Number(env.BUCKET_CACHE_MS ?? 5000),
    dbQueue: { waitMs: Number(env.DB_WAIT_MS ?? 2000), maxWaiting: Number(env.DB_QUEUE_MAX ?? 200) },
    secureCookies: flag(env.SECURE_COOKIES, false),
    logSms: flag(env.LOG_SMS, true),
    logLevel: env.LOG_LEVEL ?? 'info',
    smsOutboxApi: flag(env.SMS_OUTBOX_API, false),
    schemaGallery: flag(env.SCHEMA_GALLERY, true),
    http3Cname: env.HTTP3_CNAME ?? 'http3-beta.cdn-cname.example.net',
    edge: { enabled: flag(env.EDGE, true), nodeKey: env.EDGE_NODE_KEY || undefined, nodeName: env.EDGE_NODE_NAME || 'local', demoOrigin: env.DEMO_ORIGIN || `127.0.0.1:${env.DEMO_ORIGIN_PORT || 8082}`, allowedOrigins: env.EDGE_ALLOWED_ORIGINS || undefined, httpUrl: `http://${env.EDGE_LISTEN || '127.0.0.1'}:${env.EDGE_HTTP_PORT || 8081}` },
    billHiddenAccounts: (env.BILL_HIDDEN_ACCOUNTS ?? '').split(',').map((s) => s.trim()).filter(Boolean),
    techBlogFeed: env.TECH_BLOG_FEED?.trim() || null,
    billing: { hiddenItemsAccounts: list(env.BILLING_HIDDEN_ACCOUNTS), detailRedirectAccounts: list(env.BILLING_REDIRECT_ACCOUNTS), containerRedirectAccounts: list(env.BILLING_CONTAINER_REDIRECT_ACCOUNTS) },
    domains: domainConfigFromEnv(env),
    storage: { s3Endpoint: env.S3_ENDPOINT || undefined, s3Bucket: env.S3_BUCKET, s3Region: env.S3_REGION, s3AccessKey: env.S3_ACCESS_KEY, s3SecretKey: env.S3_SECRET_KEY, uploadMaxBytes: env.UPLOAD_MAX_BYTES ? Number(env.UPLOAD_MAX_BYTES) : undefined, quotaBytes: env.STORAGE_QUOTA_BYTES ? Number(env.STORAGE_QUOTA_BYTES) : undefined },
    backup: { allowLocalEndpoints: flag(env.BACKUP_ALLOW_LOCAL_ENDPOINTS, false), intervalMinutes: env.BACKUP_INTERVAL_MINUTES ? Number(env.BACKUP_INTERVAL_MINUTES) : undefined },
    acme: { directoryUrl: env.ACME_DIRECTORY_URL ?? '', caFile: env.ACME_CA_FILE || undefined, email: env.ACME_EMAIL ?? '', renewDays: Number(env.ACME_RENEW_DAYS ?? 30) },
    external: Object.fromEntries(EXTERNAL_PRODUCTS.filter((p) => env[EXTERNAL_PRODUCT_INFO[p].env]?.trim()).map((p) => [p, env[EXTERNAL_PRODUCT_INFO[p].env]!.trim()])),
  };
}
