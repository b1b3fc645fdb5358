/**
 * Links the server writes into answers, e-mails and pages (payment pages, invitations, activation
 * links) are made from the configured public address (PUBLIC_URL, docs/security.md), never from the
 * request's Host header: a forged Host must not send a customer to another site.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyInstance {
    /** ServerConfig.publicUrl: scheme, host and optional path prefix, without a trailing slash. */
    publicUrl: string;
  }
}

export function registerPublicUrl(app: FastifyInstance, publicUrl: string): void {
  app.decorate('publicUrl', publicUrl.replace(/\/+$/, ''));
}

/** The absolute address of a path of this site (`path` starts with /). */
export function publicLink(req: FastifyRequest, path: string): string {
  return `${req.server.publicUrl}${path}`;
}
