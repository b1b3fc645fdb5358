/**
 * The API reference, public:
 *   GET /api/openapi.json  the OpenAPI 3.1 document (./document.ts)
 *   GET /api/docs/         the same, as a readable HTML page (./html.ts)
 * Both are built on the first request, once every route is registered, and kept.
 */
import type { FastifyInstance } from 'fastify';
import type { SettingRegistry } from '../../../schemas/registry';
import pkg from '../../../package.json';
import type { CollectedRoute } from './collect';
import { buildOpenApi, type OpenApiDocument } from './document';
import { renderDocsHtml } from './html';

export function openapiRoutes(app: FastifyInstance, table: readonly CollectedRoute[], registry: SettingRegistry): void {
  let doc: OpenApiDocument | undefined;
  let html: string | undefined;
  const document = () => (doc ??= buildOpenApi(table, registry, { version: pkg.version }));

  app.get(
    '/api/openapi.json',
    { config: { access: 'public', crossSite: 'allow', openapi: { summary: 'OpenAPI 3.1 文档（本文档）', raw: { contentType: 'application/json', description: 'OpenAPI 3.1 文档（不使用响应信封）' } } } },
    async (_req, reply) => reply.header('cache-control', 'no-cache').type('application/json; charset=utf-8').send(JSON.stringify(document())),
  );

  app.get(
    '/api/docs/',
    { config: { access: 'public', crossSite: 'allow', openapi: { summary: 'API 参考页面（HTML）', description: '由 /api/openapi.json 生成的可读页面，不加载任何外部资源。', raw: { contentType: 'text/html', description: 'HTML 页面' } } } },
    async (_req, reply) =>
      reply
        .header('cache-control', 'no-cache')
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
        .type('text/html; charset=utf-8')
        .send((html ??= renderDocsHtml(document()))),
  );
}
