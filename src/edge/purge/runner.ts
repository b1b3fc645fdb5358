/**
 * The agent's purge and preheat (docs/operations-tools.md "Purge and preheat"): it pulls the tasks due
 * for this node over the edge API (a long poll, woken when a task is submitted), acts on nginx's cache
 * and reports each task's outcome, which becomes the task's state in the purge log.
 *
 * - URL purge: removes the cached object(s) of the URL (its key under the service and its settings,
 *   schemas/edge-cache-key.ts; every Vary variant) — ./cache.ts.
 * - Rule purge: removes every cached object of the host (under its service) whose path matches the
 *   directory or pattern.
 * - Preheat: fetches the URL through this edge (as a client would, by its scheme) and reads it whole,
 *   then asks again with HEAD: X-Cache: HIT means it is cached; anything else fails with the reason.
 * - A paused service (bandwidth cap): purges run (the objects would be served again after the resume);
 *   preheats are not done — the pause stops traffic to the origin.
 * - A domain that is no longer any service's: purges run on what is still cached under its host, under
 *   whichever service cached it;
 *   preheats fail (the edge no longer serves the host).
 *
 * When idle (a long poll answered nothing) it refreshes its index of the cache.
 * Started and stopped by the agent (../agent.ts: a field, one line in start(), one in stop()).
 */
import http from 'node:http';
import https from 'node:https';
import { EDGE_API_PREFIX } from '../../shared/edge';
import { PURGE_TEXTS, type EdgePurgeResult, type EdgePurgeTask } from '../../shared/purge';
import { CacheIndex, ruleMatcher, urlKeyOf } from './cache';
import { MIRROR_CACHE_KEY_SUFFIX } from '../../shared/edge-files';
import { keyWithoutService } from '../../../schemas/edge-cache-key';

interface AgentLike {
  readonly opts: { controlUrl: string; nodeKey: string; pollWait?: number };
  /** The service whose data the workers hold the host under now (EdgeAgent.serviceOfHost). */
  serviceOfHost?(host: string): number | undefined;
}

interface NodeLike {
  cacheDir: string;
  listen: string;
  ports: { http: number; https: number };
}

const PREHEAT_PARALLEL = 4;
const PREHEAT_TIMEOUT_MS = 120_000;

export interface PurgeRun {
  tasks: number;
  /** ms: refreshing the index, removing, preheating */
  timings: { index: number; purge: number; preheat: number };
  removed: number;
}

export class PurgeRunner {
  readonly index: CacheIndex;
  private stopped = false;
  private aborter = new AbortController();
  private loop: Promise<void> | null = null;
  /** The last runs (tests and the benchmark read them). */
  readonly runs: PurgeRun[] = [];

  constructor(
    private readonly agent: AgentLike,
    private readonly node: NodeLike,
    private readonly log: (msg: string) => void,
  ) {
    this.index = new CacheIndex(node.cacheDir);
  }

  /** Reads the cache's keys once in the background, so that the first purge only looks for changes. */
  private warming: Promise<unknown> | null = null;

  start(): void {
    this.warming = this.index.refresh().catch(() => undefined);
    this.loop = this.follow();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.aborter.abort();
    await this.loop?.catch(() => undefined);
  }

  private async call<T>(method: string, url: string, body?: unknown, timeoutMs = 60_000): Promise<T> {
    const res = await fetch(new URL(url, this.agent.opts.controlUrl), {
      method,
      headers: { authorization: `Bearer ${this.agent.opts.nodeKey}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.any([this.aborter.signal, AbortSignal.timeout(timeoutMs)]),
    });
    const json = (await res.json().catch(() => null)) as { result?: boolean; data?: T; message?: string } | null;
    if (!res.ok || !json?.result) throw new Error(`${method} ${url}：HTTP ${res.status} ${json?.message ?? ''}`.trim());
    return json.data as T;
  }

  private async follow(): Promise<void> {
    let backoff = 500;
    const wait = this.agent.opts.pollWait ?? 20;
    while (!this.stopped) {
      try {
        const { tasks } = await this.call<{ tasks: EdgePurgeTask[] }>('GET', `${EDGE_API_PREFIX}/purge?wait=${wait}`, undefined, (wait + 30) * 1000);
        backoff = 500;
        if (!tasks.length) {
          // idle: keep the index up to date, so that a purge only looks at what came since
          await this.warming;
          await this.index.refresh();
          continue;
        }
        const results = await this.execute(tasks);
        await this.call('POST', `${EDGE_API_PREFIX}/purge/report`, { results });
      } catch (e) {
        if (this.stopped) return;
        this.log(`刷新任务与控制面通信失败：${(e as Error).message}，${backoff} ms 后重试`);
        await new Promise((r) => setTimeout(r, backoff));
        backoff = Math.min(backoff * 2, 10_000);
      }
    }
  }

  /** Does the tasks in order (purges before a later preheat of the same URL); one outcome each. */
  async execute(tasks: EdgePurgeTask[]): Promise<EdgePurgeResult[]> {
    const run: PurgeRun = { tasks: tasks.length, timings: { index: 0, purge: 0, preheat: 0 }, removed: 0 };
    const results = new Map<number, EdgePurgeResult>();
    let fresh = false;
    let i = 0;
    while (i < tasks.length) {
      // a run of purges shares one look at the cache; a run of preheats goes in parallel
      const kind = tasks[i].kind === 'preheat' ? 'preheat' : 'purge';
      const batch: EdgePurgeTask[] = [];
      while (i < tasks.length && (tasks[i].kind === 'preheat' ? 'preheat' : 'purge') === kind) batch.push(tasks[i++]);
      if (kind === 'purge') {
        if (!fresh) {
          await this.warming;
          const t0 = performance.now();
          await this.index.refresh();
          run.timings.index += performance.now() - t0;
          fresh = true;
        }
        const t1 = performance.now();
        for (const t of batch) {
          const r = await this.purge(t);
          run.removed += r.removed ?? 0;
          results.set(t.id, r);
        }
        run.timings.purge += performance.now() - t1;
      } else {
        const t2 = performance.now();
        let next = 0;
        const worker = async () => {
          while (next < batch.length) {
            const t = batch[next++];
            results.set(t.id, await this.preheat(t));
          }
        };
        await Promise.all(Array.from({ length: Math.min(PREHEAT_PARALLEL, batch.length) }, worker));
        run.timings.preheat += performance.now() - t2;
        fresh = false; // new files since the last look
      }
    }
    this.runs.push(run);
    if (this.runs.length > 100) this.runs.shift();
    return tasks.map((t) => results.get(t.id)!);
  }

  /**
   * The services whose objects of the task's host a purge removes (the cache belongs to a service, keys
   * `s<id>/<host>…`): the host's service now, and the one this node still serves it under when that
   * differs (a domain moved, not yet applied here); none known: every service's (the domain left).
   */
  private servicesOf(t: EdgePurgeTask): number[] {
    const ids = new Set<number>();
    if (t.service) ids.add(t.service.id);
    const here = this.agent.serviceOfHost?.(t.host);
    if (here !== undefined) ids.add(here);
    return [...ids];
  }

  private async purge(t: EdgePurgeTask): Promise<EdgePurgeResult> {
    try {
      const services = this.servicesOf(t);
      if (t.kind === 'url') {
        // the key under the service's settings now (none: the domain left its service — the whole query)
        const settings = t.service?.settings ?? {};
        const wanted = new Set<string>();
        for (const id of services) {
          const key = urlKeyOf(t.target, id, id === t.service?.id ? settings : {});
          if (key === null) return { id: t.id, ok: false, message: PURGE_TEXTS.purgeError(t.target) };
          // the URL's object, and the mirror's cached storage answer for it (its own key, see MIRROR_CACHE_KEY_SUFFIX)
          wanted.add(key).add(key + MIRROR_CACHE_KEY_SUFFIX);
        }
        if (!services.length) {
          // no service known: the URL's object under whichever service cached it
          const rest = urlKeyOf(t.target, 0, {});
          if (rest === null) return { id: t.id, ok: false, message: PURGE_TEXTS.purgeError(t.target) };
          const bare = keyWithoutService(rest)!.rest;
          const removed = await this.index.remove((k) => {
            const r = keyWithoutService(k)?.rest;
            return r === bare || r === bare + MIRROR_CACHE_KEY_SUFFIX;
          });
          return { id: t.id, ok: true, removed };
        }
        let removed = await this.index.remove((k) => wanted.has(k));
        for (const key of wanted) removed += this.index.removeKey(key); // stored since the last look
        return { id: t.id, ok: true, removed };
      }
      const match = ruleMatcher(t.target, services);
      if (!match) return { id: t.id, ok: false, message: PURGE_TEXTS.purgeError(t.target) };
      return { id: t.id, ok: true, removed: await this.index.remove(match) };
    } catch (e) {
      return { id: t.id, ok: false, message: PURGE_TEXTS.purgeError((e as Error).message) };
    }
  }

  private async preheat(t: EdgePurgeTask): Promise<EdgePurgeResult> {
    if (!t.service) return { id: t.id, ok: false, message: PURGE_TEXTS.noServicePreheat };
    if (t.service.paused) return { id: t.id, ok: false, message: PURGE_TEXTS.pausedPreheat };
    try {
      const got = await this.fetch(t.target, 'GET');
      if (got.status >= 400 || got.status < 200) return { id: t.id, ok: false, message: PURGE_TEXTS.preheatStatus(got.status) };
      const again = await this.fetch(t.target, 'HEAD');
      if (again.xCache === 'HIT') return { id: t.id, ok: true };
      if (got.status !== 200 && got.status !== 206) return { id: t.id, ok: false, message: PURGE_TEXTS.preheatStatus(got.status) };
      return { id: t.id, ok: false, message: PURGE_TEXTS.preheatNotCacheable(got.cacheControl) };
    } catch (e) {
      return { id: t.id, ok: false, message: PURGE_TEXTS.preheatError((e as Error).message) };
    }
  }

  /** One request to this edge for a URL, by its scheme, with its host; the body is read and dropped. */
  private fetch(url: string, method: 'GET' | 'HEAD'): Promise<{ status: number; xCache?: string; cacheControl?: string }> {
    const u = new URL(url);
    const secure = u.protocol === 'https:';
    const address = this.node.listen === '0.0.0.0' || this.node.listen === '::' ? '127.0.0.1' : this.node.listen;
    const base = { host: address, port: secure ? this.node.ports.https : this.node.ports.http, path: u.pathname + u.search, method, headers: { host: u.hostname, 'user-agent': 'edge-preheat', 'x-edge-preheat': `Bearer ${this.agent.opts.nodeKey}` }, agent: false as const, timeout: PREHEAT_TIMEOUT_MS };
    return new Promise((resolve, reject) => {
      const onRes = (res: http.IncomingMessage) => {
        res.on('data', () => undefined);
        res.on('end', () => resolve({ status: res.statusCode ?? 0, xCache: header(res.headers['x-cache']), cacheControl: header(res.headers['cache-control']) }));
        res.on('error', reject);
      };
      const req = secure ? https.request({ ...base, servername: u.hostname, rejectUnauthorized: false }, onRes) : http.request(base, onRes);
      req.on('timeout', () => req.destroy(new Error('超时')));
      req.on('error', reject);
      req.end();
    });
  }
}

const header = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/** Starts the purge runner of an agent (the agent's hook; it stops the runner in its stop()). */
export function startPurgeRunner(agent: AgentLike, node: NodeLike, log: (msg: string) => void): PurgeRunner {
  const runner = new PurgeRunner(agent, node, log);
  runner.start();
  return runner;
}
