/**
 * Supervision under `npm start` (scripts/start.mjs, docs/edge.md "Faults"): the real script with the edge on,
 * DATA_DIR in a temporary folder and free ports. The server child killed with -9: the edge goes on answering a
 * demo domain while the console is down, and the server comes back. The agent killed with -9: it is started
 * again and adopts the running nginx (same master), and the node still applies a change saved afterwards. Then
 * nginx's master killed with -9 (once under the first agent's watch, once adopted): the requests refused while
 * the agent brings nginx back are counted and printed (docs/edge.md "Faults" has the figures). SIGTERM stops
 * everything, nginx with it. Skipped without nginx.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { nginxInstalled } from './harness';
import { freePorts } from '../ports';

const ROOT = path.resolve(__dirname, '../..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const HOST = 'www.demo-example.com';

let proc: ChildProcess | null = null;
let dataDir = '';
let ports: { app: number; http: number; https: number; origin: number };
let log = '';

function children(): { pid: number; args: string }[] {
  if (!proc?.pid) return [];
  try {
    return execFileSync('ps', ['--ppid', String(proc.pid), '-o', 'pid=,args='], { encoding: 'utf8' })
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean)
      .map((l) => ({ pid: Number(l.split(/\s+/)[0]), args: l.slice(l.indexOf(' ') + 1) }));
  } catch {
    return [];
  }
}
const childPid = (file: string) => children().find((c) => c.args.includes(file))?.pid ?? 0;
const masterPid = () => {
  try {
    return Number(fs.readFileSync(path.join(dataDir, 'edge', 'run', 'nginx.pid'), 'utf8').trim());
  } catch {
    return 0;
  }
};
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** One request to the edge: the status, or the error's code (ECONNREFUSED …). */
function edgeGet(p: string, headers: Record<string, string> = {}, timeout = 3000): Promise<{ status: number; headers: http.IncomingHttpHeaders } | { error: string }> {
  return new Promise((resolve) => {
    const req = http.request({ host: '127.0.0.1', port: ports.http, path: p, headers: { host: HOST, ...headers }, agent: false, timeout }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
    });
    req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })));
    req.on('error', (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }));
    req.end();
  });
}
const edgeOk = async (p = `/echo/${Math.random()}`) => {
  const r = await edgeGet(p);
  return 'status' in r && r.status === 200;
};
async function consoleUp(): Promise<boolean> {
  try {
    await fetch(`http://127.0.0.1:${ports.app}/login/`, { signal: AbortSignal.timeout(2000) });
    return true;
  } catch {
    return false;
  }
}
async function until(what: () => boolean | Promise<boolean>, ms: number, label: string) {
  const end = Date.now() + ms;
  while (!(await what())) {
    if (Date.now() > end) throw new Error(`${label}：未在 ${ms} ms 内满足。\n输出末尾：\n${log.slice(-3000)}`);
    await sleep(100);
  }
}

/** Kills nginx's master with -9 and sends a request every 10 ms until 20 in a row are answered again. */
async function killMasterAndCount(): Promise<{ refused: number; answered: number; gapMs: number; before: number; after: number }> {
  const before = masterPid();
  process.kill(before, 'SIGKILL');
  let refused = 0;
  let answered = 0;
  let inRow = 0;
  let firstBad = 0;
  let lastBad = 0;
  const end = Date.now() + 30_000;
  while (Date.now() < end && !(inRow >= 20 && masterPid() !== before && alive(masterPid()))) {
    const r = await edgeGet(`/echo/${Math.random()}`, {}, 2000);
    if ('status' in r && r.status === 200) {
      answered++;
      inRow++;
    } else {
      refused++;
      inRow = 0;
      lastBad = Date.now();
      firstBad ||= lastBad;
    }
    await sleep(10);
  }
  return { refused, answered, gapMs: firstBad ? lastBad - firstBad : 0, before, after: masterPid() };
}

const maybe = nginxInstalled ? describe : describe.skip;

maybe('npm start supervises its children', () => {
  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'start-sup-'));
    const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'start-sup-dist-'));
    const [app, h, s, o] = await freePorts(4);
    ports = { app, http: h, https: s, origin: o };
    proc = spawn(process.execPath, [path.join(ROOT, 'scripts/start.mjs')], {
      cwd: ROOT,
      env: { ...process.env, EDGE: 'on', DATA_DIR: dataDir, DIST_DIR: dist, SEED_TRAFFIC: '0', PORT: String(app), EDGE_HTTP_PORT: String(h), EDGE_HTTPS_PORT: String(s), DEMO_ORIGIN_PORT: String(o), DEMO_ORIGIN: `127.0.0.1:${o}`, LOG_LEVEL: 'warn', DATABASE_URL: '', EDGE_NODE_KEY: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    proc.stdout!.on('data', (d) => (log = (log + d).slice(-20000)));
    proc.stderr!.on('data', (d) => (log = (log + d).slice(-20000)));
    await until(() => edgeOk(), 240_000, '边缘节点应答演示域名');
  }, 300_000);

  afterAll(async () => {
    if (proc?.pid && proc.exitCode === null) {
      const exited = new Promise((r) => proc!.once('exit', r));
      proc.kill('SIGTERM');
      await Promise.race([exited, sleep(30_000)]);
    }
    const m = masterPid();
    if (m && alive(m)) process.kill(m, 'SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  test('the server killed -9: the edge answers the demo domain while the console is down, and the server comes back', async () => {
    const server = childPid('src/server/main.ts');
    expect(server).toBeGreaterThan(0);
    process.kill(server, 'SIGKILL');
    let whileDown = 0;
    for (let i = 0; i < 10; i++) {
      const up = await consoleUp();
      const ok = await edgeOk();
      expect(ok).toBe(true);
      if (!up) whileDown++;
      await sleep(100);
    }
    expect(whileDown).toBeGreaterThan(0); // the edge answered while the console was refused
    await until(async () => childPid('src/server/main.ts') > 0 && childPid('src/server/main.ts') !== server && (await consoleUp()), 120_000, '服务端重新启动');
    expect(await edgeOk()).toBe(true);
    expect(log).toContain('控制台服务端已退出');
  }, 180_000);

  test("nginx's master killed -9 under the agent: nginx comes back; the refused requests are counted", async () => {
    const r = await killMasterAndCount();
    console.log(`nginx 主进程被 kill -9（代理的子进程）：拒绝 ${r.refused} 个请求、应答 ${r.answered} 个，拒绝持续 ${r.gapMs} ms`);
    expect(r.after).not.toBe(r.before);
    expect(await edgeOk()).toBe(true);
  }, 60_000);

  test('the agent killed -9: it is started again, adopts the running nginx, and applies a change saved afterwards', async () => {
    const agent = childPid('src/edge/main.ts');
    const master = masterPid();
    expect(agent).toBeGreaterThan(0);
    process.kill(agent, 'SIGKILL');
    expect(await edgeOk()).toBe(true); // nginx serves on without its agent
    await until(() => childPid('src/edge/main.ts') > 0 && childPid('src/edge/main.ts') !== agent, 60_000, '边缘节点代理重新启动');
    expect(masterPid()).toBe(master);
    expect(alive(master)).toBe(true);
    expect(log).toContain('边缘节点代理已退出');

    // a change through the console's API reaches the node run by the new agent
    const signin = await fetch(`http://127.0.0.1:${ports.app}/accounts/signin/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'demo', password: 'demo123456' }) });
    expect(signin.status).toBe(200);
    const cookie = (signin.headers.getSetCookie?.() ?? []).map((c) => c.split(';')[0]).join('; ');
    const save = await fetch(`http://127.0.0.1:${ports.app}/api/settings/cors/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({ bucket_name: 'demo-www', enable: true, allow_origins: ['*'], allow_methods: ['GET', 'POST'], allow_headers: [], expose_headers: [], max_age: 0, allow_credentials: false }),
    });
    expect((await save.json()).result).toBe(true);
    await until(async () => {
      const r = await edgeGet(`/echo/${Math.random()}`, { origin: 'https://app.example.com' });
      return 'status' in r && r.headers['access-control-allow-origin'] === '*';
    }, 60_000, '新的代理应用了 CORS');
  }, 180_000);

  test("nginx's master killed -9 while adopted: nginx comes back; the refused requests are counted", async () => {
    const r = await killMasterAndCount();
    console.log(`nginx 主进程被 kill -9（被接管的进程）：拒绝 ${r.refused} 个请求、应答 ${r.answered} 个，拒绝持续 ${r.gapMs} ms`);
    expect(r.after).not.toBe(r.before);
    expect(await edgeOk()).toBe(true);
  }, 60_000);

  test('SIGTERM stops everything, nginx with it', async () => {
    const master = masterPid();
    const exited = new Promise<number | null>((r) => proc!.once('exit', (code) => r(code)));
    proc!.kill('SIGTERM');
    expect(await Promise.race([exited, sleep(40_000).then(() => 'timeout')])).toBe(0);
    expect(alive(master)).toBe(false);
    expect(children()).toEqual([]);
    expect('error' in (await edgeGet('/echo/after'))).toBe(true);
  }, 60_000);
});
