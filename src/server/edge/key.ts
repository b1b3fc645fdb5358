/**
 * The node key of every call of the edge API (`/edge/v1/…`), checked on onRequest (issue 34 item 1):
 * a call without a known key is refused with 401 20010 before its body is read, so no one without a
 * key makes the server take in a report of up to 32 MB. The node found is kept on the request.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { DB } from '../db';
import { ApiError } from '../http/errors';
import { EDGE_API_PREFIX } from '../../shared/edge';
import { nodeByKey } from './repo';

export type EdgeNode = NonNullable<Awaited<ReturnType<typeof nodeByKey>>>;

declare module 'fastify' {
  interface FastifyRequest {
    /** The edge node whose key the call carries (edge API routes only). */
    edgeNode: EdgeNode | null;
  }
}

/** 20010: the edge node's key is missing or unknown. */
export const EDGE_KEY_ERROR = 20010;

/** The key of `Authorization: Bearer <key>`, or ''. */
export function bearerKey(req: FastifyRequest): string {
  const auth = String(req.headers.authorization ?? '');
  return auth.startsWith('Bearer ') ? auth.slice(7).trim() : '';
}

export function registerNodeKey(app: FastifyInstance, db: DB): void {
  app.decorateRequest('edgeNode', null);
  app.addHook('onRequest', async (req) => {
    if (!req.routeOptions.url?.startsWith(`${EDGE_API_PREFIX}/`)) return;
    const node = await nodeByKey(db, bearerKey(req));
    if (!node) throw new ApiError(EDGE_KEY_ERROR, 401);
    req.edgeNode = node;
  });
}

/** The node of an edge API call (found by the onRequest hook; looked up here for a caller outside it). */
export async function nodeOfRequest(db: DB, req: FastifyRequest): Promise<EdgeNode> {
  if (req.edgeNode) return req.edgeNode;
  const node = await nodeByKey(db, bearerKey(req));
  if (!node) throw new ApiError(EDGE_KEY_ERROR, 401);
  return node;
}
