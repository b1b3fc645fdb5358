/**
 * Requests from another site are refused with 403 21112 on every route of the API, whatever the method
 * (CSRF defence on top of the SameSite cookie; docs/security.md "Requests from other sites"): a GET
 * can change state too (spec 000/002 name some such calls with GET: sign-out, cancelling a certificate
 * order, deploying a certificate), so the rule does not trust the method. A request is from another
 * site when the browser says so (`Sec-Fetch-Site: cross-site` or `same-site`), or when its `Origin` or
 * `Referer` names another origin (scheme and host) than this server's — the request's own or the
 * configured PUBLIC_URL. A client that sends none of these (curl, a partner's server, the edge agent)
 * is not a browser carrying someone's cookie, and passes.
 *
 * The few read-only routes other sites may link to say `config.crossSite: 'allow'` (only a GET may);
 * the console's pages (the not-found handler) and its files under /app/ are not API routes.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from './errors';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** 'allow': a read-only GET that other sites may link to (the API reference, static data, the ACME challenge). */
    crossSite?: 'allow';
  }
}

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

/** Why a request counts as coming from another site, or null when it does not. */
export function fromAnotherSite(req: FastifyRequest): string | null {
  const site = req.headers['sec-fetch-site'];
  if (site === 'cross-site' || site === 'same-site') return `Sec-Fetch-Site: ${site}`;
  const pub = new URL(req.server.publicUrl);
  const ours = (header: string) => sameOrigin(header, req.protocol, req.headers.host) || sameOrigin(header, pub.protocol.slice(0, -1), pub.host);
  const origin = req.headers.origin;
  if (origin !== undefined && !ours(origin)) return `Origin: ${origin}`;
  const referer = req.headers.referer;
  if (referer !== undefined && !ours(referer)) return `Referer: ${referer}`;
  return null;
}

const openRoutes = new WeakMap<FastifyInstance, string[]>();

/** The routes (`METHOD url`, HEAD twins left out) that other sites may call, for the test that lists them. */
export function crossSiteRoutesOf(app: FastifyInstance): readonly string[] {
  return openRoutes.get(app) ?? [];
}

export function registerOriginCheck(app: FastifyInstance): void {
  const open: string[] = [];
  openRoutes.set(app, open);
  app.addHook('onRoute', (route) => {
    if (route.config?.crossSite !== 'allow') return;
    const methods = (Array.isArray(route.method) ? route.method : [route.method]).map((m) => String(m).toUpperCase());
    if (methods.some((m) => m !== 'GET' && m !== 'HEAD')) throw new Error(`route ${methods.join(',')} ${route.url} lets other sites call it but is not a GET`);
    for (const m of methods) if (m !== 'HEAD') open.push(`${m} ${route.url}`);
  });
  app.addHook('onRequest', async (req) => {
    const config = req.routeOptions.config ?? {};
    // the console's pages and files are not API routes (a link from another site to /login/ must work)
    if (!config.access || config.crossSite === 'allow') return;
    if (fromAnotherSite(req)) throw new ApiError(21112, 403);
  });
}
