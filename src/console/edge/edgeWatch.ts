/**
 * The edge status of the services open in the console (docs/edge.md "The console"): one watch per
 * service, shared by the status bar and every setting panel of its page, fed by
 * GET /api/buckets/edge/?bucket_name= (EdgeStatus).
 *
 * A watch asks once when its first reader arrives, then again while something is waiting (等待生效):
 * every EDGE_POLL_MS for the first EDGE_POLL_FAST_MS, then every EDGE_POLL_SLOW_MS, for at most
 * EDGE_POLL_WINDOW_MS after the page opened, a save or a refresh — never forever. A save marks its
 * setting 等待生效 at once (the server will say so too) and opens a new window.
 */
import { api } from '../api/client';
import type { EdgeSettingState, EdgeStatus } from '../../shared/edge';

/** How often a waiting state is asked again, and for how long after a save. */
export const EDGE_POLL_MS = 700;
export const EDGE_POLL_FAST_MS = 10_000;
export const EDGE_POLL_SLOW_MS = 3_000;
export const EDGE_POLL_WINDOW_MS = 60_000;

export type EdgeView = { status: 'loading' } | { status: 'failed' } | { status: 'ok'; edge: EdgeStatus };

type Listener = (view: EdgeView) => void;

/** Something is still on its way to the edge: worth asking again. */
function waiting(edge: EdgeStatus): boolean {
  if (!edge.enabled) return false;
  return edge.state === 'pending' || Object.values(edge.settings).some((s) => s.state === 'pending');
}

class Watch {
  view: EdgeView = { status: 'loading' };
  readonly listeners = new Set<Listener>();
  private since = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private asking = false;
  /** Answers older than the last local change are dropped (a save while a request was out). */
  private generation = 0;

  constructor(readonly bucketName: string) {}

  private emit(view: EdgeView): void {
    this.view = view;
    for (const l of this.listeners) l(view);
  }

  /** Asks now and keeps asking while something waits, for a while. */
  refresh(): void {
    this.since = Date.now();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    void this.ask();
  }

  private async ask(): Promise<void> {
    if (this.asking) return;
    this.asking = true;
    const generation = this.generation;
    let view: EdgeView;
    try {
      const res = await api.get<{ data: EdgeStatus }>('/api/buckets/edge/', { bucket_name: this.bucketName });
      view = { status: 'ok', edge: res.data };
    } catch {
      view = { status: 'failed' };
    } finally {
      this.asking = false;
    }
    if (!this.listeners.size) return;
    // a failed ask keeps what is shown (a blip while waiting) and asks again; only a first failure shows
    const blip = view.status === 'failed' && this.view.status === 'ok';
    if (generation === this.generation && !blip) this.emit(view);
    const again = generation !== this.generation || blip || (view.status === 'ok' && waiting(view.edge));
    const elapsed = Date.now() - this.since;
    const delay = generation !== this.generation ? 0 : elapsed < EDGE_POLL_FAST_MS ? EDGE_POLL_MS : EDGE_POLL_SLOW_MS;
    if (again && elapsed + delay < EDGE_POLL_WINDOW_MS) this.timer = setTimeout(() => ((this.timer = null), void this.ask()), delay);
  }

  /** A setting of this service was saved: it waits for the edge until the edge says otherwise. */
  saved(settingId: string): void {
    this.generation++;
    const v = this.view;
    if (v.status === 'ok' && v.edge.enabled) {
      this.emit({ status: 'ok', edge: { ...v.edge, state: v.edge.state === 'refused' ? 'refused' : 'pending', settings: { ...v.edge.settings, [settingId]: { state: 'pending' } } } });
    }
    this.refresh();
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.since = 0;
  }
}

const watches = new Map<string, Watch>();

/** Reads a service's edge status: calls back now and on every change; answers the unsubscribe. */
export function watchEdge(bucketName: string, listener: Listener): () => void {
  let w = watches.get(bucketName);
  const first = !w;
  if (!w) {
    w = new Watch(bucketName);
    watches.set(bucketName, w);
  }
  w.listeners.add(listener);
  listener(w.view);
  if (first) w.refresh();
  const watch = w;
  return () => {
    watch.listeners.delete(listener);
    if (!watch.listeners.size) {
      watch.stop();
      watches.delete(bucketName);
    }
  };
}

/** Asks again now (the status bar's 刷新). */
export function refreshEdge(bucketName: string): void {
  watches.get(bucketName)?.refresh();
}

/** Called after a setting is saved (settingIO.save): its state is 等待生效 until the edge runs it. */
export function edgeSaved(bucketName: string, settingId: string): void {
  watches.get(bucketName)?.saved(settingId);
}

/** One setting's state as a panel shows it; null when there is nothing to show (no edge, never stored). */
export function settingEdgeState(view: EdgeView, settingId: string): { state: EdgeSettingState; message?: string } | null {
  if (view.status !== 'ok' || !view.edge.enabled) return null;
  return view.edge.settings[settingId] ?? null;
}
