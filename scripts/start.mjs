#!/usr/bin/env node
/**
 * `npm start`: builds the console when dist/ is missing or older than its sources, then starts
 * the server (which migrates the database and seeds the demo on first start), the demo origin and
 * the edge node (docs/edge.md; EDGE=off runs without the edge). The node's key is made once under
 * DATA_DIR and handed to both the server and the node.
 */
// first: stops at once on another Node.js than package.json engines.node (scripts/require-node.cjs)
import './require-node.cjs';
import { spawnSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = process.env.DIST_DIR ?? path.join(root, 'dist');
const built = path.join(dist, 'index.html');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const p = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : fs.statSync(p).mtimeMs);
  }
  return newest;
}

const sources = ['src/console', 'src/shared', 'renderers', 'schemas'].map((d) => path.join(root, d));
const stale = !fs.existsSync(built) || Math.max(...sources.map(newestMtime), fs.statSync(path.join(root, 'webpack.config.ts')).mtimeMs) > fs.statSync(built).mtimeMs;
if (stale && !process.env.DIST_DIR) {
  const t0 = Date.now();
  console.log('正在构建控制台（首次约需 1 分钟）……');
  // on this process's node (the project's own, node_modules/.bin/node), not whatever `npx` finds on PATH
  const r = spawnSync(process.execPath, [path.join(root, 'node_modules/webpack/bin/webpack.js'), '--mode', 'production'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
  console.log(`控制台已构建（${Math.round((Date.now() - t0) / 1000)} 秒）。`);
}

const edgeOn = !['0', 'false', 'no', 'off'].includes(String(process.env.EDGE ?? 'on').toLowerCase());
const dataDir = path.resolve(process.env.DATA_DIR ?? path.join(root, 'data'));
const env = { ...process.env, DATA_DIR: dataDir };
if (edgeOn && !env.EDGE_NODE_KEY) {
  const keyFile = path.join(dataDir, 'edge-node.key');
  fs.mkdirSync(dataDir, { recursive: true });
  if (!fs.existsSync(keyFile)) fs.writeFileSync(keyFile, randomBytes(24).toString('base64url'), { mode: 0o600 });
  env.EDGE_NODE_KEY = fs.readFileSync(keyFile, 'utf8').trim();
}
const tsx = (file, extra = {}) => spawn(process.execPath, ['--import', 'tsx', path.join(root, file)], { cwd: root, stdio: 'inherit', env: { ...env, ...extra } });

/**
 * Supervision (docs/edge.md "Faults"): every child that exits while `npm start` is not stopping is started
 * again, after 1 s, then 2, 4 … up to 30 s while it keeps failing within a minute of its start. The edge keeps
 * serving while the server is down and while it restarts (its agent retries the control plane with backoff);
 * a new agent adopts the running nginx by its pid file. The edge is not restarted when it says it cannot run
 * (exit 3: no nginx; 2: no node key). Only Ctrl-C / SIGTERM stops everything, together.
 */
const children = new Set();
let stopping = null;
let edgeStarted = false;
const alive = (c) => c.exitCode === null && c.signalCode === null;
function supervise(label, start, { noRestart = [] } = {}) {
  let backoff = 1000;
  const run = () => {
    const child = start();
    const since = Date.now();
    children.add(child);
    child.on('exit', (code, signal) => {
      children.delete(child);
      if (stopping) return;
      if (code !== null && noRestart.includes(code)) return;
      if (Date.now() - since > 60_000) backoff = 1000;
      console.log(`${label}已退出（${signal ?? code}），${Math.round(backoff / 1000)} 秒后重新启动……`);
      setTimeout(() => !stopping && run(), backoff);
      backoff = Math.min(backoff * 2, 30_000);
    });
    return child;
  };
  return run();
}
supervise('控制台服务端', () => tsx('src/server/main.ts'));
if (edgeOn) supervise('演示源站', () => tsx('src/origin/main.ts'));
/** The edge node pulls its configuration from the server: it starts once the server answers. */
function startEdge() {
  edgeStarted = true;
  supervise('边缘节点代理', () => {
    const edge = tsx('src/edge/main.ts');
    edge.on('exit', (code) => {
      if (code === 3) console.log('控制台将在没有边缘节点的情况下运行（配置会保存，但不会在边缘生效）。');
    });
    return edge;
  }, { noRestart: [2, 3] });
}

// the address, once the console answers there (the first start migrates and seeds before it listens)
const host = process.env.HOST ?? '127.0.0.1';
const address = `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${process.env.PORT ?? 8080}/`;
const t0 = Date.now();
let ready = false;
const waitForServer = setInterval(async () => {
  if (stopping) return clearInterval(waitForServer);
  try {
    await fetch(address + 'login/', { signal: AbortSignal.timeout(2000) });
    if (stopping || ready) return;
    ready = true;
    clearInterval(waitForServer);
    console.log(`\n控制台已就绪（${Math.round((Date.now() - t0) / 1000)} 秒）：${address}  演示账号 demo / demo123456；Ctrl-C 停止。\n`);
    if (edgeOn) startEdge();
  } catch {
    // not listening yet
  }
}, 500);

/**
 * Stopping: the signal goes to every child, and this process waits until all have exited (the edge
 * node stops its nginx first), so nothing keeps answering after `npm start` ends. npm runs this
 * script under `sh -c`, which dies on SIGTERM without passing it on: a parent that goes away is
 * taken as SIGTERM too. A child still running after 20 s is killed.
 */
function stopAll(sig, code = 0) {
  if (stopping) return stopping;
  console.log('正在停止控制台、演示源站与边缘节点……');
  stopping = Promise.all(
    [...children].filter(alive).map(
      (c) =>
        new Promise((resolve) => {
          c.once('exit', resolve);
          c.kill(sig);
        }),
    ),
  ).then(async () => {
    // stopped while the agent was down (between a crash and its restart): its nginx runs on without it
    if (edgeStarted) await stopOrphanNginx();
    console.log('已停止。');
    process.exit(code);
  });
  setTimeout(() => [...children].filter(alive).forEach((c) => c.kill('SIGKILL')), 20_000).unref();
  return stopping;
}
async function stopOrphanNginx() {
  const pidFile = path.join(process.env.EDGE_DIR ?? path.join(dataDir, 'edge'), 'run', 'nginx.pid');
  let pid = 0;
  try {
    pid = Number(fs.readFileSync(pidFile, 'utf8').trim());
    if (!pid || !fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('nginx')) return;
    process.kill(pid, 'SIGQUIT');
  } catch {
    return; // none running
  }
  for (let i = 0; i < 100; i++) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    /* gone */
  }
}
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => stopAll(sig === 'SIGHUP' ? 'SIGTERM' : sig));
const parent = process.ppid;
setInterval(() => process.ppid !== parent && stopAll('SIGTERM'), 500).unref();
