/**
 * The project's storage behind the edge API (docs/edge.md "File services, mirror migration and
 * images"), authenticated by the node key like the rest of the edge API. The edge never reads the
 * storage itself: a file service's misses are proxied here, and mirror migration stores here.
 *
 *   GET|HEAD /edge/v1/files/<service name>/<path>   the stored object: Content-Type, Content-Length,
 *                                                   Last-Modified, ETag (If-None-Match → 304), X-Accel-Expires
 *                                                   (the edge's cache time); 404 when absent
 *   PUT      /edge/v1/files/<service name>/<path>   mirror migration: stores the body as that file of the
 *                                                   service, when the source service (X-Edge-Mirror-Source: its id)
 *                                                   migrates into it now (its mirror setting is 开启)
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DB } from '../db';
import type { SettingRegistry } from '../../../schemas/registry';
import { ApiError } from '../http/errors';
import { ok } from '../http/envelope';
import { nodeByKey } from './repo';
import { readSetting } from '../settings/repo';
import { contentTypeOf, findEntry, storageKey, writeFile } from '../files/repo';
import { pathSegments } from '../../shared/files';
import { EDGE_FILES_PREFIX, FILE_EDGE_TTL_SECONDS, MIRROR_MAX_BYTES, MIRROR_SOURCE_HEADER } from '../../shared/edge-files';

/** 20010: the edge node's key is missing or unknown (the same refusal as ./routes.ts). */
const EDGE_KEY_ERROR = 20010;

type Params = { bucket_name: string; '*': string };
const params = {
  type: 'object',
  required: ['bucket_name'],
  properties: { bucket_name: { type: 'string', minLength: 1, maxLength: 100 }, '*': { type: 'string' } },
};

const notFound = (reply: FastifyReply) => reply.code(404).type('text/plain; charset=utf-8').header('cache-control', 'no-store').send('404 Not Found\n');

export async function edgeFileRoutes(app: FastifyInstance, db: DB, registry: SettingRegistry): Promise<void> {
  async function node(req: FastifyRequest) {
    const auth = String(req.headers.authorization ?? '');
    const found = await nodeByKey(db, auth.startsWith('Bearer ') ? auth.slice(7).trim() : '');
    if (!found) throw new ApiError(EDGE_KEY_ERROR, 401);
  }
  const bucketByName = (name: string) => db.selectFrom('buckets').select(['id', 'name', 'kind', 'owner_id']).where('name', '=', name).executeTakeFirst();

  await app.register(async (scope) => {
    // a migrated object arrives as its own bytes, whatever its type
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MIRROR_MAX_BYTES }, (_req, body, done) => done(null, body));

    scope.route<{ Params: Params }>({
      method: ['GET', 'HEAD'],
      url: `${EDGE_FILES_PREFIX}/:bucket_name/*`,
      config: { access: 'public', openapi: { summary: '边缘节点读取存储中的文件（节点密钥）' } },
      schema: { params },
      handler: async (req, reply) => {
        await node(req);
        const segs = pathSegments(req.params['*'] ?? '');
        const b = await bucketByName(req.params.bucket_name);
        if (!b || !segs?.length) return notFound(reply);
        const file = await findEntry(db, b.id, segs.join('/'));
        if (!file || file.is_folder) return notFound(reply);
        const updated = new Date(file.updated_at);
        const etag = `"${file.id.toString(36)}-${Number(file.size).toString(36)}-${updated.getTime().toString(36)}"`;
        reply
          .header('content-type', file.content_type ?? contentTypeOf(file.name))
          .header('last-modified', updated.toUTCString())
          .header('etag', etag)
          .header('x-accel-expires', String(FILE_EDGE_TTL_SECONDS))
          .header('x-content-type-options', 'nosniff');
        const inm = req.headers['if-none-match'];
        if (inm && String(inm).split(/\s*,\s*/).includes(etag)) return reply.code(304).send();
        if (req.method === 'HEAD') {
          const head = await app.storage.head(storageKey(b.id, file.path));
          if (!head) return notFound(reply);
          return reply.header('content-length', String(head.size)).send();
        }
        const got = await app.storage.get(storageKey(b.id, file.path));
        if (!got) return notFound(reply);
        return reply.header('content-length', String(got.size)).send(got.body);
      },
    });

    scope.put<{ Params: Params }>(
      `${EDGE_FILES_PREFIX}/:bucket_name/*`,
      { config: { access: 'public', accepts: 'binary', openapi: { summary: '边缘节点把回源得到的文件迁移到存储（节点密钥）' } }, bodyLimit: MIRROR_MAX_BYTES, schema: { params } },
      async (req) => {
        await node(req);
        const segs = pathSegments(req.params['*'] ?? '');
        if (!segs?.length) throw new ApiError(27101, 400);
        const target = await bucketByName(req.params.bucket_name);
        const source = await db.selectFrom('buckets').select(['id', 'name', 'owner_id']).where('id', '=', Number(req.headers[MIRROR_SOURCE_HEADER]) || 0).executeTakeFirst();
        if (!target || !source) throw new ApiError(27102, 404);
        // only what the source service migrates now, into the storage it chose (or its own, an old migration)
        const mirror = (await readSetting(db, registry, source.id, 'mirror')) as { mirror?: string; mirror_bucket?: string } | undefined;
        const into = mirror?.mirror_bucket || source.name;
        if (mirror?.mirror !== 'enable' || into !== target.name || target.owner_id !== source.owner_id) throw new ApiError(21111, 403);
        const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
        const name = segs[segs.length - 1];
        const type = String(req.headers['content-type'] ?? '').trim() || contentTypeOf(name);
        // a folder of that name keeps its place: the object is not migrated
        if (await findEntry(db, target.id, `${segs.join('/')}/`)) throw new ApiError(27103, 409);
        const entry = await writeFile(db, app.storage, target.id, segs.join('/'), body, type, null);
        return ok(entry);
      },
    );
  });
}
