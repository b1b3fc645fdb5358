/**
 * The edge agent: pulls the configuration from the control plane (long poll by version), compiles each
 * changed service into data (./compile/service.ts) and loads it into nginx's workers through the node's
 * admin socket (src/edge/lua/edge_core.lua) — no `nginx -t`, no reload: nginx.conf is fixed
 * (./compile/main.ts) and is tested and reloaded only when the node itself changes. A service the workers
 * cannot use is refused alone (its previous version stays); the others go ahead. docs/edge.md.
 *
 * It talks to the control plane only over HTTP (./control.ts) and imports only schemas/ and src/shared/.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import dns from 'node:dns';
import { execFileSync } from 'node:child_process';
import { loadEdgeCompilers, type EdgeSettingFolder } from '../../schemas/edge';
import { settingsDir } from '../../schemas/load';
import { EDGE_TEXTS, type EdgeApplyReport, type EdgeService, type EdgeServiceReport } from '../shared/edge';
import { compileService, type CompiledService, type CompileOptions } from './compile/service';
import { compileNode, type NodeOptions } from './compile/main';
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
  /** Services per page of the first pull (GET /edge/v1/config?from=&limit=, at most EDGE_CONFIG_PAGE_MAX); unset: one answer. */
  pullPage?: number;
  log?: (msg: string) => void;
}

export interface ApplyResult {
  version: number;
  ok: boolean;
  message?: string;
  refused: EdgeServiceReport[];
  timings: { compile: number; load: number };
}

const LUA_DIR = path.join(__dirname, 'lua');
/** Debian's country database (geoip-database), read by nginx's geoip module for $_GEOIP_COUNTRY_CODE. */
const GEOIP_COUNTRY = '/usr/share/GeoIP/GeoIP.dat';
const PAGES_DIR = path.join(__dirname, 'pages');
/** Services per admin call when the whole node is loaded (after a start). */
const LOAD_BATCH = 1000;

export class EdgeAgent {
  readonly nginx: NginxProcess;
  readonly control: ControlPlane;
  /** The configuration as last pulled, by service id. */
  private desired = new Map<number, EdgeService>();
  /** What the workers hold now, by service id. */
  private live = new Map<number, CompiledService>();
  /** Host → the service that holds it in the workers; HTTPS name → the service whose socket file it is. */
  private hostOwner = new Map<string, number>();
  private sniOwner = new Map<string, number>();
  /** Services an earlier agent loaded into the nginx this one adopted, not loaded by this one yet (dropped when gone). */
  private compilers: Map<string, EdgeSettingFolder>;
  private version = 0;
  private stopped = false;
  private loop: Promise<void> | null = null;
  private readonly node: NodeOptions & CompileOptions;
  private readonly log: (msg: string) => void;
  /** Every finished apply (tests and the benchmark wait on it). */
  readonly applied: ApplyResult[] = [];
  private waiters: (() => void)[] = [];
  /** nginx reloads since this agent started (only a change of the fixed part reloads). */
  reloads = 0;
  /** nginx starts since this agent started (each loads every service again). */
  starts = 0;
  private resolved = new Map<string, string>();
  /** Purge and preheat on this node's cache (./purge/runner.ts, docs/operations-tools.md). */
  purge: PurgeRunner | null = null;
  /** Reads the access log and reports the traffic (./logs/shipper.ts, docs/statistics.md "Edge traffic"). */
  // assigned in the constructor: a field initializer runs before `opts` is set under tsx (define semantics)
  readonly traffic: LogShipper;
  private loading: Promise<void> = Promise.resolve();
  private restarting: Promise<void> | null = null;
  /** The ids of the last answer (every service that exists). */
  private lastIds: number[] | null = null;
  private watchdog: NodeJS.Timeout | null = null;
  /** nginx was running when this agent started: its first full load sweeps what an earlier agent left. */
  private sweepAfterLoad = false;

  constructor(readonly opts: AgentOptions) {
    const dir = path.resolve(opts.dir);
    const root = process.getuid?.() === 0;
    const runDir = path.join(dir, 'run');
    this.node = {
      prefix: dir,
      runDir,
      logsDir: path.join(dir, 'logs'),
      cacheDir: path.join(dir, 'cache'),
      tmpDir: path.join(dir, 'tmp'),
      luaDir: LUA_DIR,
      schemasDir: path.dirname(settingsDir()),
      pagesDir: PAGES_DIR,
      listen: opts.listen ?? '127.0.0.1',
      ports: opts.ports,
      controlUrl: opts.controlUrl,
      controlIp: '127.0.0.1',
      user: root ? 'nobody nogroup' : undefined,
      workers: opts.workers ?? Math.min(2, os.cpus().length),
      nodeKey: opts.nodeKey,
      cacheMaxSize: opts.cacheMaxSize ?? '2g',
      geoipCountry: fs.existsSync(GEOIP_COUNTRY) && fs.existsSync('/usr/lib/nginx/modules/ngx_http_geoip_module.so') ? GEOIP_COUNTRY : undefined,
      fallbackCert: path.join(dir, 'conf', 'fallback.crt'),
      fallbackKey: path.join(dir, 'conf', 'fallback.key'),
      resolve: (name) => this.resolved.get(name),
    };
    this.nginx = new NginxProcess(dir, path.join(dir, 'conf', 'nginx.conf'), path.join(runDir, 'nginx.pid'));
    this.control = new ControlPlane(opts.controlUrl, opts.nodeKey);
    this.compilers = loadEdgeCompilers();
    this.log = opts.log ?? ((m) => console.log(`[edge] ${m}`));
    this.traffic = new LogShipper({ dir: opts.dir, controlUrl: opts.controlUrl, nodeKey: opts.nodeKey, nodeName: opts.nodeName, log: (m) => this.log(m) });
  }

  get compileOptions(): CompileOptions {
    return this.node;
  }

  /** The configuration version the workers run. */
  get runningVersion(): number {
    return this.version;
  }

  /** The service whose data the workers hold a host under (lower case, as loaded), if any: the cache key's service (purges). */
  serviceOfHost(host: string): number | undefined {
    return this.hostOwner.get(host.toLowerCase());
  }

  /** Prepares the folders and the fixed nginx.conf, starts nginx (or adopts it), then follows the control plane. */
  async start(): Promise<void> {
    if (!nginxAvailable()) throw new Error('未找到 nginx（/usr/sbin/nginx）。请先运行：sudo apt-get install -y nginx libnginx-mod-http-lua libnginx-mod-http-brotli-filter libnginx-mod-stream libnginx-mod-stream-js lua-cjson');
    const n = this.node;
    for (const d of [n.prefix, n.runDir, path.join(n.runDir, 'sni'), n.logsDir, n.cacheDir, n.tmpDir, path.join(n.prefix, 'conf')]) fs.mkdirSync(d, { recursive: true });
    if (n.user) this.chownForWorkers();
    await this.resolveControl();
    if (!fs.existsSync(n.fallbackCert)) this.fallbackCertificate();
    const conf = path.join(n.prefix, 'conf', 'nginx.conf');
    const text = compileNode(n);
    const before = fs.existsSync(conf) ? fs.readFileSync(conf, 'utf8') : null;
    if (before !== text) {
      // the fixed part changed (a new node version): tested first, then reloaded if nginx already runs
      const next = conf + '.next';
      fs.writeFileSync(next, text, { mode: 0o600 });
      const t = testConfig(n.prefix, next);
      if (!t.ok) throw new Error(`边缘节点的 nginx 配置测试未通过：${cleanNginxMessage(t.output)}`);
      fs.renameSync(next, conf);
    }
    this.nginx.onExit = (code) => {
      if (this.stopped) return;
      this.log(`nginx 意外退出（${code}），重新启动并重新加载全部服务`);
      this.restartNginx().catch((e) => this.log(String(e)));
    };
    const adopted = this.nginx.adopt();
    this.sweepAfterLoad = adopted;
    if (adopted && before !== text) {
      await this.nginx.reload();
      this.reloads++;
    }
    if (!adopted) {
      // sni files of an earlier run: the workers' data is loaded again from version 0, and so are they
      fs.rmSync(path.join(n.runDir, 'sni'), { recursive: true, force: true });
      fs.mkdirSync(path.join(n.runDir, 'sni'), { recursive: true });
      await this.nginx.start();
      this.starts++;
    }
    this.loop = this.follow();
    // an adopted master is not this process's child: its death is seen by looking, every second
    this.watchdog = setInterval(() => {
      if (this.stopped || this.restarting || this.nginx.running) return;
      this.log('nginx 主进程已不在运行，重新启动并重新加载全部服务');
      this.restartNginx().catch((e) => this.log(String(e)));
    }, 1000);
    this.watchdog.unref();
    this.purge = startPurgeRunner(this, this.node, this.log);
    this.traffic.start();
  }

  async stop(opts: { keepNginx?: boolean } = {}): Promise<void> {
    this.stopped = true;
    if (this.watchdog) clearInterval(this.watchdog);
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

  /** nginx died: start it again and load every service into its new workers before anything else. */
  private async restartNginx(): Promise<void> {
    if (this.restarting) return this.restarting;
    this.restarting = (async () => {
      await this.nginx.start();
      this.starts++;
      const all = [...this.live.values()];
      this.hostOwner.clear();
      this.loading = this.loadAll(all);
      await this.loading;
    })().finally(() => (this.restarting = null));
    return this.restarting;
  }

  private async loadAll(all: CompiledService[]): Promise<void> {
    for (let i = 0; i < all.length; i += LOAD_BATCH) {
      const batch = all.slice(i, i + LOAD_BATCH);
      await this.admin('/load', { services: batch.map((c) => ({ id: c.id, v: c.version, json: c.json, hosts: c.hosts })), certs: certsOf(batch), state: { version: this.version } });
      for (const c of batch) for (const h of c.hosts) this.hostOwner.set(h, c.id);
    }
  }

  private async follow(): Promise<void> {
    let backoff = 500;
    while (!this.stopped) {
      try {
        // nginx killed while we waited: the supervisor starts it again; an adopted master is polled
        if (!this.nginx.running && !this.stopped) await this.restartNginx();
        await this.loading;
        if (this.version === 0) {
          await this.pullAll();
          backoff = 500;
          continue;
        }
        const answer = await this.control.config(this.version, this.opts.pollWait ?? 20);
        if (answer.changed) await this.apply(answer.version, answer.services, answer.ids);
        backoff = 500;
      } catch (e) {
        if (this.stopped) return;
        this.log(`与控制面或 nginx 通信失败：${(e as Error).message}，${backoff} ms 后重试`);
        await new Promise((r) => setTimeout(r, backoff));
        backoff = Math.min(backoff * 2, 10_000);
      }
    }
  }

  /**
   * The first pull, of every service, in pages (a node of 100,000 services would otherwise take one answer of
   * hundreds of MB): each page is loaded as it comes; the version is the first page's (a service changed while
   * the pages came is sent again after it), and the last page names every service, so that the gone are dropped.
   */
  private async pullAll(): Promise<void> {
    let from = 0;
    let first: number | null = null;
    for (;;) {
      // paged only when asked (pullPage): with pages, nodes.test.ts on PostgreSQL saw a node run version 0
      // after 184 (not understood yet; docs/edge.md "How it scales"), so the default is one answer as before
      const page = this.opts.pullPage ? await this.control.config(0, 0, { from, limit: this.opts.pullPage }) : await this.control.config(0, 0);
      first ??= page.version;
      if (page.next == null) {
        await this.apply(first, page.services, page.ids);
        return;
      }
      await this.apply(first, page.services, null);
      from = page.next;
    }
  }

  /** Reports of a paged pull's earlier pages, sent with its last one. */
  private partial = new Map<number, EdgeServiceReport>();

  /**
   * Compiles the changed services, loads them into the workers, drops the gone ones; reports to the control
   * plane. `ids` null: a page of a paged pull, loaded and kept for the report of its last page.
   */
  async apply(version: number, changed: EdgeService[], ids: number[] | null): Promise<ApplyResult> {
    const t0 = Date.now();
    // the services that exist: the same list as last time (the usual case) costs one comparison, not a set
    const same = ids === null || (this.lastIds !== null && this.lastIds.length === ids.length && ids.every((id, i) => id === this.lastIds![i]));
    const keep = same ? null : new Set(ids);
    if (ids) this.lastIds = ids;
    if (keep) for (const id of [...this.desired.keys()]) if (!keep.has(id)) this.desired.delete(id);
    for (const s of changed) this.desired.set(s.id, s);
    await this.resolveOrigins(changed);

    const reports = new Map<number, EdgeServiceReport>();
    const candidates: CompiledService[] = [];
    for (const s of changed) {
      const c = compileService(s, this.compilers, this.node);
      if (c.error) {
        reports.set(s.id, { id: s.id, version: s.version, state: 'refused', message: c.error });
        continue;
      }
      candidates.push(c);
      reports.set(s.id, { id: s.id, version: s.version, state: 'applied', ...(Object.keys(c.notes).length ? { notes: c.notes } : {}) });
    }
    const tCompile = Date.now() - t0;
    const t1 = Date.now();
    const dropped = keep ? [...this.live.keys()].filter((id) => !keep.has(id)) : [];
    const accepted: CompiledService[] = [];
    for (let i = 0; i < candidates.length || (i === 0 && dropped.length); i += LOAD_BATCH) {
      const batch = candidates.slice(i, i + LOAD_BATCH);
      const answer = await this.admin('/load', {
        services: batch.map((c) => ({ id: c.id, v: c.version, json: c.json, hosts: c.hosts })),
        certs: certsOf(batch),
        drop: i === 0 ? dropped : [],
      });
      const byId = new Map(batch.map((c) => [c.id, c]));
      for (const r of (answer as { results: { id?: number; error?: string }[] }).results ?? []) {
        if (r.id == null) continue;
        const c = byId.get(r.id);
        if (!c) continue;
        if (r.error) reports.set(c.id, { id: c.id, version: c.version, state: 'refused', message: `${EDGE_TEXTS.refusedByNode}${r.error}` });
        else accepted.push(c);
      }
    }
    // hosts no service holds any more (a domain removed, a service dropped): only those of the services
    // that changed, so that a change costs the same with 100 or 100,000 services on the node
    const maybeGone: string[] = [];
    for (const id of dropped) {
      maybeGone.push(...(this.live.get(id)?.hosts ?? []));
      this.live.delete(id);
    }
    for (const c of accepted) {
      const old = this.live.get(c.id);
      if (old) for (const h of old.hosts) if (!c.hosts.includes(h)) maybeGone.push(h);
      this.live.set(c.id, c);
    }
    for (const c of accepted) for (const h of c.hosts) this.hostOwner.set(h, c.id);
    const gone = maybeGone.filter((h) => {
      const owner = this.hostOwner.get(h);
      return owner === undefined || !this.live.get(owner)?.hosts.includes(h);
    });
    if (gone.length) await this.admin('/load', { unhost: gone });
    for (const h of gone) this.hostOwner.delete(h);
    this.writeSni(accepted, dropped);
    if (this.sweepAfterLoad && this.version === 0 && ids !== null) await this.sweep(refusedIds([...this.partial, ...reports]));
    await this.admin('/load', { state: { version } });
    const tLoad = Date.now() - t1;

    const timings = { compile: tCompile, load: tLoad };
    if (ids === null) {
      for (const [id, r] of reports) this.partial.set(id, r);
      return { version, ok: true, refused: [...reports.values()].filter((r) => r.state === 'refused'), timings };
    }
    for (const [id, r] of this.partial) if (!reports.has(id)) reports.set(id, r);
    this.partial.clear();
    const services = [...reports.values()];
    const refused = services.filter((r) => r.state === 'refused');
    const result: ApplyResult = { version, ok: true, refused, timings };
    if (changed.length || dropped.length) this.log(`已应用配置版本 ${version}：${changed.length} 个服务有变化，${refused.length} 个被拒绝（编译 ${tCompile} ms，加载 ${tLoad} ms）`);
    await this.report({ node: this.opts.nodeName, version, ok: true, timings: { ...timings, reloads: this.reloads }, services });
    // the version counts as running once the control plane has heard of it (the console's status agrees)
    this.version = version;
    this.applied.push(result);
    if (this.applied.length > 100) this.applied.shift();
    this.waiters.splice(0).forEach((w) => w());
    return result;
  }

  /** Removes what the workers and the SNI folder hold beyond what this agent loaded (an earlier agent's gone services). */
  private async sweep(refused: number[]): Promise<void> {
    this.sweepAfterLoad = false;
    const live = [...this.live.values()];
    // a service refused now keeps what an earlier agent loaded for it (its previous version), hosts included
    await this.admin('/sweep', { ids: live.map((c) => c.id), refused, hosts: live.flatMap((c) => c.hosts) });
    const dir = path.join(this.node.runDir, 'sni');
    for (const name of fs.readdirSync(dir)) if (!this.sniOwner.has(name)) fs.rmSync(path.join(dir, name), { force: true });
    for (const c of live) for (const h of c.hosts) this.hostOwner.set(h, c.id);
  }

  /** The SNI router's files (run/sni/<name>: the name's socket), written atomically. */
  private writeSni(accepted: CompiledService[], dropped: number[]): void {
    const dir = path.join(this.node.runDir, 'sni');
    const want = new Map<string, [number, string]>();
    for (const c of accepted) for (const [name, socket] of Object.entries(c.sni)) want.set(name, [c.id, socket]);
    const touched = new Set([...accepted.map((c) => c.id), ...dropped]);
    for (const [name, id] of this.sniOwner) {
      if (!touched.has(id) || want.has(name)) continue;
      const holder = this.live.get(id);
      if (holder?.sni[name]) continue;
      fs.rmSync(path.join(dir, name), { force: true });
      this.sniOwner.delete(name);
    }
    for (const [name, [id, socket]] of want) {
      const file = path.join(dir, name);
      const tmp = `${file}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, socket);
      fs.renameSync(tmp, file);
      this.sniOwner.set(name, id);
    }
  }

  /** One call of the node's admin socket (edge_core.load / state). */
  admin(pathname: string, body?: unknown): Promise<unknown> {
    const socketPath = path.join(this.node.runDir, 'admin.sock');
    const data = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    return new Promise((resolve, reject) => {
      const req = http.request({ socketPath, path: pathname, method: data ? 'POST' : 'GET', headers: data ? { 'content-type': 'application/json', 'content-length': data.length } : {}, timeout: 60_000 }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          if (res.statusCode !== 200) return reject(new Error(`nginx 管理接口 ${pathname}：HTTP ${res.statusCode} ${text.slice(0, 300)}`));
          try {
            resolve(JSON.parse(text));
          } catch {
            reject(new Error(`nginx 管理接口 ${pathname}：${text.slice(0, 300)}`));
          }
        });
        res.on('error', reject);
      });
      req.on('timeout', () => req.destroy(new Error('超时')));
      req.on('error', reject);
      req.end(data);
    });
  }

  private async report(r: EdgeApplyReport): Promise<void> {
    try {
      await this.control.report(r);
    } catch (e) {
      this.log(`报告失败：${(e as Error).message}`);
    }
  }

  /** The control plane's address for the workers' balancer (it takes addresses). */
  private async resolveControl(): Promise<void> {
    const host = new URL(this.opts.controlUrl).hostname.replace(/^\[|\]$/g, '');
    try {
      this.node.controlIp = (await dns.promises.lookup(host)).address;
    } catch {
      this.node.controlIp = host;
    }
  }

  /** Origins given by name: resolved once per apply (the workers' balancer takes addresses). */
  private async resolveOrigins(changed: EdgeService[]): Promise<void> {
    const names = new Set<string>();
    for (const s of changed) {
      const o = s.settings.origin as { servers?: { address: string }[] } | undefined;
      for (const x of o?.servers ?? []) if (x.address && !/^[\d.]+$|:/.test(x.address)) names.add(x.address);
    }
    await Promise.all(
      [...names].map(async (n) => {
        try {
          this.resolved.set(n, (await dns.promises.lookup(n, { family: 4 })).address);
        } catch {
          this.resolved.delete(n);
        }
      }),
    );
  }

  /** The TLS listeners' fallback certificate: never sent (a name without a certificate is refused in the handshake). */
  private fallbackCertificate(): void {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', this.node.fallbackKey, '-out', this.node.fallbackCert, '-days', '3650', '-subj', '/CN=edge-fallback'], { stdio: 'ignore' });
    fs.chmodSync(this.node.fallbackKey, 0o600);
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
    for (const d of [this.node.cacheDir, this.node.tmpDir, path.join(this.node.prefix, 'conf')]) {
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

function refusedIds(reports: [number, EdgeServiceReport][]): number[] {
  return reports.filter(([, r]) => r.state === 'refused').map(([id]) => id);
}

function certsOf(batch: CompiledService[]): { id: number; json: string }[] {
  const out = new Map<number, string>();
  for (const c of batch) for (const [id, json] of Object.entries(c.certs)) out.set(Number(id), json);
  return [...out].map(([id, json]) => ({ id, json }));
}
