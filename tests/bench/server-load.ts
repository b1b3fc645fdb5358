/**
 * The server under load (issue 22), printed by `npm run bench`; asserts nothing. autocannon runs in this
 * process against a server in a child process (tests/bench/load-server.ts) on 127.0.0.1, each figure
 * bounded in time (LOAD_SECONDS, default 10):
 *
 *   a. the ceiling: a bare Fastify route answering a constant JSON, 100 connections
 *   b. settings GET on PostgreSQL at 100 connections (ratio to the bare route), p99 at a fixed 1,000/s
 *   c. settings POST on PostgreSQL at 100 connections, p99 at a fixed 300/s: all to one service (demo-www),
 *      and spread over the demo's 16 services with compression (many customers each saving their own)
 *   d. PGlite: one request at a time (read and save), and 100 connections reading: the slowest wait and
 *      the 503 answers of the bounded queue (docs/operations.md)
 *   e. the lists a console page opens first (service list, statistics selector, message centre, operation
 *      log, bills) on PostgreSQL, 10 connections, with their p99
 *
 * LOAD_PARTS (e.g. `d`, or `a,b`) runs only those figures. PGlite's 100-connection figure also prints the
 * server's own slowest time (from reading the request to answering it), to tell the wait inside the server
 * (bounded by DB_WAIT_MS) from the time before the server read the request.
 *
 * PostgreSQL: a scratch database on BENCH_DATABASE_URL (default postgres://root@127.0.0.1:5432/postgres),
 * dropped afterwards; skipped when none answers. `npx tsx tests/bench/server-load.ts` runs it alone.
 */
import path from 'node:path';
import net from 'node:net';
import os from 'node:os';
import { randomBytes } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import autocannon from 'autocannon';

const root = path.resolve(__dirname, '../..');
const seconds = Number(process.env.LOAD_SECONDS ?? 10);

interface Server {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Starts tests/bench/load-server.ts and waits for its `ready <port>`. */
export async function startLoadServer(env: Record<string, string>, nodeArgs: string[] = []): Promise<Server> {
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'tests/bench/load-server.ts'], {
    cwd: root,
    env: { ...process.env, PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /ready (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.on('exit', (code) => reject(new Error(`load server ended (${code})`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export async function signIn(url: string, username = 'demo', password = 'demo123456'): Promise<string> {
  const res = await fetch(`${url}/accounts/signin/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password }) });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  return String(res.headers.get('set-cookie')).split(';')[0];
}

export interface Load {
  perSecond: number;
  p50: number;
  p99: number;
  max: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statuses: Record<string, number>;
}

/** One autocannon run; `rate` fixes the requests per second over all connections. */
export async function load(opts: { url: string; cookie?: string; method?: 'GET' | 'POST'; body?: string; bodies?: () => string; connections?: number; rate?: number; duration?: number; timeout?: number }): Promise<Load> {
  const statuses: Record<string, number> = {};
  const headers: Record<string, string> = { ...(opts.cookie ? { cookie: opts.cookie } : {}), ...(opts.method === 'POST' ? { 'content-type': 'application/json' } : {}) };
  const r = await autocannon({
    url: opts.url,
    method: opts.method ?? 'GET',
    headers,
    body: opts.body,
    requests: opts.bodies ? [{ setupRequest: (req: any) => ({ ...req, body: opts.bodies!() }) }] : undefined,
    connections: opts.connections ?? 100,
    overallRate: opts.rate,
    duration: opts.duration ?? seconds,
    timeout: opts.timeout ?? 30,
    setupClient: (client: any) => client.on('response', (status: number) => (statuses[status] = (statuses[status] ?? 0) + 1)),
  } as autocannon.Options);
  return {
    perSecond: r.requests.total / (opts.duration ?? seconds),
    p50: r.latency.p50,
    p99: r.latency.p99,
    max: r.latency.max,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    statuses,
  };
}

/** The load server's own time per request since the last call (tests/bench/load-server.ts), and resets it. */
async function serverTiming(url: string): Promise<{ count: number; p99: number; max: number }> {
  return (await fetch(`${url}/__bench/timing/`)).json() as Promise<{ count: number; p99: number; max: number }>;
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
export function line(label: string, l: Load, extra = ''): void {
  const codes = Object.entries(l.statuses)
    .filter(([s]) => s !== '200')
    .map(([s, n]) => `${s}×${n}`)
    .join(' ');
  const bad = [codes, l.errors ? `错误 ${l.errors}` : '', l.timeouts ? `超时 ${l.timeouts}` : ''].filter(Boolean).join(' ');
  console.log(`  ${label.padEnd(44)} ${fmt(l.perSecond).padStart(7)} 次/秒  p50 ${String(l.p50).padStart(5)} ms  p99 ${String(l.p99).padStart(5)} ms  最慢 ${String(l.max).padStart(6)} ms${bad ? '  ' + bad : ''}${extra ? '  ' + extra : ''}`);
}

async function reachable(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const s = net.connect({ host: hostname, port: Number(port || 5432) });
    s.setTimeout(2000);
    s.on('connect', () => (s.destroy(), resolve(true)));
    s.on('error', () => resolve(false));
    s.on('timeout', () => (s.destroy(), resolve(false)));
  });
}

export async function scratchPostgres(base: string): Promise<{ url: string; drop(): Promise<void> }> {
  const { Client } = await import('pg');
  const name = `console_bench_${randomBytes(5).toString('hex')}`;
  const admin = new Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const u = new URL(base);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    async drop() {
      const c = new Client({ connectionString: base });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

const READ = '/api/settings/compression/?bucket_name=demo-www';
const SAVE = '/api/settings/compression/';
/**
 * Every service of the demo that has 智能压缩 (its file, cdn and scdn services: 16). Saves sent by all 100
 * connections to ONE service measure the wait for that row's lock more than the save; many customers
 * each saving their own service is the load the goal means, so part c prints both.
 */
const COMPRESSION_SERVICES = ['demo-www', 'demo-static', 'demo-assets', 'demo-backup', 'demo-shop', 'demo-pay', ...Array.from({ length: 10 }, (_, i) => `demo-cdn-${String(i + 1).padStart(2, '0')}`)];
let saves = 0;
const saveBodyFor = (services: string[]) => () => {
  const n = saves++;
  return JSON.stringify({ bucket_name: services[n % services.length], status: 'enable', gzip: { disable: false, level: 1 + (n % 9) }, br: { disable: n % 2 === 0, level: 1 } });
};
const saveBody = saveBodyFor(['demo-www']);
export const saveSpread = saveBodyFor(COMPRESSION_SERVICES);

/** The lists a console page opens first, with the queries the pages send (src/console/…). */
const LISTS: [string, string][] = [
  ['服务列表 GET /api/buckets/', '/api/buckets/?business_type=cdn&limit=10&with_domains=true'],
  ['统计选择器 GET /api/stats/buckets/', '/api/stats/buckets/?flow_type=cdn&limit=200'],
  ['消息中心 GET /api/messages/', '/api/messages/?page=1&limit=10'],
  ['操作日志 GET /api/logs/', '/api/logs/?limit=20'],
  ['账单 GET /api/bills/', '/api/bills/?page=1&limit=20'],
];

/** LOAD_PARTS (e.g. `d` or `a,b`) runs only those figures; all by default. */
const parts = new Set((process.env.LOAD_PARTS ?? 'a,b,c,d,e').split(',').map((p) => p.trim()));

export async function serverLoadBench(): Promise<void> {
  const loadavg = () => os.loadavg().map((n) => n.toFixed(2)).join(' ');
  console.log(`\n== 服务端负载（autocannon，127.0.0.1，每项 ${seconds} 秒；开始时负载 ${loadavg()}，${os.cpus().length} 核） ==`);
  let ceiling: Load | null = null;
  if (parts.has('a') || parts.has('b')) {
    const bare = await startLoadServer({ MODE: 'bare' });
    try {
      await load({ url: `${bare.url}/bare/`, duration: 2 }); // warm up
      ceiling = await load({ url: `${bare.url}/bare/` });
      line('a. 基线：裸 Fastify 路由，常量 JSON，100 连接', ceiling);
    } finally {
      await bare.stop();
    }
  }

  const base = process.env.BENCH_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/postgres';
  if (!parts.has('b') && !parts.has('c') && !parts.has('e')) {
    // no PostgreSQL figure asked for
  } else if (await reachable(base)) {
    const pg = await scratchPostgres(base);
    let server: Server | null = null;
    try {
      server = await startLoadServer({ MODE: 'app', DATABASE_URL: pg.url });
      const cookie = await signIn(server.url);
      if (parts.has('b')) {
        await load({ url: server.url + READ, cookie, duration: 2 });
        const reads = await load({ url: server.url + READ, cookie });
        line('b. 设置读取 PostgreSQL，100 连接', reads, ceiling ? `为基线的 ${((100 * reads.perSecond) / ceiling.perSecond).toFixed(1)} %` : '');
        line('   设置读取 PostgreSQL，固定 1,000 次/秒', await load({ url: server.url + READ, cookie, connections: 20, rate: 1000 }));
      }
      if (parts.has('c')) {
        line('c. 设置保存 PostgreSQL，100 连接，同一服务', await load({ url: server.url + SAVE, cookie, method: 'POST', bodies: saveBody }));
        line('   设置保存 PostgreSQL，固定 300 次/秒，同一服务', await load({ url: server.url + SAVE, cookie, method: 'POST', bodies: saveBody, connections: 20, rate: 300 }));
        line(`   设置保存 PostgreSQL，100 连接，${COMPRESSION_SERVICES.length} 个服务轮流`, await load({ url: server.url + SAVE, cookie, method: 'POST', bodies: saveSpread }));
        line(`   设置保存 PostgreSQL，固定 300 次/秒，${COMPRESSION_SERVICES.length} 个服务轮流`, await load({ url: server.url + SAVE, cookie, method: 'POST', bodies: saveSpread, connections: 20, rate: 300 }));
      }
      if (parts.has('e')) {
        for (const [label, url] of LISTS) line(`e. ${label}，10 连接`, await load({ url: server.url + url, cookie, connections: 10 }));
      }
    } finally {
      await server?.stop();
      await pg.drop();
    }
  } else {
    console.log(`  PostgreSQL 不可用（${base}），跳过 b、c、e`);
  }

  if (parts.has('d')) {
    const lite = await startLoadServer({ MODE: 'app' });
    try {
      const cookie = await signIn(lite.url);
      await load({ url: lite.url + READ, cookie, duration: 2, connections: 1 });
      const one = (l: Load) => `每次 ${(1000 / l.perSecond).toFixed(2)} ms`;
      const read1 = await load({ url: lite.url + READ, cookie, connections: 1 });
      line('d. 设置读取 PGlite，单连接顺序请求', read1, one(read1));
      const save1 = await load({ url: lite.url + SAVE, cookie, method: 'POST', bodies: saveBody, connections: 1 });
      line('   设置保存 PGlite，单连接顺序请求', save1, one(save1));
      await serverTiming(lite.url); // reset
      const many = await load({ url: lite.url + READ, cookie });
      const inServer = await serverTiming(lite.url);
      line('   设置读取 PGlite，100 连接', many, `服务端内最慢 ${Math.round(inServer.max)} ms（p99 ${Math.round(inServer.p99)} ms）`);
    } finally {
      await lite.stop();
    }
  }
  console.log(`  结束时负载 ${loadavg()}`);
}

if (require.main === module) serverLoadBench().catch((e) => { console.error(e); process.exit(1); });
