/**
 * PGlite on a worker thread (./pglite-worker.mjs), behind the few calls the pool makes of PGlite
 * (./pglite-pool.ts): query, listen, dumpDataDir, close. The server's event loop then stays free while a
 * statement runs — it reads and answers other requests and accepts new connections — and the database
 * gets the machine's second core. Each call is one message each way (structured clone of the parameters
 * and rows). The default; PGLITE_THREAD=off keeps PGlite on the server's thread (docs/operations.md;
 * the figures of both in docs/performance.md).
 */
import path from 'node:path';
import { Worker } from 'node:worker_threads';

/** What the pool uses of PGlite: the same calls, on this thread or another. */
export interface PgliteLike {
  query<R>(sql: string, params?: unknown[]): Promise<{ rows: R[]; affectedRows?: number }>;
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  dumpDataDir(compression?: 'none' | 'gzip' | 'auto'): Promise<Blob>;
  close(): Promise<void>;
  readonly closed: boolean;
}

interface Failure {
  message: string;
  name: string;
  stack?: string;
  fields: Record<string, unknown>;
}

/** The thread's error as an Error with PostgreSQL's fields (code, detail, constraint, …) where they were. */
function errorFrom(f: Failure): Error {
  const e = Object.assign(new Error(f.message), f.fields);
  e.name = f.name;
  if (f.stack) e.stack = f.stack;
  return e;
}

export async function pgliteOnThread(dataDir: string, template: string | null): Promise<PgliteLike> {
  const worker = new Worker(path.join(__dirname, 'pglite-worker.mjs'), { workerData: { dataDir, template } });
  let next = 1;
  let closed = false;
  const pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  const listeners = new Map<number, (payload: string) => void>();
  let ended: Error | null = null;

  const failAll = (e: Error) => {
    ended = e;
    for (const p of pending.values()) p.reject(e);
    pending.clear();
  };
  worker.on('error', (e) => failAll(e));
  worker.on('exit', (code) => failAll(new Error(`the database thread ended (${code})`)));

  await new Promise<void>((resolve, reject) => {
    worker.once('message', (m: { op: string; error?: Failure }) => (m.error ? reject(errorFrom(m.error)) : resolve()));
    worker.once('error', reject);
  }).catch(async (e) => {
    await worker.terminate();
    throw e;
  });

  // the thread keeps the process alive only while a call waits for it, as PGlite on the server's own thread
  // holds nothing open: a server or test that forgot to close its database still ends
  worker.unref();
  worker.on('message', (m: { id?: number; op?: string; of?: number; payload?: string; result?: unknown; error?: Failure }) => {
    if (m.op === 'notify') return listeners.get(m.of!)?.(m.payload!);
    const p = pending.get(m.id!);
    if (!p) return;
    pending.delete(m.id!);
    if (!pending.size) worker.unref();
    if (m.error) p.reject(errorFrom(m.error));
    else p.resolve(m.result);
  });

  function call<T>(message: Record<string, unknown>, id = next++): Promise<T> {
    if (ended) return Promise.reject(ended);
    return new Promise<T>((resolve, reject) => {
      if (!pending.size) worker.ref();
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      worker.postMessage({ id, ...message });
    });
  }

  return {
    query: <R>(sql: string, params: unknown[] = []) => call<{ rows: R[]; affectedRows?: number }>({ op: 'query', sql, params }),
    async listen(channel, onPayload) {
      const id = next++; // the listen call's id names its notifications
      listeners.set(id, onPayload);
      await call({ op: 'listen', channel }, id);
      return async () => {
        listeners.delete(id);
        if (!closed) await call({ op: 'unlisten', of: id });
      };
    },
    async dumpDataDir(compression = 'none') {
      return new Blob([await call<ArrayBuffer>({ op: 'dump', compression })]);
    },
    async close() {
      if (closed) return;
      await call({ op: 'close' }).catch(() => undefined);
      closed = true;
      await worker.terminate();
    },
    get closed() {
      return closed;
    },
  };
}
