/**
 * The agent's traffic reporter (docs/statistics.md "Edge traffic"): reads nginx's JSON access log
 * (logs/access.log, format in ../compile/main.ts) as it grows, sums the requests per host, 5-minute
 * slot and client place, and sends the sums to the control plane (POST /edge/v1/traffic) every
 * EDGE_TRAFFIC_INTERVAL_MS.
 *
 * Nothing is lost or counted twice:
 * - how far each log file has been read (its inode and offset) is kept in traffic.state.json under the
 *   node's folder, written atomically (a temporary file renamed over it);
 * - a batch is written into that state (with a fresh id and the offsets it reaches) before it is sent,
 *   and the offsets move only after the control plane has answered; an agent killed in between sends
 *   the same batch, with the same id, when it starts again, and the server counts an id once;
 * - log rotation (access.log renamed, nginx reopening on USR1) is followed by inode: the renamed file
 *   is read to its end under its new name, the new access.log from its start;
 * - a line that cannot be read is counted (`bad`) and skipped;
 * - the agent's own preheat requests (`"pre":"1"`, marked by X-Edge-Preheat with the node key) are the
 *   node filling its cache, not the customer's traffic: skipped;
 * - one reporter per node folder (traffic.lock: the pid of the process reporting).
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { EDGE_TRAFFIC_COUNTERS, EDGE_TRAFFIC_INTERVAL_MS, EDGE_TRAFFIC_PATH, type EdgeTrafficAnswer, type EdgeTrafficBatch, type EdgeTrafficRecord } from '../../shared/edge-traffic';
import { SLOT_S } from '../../shared/stats/time';
import { Geo } from './geoip';

export const STATE_FILE = 'traffic.state.json';
export const LOCK_FILE = 'traffic.lock';
/** At most this many bytes of log are read into one batch. */
const MAX_BATCH_BYTES = 8 * 1024 * 1024;

export interface ShipperOptions {
  /** The node's folder (its logs are in logs/). */
  dir: string;
  controlUrl: string;
  nodeKey: string;
  nodeName: string;
  everyMs?: number;
  log?: (msg: string) => void;
  /** Test only: wait this long after the server's answer before the offsets are saved. */
  pauseAfterSendMs?: number;
}

interface Pending {
  id: string;
  /** inode → the offset the batch reaches */
  offsets: Record<string, number>;
  lines: number;
  bad: number;
  unknown: number;
  records: EdgeTrafficRecord[];
}

interface State {
  /** inode → how far it has been read, and where it was last seen */
  files: Record<string, { offset: number; path: string }>;
  pending: Pending | null;
  totals: { lines: number; bad: number; unknown: number; batches: number; refused?: number };
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

const HIT = new Set(['HIT', 'STALE', 'UPDATING', 'REVALIDATED']);

/** One log line → its fields, or null when it cannot be read. */
export function parseLine(line: string): { t: number; host: string; svc: number | null; ip: string; https: boolean; status: number; bytes: number; bfCpBytes: number; cache: string; rt: number; ub: number; preheat: boolean } | null {
  let o: Record<string, unknown>;
  try {
    o = JSON.parse(line);
  } catch {
    return null;
  }
  if (!o || typeof o !== 'object') return null;
  const t = Number(o.t);
  const status = Number(o.status);
  const bytes = Number(o.bytes);
  if (!Number.isFinite(t) || t <= 0 || !Number.isInteger(status) || !Number.isInteger(bytes) || bytes < 0 || typeof o.host !== 'string') return null;
  const svc = o.svc === '' || o.svc == null ? null : Number(o.svc);
  if (svc !== null && !Number.isInteger(svc)) return null;
  const rt = Number(o.rt);
  // $upstream_bytes_received: empty without an upstream, "a, b" or "a : b" after retries
  const ub = typeof o.ub === 'string' ? o.ub.split(/[,:\s]+/).reduce((a, x) => a + (Number(x) || 0), 0) : 0;
  return { t, host: o.host.toLowerCase(), svc, ip: String(o.ip ?? ''), https: o.scheme === 'https', status, bytes, bfCpBytes: beforeCompression(bytes, o), cache: String(o.cache ?? ''), rt: Number.isFinite(rt) ? rt : 0, ub, preheat: o.pre === '1' };
}

/**
 * The bytes a request would have taken without compression: its headers as sent and its body at the
 * size before gzip or Brotli ($gzip_ratio / $brotli_ratio: original ÷ compressed, two decimals). Without
 * a ratio (nothing compressed, or a line of an earlier format) the bytes as sent.
 */
function beforeCompression(bytes: number, o: Record<string, unknown>): number {
  const ratio = Number(o.gz || o.br || 0);
  const body = Number(o.body_bytes);
  if (!(ratio > 0) || !Number.isInteger(body) || body <= 0 || body > bytes) return bytes;
  return bytes - body + Math.round(body * ratio);
}

export class LogShipper {
  private state: State;
  private readonly statePath: string;
  private readonly logsDir: string;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = true;
  private locked = false;
  private readonly geo = new Geo();
  private readonly log: (msg: string) => void;
  /** The last error of a report (null after a success). */
  lastError: string | null = null;

  constructor(readonly opts: ShipperOptions) {
    this.statePath = path.join(opts.dir, STATE_FILE);
    this.logsDir = path.join(opts.dir, 'logs');
    this.log = opts.log ?? ((m) => console.log(`[edge] ${m}`));
    this.state = this.load();
  }

  /** What has been read so far (lines, unreadable lines, lines of no service, batches sent). */
  get totals(): State['totals'] {
    return { ...this.state.totals };
  }

  start(): void {
    if (!this.stopped) return;
    if (!this.lock()) return;
    this.stopped = false;
    // what is on disk is authoritative (another reporter may have run on this folder meanwhile)
    this.state = this.load();
    const every = this.opts.everyMs ?? EDGE_TRAFFIC_INTERVAL_MS;
    this.timer = setInterval(() => void this.flush().catch(() => undefined), every);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running?.catch(() => undefined);
    this.unlock();
  }

  /**
   * One reporter per node folder (two would each send the same lines): traffic.lock holds the pid of
   * the process reporting; a lock whose process is gone (killed) is taken over.
   */
  private lock(): boolean {
    const file = path.join(this.opts.dir, LOCK_FILE);
    try {
      const pid = Number(fs.readFileSync(file, 'utf8').trim());
      if (pid && pid !== process.pid && alive(pid)) {
        this.log(`另一个进程（pid ${pid}）正在上报本节点的流量，本进程不上报`);
        return false;
      }
    } catch {
      /* no lock */
    }
    fs.mkdirSync(this.opts.dir, { recursive: true });
    fs.writeFileSync(file, String(process.pid));
    this.locked = true;
    return true;
  }

  private unlock(): void {
    if (!this.locked) return;
    this.locked = false;
    const file = path.join(this.opts.dir, LOCK_FILE);
    try {
      if (Number(fs.readFileSync(file, 'utf8').trim()) === process.pid) fs.rmSync(file);
    } catch {
      /* gone */
    }
  }

  /** Reads what the logs gained and reports it; one at a time (a call during a report waits for it). */
  flush(): Promise<void> {
    if (this.running) return this.running.then(() => this.flush());
    this.running = this.ship().finally(() => (this.running = null));
    return this.running;
  }

  private async ship(): Promise<void> {
    if (!this.locked) return;
    try {
      if (this.state.pending) await this.sendPending();
      for (let round = 0; round < 100; round++) {
        const more = this.readBatch();
        if (!this.state.pending) break;
        await this.sendPending();
        if (!more) break;
      }
      this.lastError = null;
    } catch (e) {
      this.lastError = (e as Error).message;
      this.log(`流量上报失败，稍后重试：${this.lastError}`);
    }
  }

  private load(): State {
    try {
      const s = JSON.parse(fs.readFileSync(this.statePath, 'utf8')) as State;
      if (s && typeof s.files === 'object') return { files: s.files, pending: s.pending ?? null, totals: s.totals ?? { lines: 0, bad: 0, unknown: 0, batches: 0 } };
    } catch {
      /* first start, or a state nobody can read: begin with the current access.log */
    }
    return { files: {}, pending: null, totals: { lines: 0, bad: 0, unknown: 0, batches: 0 } };
  }

  private save(): void {
    const tmp = `${this.statePath}.tmp`;
    const fd = fs.openSync(tmp, 'w', 0o600);
    fs.writeSync(fd, JSON.stringify(this.state));
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    fs.renameSync(tmp, this.statePath);
  }

  /** The access logs present now (access.log and its renamed copies), by inode. */
  private scan(): Map<string, { path: string; size: number }> {
    const out = new Map<string, { path: string; size: number }>();
    let names: string[] = [];
    try {
      names = fs.readdirSync(this.logsDir);
    } catch {
      return out;
    }
    for (const n of names) {
      if (n !== 'access.log' && !/^access\.log\.[^/]+$/.test(n)) continue;
      if (/\.(gz|xz|bz2|zst)$/.test(n)) continue;
      try {
        const st = fs.statSync(path.join(this.logsDir, n));
        if (st.isFile()) out.set(String(st.ino), { path: path.join(this.logsDir, n), size: st.size });
      } catch {
        /* gone meanwhile */
      }
    }
    return out;
  }

  /**
   * Reads the files' new lines into a pending batch (saved before it is sent). Returns whether more
   * is left to read.
   */
  private readBatch(): boolean {
    const present = this.scan();
    const files = this.state.files;
    // the current access.log is always followed; renamed files only when they were followed before
    const current = [...present.entries()].find(([, f]) => path.basename(f.path) === 'access.log');
    if (current && !files[current[0]]) files[current[0]] = { offset: 0, path: current[1].path };
    for (const ino of Object.keys(files)) if (!present.has(ino)) delete files[ino];

    const agg = new Map<string, EdgeTrafficRecord>();
    const offsets: Record<string, number> = {};
    let lines = 0;
    let bad = 0;
    let unknown = 0;
    let more = false;
    let budget = MAX_BATCH_BYTES;
    for (const [ino, f] of Object.entries(files)) {
      const now = present.get(ino)!;
      f.path = now.path;
      if (now.size < f.offset) f.offset = 0; // truncated in place: read it again from the start
      if (now.size === f.offset || budget <= 0) {
        if (now.size > f.offset) more = true;
        continue;
      }
      const want = Math.min(now.size - f.offset, budget);
      const buf = Buffer.alloc(want);
      const fd = fs.openSync(now.path, 'r');
      let got = 0;
      try {
        got = fs.readSync(fd, buf, 0, want, f.offset);
      } finally {
        fs.closeSync(fd);
      }
      // whole lines only: a line nginx is still writing waits for the next round
      const end = buf.lastIndexOf(0x0a, got - 1);
      if (end < 0) {
        if (got === budget) more = true;
        continue;
      }
      budget -= end + 1;
      if (f.offset + end + 1 < now.size) more = true;
      offsets[ino] = f.offset + end + 1;
      for (const line of buf.subarray(0, end).toString('utf8').split('\n')) {
        if (!line.trim()) continue;
        lines++;
        const r = parseLine(line);
        if (!r) {
          bad++;
          continue;
        }
        if (r.svc === null) {
          unknown++;
          continue;
        }
        if (r.preheat) continue; // the agent's own preheat: the node filling its cache, not the customer's traffic
        const place = this.geo.place(r.ip);
        const slot = Math.floor(r.t / SLOT_S) * SLOT_S;
        const key = [r.host, r.svc, slot, place.region, place.isp, place.ip_type, place.local ? 1 : 0].join('|');
        let rec = agg.get(key);
        if (!rec) {
          rec = { host: r.host, svc: r.svc, slot, region: place.region, isp: place.isp, ip_type: place.ip_type, local: place.local, ...(Object.fromEntries(EDGE_TRAFFIC_COUNTERS.map((c) => [c, 0])) as Record<(typeof EDGE_TRAFFIC_COUNTERS)[number], number>) };
          agg.set(key, rec);
        }
        rec.bytes += r.bytes;
        rec.bf_cp_bytes += r.bfCpBytes;
        rec.reqs += 1;
        if (HIT.has(r.cache)) rec.hit_reqs += 1;
        // dynamic: answered without the cache (no cache status, or the cache bypassed)
        if (r.cache === '' || r.cache === 'BYPASS') rec.dyn_reqs += 1;
        if (r.https) rec.https_reqs += 1;
        const cls = Math.floor(r.status / 100);
        if (cls === 2) rec.s2xx += 1;
        else if (cls === 3) rec.s3xx += 1;
        else if (cls === 4) rec.s4xx += 1;
        else if (cls === 5) rec.s5xx += 1;
        rec.time_ms += Math.round(r.rt * 1000);
        if (r.ub > 0) {
          rec.bs_bytes += r.ub;
          rec.bs_reqs += 1;
        }
      }
    }
    if (!Object.keys(offsets).length) {
      this.save();
      return more;
    }
    this.state.pending = { id: randomUUID(), offsets, lines, bad, unknown, records: [...agg.values()] };
    this.save();
    return more;
  }

  /** Sends the pending batch (again, after a restart); moves the offsets once the server has it. */
  private async sendPending(): Promise<void> {
    const p = this.state.pending!;
    const body: EdgeTrafficBatch = { batch: p.id, node: this.opts.nodeName, lines: p.lines, bad: p.bad, unknown: p.unknown, records: p.records };
    const res = await fetch(new URL(EDGE_TRAFFIC_PATH, this.opts.controlUrl), {
      method: 'POST',
      headers: { authorization: `Bearer ${this.opts.nodeKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(60_000),
    });
    const json = (await res.json().catch(() => null)) as { result?: boolean; data?: EdgeTrafficAnswer; message?: string } | null;
    // a batch the server refuses as malformed would be refused forever: it is logged and skipped, so
    // that ingestion goes on (any other failure — network, 5xx, the key — is retried)
    const refused = res.status === 400;
    if (refused) this.log(`流量批次被控制面拒绝，已跳过（${p.lines} 行）：${json?.message ?? ''}`);
    else if (!res.ok || !json?.result) throw new Error(`HTTP ${res.status} ${json?.message ?? ''}`.trim());
    if (this.opts.pauseAfterSendMs) await new Promise((r) => setTimeout(r, this.opts.pauseAfterSendMs));
    for (const [ino, off] of Object.entries(p.offsets)) {
      if (this.state.files[ino]) this.state.files[ino].offset = off;
      else this.state.files[ino] = { offset: off, path: '' };
    }
    const t = this.state.totals;
    t.lines += p.lines;
    t.bad += p.bad;
    t.unknown += p.unknown;
    t.batches += 1;
    if (refused) t.refused = (t.refused ?? 0) + p.lines;
    this.state.pending = null;
    this.save();
  }
}
