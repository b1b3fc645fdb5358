/**
 * Purge and preheat (spec 002 "Purge and preheat", permission cache). Every submitted URL or rule
 * becomes a task record; the edge nodes pull it, act on their cache and report (src/server/edge/purge.ts,
 * ./outcome.ts), and the log shows what they did. ./worker.ts settles what no report can (no edge, time-out).
 *
 *   POST /api/purge/               { urls }                       URL purge
 *   POST /api/buckets/purge/batch/ { source_url, nofi, delay }    URL purge, one per line, after `delay` seconds
 *   POST /api/buckets/purge/       { rules }                      rule (directory, wildcard) purge
 *   POST /api/preheat              { urls }                       preheat
 *   GET  /api/purge/list           ?kind&status&page&limit        the log, with today's quotas
 *
 * Refusals: 20001 the declarations' messages; 21224 a URL of a domain that is not the account's;
 * 21221 the same target within 10 minutes; 21222 a rule a sixth time today; 21223 / 21225 the daily quota.
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import purgeUrlSchema from '../../../schemas/forms/purge_url/schema.json';
import purgeRuleSchema from '../../../schemas/forms/purge_rule/schema.json';
import preheatSchema from '../../../schemas/forms/preheat/schema.json';
import type { DB } from '../db';
import type { SessionUser } from '../accounts/session';
import { ApiError } from '../http/errors';
import { ok } from '../http/envelope';
import { assertNotLocked } from '../settings/routes';
import { validate } from './validate';
import { dataScopeTo } from '../buckets/repo';
import { servingCandidates } from '../../shared/domains';
import {
  DAILY_QUOTA,
  hostOf,
  normalizeTarget,
  PURGE_RECORD_DAYS,
  REPEAT_INTERVAL_MINUTES,
  RULE_TIMES_PER_DAY,
  type PurgeKind,
  type PurgeQuota,
  type PurgeTask,
} from '../../shared/purge';
import { limitProp } from '../http/keyset';
import { announceTasks } from './signal';
import { writeLogAs } from '../accounts/oplog';
import './tables';

const startOfDay = (now = new Date()) => new Date(now.getFullYear(), now.getMonth(), now.getDate());

/** Today's quota use of an account, per kind. */
export async function quotasOf(db: DB, accountId: number): Promise<PurgeQuota[]> {
  const rows = await db
    .selectFrom('purge_tasks')
    .select(['kind', sql<number>`count(*)::int`.as('n')])
    .where('account_id', '=', accountId)
    .where('created_at', '>=', startOfDay())
    .groupBy('kind')
    .execute();
  return (Object.keys(DAILY_QUOTA) as PurgeKind[]).map((kind) => {
    const used = Number(rows.find((r) => r.kind === kind)?.n ?? 0);
    return { kind, used, limit: DAILY_QUOTA[kind], remaining: Math.max(0, DAILY_QUOTA[kind] - used) };
  });
}

export function purgeRoutes(app: FastifyInstance, db: DB): void {
  /** Checks every rule, then stores one task per target; all or nothing. */
  async function submit(user: SessionUser, ip: string, kind: PurgeKind, written: string[], delaySeconds = 0, notify = false) {
    assertNotLocked(user);
    // host names are case-insensitive: WWW.Example.com is the domain www.example.com, and the same URL
    const targets = written.map(normalizeTarget);
    // every host must be a domain of the account's services
    const hosts = [...new Set(targets.map((t) => hostOf(t)!))];
    // the account's services, or for a sub-account limited to authorized services, the granted ones
    const scope = dataScopeTo(db.selectFrom('buckets').select('buckets.id'), user);
    // a host is served by its own domain or else its nearest wildcard parent, whoever holds it (as the
    // edge chooses): the account's when that domain is one of its services' (issue 34 item 15, 21224)
    const candidates = [...new Set(hosts.flatMap(servingCandidates))];
    const bound = new Set((await db.selectFrom('bucket_domains').select('domain').where('domain', 'in', candidates).execute()).map((o) => o.domain));
    const ownedSet = new Set((await db.selectFrom('bucket_domains').select('domain').where('bucket_id', 'in', scope).where('domain', 'in', candidates).execute()).map((o) => o.domain));
    const serving = (host: string) => servingCandidates(host).find((d) => bound.has(d));
    const foreign = targets.findIndex((t) => {
      const d = serving(hostOf(t)!);
      return !d || !ownedSet.has(d);
    });
    if (foreign >= 0) {
      const path = kind === 'rule' ? `/rules/${foreign}` : `/urls/${foreign}`;
      throw new ApiError(21224, 400, [{ path, message: `${hostOf(targets[foreign])} 不是本账号服务下的域名` }]);
    }
    // the daily quota
    const quota = (await quotasOf(db, user.account_id)).find((q) => q.kind === kind)!;
    if (targets.length > quota.remaining) throw new ApiError(kind === 'preheat' ? 21225 : 21223, 429, undefined, { quota });
    if (kind !== 'preheat') {
      // the same target within the interval
      const recent = await db
        .selectFrom('purge_tasks')
        .select('target')
        .where('account_id', '=', user.account_id)
        .where('kind', '=', kind)
        .where('target', 'in', targets)
        .where('created_at', '>', new Date(Date.now() - REPEAT_INTERVAL_MINUTES * 60_000))
        .executeTakeFirst();
      if (recent) throw new ApiError(21221, 429, [{ path: `/${kind === 'rule' ? 'rules' : 'urls'}/${targets.indexOf(recent.target)}`, message: `${recent.target} 在 10 分钟内已刷新过` }]);
    }
    if (kind === 'rule') {
      const counts = await db
        .selectFrom('purge_tasks')
        .select(['target', sql<number>`count(*)::int`.as('n')])
        .where('account_id', '=', user.account_id)
        .where('kind', '=', 'rule')
        .where('target', 'in', targets)
        .where('created_at', '>=', startOfDay())
        .groupBy('target')
        .execute();
      const tooMany = counts.find((c) => Number(c.n) >= RULE_TIMES_PER_DAY);
      if (tooMany) throw new ApiError(21222, 429, [{ path: `/rules/${targets.indexOf(tooMany.target)}`, message: `${tooMany.target} 今日已刷新 ${RULE_TIMES_PER_DAY} 次` }]);
    }
    const runAt = new Date(Date.now() + delaySeconds * 1000);
    const rows = await db.transaction().execute(async (trx) => {
      const inserted = await trx
        .insertInto('purge_tasks')
        .values(targets.map((target) => ({ account_id: user.account_id, user_id: user.id, kind, target, domain: hostOf(target)!, run_at: runAt })))
        .returning(['id'])
        .execute();
      // nofi: one message when every task of this submission has ended (./outcome.ts notifyFinished)
      if (notify) await trx.updateTable('purge_tasks').set({ notify_batch: inserted[0]!.id }).where('id', 'in', inserted.map((r) => r.id)).execute();
      await writeLogAs(trx, user, ip, { action: `purge.${kind}`, target: hostOf(targets[0])!, detail: { count: targets.length, targets: targets.slice(0, 10) } });
      return inserted;
    });
    // the edge nodes' long polls take them now (src/server/edge/purge.ts)
    if (delaySeconds === 0) announceTasks();
    return ok({ count: rows.length, task_ids: rows.map((r) => r.id), first_domain: hostOf(targets[0]) }, { quota: (await quotasOf(db, user.account_id)).find((q) => q.kind === kind) });
  }

  const cache = { access: 'user' as const, needs: ['cache' as const] };

  app.post<{ Body: { urls: string[]; nofi?: number } }>('/api/purge/', { config: cache, schema: { body: purgeUrlSchema } }, (req) => submit(req.user!, req.ip, 'url', req.body.urls, 0, req.body.nofi === 1));

  app.post<{ Body: { source_url: string; nofi?: number; delay?: number } }>(
    '/api/buckets/purge/batch/',
    {
      config: cache,
      schema: {
        body: {
          type: 'object',
          required: ['source_url'],
          properties: {
            source_url: { type: 'string', minLength: 1, maxLength: 110000, errorMessage: { type: '请填写需要刷新的 URL', minLength: '请填写需要刷新的 URL', maxLength: '个数超出限制' } },
            nofi: { type: 'integer', enum: [0, 1], errorMessage: { type: '通知选项只能是 0 或 1', enum: '通知选项只能是 0 或 1' } },
            delay: { type: 'integer', minimum: 0, maximum: 86400, errorMessage: { type: '延迟须为整数（秒）', minimum: '延迟为 0 - 86400 秒', maximum: '延迟为 0 - 86400 秒' } },
          },
          errorMessage: { required: { source_url: '请填写需要刷新的 URL' } },
        },
      },
    },
    async (req) => {
      // one URL a line, validated by the same declaration as POST /api/purge/
      const urls = req.body.source_url.split('\n').map((l) => l.trim()).filter(Boolean);
      const errors = validate('purge_url', { urls });
      if (errors.length) throw new ApiError(20001, 400, errors);
      return submit(req.user!, req.ip, 'url', urls, req.body.delay ?? 0, req.body.nofi === 1);
    },
  );

  app.post<{ Body: { rules: string[] } }>('/api/buckets/purge/', { config: cache, schema: { body: purgeRuleSchema } }, (req) => submit(req.user!, req.ip, 'rule', req.body.rules));

  app.post<{ Body: { urls: string[] } }>('/api/preheat', { config: cache, schema: { body: preheatSchema } }, (req) => submit(req.user!, req.ip, 'preheat', req.body.urls));

  app.get<{ Querystring: { kind?: PurgeKind; status?: string; page: number; limit: number } }>(
    '/api/purge/list',
    {
      config: cache,
      schema: {
        querystring: {
          type: 'object',
          properties: {
            kind: { type: 'string', enum: ['url', 'rule', 'preheat'], errorMessage: { enum: '类型只能是 url、rule 或 preheat' } },
            status: { type: 'string', enum: ['waiting', 'success', 'failed'], errorMessage: { enum: '状态只能是 waiting、success 或 failed' } },
            page: { type: 'integer', minimum: 1, default: 1, errorMessage: { type: '页码须为整数', minimum: '页码须为正整数' } },
            limit: limitProp(20),
          },
        },
      },
    },
    async (req) => {
      const { kind, status, page, limit } = req.query;
      const user = req.user!;
      let q = db.selectFrom('purge_tasks').where('account_id', '=', user.account_id).where('created_at', '>', new Date(Date.now() - PURGE_RECORD_DAYS * 86_400_000));
      if (kind) q = q.where('kind', '=', kind);
      if (status) q = q.where('status', '=', status);
      const total = Number((await q.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow()).n);
      const rows = await q
        .select(['id', 'kind', 'target', 'domain', 'status', 'created_at', 'finished_at', 'message', 'removed'])
        .orderBy('id', 'desc')
        .limit(limit)
        .offset((page - 1) * limit)
        .execute();
      const data: PurgeTask[] = rows.map((r) => ({
        id: r.id,
        kind: r.kind as PurgeKind,
        target: r.target,
        domain: r.domain,
        status: r.status as PurgeTask['status'],
        created_at: new Date(r.created_at).toISOString(),
        finished_at: r.finished_at ? new Date(r.finished_at).toISOString() : null,
        message: r.message ?? null,
        removed: r.removed ?? null,
      }));
      return ok(data, { pager: { total, page, pages: Math.max(1, Math.ceil(total / limit)) }, quota: await quotasOf(db, user.account_id) });
    },
  );
}
