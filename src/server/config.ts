import path from 'node:path';

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
  /** Secure cookies (behind HTTPS). */
  secureCookies: boolean;
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
}

/** An on/off variable: 1, true, yes, on turn it on; 0, false, no, off turn it off; anything else keeps the default. */
export function flag(value: string | undefined, fallback: boolean): boolean {
  const v = (value ?? '').trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(v)) return true;
  if (['0', 'false', 'no', 'off'].includes(v)) return false;
  return fallback;
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const root = path.resolve(__dirname, '../..');
  return {
    port: Number(env.PORT ?? 8080),
    host: env.HOST ?? '127.0.0.1',
    dataDir: env.DATA_DIR ?? path.join(root, 'data'),
    databaseUrl: env.DATABASE_URL || undefined,
    distDir: env.DIST_DIR ?? path.join(root, 'dist'),
    seedDemo: flag(env.SEED_DEMO, true),
    sessionTtl: Number(env.SESSION_TTL ?? 7 * 24 * 3600),
    secureCookies: flag(env.SECURE_COOKIES, false),
    logSms: flag(env.LOG_SMS, true),
    logLevel: env.LOG_LEVEL ?? 'info',
    smsOutboxApi: flag(env.SMS_OUTBOX_API, false),
    schemaGallery: flag(env.SCHEMA_GALLERY, true),
    http3Cname: env.HTTP3_CNAME ?? 'http3-beta.cdn-cname.example.net',
    billHiddenAccounts: (env.BILL_HIDDEN_ACCOUNTS ?? '').split(',').map((s) => s.trim()).filter(Boolean),
  };
}
