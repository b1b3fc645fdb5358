/**
 * Vouchers (spec 001 §3, §4, §7; docs/billing.md "Vouchers"):
 *   GET  /api/tickets/  the account's vouchers, newest first, since/max cursors; status derived on display;
 *                       start_time/end_time (unix seconds, end exclusive — the console adds one day to an
 *                       end date, spec 001 §7) on the time the voucher was obtained (its created_at)
 *   POST /api/ticket/   { ticket_id } activates an unbound code: 22101 unknown, 22102 already activated,
 *                       22103 past its activation deadline, 22104 after 10 wrong codes within an hour
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { DB } from '../../db';
import { ok } from '../../http/envelope';
import { ApiError } from '../../http/errors';
import { keysetQuery } from '../../http/keyset';
import type {} from '../tables';
import activateSchema from '../../../../schemas/forms/voucher_activate/schema.json';
import { TICKET_TRIES_PER_HOUR, VOUCHERS_PAGE_SIZE, voucherStatus, type Voucher } from '../../../shared/billing/vouchers';

const bill = { access: 'parent' as const, needs: ['bill' as const] };
const epoch = (d: Date | string | null) => (d ? Math.floor(new Date(d).getTime() / 1000) : 0);

type Row = { id: number; value: string; remain: string; expired_at: Date | null; created_at: Date; activated_at: Date | null; source: string; remark: string | null };

export function voucherOf(r: Row, nowS = Math.floor(Date.now() / 1000)): Voucher {
  const value = Number(r.value);
  const remain = Number(r.remain);
  const expired_at = epoch(r.expired_at);
  return { id: r.id, value, remain, used: Math.round((value - remain) * 100) / 100, expired_at, created_at: epoch(r.activated_at ?? r.created_at), source: r.source, remark: r.remark, status: voucherStatus({ value, remain, expired_at }, nowS) };
}

/** Vouchers that a settlement may use now: the account's, not expired, something left. */
export async function usableVoucherCount(db: DB, accountId: number): Promise<number> {
  const r = await db.selectFrom('vouchers').select((eb) => eb.fn.countAll<number>().as('n')).where('account_id', '=', accountId).where('remain', '>', '0').where('expired_at', '>', new Date()).executeTakeFirstOrThrow();
  return Number(r.n);
}

export function voucherRoutes(app: FastifyInstance, db: DB): void {
  app.get<{ Querystring: { status?: string; start_time?: number; end_time?: number; limit: number; since?: number; max?: number } }>(
    '/api/tickets/',
    {
      config: { ...bill, openapi: { summary: '代金券列表（新的在前，since/max 翻页）；status 由 value、remain、expired_at 推导；start_time/end_time 按获得时间筛选（结束日期由页面加一天）' } },
      schema: {
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            status: { type: 'string', enum: ['USING', 'USED', 'EXPIRED'], errorMessage: '状态为 USING、USED 或 EXPIRED' },
            start_time: { type: 'integer', minimum: 0, errorMessage: '开始时间为 Unix 秒' },
            end_time: { type: 'integer', minimum: 0, errorMessage: '结束时间为 Unix 秒' },
            limit: { type: 'integer', minimum: 1, maximum: 100, default: VOUCHERS_PAGE_SIZE, errorMessage: '每页 1 到 100 条' },
            since: { type: 'integer', minimum: 0, errorMessage: '分页参数不正确' },
            max: { type: 'integer', minimum: 0, errorMessage: '分页参数不正确' },
          },
        },
      },
    },
    async (req) => {
      const q = req.query;
      const accountId = req.user!.account_id;
      const now = new Date();
      let s = db.selectFrom('vouchers').select(['id', 'value', 'remain', 'expired_at', 'created_at', 'activated_at', 'source', 'remark']).where('account_id', '=', accountId);
      // the filter follows the derived status (later rules override earlier ones)
      if (q.status === 'EXPIRED') s = s.where('expired_at', '<', now);
      if (q.status === 'USED') s = s.where('expired_at', '>=', now).where('remain', '=', '0');
      if (q.status === 'USING') s = s.where('expired_at', '>=', now).where('remain', '>', '0');
      // the time the voucher was obtained, the created_at of the answer (activation, or the issue for a granted one)
      if (q.start_time !== undefined) s = s.where((eb) => eb.fn.coalesce('activated_at', 'created_at'), '>=', new Date(q.start_time * 1000));
      if (q.end_time !== undefined) s = s.where((eb) => eb.fn.coalesce('activated_at', 'created_at'), '<', new Date(q.end_time * 1000));
      const { items, pager } = await keysetQuery(s, 'id', { limit: q.limit, since: q.since, max: q.max, order: 'desc' });
      const nowS = Math.floor(now.getTime() / 1000);
      return ok(items.map((r) => voucherOf(r, nowS)), { pager, count: await usableVoucherCount(db, accountId) });
    },
  );

  app.post<{ Body: { ticket_id: string } }>(
    '/api/ticket/',
    {
      config: { ...bill, openapi: { summary: '激活代金券（ticket_id 为券号）' } },
      // the declaration of the console's activation form (schemas/forms/voucher_activate/)
      schema: { body: activateSchema },
    },
    async (req) => {
      const accountId = req.user!.account_id;
      const wrong = await db
        .selectFrom('ticket_attempts')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('account_id', '=', accountId)
        .where('ok', '=', false)
        .where('created_at', '>', sql<Date>`now() - interval '1 hour'`)
        .executeTakeFirstOrThrow();
      if (Number(wrong.n) >= TICKET_TRIES_PER_HOUR) throw new ApiError(22104, 429);
      const fail = async (code: number) => {
        await db.insertInto('ticket_attempts').values({ account_id: accountId, ok: false }).execute();
        throw new ApiError(code, 400);
      };
      const v = await db.selectFrom('vouchers').select(['id', 'account_id', 'expired_at', 'valid_days']).where('ticket_id', '=', req.body.ticket_id).executeTakeFirst();
      if (!v) return fail(22101);
      if (v.account_id !== null) return fail(22102);
      if (v.expired_at && new Date(v.expired_at).getTime() < Date.now()) return fail(22103);
      const done = await db
        .updateTable('vouchers')
        .set({ account_id: accountId, activated_at: sql<Date>`now()`, expired_at: sql<Date>`now() + make_interval(days => ${v.valid_days})` })
        .where('id', '=', v.id)
        .where('account_id', 'is', null)
        .returning(['id', 'value', 'remain', 'expired_at', 'created_at', 'activated_at', 'source', 'remark'])
        .executeTakeFirst();
      if (!done) return fail(22102);
      await db.insertInto('ticket_attempts').values({ account_id: accountId, ok: true }).execute();
      return ok(voucherOf(done));
    },
  );
}
