/**
 * State-changing calls are refused when they come from another origin (CSRF defence in depth,
 * on top of the SameSite cookie).
 */
import type { FastifyInstance } from 'fastify';
import { ApiError } from './errors';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Whether an Origin (or Referer) header names this server: the same scheme as the request arrived
 * with and the same host and port as its Host header. `http://console` is another origin than
 * `https://console`; a header that does not parse is another origin.
 */
export function sameOrigin(header: string, protocol: string, host: string | undefined): boolean {
  if (!host) return false;
  try {
    const url = new URL(header);
    const expected = new URL(`${protocol}://${host}`);
    return url.protocol === expected.protocol && url.host === expected.host;
  } catch {
    return false;
  }
}

export function registerOriginCheck(app: FastifyInstance): void {
  app.addHook('onRequest', async (req) => {
    if (SAFE.has(req.method)) return;
    const site = req.headers['sec-fetch-site'];
    if (site === 'cross-site') throw new ApiError(21112, 403);
    const origin = req.headers.origin;
    if (origin && !sameOrigin(origin, req.protocol, req.headers.host)) throw new ApiError(21112, 403);
  });
}
