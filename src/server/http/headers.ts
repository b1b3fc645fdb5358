/**
 * Headers of every API answer (issue 34 item 11): `X-Content-Type-Options: nosniff` (a browser never reads
 * a JSON answer or an uploaded file's bytes as another type), and `Cache-Control: no-store` unless the
 * route set its own (the answers carry the account's data: a shared or browser cache keeps none of them;
 * the static data and API reference routes choose their own caching).
 */
import type { FastifyInstance } from 'fastify';

export const API_PATH_PREFIXES = ['/api/', '/accounts/', '/edge/', '/folder/', '/work_order/', '/orders/'];

export function registerApiHeaders(app: FastifyInstance): void {
  app.addHook('onSend', async (req, reply, payload) => {
    const url = req.url;
    if (!API_PATH_PREFIXES.some((p) => url.startsWith(p))) return payload;
    reply.header('x-content-type-options', 'nosniff');
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    return payload;
  });
}
