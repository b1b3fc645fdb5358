/**
 * State-changing calls are refused when they come from another origin (CSRF defence in depth,
 * on top of the SameSite cookie).
 */
import type { FastifyInstance } from 'fastify';
import { ApiError } from './errors';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

export function registerOriginCheck(app: FastifyInstance): void {
  app.addHook('onRequest', async (req) => {
    if (SAFE.has(req.method)) return;
    const site = req.headers['sec-fetch-site'];
    if (site === 'cross-site') throw new ApiError(21112, 403);
    const origin = req.headers.origin;
    if (origin) {
      let host: string;
      try {
        host = new URL(origin).host;
      } catch {
        throw new ApiError(21112, 403);
      }
      if (host !== req.headers.host) throw new ApiError(21112, 403);
    }
  });
}
