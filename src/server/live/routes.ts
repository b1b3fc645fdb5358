/**
 * Live services (spec 002 "Live", §4, §7): the live info call and the suspended-config rule. The live
 * settings themselves (source, domain, apps, callbacks, recording, snapshots, transcoding templates,
 * forbidden streams, FLV/HLS) are declarations under schemas/settings/live_*, served and validated by the
 * settings engine (/api/settings/live_…/).
 *
 *   GET /api/buckets/live/info/?bucket_name   { transport, type: 'file' | 'ucdn', suspended, suspended_reason }
 *   GET /api/srs/info/?bucket_name            the same (the /api/srs/ family of spec 002 §7)
 *
 * A live service without its live configuration (or a bucket that is not live) answers 23801, which
 * the console reads as "config does not exist". While a live service's configuration is suspended,
 * every setting write of that service is refused with 23802 (the console shows the suspended-config
 * modal and locks the panels): the save's own statement reads the suspension (src/server/settings/repo.ts).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { DB } from '../db';
import type {} from '../ddos/tables';
import { ApiError } from '../http/errors';
import { ok } from '../http/envelope';
import { bucketForUser } from '../buckets/repo';
import { liveTypeOf, type LiveInfo } from '../../shared/live';

export async function liveInfo(db: DB, bucketId: number, kind: string): Promise<LiveInfo> {
  if (kind !== 'live') throw new ApiError(23801, 404);
  const row = await db.selectFrom('live_services').selectAll().where('bucket_id', '=', bucketId).executeTakeFirst();
  if (!row) throw new ApiError(23801, 404);
  return { transport: row.transport, type: liveTypeOf(row.transport), suspended: row.suspended, suspended_reason: row.suspended_reason };
}

export function liveRoutes(app: FastifyInstance, db: DB): void {
  const schema = {
    querystring: {
      type: 'object',
      required: ['bucket_name'],
      properties: { bucket_name: { type: 'string', minLength: 1, errorMessage: { type: '请指定服务', minLength: '请指定服务' } } },
      errorMessage: { required: { bucket_name: '请指定服务' } },
    },
  };
  const handler = async (req: FastifyRequest<{ Querystring: { bucket_name: string } }>) => {
    const b = await bucketForUser(db, req.user!, req.query.bucket_name);
    return ok({ bucket_name: b.name, ...(await liveInfo(db, b.id, b.kind)) });
  };
  app.get('/api/buckets/live/info/', { config: { access: 'user', bucket: 'query' }, schema }, handler);
  app.get('/api/srs/info/', { config: { access: 'user', bucket: 'query' }, schema }, handler);

  // a suspended live configuration cannot be changed: the settings save refuses it with 23802 in the
  // statement that writes (src/server/settings/repo.ts saveSetting)
}
