/**
 * Waking the nodes' long polls (`GET /edge/v1/config?after=V&wait=S`, ./routes.ts) when the configuration
 * changes, instead of asking the database for the version every 50 ms per waiting node (docs/edge.md "How it
 * scales"). The version trigger sends `pg_notify('edge_config', version)` at each edge-changing commit
 * (migration 0105); each server process holds ONE listening connection for it (src/server/db/notify.ts:
 * a dedicated pg.Client on PostgreSQL, re-LISTENed after a reconnect; PGlite's own listen() on PGlite) and
 * wakes every poll it holds. A woken poll then reads the version once.
 *
 * Three things keep a poll from waiting forever on a lost or early notification:
 *  - a slow safety re-check (`recheckMs`, a few seconds) even while nothing is heard;
 *  - while the listening connection is down, and on a DB without notifications, polling as before, but every
 *    `downMs`;
 *  - the version rule (docs/edge.md "Versions"): the version given stops below the oldest transaction still
 *    running, so at a notification of version p the current version may not have reached p yet. The watch
 *    remembers the newest version notified; while the current version is below it, a poll re-checks
 *    shortly (10 ms, doubling to `pendingMaxMs`, for at most `pendingForMs` after the notification; then at
 *    `recheckMs`, so a transaction left open by hand costs little) — the transaction holding it back may end
 *    without any notification of its own.
 */
import type { DB } from '../db';
import { notificationsOf } from '../db/notify';

export const EDGE_CONFIG_CHANNEL = 'edge_config';

export interface WakeOptions {
  /** the safety re-check while notifications arrive (ms) */
  recheckMs: number;
  /** the re-check while the listening connection is down (ms) */
  downMs: number;
  /** the longest pause between re-checks while a notified version is not current yet (ms) */
  pendingMaxMs: number;
  /** how long after its notification a version not current yet is re-checked that often (ms); then recheckMs */
  pendingForMs: number;
}

export const WAKE_DEFAULTS: WakeOptions = { recheckMs: 5000, downMs: 250, pendingMaxMs: 500, pendingForMs: 10_000 };

export class EdgeWake {
  private waiters = new Set<() => void>();
  private up = false;
  /** the newest version a notification named (0: none), and when it came */
  notified = 0;
  notifiedAt = 0;
  /** notifications heard (tests and the bench read it) */
  heard = 0;
  opts: WakeOptions;

  constructor(opts: Partial<WakeOptions> = {}) {
    this.opts = { ...WAKE_DEFAULTS, ...opts };
  }

  /** Whether notifications arrive now. */
  get listening(): boolean {
    return this.up;
  }

  setListening(up: boolean): void {
    this.up = up;
    this.wakeAll(); // up again: a notification may have been missed while down; down: poll at downMs
  }

  onPayload(payload: string): void {
    this.heard++;
    const v = Number(payload);
    if (Number.isFinite(v) && v > this.notified) {
      this.notified = v;
      this.notifiedAt = Date.now();
    }
    this.wakeAll();
  }

  wakeAll(): void {
    const all = [...this.waiters];
    this.waiters.clear();
    for (const w of all) w();
  }

  /**
   * Resolves at the next notification, or when it is time to look again: `recheckMs` while listening
   * (`downMs` while not), `pause` when given (a notified version not yet current), never after `until`.
   */
  next(until: number, pause?: number, abort?: AbortSignal): Promise<void> {
    const ms = Math.max(0, Math.min(until - Date.now(), pause ?? (this.up ? this.opts.recheckMs : this.opts.downMs)));
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        abort?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.waiters.add(done);
      abort?.addEventListener('abort', done, { once: true });
    });
  }

  /** Whether a notified version is still ahead of `version` and recent enough to be re-checked soon. */
  pending(version: number): boolean {
    return this.notified > version && Date.now() - this.notifiedAt < this.opts.pendingForMs;
  }

  /** Polls waiting now. */
  get waiting(): number {
    return this.waiters.size;
  }
}

interface Shared {
  wake: EdgeWake;
  apps: number;
  unlisten?: () => Promise<void>;
}

const shared = new WeakMap<object, Shared>();

/** The DB's watch (one per DB per process, whatever the number of apps on it); made on first use. */
export function edgeWakeOf(db: DB): EdgeWake {
  let s = shared.get(db);
  if (!s) {
    s = { wake: new EdgeWake(), apps: 0 };
    shared.set(db, s);
  }
  return s.wake;
}

/** Starts listening with the first app on `db` that is ready, stops with the last one closed. */
export function registerEdgeWake(app: { addHook: (name: 'onReady' | 'onClose', fn: () => Promise<void>) => unknown }, db: DB): EdgeWake {
  const wake = edgeWakeOf(db);
  const s = shared.get(db)!;
  const notifications = notificationsOf(db);
  if (!notifications) return wake; // polls every downMs
  let started = false;
  app.addHook('onReady', async () => {
    started = true;
    if (s.apps++ === 0) s.unlisten = await notifications.listen(EDGE_CONFIG_CHANNEL, (p) => wake.onPayload(p), (up) => wake.setListening(up));
  });
  app.addHook('onClose', async () => {
    if (!started || --s.apps > 0) return;
    const unlisten = s.unlisten;
    s.unlisten = undefined;
    await unlisten?.();
    wake.wakeAll();
  });
  return wake;
}

/** Counts of the config route's version reads (tests count them instead of timing; the bench prints them). */
export const versionReads = { count: 0 };

/**
 * Waits until the current version passes `after` or `until` comes (or `abort`); answers the version last
 * read. `read` reads the current version (counted in versionReads).
 */
export async function waitForVersion(wake: EdgeWake, after: number, until: number, read: () => Promise<number>, abort?: AbortSignal): Promise<number> {
  const look = async () => {
    versionReads.count++;
    return read();
  };
  let version = await look();
  let pause = 10;
  while (version <= after && Date.now() < until && !abort?.aborted) {
    // a notification named a version not current yet: a running transaction holds it back; look again soon
    const pending = wake.pending(version);
    await wake.next(until, pending ? pause : undefined, abort);
    pause = pending ? Math.min(pause * 2, wake.opts.pendingMaxMs) : 10;
    if (abort?.aborted) break;
    version = await look();
  }
  return version;
}
