/**
 * The edge agent: pulls the configuration from the control plane (long poll by version), compiles it
 * (./compile), tests it with `nginx -t`, swaps it in and reloads nginx, and reports what happened. A
 * service nginx refuses is left out of the apply (its previous configuration stays live) and reported,
 * without touching the others. docs/edge.md.
 *
 * It talks to the control plane only over HTTP (./control.ts) and imports only schemas/ and src/shared/.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadEdgeCompilers } from '../../schemas/edge';
import type { EdgeCompiler } from '../../schemas/edge';
import type { EdgeApplyReport, EdgeService, EdgeServiceReport } from '../shared/edge';
import { compileService, type CompiledService, type CompileOptions } from './compile/service';
import { compileMain, type NodeOptions } from './compile/main';
import { NginxProcess, nginxAvailable, testConfig } from './nginx';
import { ControlPlane } from './control';
import { startPurgeRunner, type PurgeRunner } from './purge/runner';
import { LogShipper } from './logs/shipper';

export interface AgentOptions {
  controlUrl: string;
  nodeKey: string;
  nodeName: string;
  /** The node's prefix folder (DATA_DIR/edge). */
  dir: string;
  ports: { http: number; https: number };
  listen?: string;
  workers?: number;
  cacheMaxSize?: string;
  /** How long a long poll waits (seconds). */
  pollWait?: number;
  log?: (msg: string) => void;
}

export interface ApplyResult {
  version: number;
  ok: boolean;
  message?: string;
  refused: EdgeServiceReport[];
  timings: { compile: number; test: number; reload: number };
}

const LUA_DIR = path.join(__dirname, 'lua');
/** Debian's country database (geoip-database), read by nginx's geoip module for $_GEOIP_COUNTRY_CODE. */
const GEOIP_COUNTRY = '/usr/share/GeoIP/GeoIP.dat';
const PAGES_DIR = path.join(__dirname, 'pages');

export class EdgeAgent {
  readonly nginx: NginxProcess;
  readonly control: ControlPlane;
  /** The configuration as last pulled, by service id. */
  private desired = new Map<number, EdgeService>();
  /** What runs in nginx now, by service id. */
  private live = new Map<number, CompiledService>();
  private compilers: Map<string, EdgeCompiler>;
  private version = 0;
  private stopped = false;
  private loop: Promise<void> | null = null;
  private readonly node: NodeOptions;
  private readonly log: (msg: string) => void;
  /** Every finished apply (tests and the benchmark wait on it). */
  readonly applied: ApplyResult[] = [];
  private waiters: (() => void)[] = [];
  /** Purge and preheat on this node's cache (./purge/runner.ts, docs/operations-tools.md). */
  purge: PurgeRunner | null = null;
  /** Reads the access log and reports the traffic (./logs/shipper.ts, docs/statistics.md "Edge traffic"). */
  // assigned in the constructor: a field initializer runs before `opts` is set under tsx (define semantics)
  readonly traffic: LogShipper;

  constructor(readonly opts: AgentOptions) {
    const dir = path.resolve(opts.dir);
    const root = process.getuid?.() === 0;
    this.node = {
      prefix: dir,
      runDir: path.join(dir, 'run'),
      logsDir: path.join(dir, 'logs'),
      cacheDir: path.join(dir, 'cache'),
      tmpDir: path.join(dir, 'tmp'),
      luaDir: LUA_DIR,
      pagesDir: PAGES_DIR,
      listen: opts.listen ?? '127.0.0.1',
      ports: opts.ports,
      controlUrl: opts.controlUrl,
      user: root ? 'nobody nogroup' : undefined,
      workers: opts.workers ?? Math.min(2, os.cpus().length),
      nodeKey: opts.nodeKey,
      cacheMaxSize: opts.cacheMaxSize ?? '2g',
      geoipCountry: fs.existsSync(GEOIP_COUNTRY) && fs.existsSync('/usr/lib/nginx/modules/ngx_http_geoip_module.so') ? GEOIP_COUNTRY : undefined,
    };
    this.nginx = new NginxProcess(dir, path.join(dir, 'conf', 'nginx.conf'), path.join(this.node.runDir, 'nginx.pid'));
    this.control = new ControlPlane(opts.controlUrl, opts.nodeKey);
    this.compilers = loadEdgeCompilers();
    this.log = opts.log ?? ((m) => console.log(`[edge] ${m}`));
    this.traffic = new LogShipper({ dir: opts.dir, controlUrl: opts.controlUrl, nodeKey: opts.nodeKey, nodeName: opts.nodeName, log: (m) => this.log(m) });
  }

  get compileOptions(): CompileOptions {
    return this.node;
  }

  /** The configuration version nginx runs. */
  get runningVersion(): number {
    return this.version;
  }

  /** Prepares the folders, starts nginx with the last good configuration (or an empty one), then follows the control plane. */
  async start(): Promise<void> {
    if (!nginxAvailable()) throw new Error('未找到 nginx（/usr/sbin/nginx）。请先运行：sudo apt-get install -y nginx libnginx-mod-http-lua libnginx-mod-http-brotli-filter libnginx-mod-stream');
    const n = this.node;
    for (const d of [n.prefix, n.runDir, n.logsDir, n.cacheDir, n.tmpDir, path.join(n.prefix, 'conf', 'services'), path.join(n.prefix, 'conf', 'certs')]) fs.mkdirSync(d, { recursive: true });
    if (n.user) this.chownForWorkers();
    const conf = path.join(n.prefix, 'conf', 'nginx.conf');
    if (!fs.existsSync(conf) || !testConfig(n.prefix, conf).ok) {
      // nothing good on disk: an empty node (every host answers 该域名未接入本节点)
      fs.rmSync(path.join(n.prefix, 'conf'), { recursive: true, force: true });
      this.writeTree(path.join(n.prefix, 'conf'), []);
    }
    this.nginx.onExit = (code) => {
      if (this.stopped) return;
      this.log(`nginx 意外退出（${code}），以最后一次成功的配置重新启动`);
      this.nginx.start().catch((e) => this.log(String(e)));
    };
    await this.nginx.start();
    this.loop = this.follow();
    this.purge = startPurgeRunner(this, this.node, this.log);
    this.traffic.start();
  }

  async stop(opts: { keepNginx?: boolean } = {}): Promise<void> {
    this.stopped = true;
    this.control.abort();
    await this.loop?.catch(() => undefined);
    await this.purge?.stop();
    await this.traffic.stop();
    if (!opts.keepNginx) await this.nginx.stop();
  }

  /** Resolves when an apply of at least `version` has finished (or after `ms`). */
  async waitForVersion(version: number, ms = 10_000): Promise<boolean> {
    const until = Date.now() + ms;
    while (this.version < version && Date.now() < until) {
      await new Promise<void>((r) => {
        this.waiters.push(r);
        setTimeout(r, 200);
      });
    }
    return this.version >= version;
  }

  private async follow(): Promise<void> {
    let backoff = 500;
    while (!this.stopped) {
      try {
        // nginx killed while we waited: the supervisor starts it again; an adopted master is polled
        if (!this.nginx.running && !this.stopped) await this.nginx.start();
        const answer = await this.control.config(this.version, this.version === 0 ? 0 : this.opts.pollWait ?? 20);
        backoff = 500;
        if (!answer.changed) continue;
        await this.apply(answer.version, answer.services, answer.ids);
      } catch (e) {
        if (this.stopped) return;
        this.log(`与控制面通信失败：${(e as Error).message}，${backoff} ms 后重试`);
        await new Promise((r) => setTimeout(r, backoff));
        backoff = Math.min(backoff * 2, 10_000);
      }
    }
  }

  /** Compiles, tests, swaps and reloads; reports to the control plane. */
  async apply(version: number, changed: EdgeService[], ids: number[]): Promise<ApplyResult> {
    const t0 = Date.now();
    const keep = new Set(ids);
    for (const id of [...this.desired.keys()]) if (!keep.has(id)) this.desired.delete(id);
    for (const s of changed) this.desired.set(s.id, s);

    const candidate = new Map<number, CompiledService>();
    for (const [id, c] of this.live) if (keep.has(id)) candidate.set(id, c);
    const reports = new Map<number, EdgeServiceReport>();
    for (const s of changed) {
      const c = compileService(s, this.compilers, this.node);
      if (c.error) {
        reports.set(s.id, { id: s.id, version: s.version, state: 'refused', message: c.error });
        continue;
      }
      candidate.set(s.id, c);
      reports.set(s.id, { id: s.id, version: s.version, state: 'applied', ...(Object.keys(c.notes).length ? { notes: c.notes } : {}) });
    }
    const tCompile = Date.now() - t0;

    // nginx -t; a refusal that names a service's file leaves that service on its previous configuration
    const next = path.join(this.node.prefix, 'conf.next');
    let test = { ok: false, output: '' };
    const t1 = Date.now();
    for (let round = 0; round < 50; round++) {
      fs.rmSync(next, { recursive: true, force: true });
      this.writeTree(next, [...candidate.values()]);
      test = testConfig(this.node.prefix, path.join(next, 'nginx.conf'));
      if (test.ok) break;
      const culprits = this.culprits(test.output, candidate);
      if (!culprits.length) break;
      for (const id of culprits) {
        const s = this.desired.get(id);
        reports.set(id, { id, version: s?.version ?? 0, state: 'refused', message: `边缘节点（nginx）拒绝了该服务的配置：${cleanNginxMessage(test.output)}` });
        const old = this.live.get(id);
        if (old && old !== candidate.get(id)) candidate.set(id, old);
        else candidate.delete(id);
      }
    }
    const tTest = Date.now() - t1;
    if (!test.ok) {
      const message = `边缘节点配置测试未通过，继续使用上一次成功的配置：${cleanNginxMessage(test.output)}`;
      this.log(message);
      const result: ApplyResult = { version: this.version, ok: false, message, refused: [], timings: { compile: tCompile, test: tTest, reload: 0 } };
      await this.report({ node: this.opts.nodeName, version, ok: false, message, timings: result.timings, services: [] });
      return result;
    }
    // swap the tested tree in, then reload
    const t2 = Date.now();
    const live = path.join(this.node.prefix, 'conf');
    const old = path.join(this.node.prefix, 'conf.old');
    fs.rmSync(old, { recursive: true, force: true });
    if (fs.existsSync(live)) fs.renameSync(live, old);
    fs.renameSync(next, live);
    this.live = candidate;
    await this.nginx.reload();
    const tReload = Date.now() - t2;
    const timings = { compile: tCompile, test: tTest, reload: tReload };
    const services = [...reports.values()];
    const refused = services.filter((r) => r.state === 'refused');
    const result: ApplyResult = { version, ok: true, refused, timings };
    this.log(`已应用配置版本 ${version}：${changed.length} 个服务有变化，${refused.length} 个被拒绝（编译 ${tCompile} ms，测试 ${tTest} ms，重载 ${tReload} ms）`);
    await this.report({ node: this.opts.nodeName, version, ok: true, timings, services });
    // the version counts as running once the control plane has heard of it (the console's status agrees)
    this.version = version;
    this.applied.push(result);
    if (this.applied.length > 100) this.applied.shift();
    this.waiters.splice(0).forEach((w) => w());
    return result;
  }

  private async report(r: EdgeApplyReport): Promise<void> {
    try {
      await this.control.report(r);
    } catch (e) {
      this.log(`报告失败：${(e as Error).message}`);
    }
  }

  /** The services a `nginx -t` message blames: their file, or a certificate file they use. */
  private culprits(output: string, candidate: Map<number, CompiledService>): number[] {
    const ids = new Set<number>();
    for (const m of output.matchAll(/services\/s(\d+)\.conf/g)) ids.add(Number(m[1]));
    for (const m of output.matchAll(/certs\/c(\d+)\.(?:crt|key)/g)) {
      for (const c of candidate.values()) if (Object.keys(c.files).some((f) => f.startsWith(`certs/c${m[1]}.`))) ids.add(c.id);
    }
    return [...ids].filter((id) => candidate.has(id));
  }

  /** Writes nginx.conf, the services' files and their certificates into `dir`. */
  private writeTree(dir: string, services: CompiledService[]): void {
    fs.mkdirSync(path.join(dir, 'services'), { recursive: true });
    fs.mkdirSync(path.join(dir, 'certs'), { recursive: true, mode: 0o700 });
    const liveDir = path.join(this.node.prefix, 'conf');
    for (const s of services) {
      const file = path.join(dir, 'services', `s${s.id}.conf`);
      const same = this.live.get(s.id) === s && dir !== liveDir;
      const from = path.join(liveDir, 'services', `s${s.id}.conf`);
      if (same && fs.existsSync(from)) fs.linkSync(from, file);
      else fs.writeFileSync(file, s.text);
      for (const [name, text] of Object.entries(s.files)) {
        const f = path.join(dir, name);
        if (!fs.existsSync(f)) fs.writeFileSync(f, text, { mode: 0o600 });
      }
    }
    fs.writeFileSync(path.join(dir, 'nginx.conf'), compileMain(services, this.node), { mode: 0o600 });
  }

  /**
   * Workers run as nobody when nginx starts as root: the folders they write are theirs. When nobody
   * cannot reach the node's folder (a parent closed to others, as mkdtemp makes them), they run as root.
   */
  private chownForWorkers(): void {
    const ids = nobodyIds();
    try {
      fs.chmodSync(this.node.prefix, 0o755);
    } catch {
      /* not ours */
    }
    if (!ids || !reachableByOthers(this.node.prefix)) {
      this.node.user = 'root root';
      return;
    }
    for (const d of [this.node.cacheDir, this.node.tmpDir]) {
      try {
        fs.chownSync(d, ids.uid, ids.gid);
      } catch {
        /* not ours to change */
      }
    }
  }
}

/** Every folder from / down to `dir` lets others through (o+x). */
function reachableByOthers(dir: string): boolean {
  let d = path.resolve(dir);
  for (;;) {
    try {
      if (!(fs.statSync(d).mode & 0o001)) return false;
    } catch {
      return false;
    }
    const up = path.dirname(d);
    if (up === d) return true;
    d = up;
  }
}

function nobodyIds(): { uid: number; gid: number } | null {
  try {
    const line = fs.readFileSync('/etc/passwd', 'utf8').split('\n').find((l) => l.startsWith('nobody:'));
    if (!line) return null;
    const [, , uid, gid] = line.split(':');
    const group = fs.readFileSync('/etc/group', 'utf8').split('\n').find((l) => l.startsWith('nogroup:'));
    return { uid: Number(uid), gid: group ? Number(group.split(':')[2]) : Number(gid) };
  } catch {
    return null;
  }
}

/** nginx's message without its prefix and our folders. */
export function cleanNginxMessage(output: string): string {
  return output
    .split('\n')
    .filter((l) => /\[(emerg|alert|crit|error)\]/.test(l))
    .map((l) => l.replace(/^nginx: \[\w+\]\s*/, '').replace(/\/[^\s"]*\/conf\.next\//g, ''))
    .join('；')
    .slice(0, 1000) || output.slice(0, 1000);
}
