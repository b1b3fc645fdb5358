/**
 * A short-lived in-memory cache that forgets at once, in every server process, when the database says its
 * rows changed (issue 22): the session cache (src/server/accounts/session-cache.ts) and the bucket cache
 * (src/server/buckets/bucket-cache.ts) are two of it. What they share:
 *
 *  - an entry is kept at most `ttlMs` (and never past its own `expires`), at most `max` of them (the oldest
 *    go first);
 *  - database triggers send a NOTIFY with the change's COMMIT; each process LISTENs (./notify.ts) and the
 *    subclass drops what the payload names (`drop`);
 *  - in the process that sends an UPDATE or DELETE that touches the cached rows, the cache empties as the
 *    statement is sent and answers nothing from memory for `quietMs` after (`localWrite`), so the next
 *    request of the same process never sees the old row, however fast it follows;
 *  - a generation number makes a lookup that started before a change unable to store its (old) answer;
 *  - while the listening connection is down (notifications may be missed) the cache is empty and off.
 */
import { EventEmitter } from 'node:events';

interface Entry<V> {
  value: V;
  /** when the cache forgets it (ms) */
  until: number;
  /** when the thing itself expires (ms) */
  expires: number;
}

export class NotifiedCache<V> extends EventEmitter {
  private entries = new Map<string, Entry<V>>();
  private generation = 0;
  private listening = false;
  private quietUntil = 0;

  constructor(
    readonly ttlMs: number,
    private readonly max = 10_000,
    /** how long after a local change the cache answers nothing (ms) */
    private readonly quietMs = 1000,
  ) {
    super();
  }

  /** Whether lookups may be answered from memory now. */
  get answering(): boolean {
    return this.ttlMs > 0 && this.listening && Date.now() >= this.quietUntil;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The listening connection is up (true) or down (false: notifications may be missed). */
  setListening(up: boolean): void {
    this.listening = up;
    this.clear('listener');
  }

  get(key: string): V | undefined {
    if (!this.answering) return undefined;
    const e = this.entries.get(key);
    if (!e) return undefined;
    const now = Date.now();
    if (e.until <= now || e.expires <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return e.value;
  }

  /** The generation to hand back to `put` with what a lookup that starts now finds. */
  begin(): number {
    return this.generation;
  }

  put(key: string, value: V, expires: number, generation: number): void {
    if (!this.answering || generation !== this.generation) return;
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, { value, until: Math.min(Date.now() + this.ttlMs, expires), expires });
  }

  /** Forgets the entries `which` picks (a notification naming them); `id` is what the event reports. */
  protected drop(which: (value: V) => boolean, id: number): void {
    this.generation++;
    for (const [key, e] of this.entries) if (which(e.value)) this.entries.delete(key);
    this.emit('invalidated', 'notification', id);
  }

  /** This process sends a change of the cached rows: forget everything, answer from the database for a while. */
  localWrite(): void {
    this.quietUntil = Date.now() + this.quietMs;
    this.clear('local');
  }

  clear(why: string): void {
    this.generation++;
    this.entries.clear();
    this.emit('invalidated', why, null);
  }
}
