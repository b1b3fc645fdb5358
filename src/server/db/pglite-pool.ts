/**
 * PGlite behind the small pool interface kysely's PostgresDialect expects, so one dialect
 * (and one SQL) serves both the embedded database and a PostgreSQL server.
 * PGlite is a single connection: a client is lent to one user at a time (a transaction
 * holds it until release), others wait in line — here, in one process, is where the server
 * serialises its database work.
 *
 * The line is bounded (issue 21 item 21, docs/operations.md): with `waitMs` a caller that has not had
 * the connection within that time gets a DatabaseBusyError, and with `maxWaiting` a caller finding that
 * many already waiting gets one at once; the server answers both with 503, the envelope's
 * 网络似乎不稳定，刷新试试 and Retry-After (src/server/app.ts). Without them (tests, tools) callers wait as
 * long as it takes.
 *
 * The pool is also the database's notifications (./notify.ts): LISTEN through PGlite itself, and the
 * UPDATE and DELETE statements it passes told to onWrite observers.
 */
import type { PgliteLike } from './pglite-thread';
import type { PostgresPool, PostgresPoolClient } from 'kysely';
import { WriteObservers, type Notifications } from './notify';

function commandOf(sql: string): 'UPDATE' | 'DELETE' | 'INSERT' | 'SELECT' | 'MERGE' {
  const m = /^\s*(?:with\b[\s\S]*?\)\s*)?(insert|update|delete|merge)\b/i.exec(sql);
  return (m ? m[1].toUpperCase() : 'SELECT') as 'UPDATE' | 'DELETE' | 'INSERT' | 'SELECT' | 'MERGE';
}

export interface PgliteQueueOptions {
  /** How long a caller waits for the connection, in ms (0 or absent: as long as it takes). */
  waitMs?: number;
  /** How many callers may wait at once (absent: any number); one more is refused at once. */
  maxWaiting?: number;
}

/** The database could not be had: the wait ran out (`timeout`) or the line was full (`queue`). */
export class DatabaseBusyError extends Error {
  constructor(readonly reason: 'timeout' | 'queue') {
    super(reason === 'timeout' ? 'the database was busy for too long' : 'too many requests are waiting for the database');
    this.name = 'DatabaseBusyError';
  }
}

export type PglitePool = PostgresPool & Notifications & {
  /** Callers waiting for the connection now (the bench and the operations page read it). */
  readonly waiting: number;
};

export function pglitePool(pg: PgliteLike, opts: PgliteQueueOptions = {}): PglitePool {
  let busy = false;
  const line: { grant: () => void; timer?: NodeJS.Timeout }[] = [];
  const writes = new WriteObservers();

  /** `bounded`: the wait and the line's length are limited (every caller but the pool's own closing and LISTEN). */
  function acquire(bounded = true): Promise<void> {
    if (!busy) {
      busy = true;
      return Promise.resolve();
    }
    if (bounded && opts.maxWaiting !== undefined && line.length >= opts.maxWaiting) return Promise.reject(new DatabaseBusyError('queue'));
    return new Promise<void>((resolve, reject) => {
      const waiter: { grant: () => void; timer?: NodeJS.Timeout } = { grant: resolve };
      if (bounded && opts.waitMs) {
        waiter.timer = setTimeout(() => {
          const i = line.indexOf(waiter);
          if (i >= 0) line.splice(i, 1);
          reject(new DatabaseBusyError('timeout'));
        }, opts.waitMs);
      }
      line.push(waiter);
    });
  }

  function release(): void {
    const next = line.shift();
    if (next) {
      clearTimeout(next.timer);
      next.grant();
    } else busy = false;
  }

  /** Runs `fn` holding the connection, waiting as long as it takes. */
  async function exclusive<T>(fn: () => Promise<T>): Promise<T> {
    await acquire(false);
    try {
      return await fn();
    } finally {
      release();
    }
  }

  return {
    get waiting() {
      return line.length;
    },
    async connect(): Promise<PostgresPoolClient> {
      await acquire();
      let released = false;
      const client = {
        async query(sql: string, parameters: readonly unknown[]) {
          writes.seen(sql);
          const res = await pg.query<Record<string, unknown>>(sql, parameters as unknown[]);
          return { command: commandOf(sql), rowCount: res.affectedRows ?? res.rows.length, rows: res.rows };
        },
        release() {
          if (released) return;
          released = true;
          release();
        },
      };
      return client as unknown as PostgresPoolClient;
    },
    async end() {
      await exclusive(async () => undefined);
      await pg.close();
    },
    onWrite: (cb) => writes.add(cb),
    async listen(channel, onPayload, state) {
      if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`bad channel name: ${channel}`);
      const unlisten = await exclusive(() => pg.listen(channel, onPayload));
      state(true);
      return async () => {
        state(false);
        if (!pg.closed) await exclusive(() => unlisten()).catch(() => undefined);
      };
    },
  };
}
