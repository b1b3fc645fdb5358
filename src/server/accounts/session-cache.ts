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
import { type Kysely, type Migration, sql } from 'kysely';
import type { SessionUser } from './session';
import { NotifiedCache } from '../db/notified-cache';

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

/** The signed-in sessions, by the hash of their cookie (the lifetime, the notifications and the quiet time: ../db/notified-cache.ts). */
export class SessionCache extends NotifiedCache<SessionUser> {
  /** A notification: `u<id>` drops that user's sessions and its sub-accounts'; anything else empties the cache. */
  notified(payload: string): void {
    const id = /^u(\d+)$/.exec(payload) ? Number(payload.slice(1)) : null;
    if (id === null) return this.clear('notification');
    this.drop((user) => user.id === id || user.parent_id === id, id);
  }

  /** Whether a statement this process sends changes what the cache holds (UPDATE or DELETE of sessions, or of users naming a session column). */
  static touches(table: string, statement: string): boolean {
    if (table === 'sessions') return true;
    if (table !== 'users') return false;
    return /^\s*delete/i.test(statement) || USER_COLUMNS.some((c) => statement.includes(c));
  }
}
