/**
 * Faults (docs/edge.md "Faults"): nginx killed with -9 comes back (the fixed nginx.conf) and the agent
 * loads every service into its new workers again; the agent killed with -9 leaves nginx serving, and a
 * new agent adopts it, loads everything from version 0 and drops what was removed meanwhile.
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { startEdgeStack, type EdgeStack } from './harness';
import { currentVersion } from '../../src/server/edge/repo';
import { nginxProcessesUnder } from '../../src/edge/nginx';

let edge: EdgeStack;
const ROOT = path.resolve(__dirname, '../..');

beforeAll(async () => {
  edge = await startEdgeStack();
  await edge.waitLive();
});
afterAll(async () => {
  await edge?.close();
});

const originValue = (host: string) => ({
  protocol: 'http',
  host,
  servers: [{ address: '127.0.0.1', port: edge.origin.port, weight: 10, backup: false }],
  failover: { enable: true, timeout: 10, max_fails: 3 },
});

/** The Host the origin received for a fresh (uncached) URL. */
/**
 * The Host every one of five requests in a row reached the origin with, or null when they differ: right
 * after a reload the old workers take connections until they are told to quit, so one answer may still
 * come from the previous configuration.
 */
async function settledHost(): Promise<string | null> {
  const first = await hostAtOrigin();
  for (let i = 0; i < 4; i++) if ((await hostAtOrigin()) !== first) return null;
  return first;
}

async function hostAtOrigin(): Promise<string | null> {
  try {
    const res = await edge.request('www.demo-example.com', `/echo/${Math.random()}`);
    return res.status === 200 ? JSON.parse(res.text).headers.host : null;
  } catch {
    return null;
  }
}

async function until<T>(fn: () => Promise<T>, ok: (v: T) => boolean, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  let v = await fn();
  while (!ok(v) && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 100));
    v = await fn();
  }
  return v;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return !fs.readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');
  } catch {
    return false;
  }
};
const masterPidOr = (fallback: number) => {
  try {
    return masterPid();
  } catch {
    return fallback;
  }
};
/** nginx processes (master, workers, cache processes) with files open under the node's folder: the agent's own scan. */
const nginxUnder = nginxProcessesUnder;

const masterPid = () => Number(fs.readFileSync(path.join(edge.dir, 'run', 'nginx.pid'), 'utf8').trim());

function agentProcess(): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/edge/main.ts')], {
    cwd: ROOT,
    stdio: 'ignore',
    env: {
      ...process.env,
      EDGE_CONTROL_URL: edge.url,
      EDGE_NODE_KEY: edge.key,
      EDGE_NODE_NAME: 'test',
      EDGE_DIR: edge.dir,
      EDGE_HTTP_PORT: String(edge.ports.http),
      EDGE_HTTPS_PORT: String(edge.ports.https),
    },
  });
}

/** What the workers hold (the admin socket's /state): the number of services. */
const heldServices = async () => ((await edge.agent.admin('/state')) as { services: number }).services;

test('nginx killed with -9 is started again, and every service is loaded into its new workers', async () => {
  await edge.saveLive('demo-www', 'origin', originValue('first.origin.example'));
  expect(await hostAtOrigin()).toBe('first.origin.example');
  const services = await heldServices();
  expect(services).toBeGreaterThan(10);
  const starts = edge.agent.starts;
  const before = masterPid();
  process.kill(before, 'SIGKILL');
  // the agent sees its child die, stops the orphaned workers and starts a new master on conf/
  const pidNow = async () => {
    try {
      return masterPid();
    } catch {
      return before;
    }
  };
  expect(await until(pidNow, (p) => p !== before && edge.agent.nginx.running)).not.toBe(before);
  expect(await until(hostAtOrigin, (h) => h === 'first.origin.example')).toBe('first.origin.example');
  // a new master starts with empty shared dictionaries: the agent loaded them all again, without a reload
  expect(await heldServices()).toBe(services);
  expect((await edge.request('act1.demo-example.com', '/css/site.css')).status).toBe(200);
  expect(edge.agent.starts).toBe(starts + 1);
  expect(edge.agent.reloads).toBe(0);
});

test('the agent killed with -9: nginx keeps serving; a new agent adopts it and applies what changed meanwhile', async () => {
  // hand the node over to an agent in its own process
  await edge.agent.stop({ keepNginx: true });
  const pid = masterPid();
  let agent = agentProcess();
  await edge.save('demo-www', 'origin', originValue('second.origin.example'));
  expect(await until(settledHost, (h) => h === 'second.origin.example')).toBe('second.origin.example');
  expect(masterPid()).toBe(pid); // adopted, not started again

  agent.kill('SIGKILL');
  await new Promise((r) => agent.once('exit', r));
  // no agent: nginx still serves the last configuration, and a change waits — a domain removed too
  expect(await hostAtOrigin()).toBe('second.origin.example');
  await edge.save('demo-www', 'origin', originValue('third.origin.example'));
  const gone = 'img-www.demo-example.com';
  const removed = await edge.client.request({ method: 'DELETE', url: '/api/account/domains/', payload: { bucket_name: 'demo-www', domain: gone } });
  expect(removed.statusCode).toBe(200);
  await new Promise((r) => setTimeout(r, 500));
  expect(await hostAtOrigin()).toBe('second.origin.example');
  expect((await edge.request(gone, '/css/site.css')).status).toBe(200);

  agent = agentProcess();
  try {
    expect(await until(hostAtOrigin, (h) => h === 'third.origin.example')).toBe('third.origin.example');
    expect(masterPid()).toBe(pid);
    // the new agent loaded from version 0 and learnt what the adopted workers held: the removed domain is dropped
    expect(await until(async () => (await edge.request(gone, '/css/site.css')).status, (st) => st === 404)).toBe(404);
    // the agent reports after it loaded the workers: the answer can come before the report
    const current = await currentVersion(edge.server.db);
    const applied = async () => JSON.parse((await edge.client.get('/api/buckets/edge/?bucket_name=demo-www')).body).data.applied_version as number;
    expect(await until(applied, (v) => v >= current)).toBeGreaterThanOrEqual(current);

    // both killed: the workers of the killed master go on serving what they had (nginx's own way), and
    // the next agent stops them and starts a master of its own with the last good configuration
    agent.kill('SIGKILL');
    await new Promise((r) => agent.once('exit', r));
    const killed = masterPid();
    process.kill(killed, 'SIGKILL');
    await until(async () => alive(killed), (a) => !a, 5000);
    const orphans = nginxUnder(edge.dir);
    expect(orphans.length).toBeGreaterThan(0);
    agent = agentProcess();
    const fresh = await until(async () => (alive(masterPidOr(killed)) ? masterPidOr(killed) : killed), (p) => p !== killed, 20_000);
    expect(fresh).not.toBe(killed);
    expect(orphans.filter(alive)).toEqual([]);
    expect(await until(hostAtOrigin, (h) => h === 'third.origin.example')).toBe('third.origin.example');
  } finally {
    if (agent.exitCode === null) {
      agent.kill('SIGTERM');
      await new Promise((r) => agent.once('exit', r));
    }
  }
  // the agent stopped on SIGTERM stops its nginx: no master or worker of this node is left
  expect(nginxUnder(edge.dir)).toEqual([]);
});
