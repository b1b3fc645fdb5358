/**
 * A real app on a real database for API tests: in-memory PGlite by default, or the PostgreSQL of
 * DATABASE_URL (each test file then gets its own schema-free database created from template0).
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { openDatabase, type DB } from '../../src/server/db';
import { buildApp } from '../../src/server/app';
import { configFromEnv, type ServerConfig } from '../../src/server/config';
import { seedDemo } from '../../src/server/seed/demo';
import { seedTraffic, seedStatsSettings, type TrafficSeedOptions } from '../../src/server/seed/traffic';
import { loadRegistry } from '../../schemas/load';
import type { SettingRegistry } from '../../schemas/registry';

export interface TestServer {
  app: FastifyInstance;
  db: DB;
  registry: SettingRegistry;
  /** the scratch PostgreSQL database it runs on (DATABASE_URL set), else undefined (PGlite in memory) */
  databaseUrl?: string;
  close(): Promise<void>;
}

async function freshPostgres(url: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const { Client } = await import('pg');
  const name = `console_test_${randomBytes(6).toString('hex')}`;
  const admin = new Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const u = new URL(url);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    drop: async () => {
      const c = new Client({ connectionString: url });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/**
 * `traffic`: also seed the demo's traffic statistics (src/server/seed/traffic.ts; `true` for the
 * defaults, or options such as `{ days: 8 }`); `statsSettings`: only the billing modes and usage flags.
 */
export async function startTestServer(opts: { registry?: SettingRegistry; seed?: boolean; config?: Partial<ServerConfig>; traffic?: boolean | TrafficSeedOptions; statsSettings?: boolean } = {}): Promise<TestServer> {
  const base = process.env.DATABASE_URL;
  const pg = base ? await freshPostgres(base) : null;
  const db = await openDatabase({ databaseUrl: pg?.url, dataDir: 'memory://' });
  if (opts.seed !== false) await seedDemo(db);
  if (opts.seed !== false && opts.traffic) await seedTraffic(db, opts.traffic === true ? {} : opts.traffic);
  else if (opts.seed !== false && opts.statsSettings) await seedStatsSettings(db);
  const registry = opts.registry ?? loadRegistry();
  const config = { ...configFromEnv({}), databaseUrl: pg?.url, dataDir: 'memory://', distDir: '/nonexistent', logSms: false, ...opts.config };
  const app = await buildApp({ db, config, registry, logger: false });
  await app.ready();
  return {
    app,
    db,
    registry,
    databaseUrl: pg?.url,
    async close() {
      await app.close();
      await db.destroy();
      if (pg) await pg.drop();
    },
  };
}

/**
 * A second server process on the test server's database, as two processes of one installation: on
 * PostgreSQL an app with its own pool and listening connection on the same scratch database; on PGlite
 * (one process may open it) an app sharing the test server's database. Closed before the test server.
 */
export async function startSecondApp(t: TestServer, config: Partial<ServerConfig> = {}): Promise<{ app: FastifyInstance; db: DB; close(): Promise<void> }> {
  const own = t.databaseUrl ? await openDatabase({ databaseUrl: t.databaseUrl, dataDir: 'memory://' }) : null;
  const db = own ?? t.db;
  const app = await buildApp({ db, config: { ...configFromEnv({}), databaseUrl: t.databaseUrl, dataDir: 'memory://', distDir: '/nonexistent', logSms: false, ...config }, registry: loadRegistry(), logger: false });
  await app.ready();
  return {
    app,
    db,
    async close() {
      await app.close();
      await own?.destroy();
    },
  };
}

/** A cookie jar of one signed-in user. */
export class Client {
  cookie = '';
  constructor(private app: FastifyInstance) {}

  async request(opts: InjectOptions) {
    const res = await this.app.inject({ ...opts, headers: { ...(opts.headers ?? {}), ...(this.cookie ? { cookie: this.cookie } : {}) } });
    const set = res.headers['set-cookie'];
    if (set) {
      const first = (Array.isArray(set) ? set : [set]).map((c) => c.split(';')[0]);
      this.cookie = first.join('; ');
    }
    return res;
  }

  get(url: string) {
    return this.request({ method: 'GET', url });
  }
  post(url: string, payload: unknown, headers: Record<string, string> = {}) {
    return this.request({ method: 'POST', url, payload: payload as object, headers });
  }
  put(url: string, payload: unknown) {
    return this.request({ method: 'PUT', url, payload: payload as object });
  }

  async signIn(username: string, password = 'demo123456') {
    const res = await this.post('/accounts/signin/', { username, password });
    if (res.statusCode !== 200) throw new Error(`sign-in failed: ${res.body}`);
    return this;
  }
}
