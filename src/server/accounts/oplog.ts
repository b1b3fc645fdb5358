/**
 * The operation log (spec 000 §2.4 "log/", §7 GET /api/logs/): every change a user makes is
 * recorded with who (id and name), what (action, detail), the target, when and from which address.
 * Sections write through `writeLog` (inside their transaction when they have one); the main account
 * reads its own and its sub-accounts' entries, newest first.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../db';
import type { Database } from '../db/schema';
import { ok } from '../http/envelope';
import { keysetQuery, pagingProps } from '../http/keyset';
import { actionText, LOG_PAGE_SIZE, type LogEntry } from '../../shared/oplog';

export interface LogWrite {
  action: string;
  target: string;
  detail?: unknown;
}

/** Records one change by the signed-in user of `req`. Never put a password in `detail`. */
export async function writeLog(db: Kysely<Database>, req: FastifyRequest, entry: LogWrite): Promise<void> {
  const user = req.user!;
  await db
    .insertInto('operation_logs')
    .values({
      account_id: user.account_id,
      user_id: user.id,
      username: user.username,
      action: entry.action,
      target: entry.target,
      detail: JSON.stringify(entry.detail ?? {}),
      ip: req.ip,
    })
    .execute();
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
