/**
 * Sessions live in the database (several server processes can share them) and travel in an
 * HttpOnly, SameSite cookie. The table keeps only the SHA-256 of the cookie's value (`sessions.id`),
 * so a copy of the database signs no one in. The cookie is Secure when SECURE_COOKIES is on or the
 * request came over HTTPS (directly, or through a proxy of TRUST_PROXY that says so). docs/security.md
 * Each process remembers a signed-in session for a few seconds (./session-cache.ts) and forgets it at once,
 * in every process, when it ends or its user changes (database triggers and LISTEN/NOTIFY). docs/performance.md
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DB } from '../db';
import type { ServerConfig } from '../config';
import { notificationsOf } from '../db/notify';
import { prepare } from '../db/prepared';
import { hashCode, randomToken } from './passwords';
import { SESSION_CACHE_CHANNEL, SessionCache } from './session-cache';

export const SESSION_COOKIE = 'sid';

/** What `sessions.id` holds for a cookie value: its SHA-256, hex. */
export function sessionKey(cookieValue: string): string {
  return hashCode(cookieValue);
}

export interface SessionUser {
  id: number;
  username: string;
  email: string | null;
  mobile: string | null;
  status: string;
  verify_status: string;
  two_step: boolean;
  parent_id: number | null;
  permissions: string[];
  custom_prohibit_configuration: boolean;
  overseas_acceleration_switch: boolean;
  /** the main account's business flag for smart compression (spec 002 §2) */
  smart_compression: boolean;
  /** spec 000 §3 account_status (NORMAL, DISABLED, BLOCKED, LOCKED): the main account's, for a sub-account too */
  account_status: string;
  /** The main account whose services this user works on. */
  account_id: number;
  /** The session's row id (the hash of the cookie, never the cookie itself). */
  session_id: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    user: SessionUser | null;
  }
  interface FastifyInstance {
    /** The signed-in sessions this process remembers for a few seconds (./session-cache.ts). */
    sessionCache: SessionCache;
  }
}

/** The session of a key, unexpired (compiled once: src/server/db/prepared.ts). */
const lookupSession = prepare<Omit<SessionUser, 'account_id'> & { expires_at: Date | string }, [string, Date]>('session_lookup', 2, (db, key, now) =>
  db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select(['u.id', 'u.username', 'u.email', 'u.mobile', 'u.status', 'u.verify_status', 'u.two_step', 'u.parent_id', 'u.permissions', 's.id as session_id', 's.expires_at'])
    .select((eb) => [
      // a sub-account shares its main account's lock and switches
      eb.fn.coalesce(eb.selectFrom('users as p').select('p.custom_prohibit_configuration').whereRef('p.id', '=', 'u.parent_id'), 'u.custom_prohibit_configuration').as('custom_prohibit_configuration'),
      eb.fn.coalesce(eb.selectFrom('users as p').select('p.overseas_acceleration_switch').whereRef('p.id', '=', 'u.parent_id'), 'u.overseas_acceleration_switch').as('overseas_acceleration_switch'),
      eb.fn.coalesce(eb.selectFrom('users as p').select('p.smart_compression').whereRef('p.id', '=', 'u.parent_id'), 'u.smart_compression').as('smart_compression'),
      eb.fn.coalesce(eb.selectFrom('users as p').select('p.account_status').whereRef('p.id', '=', 'u.parent_id'), 'u.account_status').as('account_status'),
    ])
    .where('s.id', '=', key)
    .where('s.expires_at', '>', now),
);

/**
 * Who is calling: the session cookie's user, from the session cache (./session-cache.ts) or the database.
 * `cacheMs` (SESSION_CACHE_MS, default 5,000; 0 turns the cache off) is how long a session is remembered;
 * the cache is on only while the database's notifications arrive (src/server/db/notify.ts).
 */
export function registerSessions(app: FastifyInstance, db: DB, opts: { cacheMs?: number } = {}): void {
  app.decorateRequest('user', null);
  const cache = new SessionCache(opts.cacheMs ?? 5000);
  app.decorate('sessionCache', cache);
  const notifications = notificationsOf(db);
  if (notifications && cache.ttlMs > 0) {
    const stopWatching = notifications.onWrite((table, statement) => {
      if (SessionCache.touches(table, statement)) cache.localWrite();
    });
    let unlisten: (() => Promise<void>) | undefined;
    app.addHook('onReady', async () => {
      unlisten = await notifications.listen(SESSION_CACHE_CHANNEL, (payload) => cache.notified(payload), (up) => cache.setListening(up));
    });
    app.addHook('onClose', async () => {
      stopWatching();
      await unlisten?.();
    });
  }
  app.addHook('onRequest', async (req) => {
    const sid = req.cookies[SESSION_COOKIE];
    if (!sid) return;
    const key = sessionKey(sid);
    const cached = cache.get(key);
    if (cached) {
      req.user = cached;
      return;
    }
    const generation = cache.begin();
    const [row] = await lookupSession(db, key, new Date());
    if (!row) return;
    const { expires_at, ...user } = row;
    req.user = { ...user, account_id: row.parent_id ?? row.id };
    cache.put(key, req.user, new Date(expires_at).getTime(), generation);
  });
}

/**
 * Whether the session cookie gets Secure: always with SECURE_COOKIES, else when this request came over
 * HTTPS. `req.protocol` reads X-Forwarded-Proto only from a proxy of TRUST_PROXY (Fastify's trustProxy).
 */
export function secureCookie(config: Pick<ServerConfig, 'secureCookies'> | undefined, req: FastifyRequest): boolean {
  return Boolean(config?.secureCookies) || req.protocol === 'https';
}

export async function startSession(db: DB, config: ServerConfig, reply: FastifyReply, req: FastifyRequest, userId: number) {
  const token = randomToken(32);
  const expires = new Date(Date.now() + config.sessionTtl * 1000);
  await db.insertInto('sessions').values({ id: sessionKey(token), user_id: userId, expires_at: expires, ip: req.ip }).execute();
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: secureCookie(config, req),
    expires,
  });
}

export async function endSession(db: DB, reply: FastifyReply, req: FastifyRequest) {
  const sid = req.cookies[SESSION_COOKIE];
  if (sid) await db.deleteFrom('sessions').where('id', '=', sessionKey(sid)).execute();
  reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure: secureCookie(undefined, req) });
}
