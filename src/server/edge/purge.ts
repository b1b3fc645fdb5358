/**
 * The edge API's purge calls (docs/operations-tools.md "Purge and preheat"): an edge node pulls the
 * purge and preheat tasks due for it and reports what it did; the task's state in the purge log comes
 * from these reports (src/server/purge/outcome.ts).
 *
 *   GET  /edge/v1/purge?wait=S    the due tasks this node has not reported yet (at most 1000); with
 *                                 `wait`, held until there is one or S seconds pass (woken by a submission)
 *   POST /edge/v1/purge/report    { results: [{ id, ok, message?, removed? }] }
 *
 * Each task carries what the node needs about its domain now: the service, whether the bandwidth cap
 * paused it, and the settings a URL's cache key depends on (query_string, cache_rules); no service when
 * the domain is no longer any service's.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { DB } from '../db';
import type { SettingRegistry } from '../../../schemas/registry';
import { ApiError } from '../http/errors';
import { ok } from '../http/envelope';
import { nodeByKey } from './repo';
import { EDGE_KEY_ERROR } from './routes';
import { EDGE_API_PREFIX, EDGE_POLL_MAX_SECONDS } from '../../shared/edge';
import { servingCandidates } from '../../shared/domains';
import { CACHE_KEY_SETTINGS, EDGE_PURGE_MAX_TASKS, type CacheKeySettings, type EdgePurgeTask, type PurgeKind } from '../../shared/purge';
import { nextAnnouncement } from '../purge/signal';
import { recordOutcomes } from '../purge/outcome';

const reportSchema = {
  type: 'object',
  required: ['results'],
  additionalProperties: false,
  properties: {
    results: {
      type: 'array',
      maxItems: EDGE_PURGE_MAX_TASKS,
      items: {
        type: 'object',
        required: ['id', 'ok'],
        additionalProperties: false,
        properties: { id: { type: 'integer' }, ok: { type: 'boolean' }, message: { type: 'string', maxLength: 4000 }, removed: { type: 'integer', minimum: 0 } },
      },
    },
  },
} as const;

/** The due tasks node `nodeId` has not reported, with their services as they are now. */
export async function tasksForNode(db: DB, registry: SettingRegistry, nodeId: number, now = new Date()): Promise<EdgePurgeTask[]> {
  const rows = await db
    .selectFrom('purge_tasks as t')
    .select(['t.id', 't.kind', 't.target', 't.domain'])
    .where('t.status', '=', 'waiting')
    .where('t.run_at', '<=', now)
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('purge_task_nodes as r').select(sql`1`.as('x')).whereRef('r.task_id', '=', 't.id').where('r.node_id', '=', nodeId))))
    .orderBy('t.id')
    .limit(EDGE_PURGE_MAX_TASKS)
    .execute();
  if (!rows.length) return [];
  const hosts = [...new Set(rows.map((r) => r.domain))];
  // a host's service: its own domain's, else its nearest wildcard parent's (as the edge serves it)
  const candidates = [...new Set(hosts.flatMap((h) => servingCandidates(h.toLowerCase())))];
  const services = await db
    .selectFrom('bucket_domains as d')
    .innerJoin('buckets as b', 'b.id', 'd.bucket_id')
    .leftJoin('cost_control_state as c', 'c.bucket_id', 'b.id')
    .select(['d.domain', 'b.id', 'b.kind', 'c.paused'])
    .where('d.domain', 'in', candidates)
    .execute();
  const stored = services.length
    ? await db
        .selectFrom('service_settings')
        .select(['bucket_id', 'setting_id', 'value'])
        .where('bucket_id', 'in', [...new Set(services.map((s) => s.id))])
        .where('setting_id', 'in', [...CACHE_KEY_SETTINGS])
        .execute()
    : [];
  // the effective value, as the edge's configuration has it: fixed for the kind, else stored, else the default
  const effective = (bucketId: number, kind: string): CacheKeySettings => {
    const out: CacheKeySettings = {};
    for (const id of CACHE_KEY_SETTINGS) {
      const d = registry.get(id);
      if (!d || !(d.meta.kinds as string[]).includes(kind)) continue;
      const fixed = registry.fixedFor(id, kind);
      const row = stored.find((r) => r.bucket_id === bucketId && r.setting_id === id);
      out[id] = fixed !== undefined ? fixed : row ? row.value : registry.defaults(id);
    }
    return out;
  };
  const byDomain = new Map(services.map((s) => [s.domain.toLowerCase(), { id: s.id, paused: !!s.paused, settings: effective(s.id, s.kind) }]));
  const serviceOf = (host: string) => {
    const d = servingCandidates(host.toLowerCase()).find((c) => byDomain.has(c));
    return d ? byDomain.get(d)! : null;
  };
  return rows.map((r) => ({ id: r.id, kind: r.kind as PurgeKind, target: r.target, host: r.domain, service: serviceOf(r.domain) }));
}

export async function edgePurgeRoutes(app: FastifyInstance, db: DB, registry: SettingRegistry): Promise<void> {
  async function nodeOf(req: FastifyRequest) {
    const auth = String(req.headers.authorization ?? '');
    const node = await nodeByKey(db, auth.startsWith('Bearer ') ? auth.slice(7).trim() : '');
    if (!node) throw new ApiError(EDGE_KEY_ERROR, 401);
    return node;
  }

  app.get(
    `${EDGE_API_PREFIX}/purge`,
    {
      config: { access: 'public', openapi: { summary: '边缘节点拉取待执行的刷新与预热任务（节点密钥）' } },
      schema: { querystring: { type: 'object', properties: { wait: { type: 'integer', minimum: 0, maximum: EDGE_POLL_MAX_SECONDS, default: 0 } } } },
    },
    async (req) => {
      const node = await nodeOf(req);
      const { wait } = req.query as { wait: number };
      const until = Date.now() + wait * 1000;
      // the node is online while it polls (a task waits for every online node)
      await db.updateTable('edge_nodes').set({ last_seen_at: new Date() }).where('id', '=', node.id).execute();
      for (;;) {
        const tasks = await tasksForNode(db, registry, node.id);
        const left = until - Date.now();
        if (tasks.length || left <= 0 || req.raw.socket.destroyed) return ok({ tasks });
        await nextAnnouncement(Math.min(1000, left));
      }
    },
  );

  app.post(`${EDGE_API_PREFIX}/purge/report`, { config: { access: 'public', openapi: { summary: '边缘节点报告刷新与预热任务的结果（节点密钥）' } }, schema: { body: reportSchema } }, async (req) => {
    const node = await nodeOf(req);
    await db.updateTable('edge_nodes').set({ last_seen_at: new Date() }).where('id', '=', node.id).execute();
    const settled = await recordOutcomes(db, node.id, (req.body as { results: { id: number; ok: boolean; message?: string; removed?: number }[] }).results);
    return ok({ settled });
  });
}
