/**
 * The server under load (issue 22), printed by `npm run bench`; asserts nothing. autocannon runs in this
 * process against a server in a child process (tests/bench/load-server.ts) on 127.0.0.1, each figure
 * bounded in time (LOAD_SECONDS, default 10):
 *
 *   a. the ceiling: a bare Fastify route answering a constant JSON, 100 connections; and its p99 at a fixed
 *      1,000/s (what the generator and the machine add to any p99 at that rate)
 *   b. settings GET on PostgreSQL at 100 connections (ratio to the bare route), p99 at a fixed 1,000/s (with
 *      the server's own p99: from reading the request to answering it)
 *   c. settings POST on PostgreSQL at 100 connections, p99 at a fixed 300/s: all to one service (demo-www),
 *      and spread over the demo's 16 services with compression (many customers each saving their own)
 *   d. PGlite: one request at a time (read and save), and 100 connections reading: the slowest wait and
 *      the 503 answers of the bounded queue (docs/operations.md)
 *   e. the lists a console page opens first (service list, statistics selector, message centre, operation
 *      log, bills) on PostgreSQL, 10 connections, with their p99
 *
 * The fixed rates are printed twice: by autocannon (whose connections send in bursts) and by an even-paced
 * open-loop generator (`paced`), whose latency counts from when each request was due.
 *
 * LOAD_NODE_ARGS (e.g. `--max-semi-space-size=64`) passes node options to the PostgreSQL server of b, c, e.
 * LOAD_PARTS (e.g. `d`, or `a,b`) runs only those figures. PGlite's 100-connection figure also prints the
 * server's own slowest time (from reading the request to answering it), to tell the wait inside the server
 * (bounded by DB_WAIT_MS) from the time before the server read the request.
 *
 * PostgreSQL: a scratch database on BENCH_DATABASE_URL (default postgres://root@127.0.0.1:5432/postgres),
 * dropped afterwards; skipped when none answers. `npx tsx tests/bench/server-load.ts` runs it alone.
 */
// first: stops at once on another Node.js than package.json engines.node (scripts/require-node.cjs)
import '../../scripts/require-node.cjs';
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

/**
 * An open-loop generator at an even pace (as wrk2 does): request i is due at i / rate seconds and its
 * latency counts from when it was due, not from when a free connection sent it, so a stalled server shows
 * in the figure instead of slowing the generator down ("coordinated omission"). autocannon's `overallRate`
 * splits the rate over its connections, whose timers fire together: 20 connections at 1,000/s send bursts
 * of 20 every 20 ms, and the bursts alone put the p99 of a route that does nothing at 15–20 ms here.
 */
export async function paced(opts: { url: string; cookie?: string; rate: number; duration?: number; sockets?: number; bodies?: () => string }): Promise<Load> {
  const http = await import('node:http');
  const agent = new http.Agent({ keepAlive: true, maxSockets: opts.sockets ?? 50 });
  const duration = (opts.duration ?? seconds) * 1000;
  const target = new URL(opts.url);
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let errors = 0;
  let sent = 0;
  let pending = 0;
  const start = performance.now();
  const send = (due: number) => {
    pending++;
    const body = opts.bodies?.();
    const headers: Record<string, string> = { ...(opts.cookie ? { cookie: opts.cookie } : {}), ...(body ? { 'content-type': 'application/json' } : {}) };
    const req = http.request(
      { agent, host: target.hostname, port: target.port, path: target.pathname + target.search, method: body ? 'POST' : 'GET', headers },
      (res) => {
        res.resume();
        res.on('end', () => {
          latencies.push(performance.now() - due);
          statuses[res.statusCode!] = (statuses[res.statusCode!] ?? 0) + 1;
          pending--;
        });
      },
    );
    req.on('error', () => (errors++, pending--));
    req.end(body);
  };
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now() - start;
      const due = Math.min(Math.floor((now * opts.rate) / 1000), Math.floor((duration * opts.rate) / 1000));
      while (sent < due) send(start + (sent++ * 1000) / opts.rate);
      if (now < duration) setImmediate(tick);
      else resolve();
    };
    tick();
  });
  while (pending > 0) await new Promise((r) => setTimeout(r, 10));
  agent.destroy();
  const sorted = latencies.sort((a, b) => a - b);
  const at = (q: number) => Math.round((sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? 0) * 10) / 10;
  return { perSecond: sorted.length / (duration / 1000), p50: at(0.5), p99: at(0.99), max: Math.round(sorted.at(-1) ?? 0), non2xx: sorted.length - (statuses[200] ?? 0), errors, timeouts: 0, statuses };
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

export async function reachable(url: string): Promise<boolean> {
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
      // the floor under b's p99 at a fixed rate: the same generator and rate against a route that does nothing
      line('   裸路由，固定 1,000 次/秒（autocannon，20 连接）', await load({ url: `${bare.url}/bare/`, connections: 20, rate: 1000 }));
      line('   裸路由，固定 1,000 次/秒（均匀节拍）', await paced({ url: `${bare.url}/bare/`, rate: 1000 }));
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
      server = await startLoadServer({ MODE: 'app', DATABASE_URL: pg.url }, (process.env.LOAD_NODE_ARGS ?? '').split(' ').filter(Boolean));
      const cookie = await signIn(server.url);
      if (parts.has('b')) {
        await load({ url: server.url + READ, cookie, duration: 2 });
        const reads = await load({ url: server.url + READ, cookie });
        line('b. 设置读取 PostgreSQL，100 连接', reads, ceiling ? `为基线的 ${((100 * reads.perSecond) / ceiling.perSecond).toFixed(1)} %` : '');
        for (const [label, run] of [
          ['autocannon，20 连接', () => load({ url: server!.url + READ, cookie, connections: 20, rate: 1000 })],
          ['均匀节拍', () => paced({ url: server!.url + READ, cookie, rate: 1000 })],
        ] as const) {
          await serverTiming(server.url); // reset
          const fixed = await run();
          const inServer = await serverTiming(server.url);
          line(`   设置读取 PostgreSQL，固定 1,000 次/秒（${label}）`, fixed, `服务端内 p99 ${inServer.p99.toFixed(1)} ms，最慢 ${Math.round(inServer.max)} ms`);
        }
      }
      if (parts.has('c')) {
        line('c. 设置保存 PostgreSQL，100 连接，同一服务', await load({ url: server.url + SAVE, cookie, method: 'POST', bodies: saveBody }));
        line('   设置保存 PostgreSQL，固定 300 次/秒，同一服务（autocannon，20 连接）', await load({ url: server.url + SAVE, cookie, method: 'POST', bodies: saveBody, connections: 20, rate: 300 }));
        line('   设置保存 PostgreSQL，固定 300 次/秒，同一服务（均匀节拍）', await paced({ url: server.url + SAVE, cookie, bodies: saveBody, rate: 300 }));
        line(`   设置保存 PostgreSQL，100 连接，${COMPRESSION_SERVICES.length} 个服务轮流`, await load({ url: server.url + SAVE, cookie, method: 'POST', bodies: saveSpread }));
        line(`   设置保存 PostgreSQL，固定 300 次/秒，${COMPRESSION_SERVICES.length} 个服务轮流（autocannon，20 连接）`, await load({ url: server.url + SAVE, cookie, method: 'POST', bodies: saveSpread, connections: 20, rate: 300 }));
        line(`   设置保存 PostgreSQL，固定 300 次/秒，${COMPRESSION_SERVICES.length} 个服务轮流（均匀节拍）`, await paced({ url: server.url + SAVE, cookie, bodies: saveSpread, rate: 300 }));
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
