/**
 * Builds the Fastify application: database, sessions, access control, validation, the API
 * sections and the console's static files.
 */
import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import type { DB } from './db';
import type { ServerConfig } from './config';
import type { SettingRegistry } from '../../schemas/registry';
import { ApiError, VALIDATION_ERROR } from './http/errors';
import { registerAccessControl } from './http/access';
import { registerAnswers } from './http/answers';
import { SECTION_ANSWERS } from './answers';
import { registerOriginCheck } from './http/origin';
import { registerPublicUrl } from './http/links';
import { registerPaymentProvider } from './billing/pay/provider';
import { registerContentTypeCheck } from './http/content-type';
import { registerValidation } from './http/validation';
import { registerSessions } from './accounts/session';
import { registerBucketCache } from './buckets/bucket-cache';
import { accountRoutes } from './accounts/routes';
import { childRoutes } from './accounts/children';
import { logRoutes } from './accounts/oplog';
import { selfServiceRoutes } from './accounts/selfservice';
import { messageRoutes } from './messages/routes';
import { bucketRoutes } from './buckets/routes';
import { statsRoutes } from './stats/routes';
import { createBucketRoutes } from './buckets/create';
import { certificateRoutes } from './certificates/routes';
import { certificateSectionRoutes } from './certificates/section';
import { filesSection } from './files/section';
import { purgeRoutes } from './purge/routes';
import { ddosRoutes } from './ddos/routes';
import { liveRoutes } from './live/routes';
import { opsToolsPlugin } from './monitor/plugin';
import { eventRoutes } from './events/routes';
import { dashboardRoutes } from './dashboard/routes';
import { staticRoutes } from './static/routes';
import { settingRoutes } from './settings/routes';
import { edgeRuleRoutes } from './edgerules/routes';
import { liveRuleTestRoute } from './edgerules/live';
import { edgeRoutes } from './edge/routes';
import { domainRoutes } from './domains/routes';
import { schemaRoutes } from './schemas/routes';
import { collectRoutes } from './openapi/collect';
import { openapiRoutes } from './openapi/routes';
import { outboxRoutes, outboxSender, type SmsSender } from './sms/outbox';
import { moneyRoutes } from './billing/pay';
import { billingRoutes } from './billing/section';
import { externalSection } from './external/section';
import { toFieldErrors } from '../../schemas/errors';
import { errorBody, SERVER_BUSY_CODE, UNKNOWN_ERROR_CODE } from '../shared/errors';
import { DatabaseBusyError } from './db/pglite-pool';
import { DATABASE_RETRY_AFTER_S, isDatabaseUnavailable } from './db/faults';
import { consolePageHeaders } from './http/csp';
import { registerJsonBody } from './http/body';
import { registerApiHeaders } from './http/headers';
import { JSON_BODY_LIMIT } from '../shared/limits';

export interface AppDeps {
  db: DB;
  config: ServerConfig;
  registry: SettingRegistry;
  sms?: SmsSender;
  logger?: boolean | object;
}

/** Paths answered by the server itself; everything else that a browser asks for gets the console. */
const API_PREFIXES = ['/api/', '/accounts/'];

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { db, config, registry } = deps;
  const app = Fastify({ logger: deps.logger ?? { level: config.logLevel }, trustProxy: config.trustProxy?.length ? config.trustProxy : false, bodyLimit: JSON_BODY_LIMIT });
  registerJsonBody(app); // the depth limit of JSON bodies (./http/body.ts)
  registerApiHeaders(app); // nosniff and no-store on API answers (./http/headers.ts)
  await app.register(cookie);
  registerPublicUrl(app, config.publicUrl);
  registerPaymentProvider(app, config.paymentProvider);
  registerValidation(app);
  registerOriginCheck(app);
  registerContentTypeCheck(app);
  registerSessions(app, db, { cacheMs: config.sessionCacheMs });
  registerBucketCache(app, db, config.bucketCacheMs ?? 5000);
  registerAccessControl(app, db);
  registerAnswers(app, SECTION_ANSWERS); // each route's declared success answer (issue 23), before the collector sees the route
  const routeTable = collectRoutes(app); // before any route: the OpenAPI document is built from it

  app.setErrorHandler((err: any, req, reply) => {
    if (err instanceof ApiError) return reply.status(err.status).send(err.body());
    if (err.validation) return reply.status(400).send(errorBody(VALIDATION_ERROR, toFieldErrors(err.validation)));
    if (err.statusCode && err.statusCode < 500) return reply.status(err.statusCode).send(errorBody(VALIDATION_ERROR));
    // the embedded database could not be had in time (src/server/db/pglite-pool.ts): come back in a moment
    if (err instanceof DatabaseBusyError) return reply.status(503).header('retry-after', '1').send(errorBody(SERVER_BUSY_CODE));
    // the database is down, hung past its timeouts or full (./db/faults.ts): the same, come back later
    if (isDatabaseUnavailable(err)) {
      req.log.warn({ err: { message: err?.message, code: err?.code } }, 'database unavailable');
      return reply.status(503).header('retry-after', String(DATABASE_RETRY_AFTER_S)).send(errorBody(SERVER_BUSY_CODE));
    }
    req.log.error(err);
    return reply.status(500).send(errorBody(UNKNOWN_ERROR_CODE));
  });

  const sms = deps.sms ?? outboxSender(db, app.log, config.logSms);
  accountRoutes(app, db, config, sms);
  childRoutes(app, db, config);
  logRoutes(app, db);
  selfServiceRoutes(app, db, config, sms);
  messageRoutes(app, db);
  bucketRoutes(app, db);
  statsRoutes(app, db);
  createBucketRoutes(app, db);
  certificateRoutes(app, db);
  certificateSectionRoutes(app, db, config);
  purgeRoutes(app, db);
  await filesSection(app, db, config);
  ddosRoutes(app, db);
  liveRoutes(app, db);
  await app.register(opsToolsPlugin, { db, config });
  eventRoutes(app, db);
  dashboardRoutes(app, db, config);
  staticRoutes(app);
  moneyRoutes(app, db, sms); // billing: recharge, payment, invoices, rebates (docs/billing-money.md)
  billingRoutes(app, db, config, sms); // billing: header, bills, vouchers, resource packages (docs/billing.md)
  externalSection(app, db, config); // external products, partner sign-in, referrals (docs/external-products.md, docs/referrals.md)
  settingRoutes(app, db, registry, config);
  edgeRuleRoutes(app, db);
  liveRuleTestRoute(app, db, config); // the rule tester's real request through the local edge (docs/edge-rules.md)
  await edgeRoutes(app, db, registry, config); // the edge API and the edge status (docs/edge.md)
  domainRoutes(app, db, config, registry);
  if (config.smsOutboxApi) outboxRoutes(app, db);
  schemaRoutes(app, config, registry);
  openapiRoutes(app, routeTable, registry);

  // the console: built assets under /app/, index.html for every client route
  const indexFile = path.join(config.distDir, 'index.html');
  if (fs.existsSync(config.distDir)) {
    await app.register(fastifyStatic, { root: config.distDir, prefix: '/app/', wildcard: true, index: false, maxAge: '1y', immutable: true });
  }
  app.setNotFoundHandler((req, reply) => {
    const url = req.url.split('?')[0];
    if (req.method !== 'GET' || API_PREFIXES.some((p) => url.startsWith(p)) || url.startsWith('/app/')) {
      return reply.status(404).send(errorBody(UNKNOWN_ERROR_CODE));
    }
    if (!fs.existsSync(indexFile)) {
      return reply.status(503).type('text/plain; charset=utf-8').send('控制台尚未构建，请先运行 npm run build');
    }
    // the page's Content-Security-Policy and frame-ancestors 'none' (./http/csp.ts)
    return consolePageHeaders(req, reply, config.publicUrl).type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(fs.createReadStream(indexFile));
  });
  return app;
}
