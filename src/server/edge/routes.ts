/**
 * The edge API (docs/edge.md "The wall"): how edge nodes meet the control plane. A node authenticates
 * with its key (`Authorization: Bearer <key>`), never with a customer session.
 *
 *   GET  /edge/v1/config?after=V&wait=S   the services changed after V; waits up to S seconds for a change
 *                                         (woken by LISTEN/NOTIFY, ./wake.ts)
 *   POST /edge/v1/report                  one apply: version, refused services, notes, timings
 *
 * And for the console:
 *
 *   GET  /api/buckets/edge/?bucket_name=  the service's state on the edge (EdgeStatus)
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { DB } from '../db';
import type { ServerConfig } from '../config';
import type { SettingRegistry } from '../../../schemas/registry';
import { ok } from '../http/envelope';
import { bucketForUser } from '../buckets/repo';
import { configSnapshot, currentVersion, edgeStatusOf, recordReport, registerNode, trimChanges } from './repo';
import { nodeOfRequest, registerNodeKey } from './key';
import { EDGE_API_PREFIX, EDGE_CONFIG_PAGE_MAX, EDGE_POLL_MAX_SECONDS, type EdgeApplyReport } from '../../shared/edge';
import { edgePurgeRoutes } from './purge';
import { edgeFileRoutes } from './files';
import { edgeTrafficRoutes } from './traffic';
import { BIGINT_MAX } from '../../shared/limits';
import { registerEdgeWake, versionReads, waitForVersion } from './wake';

export { EDGE_KEY_ERROR } from './key';

/** One read of the current version, counted with the waiting polls' reads (./wake.ts). */
function readVersion(db: DB): Promise<number> {
  versionReads.count++;
  return currentVersion(db);
}

const reportSchema = {
  type: 'object',
  required: ['node', 'version', 'ok', 'services'],
  additionalProperties: false,
  properties: {
    node: { type: 'string', maxLength: 100 },
    version: { type: 'integer', minimum: 0, maximum: BIGINT_MAX },
    ok: { type: 'boolean' },
    message: { type: 'string', maxLength: 4000 },
    timings: { type: 'object', additionalProperties: { type: 'number' } },
    services: {
      type: 'array',
      maxItems: 200000,
      items: {
        type: 'object',
        required: ['id', 'version', 'state'],
        additionalProperties: false,
        properties: {
          id: { type: 'integer' },
          version: { type: 'integer', minimum: 0, maximum: BIGINT_MAX },
          state: { type: 'string', enum: ['applied', 'refused'] },
          message: { type: 'string', maxLength: 4000 },
          notes: { type: 'object', additionalProperties: { type: 'string', maxLength: 1000 } },
        },
      },
    },
  },
} as const;

export async function edgeRoutes(app: FastifyInstance, db: DB, registry: SettingRegistry, config: ServerConfig): Promise<void> {
  // the node that `npm start` runs beside the server (EDGE_NODE_KEY), registered with its key
  if (config.edge.enabled && config.edge.nodeKey) await registerNode(db, config.edge.nodeName, config.edge.nodeKey);
  // the nodes' calls (a long poll every 20 s per node, reports, files) are logged only when they go wrong:
  // at info level they would bury the console's own requests in the server's log
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith(EDGE_API_PREFIX)) route.logLevel = 'warn';
  });
  const wake = registerEdgeWake(app, db); // one LISTEN edge_config per process, waking the long polls
  registerNodeKey(app, db); // every /edge/v1/ call: the node key before the body (./key.ts)
  await edgePurgeRoutes(app, db, registry); // purge and preheat tasks for the nodes, and their outcomes (./purge.ts)
  await edgeFileRoutes(app, db, registry); // file services' storage and mirror migration (./files.ts)
  edgeTrafficRoutes(app, db); // the edge's access log → statistics (./traffic.ts)

  const nodeOf = (req: FastifyRequest) => nodeOfRequest(db, req);

  app.get(
    `${EDGE_API_PREFIX}/config`,
    {
      config: { access: 'public', openapi: { summary: '边缘节点拉取配置（节点密钥）' } },
      schema: {
        querystring: {
          type: 'object',
          properties: {
            after: { type: 'integer', minimum: 0, maximum: BIGINT_MAX, default: 0 },
            wait: { type: 'integer', minimum: 0, maximum: EDGE_POLL_MAX_SECONDS, default: 0 },
            // paging a large answer (a node's first pull of every service): services with an id above `from`, at most `limit`
            from: { type: 'integer', minimum: 0, maximum: BIGINT_MAX, default: 0 },
            limit: { type: 'integer', minimum: 0, maximum: EDGE_CONFIG_PAGE_MAX, default: 0 },
          },
        },
      },
      // a long poll outlives the default socket timeouts of nothing here, but say what it is
    },
    async (req) => {
      const node = await nodeOf(req);
      const { after, wait, from, limit } = req.query as { after: number; wait: number; from: number; limit: number };
      await db.updateTable('edge_nodes').set({ last_seen_at: new Date() }).where('id', '=', node.id).execute();
      // woken by the database's notification (./wake.ts), with a slow safety re-check; a closed connection ends the wait
      const abort = new AbortController();
      const socket = req.raw.socket;
      const gone = () => abort.abort();
      socket?.once?.('close', gone);
      let version: number;
      try {
        version = after > 0 && wait > 0 ? await waitForVersion(wake, after, Date.now() + wait * 1000, () => currentVersion(db), abort.signal) : await readVersion(db);
      } finally {
        socket?.off?.('close', gone);
      }
      if (after > 0 && version <= after) return ok({ version, changed: false, services: [], ids: [], storage_base: `${EDGE_API_PREFIX}/files` });
      const answer = await configSnapshot(db, registry, after, { from, limit });
      await trimChanges(db);
      return ok(answer);
    },
  );

  app.post(
    `${EDGE_API_PREFIX}/report`,
    { config: { access: 'public', openapi: { summary: '边缘节点报告一次配置应用（节点密钥）' } }, bodyLimit: 32 * 1024 * 1024, schema: { body: reportSchema } },
    async (req) => {
      const node = await nodeOf(req);
      await recordReport(db, node.id, req.body as EdgeApplyReport);
      return ok();
    },
  );

  app.get(
    '/api/buckets/edge/',
    {
      config: { access: 'user', bucket: 'query', openapi: { summary: '服务在边缘节点上的生效状态' } },
      schema: { querystring: { type: 'object', required: ['bucket_name'], properties: { bucket_name: { type: 'string', minLength: 1, maxLength: 100 } } } },
    },
    async (req) => {
      const bucket = await bucketForUser(db, req.user!, (req.query as { bucket_name: string }).bucket_name);
      return ok(await edgeStatusOf(db, bucket.id, config.edge.enabled));
    },
  );
}
