/**
 * The route table the OpenAPI document is generated from: an onRoute hook records every route as
 * it is registered (method, url, the schemas Fastify validates with, who may call it). buildApp
 * installs it right after access control, before any route is added, so nothing is missed.
 *
 * The table also holds the HEAD routes Fastify adds for every GET and the console's static files
 * (under /app/, registered by @fastify/static without an access level); the document leaves both out.
 */
import type { FastifyInstance, RouteOptions } from 'fastify';
import { needsOf, type Access, type BucketFrom } from '../http/access';
import type { Need } from '../../shared/permissions';
import type { JsonSchema } from '../../../schemas/types';

/** What a route may add about itself to the reference, next to `access` in its config. */
export interface RouteDoc {
  /** One line in Chinese, shown as the operation's summary. */
  summary?: string;
  description?: string;
  /** Extra error responses by HTTP status: the error codes and what they mean. */
  errors?: Record<number, string>;
  /** The route answers something other than the JSON envelope (a document, a page). */
  raw?: { contentType: string; description: string };
}

declare module 'fastify' {
  interface FastifyContextConfig {
    openapi?: RouteDoc;
  }
}

export interface CollectedRoute {
  method: string;
  /** Fastify's url, with `:param` segments. */
  url: string;
  access?: Access;
  /** What a sub-account must hold (`parent_only` for parent routes, then any one of the permissions). */
  needs?: Need[];
  /** The route works on the bucket named by bucket_name in the query or the body. */
  bucket?: BucketFrom;
  querystring?: JsonSchema;
  params?: JsonSchema;
  body?: JsonSchema;
  /** `schema.response[200]`: the success answer (the envelope with its data), which Fastify serialises with. */
  response?: JsonSchema;
  /** `schema.summary` / `schema.description` when the route declares them. */
  summary?: string;
  description?: string;
  doc?: RouteDoc;
}

const tables = new WeakMap<FastifyInstance, CollectedRoute[]>();

/** Installs the hook; the returned table grows as routes are registered. */
export function collectRoutes(app: FastifyInstance): CollectedRoute[] {
  const table: CollectedRoute[] = [];
  tables.set(app, table);
  app.addHook('onRoute', (route: RouteOptions) => {
    const schema = (route.schema ?? {}) as Record<string, unknown>;
    const config = (route.config ?? {}) as { access?: Access; needs?: Need[]; bucket?: BucketFrom; openapi?: RouteDoc };
    for (const method of Array.isArray(route.method) ? route.method : [route.method]) {
      table.push({
        method: String(method).toUpperCase(),
        url: route.url,
        access: config.access,
        needs: config.access ? needsOf(config) : undefined,
        bucket: config.bucket,
        querystring: (schema.querystring ?? schema.query) as JsonSchema | undefined,
        params: schema.params as JsonSchema | undefined,
        body: schema.body as JsonSchema | undefined,
        response: ((schema.response ?? {}) as Record<string, JsonSchema | undefined>)['200'],
        summary: typeof schema.summary === 'string' ? schema.summary : undefined,
        description: typeof schema.description === 'string' ? schema.description : undefined,
        doc: config.openapi,
      });
    }
  });
  return table;
}

/** The table collected for an app (for tests), or undefined when collectRoutes was not installed. */
export function routeTableOf(app: FastifyInstance): readonly CollectedRoute[] | undefined {
  return tables.get(app);
}

/** Routes that belong in the reference: not Fastify's automatic HEAD routes, not the console's files. */
export function documentedRoutes(table: readonly CollectedRoute[]): CollectedRoute[] {
  return table.filter((r) => r.method !== 'HEAD' && !(r.url.startsWith('/app/') && !r.access));
}

/** `/api/settings/:id/` → `/api/settings/{id}/` (also `:id(regex)`, and `*` as `{wildcard}`). */
export function toOpenApiPath(url: string): string {
  return url
    .replace(/::/g, '\u0000')
    .replace(/:([A-Za-z0-9_]+)(\([^)]*\))?/g, '{$1}')
    .replace(/\*/g, '{wildcard}')
    .replace(/\u0000/g, ':');
}

/** The names of the path parameters of a Fastify url, in order. */
export function pathParams(url: string): string[] {
  return [...toOpenApiPath(url).matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
}
