/**
 * The Content-Security-Policy of the console's pages (issue 21 item 7; docs/security.md "Content
 * Security Policy"): every answer that is the console's index.html carries it.
 *
 * - scripts only from the console's own bundle under /app/ of this origin, no inline script, no
 *   script from anywhere else; `'unsafe-eval'` because the setting forms compile their JSON Schemas
 *   with ajv at run time (RJSF's validator-ajv8 and the project's vocabulary build validators with
 *   `new Function`); precompiled validators would let it go;
 * - Monaco's worker is a chunk of the same bundle (`new Worker(new URL('./editor.worker.ts', …))`,
 *   emitted as /app/<n>.js): `worker-src` names /app/ too;
 * - styles from /app/ plus inline: Monaco and Blueprint write `<style>` elements at run time (no
 *   script comes in that way);
 * - images from the console, `data:` (icons, QR codes) and `blob:` (a photo chosen for real-name
 *   verification, previewed before upload); fonts from the console and `data:`;
 * - the API on this origin only; no plugin, no `<base>` change, forms posting only here;
 * - `frame-ancestors 'none'` (with X-Frame-Options: DENY for older browsers): no other site frames the
 *   console to trick a click.
 *
 * Paths in a CSP source need a scheme and host, so /app/ is named on the origin the browser asked
 * (the request's scheme and host, through a trusted proxy's forwarded ones) and on PUBLIC_URL's: a
 * console reached by two names works under both.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

export function consoleCsp(origins: string[]): string {
  const app = [...new Set(origins)].map((o) => `${o}/app/`).join(' ');
  return [
    "default-src 'self'",
    `script-src ${app} 'unsafe-eval'`,
    `worker-src ${app}`,
    `style-src ${app} 'unsafe-inline'`,
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The origin the browser used for this request: scheme and host (with port). */
export function requestOrigin(req: FastifyRequest): string {
  return `${req.protocol}://${req.host}`;
}

/** Sets the console page's security headers on the answer (the request's origin and PUBLIC_URL's). */
export function consolePageHeaders(req: FastifyRequest, reply: FastifyReply, publicUrl?: string): FastifyReply {
  const origins = [requestOrigin(req)];
  if (publicUrl) origins.push(new URL(publicUrl).origin);
  return reply.header('content-security-policy', consoleCsp(origins)).header('x-frame-options', 'DENY').header('x-content-type-options', 'nosniff');
}

/**
 * The sandbox payment page (issue 34 item 11): HTML of its own with an inline style, no script, a form
 * that posts to itself. No other site may frame it (a framed 确认付款 button is a click to trick).
 */
export const SANDBOX_PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

export function sandboxPageHeaders(reply: FastifyReply): FastifyReply {
  return reply.header('content-security-policy', SANDBOX_PAGE_CSP).header('x-frame-options', 'DENY').header('x-content-type-options', 'nosniff');
}
