/**
 * The certificate routes and jobs beyond own certificates (src/server/certificates/routes.ts):
 * free certificates over ACME, the default-domain page, migration, paid orders; registered with one line in app.ts,
 * the jobs started with one line in main.ts.
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { DB } from '../db';
import type { ServerConfig } from '../config';
import { freeCertificateRoutes } from './free';
import { scheduleAcmeWorker } from './acme';
import { defaultDomainRoutes } from './default';
import { certificateOrderRoutes } from './orders';
import { scheduleOrderWorker } from './ca';
import { domainConfigFromEnv } from '../domains/config';

export function certificateSectionRoutes(app: FastifyInstance, db: DB, config: ServerConfig): void {
  freeCertificateRoutes(app, db);
  // the default-domain suffix of the service tabs' configuration (src/server/domains/config.ts)
  const domains = (config as { domains?: { defaultSuffix: string } }).domains ?? domainConfigFromEnv(process.env);
  defaultDomainRoutes(app, db, domains.defaultSuffix);
  certificateOrderRoutes(app, db);
}

/** Background jobs: ACME issuance and renewal, paid orders at the CA. Returns a stop function. */
export function scheduleCertificateJobs(db: DB, config: ServerConfig, log: FastifyBaseLogger): () => void {
  const stops = [scheduleAcmeWorker(db, config.acme, log), scheduleOrderWorker(db, log)];
  return () => stops.forEach((s) => s());
}
