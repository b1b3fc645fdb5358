/**
 * Notifications from the database (PostgreSQL's LISTEN/NOTIFY, which PGlite has too), for caches that must
 * forget at once what another process (or this one) changed: the session cache (src/server/accounts/
 * session-cache.ts) listens on `session_cache`, which triggers on `sessions` and `users` notify.
 *
 *   PostgreSQL  one dedicated connection per listener; when it drops, the listener is told it is down
 *               (notifications may be missed: the cache empties and stays off) and it reconnects every second
 *   PGlite      the single connection itself; a notification is delivered before the statement that caused
 *               it (or its COMMIT) returns
 *
 * `onWrite` also tells, in this process, of each UPDATE or DELETE statement as it is sent (before the
 * database's notification can arrive), so that a cache stops answering from memory at once.
 * openDatabase attaches the notifications to the DB it returns; `notificationsOf(db)` finds them (none for a
 * DB made another way: a cache then stays off).
 */
import { preparedName } from './prepared';

export interface Notifications {
  /** Listens on `channel` (a plain lower-case name); `state(true|false)` says whether notifications arrive. */
  listen(channel: string, onPayload: (payload: string) => void, state: (up: boolean) => void): Promise<() => Promise<void>>;
  /** Every UPDATE or DELETE statement this process sends: the table it names, and the statement. */
  onWrite(cb: (table: string, sql: string) => void): () => void;
}

const attached = new WeakMap<object, Notifications>();

export function attachNotifications(db: object, n: Notifications): void {
  attached.set(db, n);
}

export function notificationsOf(db: object): Notifications | undefined {
  return attached.get(db);
}

const WRITE = /^\s*(?:with\b[\s\S]*?\)\s*)?(?:update|delete\s+from)\s+(?:only\s+)?"?([A-Za-z_][\w]*)"?/i;

/** The table an UPDATE or DELETE statement names, or null for any other statement. */
export function writtenTable(sql: string): string | null {
  const c = sql.trimStart().charCodeAt(0) | 0x20; // u, d or w (lower-cased)
  if (c !== 0x75 && c !== 0x64 && c !== 0x77) return null;
  return WRITE.exec(sql)?.[1]?.toLowerCase() ?? null;
}

/** The onWrite half: observers, told of the statements the pool's clients send. */
export class WriteObservers {
  private observers = new Set<(table: string, sql: string) => void>();
  add(cb: (table: string, sql: string) => void): () => void {
    this.observers.add(cb);
    return () => void this.observers.delete(cb);
  }
  seen(sql: string): void {
    if (this.observers.size === 0) return;
    const table = writtenTable(sql);
    if (table) for (const cb of this.observers) cb(table, sql);
  }
}

function checkChannel(channel: string): void {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`bad channel name: ${channel}`);
}

interface PgPoolLike {
  connect(): Promise<{ query: (...args: any[]) => any }>;
}

/**
 * PostgreSQL: listeners on their own connections to `connectionString`; the pool's clients are watched for
 * UPDATE and DELETE statements (their `query` wrapped once), and send the hot queries of ./prepared.ts as
 * named prepared statements.
 */
export function pgNotifications(connectionString: string, pool: PgPoolLike): Notifications {
  const writes = new WriteObservers();
  const wrapped = new WeakSet<object>();
  const wrap = (client: { query: (...args: any[]) => any }) => {
    if (wrapped.has(client)) return;
    wrapped.add(client);
    const query = client.query.bind(client);
    client.query = (...args: any[]) => {
      const text = typeof args[0] === 'string' ? args[0] : args[0]?.text;
      if (typeof text !== 'string') return query(...args);
      writes.seen(text);
      // a hot query (./prepared.ts) goes as a named prepared statement: parsed and planned once per connection
      const name = typeof args[0] === 'string' && Array.isArray(args[1]) ? preparedName(text) : undefined;
      return name ? query({ name, text, values: args[1] }) : query(...args);
    };
  };
  const connect = pool.connect.bind(pool) as (...args: any[]) => any;
  // both forms of pg's Pool.connect: the promise (kysely) and the callback (pool.query)
  pool.connect = ((cb?: (err: Error | undefined, client: any, done: unknown) => void) => {
    if (typeof cb === 'function') {
      return connect((err: Error | undefined, client: any, done: unknown) => {
        if (client) wrap(client);
        cb(err, client, done);
      });
    }
    return (connect() as Promise<{ query: (...args: any[]) => any }>).then((client) => (wrap(client), client));
  }) as PgPoolLike['connect'];
  const listener = sharedListener(connectionString);
  return {
    onWrite: (cb) => writes.add(cb),
    listen: (channel, onPayload, state) => listener.add(channel, onPayload, state),
  };
}

interface Subscriber {
  channel: string;
  onPayload: (payload: string) => void;
  state: (up: boolean) => void;
}

/**
 * PostgreSQL: every channel a process listens on shares ONE dedicated connection (the session cache and the
 * bucket cache cost one connection, not two). While it is down every subscriber is told so, and it
 * reconnects every second for as long as anyone listens; it ends when the last subscriber leaves.
 */
function sharedListener(connectionString: string) {
  const subscribers = new Set<Subscriber>();
  let client: any = null;
  let opening: Promise<void> | null = null;
  let timer: NodeJS.Timeout | undefined;
  const channels = () => new Set([...subscribers].map((s) => s.channel));

  const open = async (): Promise<void> => {
    const pg = await import('pg');
    const { Client } = (pg as any).default ?? pg;
    const c = new Client({ connectionString });
    c.on('error', () => undefined); // the 'end' that follows does the rest
    c.on('notification', (m: { channel: string; payload?: string }) => {
      for (const s of subscribers) if (s.channel === m.channel) s.onPayload(m.payload ?? '');
    });
    c.on('end', () => {
      if (client !== c) return;
      client = null;
      for (const s of subscribers) s.state(false);
      if (subscribers.size) retryLater();
    });
    await c.connect();
    if (!subscribers.size) return void c.end().catch(() => undefined);
    client = c; // a subscriber that comes now sends its own LISTEN on it
    const up = [...subscribers];
    for (const ch of new Set(up.map((s) => s.channel))) await c.query(`listen ${ch}`);
    for (const s of up) if (subscribers.has(s)) s.state(true);
  };
  const connect = (): Promise<void> => {
    opening ??= open().finally(() => (opening = null));
    return opening;
  };
  const retryLater = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (subscribers.size && !client) void connect().catch(() => retryLater());
    }, 1000);
    timer.unref();
  };

  return {
    async add(channel: string, onPayload: (payload: string) => void, state: (up: boolean) => void): Promise<() => Promise<void>> {
      checkChannel(channel);
      const sub: Subscriber = { channel, onPayload, state };
      subscribers.add(sub);
      if (client) {
        try {
          await client.query(`listen ${channel}`);
          state(true);
        } catch {
          // the connection is going: its 'end' reports it down and reconnects
        }
      } else {
        await (opening ?? connect()).catch(() => retryLater());
      }
      return async () => {
        if (!subscribers.delete(sub)) return;
        state(false);
        if (!subscribers.size) {
          clearTimeout(timer);
          const c = client;
          client = null;
          if (c) await c.end().catch(() => undefined);
        } else if (client && !channels().has(channel)) {
          await client.query(`unlisten ${channel}`).catch(() => undefined);
        }
      };
    },
  };
}
