/**
 * A database that is down, hung or full (issue 34 item 6): the errors that mean "the database cannot answer
 * now", which the server answers with 503, Retry-After and the catalogue's text (src/server/app.ts) rather
 * than 500 系统未知错误. The timeouts that turn a hung database into such an error are the pool's
 * (./index.ts `DB_TIMEOUTS`).
 */

/** Socket errors of a connection that could not be made or was lost. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'ENOSPC', 'EDQUOT']);

/**
 * PostgreSQL's SQLSTATE classes and codes: 08 connection exception, 53 insufficient resources (disk full,
 * out of memory, too many connections), 57P01–57P05 the server shutting down or not yet accepting, 57014 a
 * statement cancelled by statement_timeout, 55P03 a lock not had within lock_timeout.
 */
function sqlstateUnavailable(code: string): boolean {
  return /^(08|53)/.test(code) || /^57P0[1-5]$/.test(code) || code === '57014' || code === '55P03';
}

/** node-postgres' own words for a lost or never-made connection. */
const MESSAGES = [/Connection terminated/i, /Query read timeout/i, /timeout exceeded when trying to connect/i, /Client has encountered a connection error/i, /connection.*(closed|ended)/i, /No space left on device/i];

export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e: any = err, depth = 0; e && depth < 5; e = e.cause, depth++) {
    if (typeof e !== 'object') return false;
    const code = typeof e.code === 'string' ? e.code : '';
    if (SOCKET_CODES.has(code)) return true;
    // SQLSTATE: five characters, digits and capitals (node's codes start with E and are longer)
    if (/^[0-9A-Z]{5}$/.test(code) && sqlstateUnavailable(code)) return true;
    if (typeof e.message === 'string' && MESSAGES.some((m) => m.test(e.message))) return true;
  }
  return false;
}

/** Seconds a client should wait before trying again. */
export const DATABASE_RETRY_AFTER_S = 5;
