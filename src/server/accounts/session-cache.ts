/**
 * A short-lived cache of signed-in sessions (issue 22): the user a session cookie stands for, kept in memory
 * for SESSION_CACHE_MS (default 5 s), so that a request does not ask the database who is calling.
 *
 * It forgets at once, in every server process, whenever what it holds changes in the database:
 *  - triggers on `sessions` (UPDATE, DELETE: sign-out, blocking, a password change ending the other
 *    sessions, the cleanup of expired ones) and on the columns of `users` a session carries (status,
 *    permissions, the main account's switches and lock, parent, contacts, …; also DELETE) send
 *    `NOTIFY session_cache, 'u<user id>'` with the change's COMMIT (migration 0200 below);
 *  - each process LISTENs (src/server/db/notify.ts) and drops the sessions of that user and of its
 *    sub-accounts (they carry their main account's switches);
 *  - in the process that makes the change, the cache empties as the UPDATE or DELETE statement is sent
 *    and answers nothing from memory for a second after (the notification arrives meanwhile), so the
 *    next request of the same process never sees the old session, however fast it follows;
 *  - a generation number makes a lookup that started before a change unable to store its (old) answer;
 *  - while the listening connection is down (PostgreSQL restarted, network), the cache is empty and off.
 * The cache holds at most 10,000 sessions (the oldest go first) and never holds a missing or expired one.
 */
import { EventEmitter } from 'node:events';
import { type Kysely, type Migration, sql } from 'kysely';
import type { SessionUser } from './session';

export const SESSION_CACHE_CHANNEL = 'session_cache';
/** The columns of `users` a SessionUser is made of (src/server/accounts/session.ts): a change notifies. */
const USER_COLUMNS = ['username', 'email', 'mobile', 'status', 'verify_status', 'two_step', 'parent_id', 'permissions', 'custom_prohibit_configuration', 'overseas_acceleration_switch', 'smart_compression', 'account_status'];

export const sessionCacheMigrations: Record<string, Migration> = {
  '0200_session_cache_notify': {
    async up(db: Kysely<any>) {
      await sql`create or replace function session_cache_notify() returns trigger language plpgsql as $$
        begin
          if tg_table_name = 'sessions' then
            perform pg_notify('session_cache', 'u' || old.user_id);
          else
            perform pg_notify('session_cache', 'u' || old.id);
          end if;
          return null;
        end $$`.execute(db);
      await sql`create trigger sessions_cache_notify after update or delete on sessions for each row execute function session_cache_notify()`.execute(db);
      await sql`create trigger users_cache_notify after update of ${sql.raw(USER_COLUMNS.join(', '))} or delete on users for each row execute function session_cache_notify()`.execute(db);
    },
  },
};

interface Entry {
  user: SessionUser;
  /** when the cache forgets it (ms) */
  until: number;
  /** when the session itself expires (ms) */
  expires: number;
}

export class SessionCache extends EventEmitter {
  private entries = new Map<string, Entry>();
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

  get(key: string): SessionUser | undefined {
    if (!this.answering) return undefined;
    const e = this.entries.get(key);
    if (!e) return undefined;
    const now = Date.now();
    if (e.until <= now || e.expires <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return e.user;
  }

  /** The generation to hand back to `put` with what a lookup that starts now finds. */
  begin(): number {
    return this.generation;
  }

  put(key: string, user: SessionUser, expires: number, generation: number): void {
    if (!this.answering || generation !== this.generation) return;
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, { user, until: Math.min(Date.now() + this.ttlMs, expires), expires });
  }

  /** A notification: `u<id>` drops that user's sessions and its sub-accounts'; anything else empties the cache. */
  notified(payload: string): void {
    const id = /^u(\d+)$/.exec(payload) ? Number(payload.slice(1)) : null;
    if (id === null) return this.clear('notification');
    this.generation++;
    for (const [key, e] of this.entries) if (e.user.id === id || e.user.parent_id === id) this.entries.delete(key);
    this.emit('invalidated', 'notification', id);
  }

  /** This process sends a change to `sessions` or `users`: forget everything, answer from the database for a while. */
  localWrite(): void {
    this.quietUntil = Date.now() + this.quietMs;
    this.clear('local');
  }

  /** Whether a statement this process sends changes what the cache holds (UPDATE or DELETE of sessions, or of users naming a session column). */
  static touches(table: string, statement: string): boolean {
    if (table === 'sessions') return true;
    if (table !== 'users') return false;
    return /^\s*delete/i.test(statement) || USER_COLUMNS.some((c) => statement.includes(c));
  }

  clear(why: string): void {
    this.generation++;
    this.entries.clear();
    this.emit('invalidated', why, null);
  }
}
