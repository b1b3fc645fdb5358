/**
 * The operation log (spec 000 §2.4 "log/", §7 GET /api/logs/): every change a user makes is
 * recorded with who (id and name), what (action, detail), the target, when and from which address.
 * Sections write through `writeLog`, always inside the transaction of the change; the main account
 * reads its own and its sub-accounts' entries, newest first.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../db';
import type { Database } from '../db/schema';
import { ok } from '../http/envelope';
import { prepareSql } from '../db/prepared';
import { keysetQuery, pagingProps } from '../http/keyset';
import { actionText, LOG_PAGE_SIZE, type LogEntry } from '../../shared/oplog';

export interface LogWrite {
  action: string;
  target: string;
  detail?: unknown;
}

/** Who made a change: the signed-in user (or the one a job acts for) and the address it came from. */
export interface LogActor {
  account_id: number;
  id: number;
  username: string | null;
}

/**
 * Records one change by the signed-in user of `req`, in the transaction that makes the change: the
 * type takes only a `Transaction`, so a change and its log row commit together or not at all (issue
 * 21 item 3; tests/unit/oplog-writers.test.ts checks that nothing else inserts into operation_logs).
 * Never put a password in `detail`.
 */
export async function writeLog(trx: Transaction<Database>, req: FastifyRequest, entry: LogWrite): Promise<void> {
  await writeLogAs(trx, req.user!, req.ip, entry);
}

/** writeLog for a known user and address (jobs acting for a user, partner calls). */
export async function writeLogAs(trx: Transaction<Database>, user: LogActor, ip: string | null, entry: LogWrite): Promise<void> {
  await trx
    .insertInto('operation_logs')
    .values({
      account_id: user.account_id,
      user_id: user.id,
      username: user.username,
      action: entry.action,
      target: entry.target,
      detail: JSON.stringify(entry.detail ?? {}),
      ip,
    })
    .execute();
}

/** A log row on its own, for what changes nothing else (a download): one short transaction. */
export function logOnly(db: Kysely<Database>, req: FastifyRequest, entry: LogWrite): Promise<void> {
  return db.transaction().execute((trx) => writeLog(trx, req, entry));
}

/**
 * A change and its log row as ONE statement (issue 22: a settings save at 100 connections): `changeSql`, an
 * INSERT, UPDATE or DELETE with `returning` and the parameters `$1`…`$arity`, runs in a data-modifying WITH
 * whose main statement writes the log row. PostgreSQL (and PGlite) runs one statement as one transaction,
 * so the change and its row commit together or not at all, as with writeLog in a transaction, in one round
 * trip instead of four (begin, change, log, commit) — and any lock the change takes is held that much
 * shorter. The log row is written only when the change returned a row: a change whose own WHERE refused it
 * stores nothing, and the function answers false. Compiled once, a prepared statement on PostgreSQL.
 */
export function loggedChange<P extends unknown[]>(name: string, arity: P['length'], changeSql: string): (db: Kysely<Database>, params: P, actor: LogActor, ip: string | null, entry: LogWrite) => Promise<boolean> {
  const n = (i: number) => `$${arity + i}`;
  const run = prepareSql<{ id: number }, unknown[]>(
    name,
    `with change as (${changeSql}) insert into operation_logs (account_id, user_id, username, action, target, detail, ip) ` +
      `select ${n(1)}::integer, ${n(2)}::integer, ${n(3)}::text, ${n(4)}::text, ${n(5)}::text, ${n(6)}::jsonb, ${n(7)}::text from (select 1 from change limit 1) as changed returning id`,
  );
  return async (db, params, actor, ip, entry) => {
    if (params.length !== arity) throw new Error(`${name}: ${params.length} parameters for ${arity}`);
    const rows = await run(db, ...params, actor.account_id, actor.id, actor.username, entry.action, entry.target, JSON.stringify(entry.detail ?? {}), ip);
    return rows.length > 0;
  };
}

interface LogQuery {
  limit: number;
  since?: number;
  max?: number;
}

export function logRoutes(app: FastifyInstance, db: DB): void {
  /**
   * Newest first. `max=M`: the next (older) page, ids below M; `since=S`: the previous (newer) page,
   * ids above S. pager.max / pager.since are null when there is nothing that way.
   */
  app.get<{ Querystring: LogQuery }>(
    '/api/logs/',
    {
      config: { access: 'parent', openapi: { summary: '操作日志（主账号及其子账号的操作，最新的在前）' } },
      schema: {
        querystring: {
          type: 'object',
          properties: {
            ...pagingProps(LOG_PAGE_SIZE),
          },
        },
      },
    },
    async (req) => {
      const { limit, since, max } = req.query;
      const accountId = req.user!.account_id;
      const base = db
        .selectFrom('operation_logs as l')
        .where('l.account_id', '=', accountId)
        .leftJoin('users as u', 'u.id', 'l.user_id')
        .select(['l.id', 'l.user_id', 'l.username', 'u.username as current_name', 'l.action', 'l.target', 'l.detail', 'l.ip', 'l.created_at']);
      const { items: page, pager } = await keysetQuery(base, 'l.id', { limit, since, max, order: 'desc' });
      const data: LogEntry[] = page.map((r) => ({
        id: r.id,
        user_id: r.user_id,
        username: r.username ?? r.current_name ?? null,
        action: r.action,
        action_text: actionText(r.action),
        target: r.target,
        detail: r.detail,
        ip: r.ip,
        created_at: new Date(r.created_at).toISOString(),
      }));
      return ok(data, { pager });
    },
  );
}
