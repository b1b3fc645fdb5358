/**
 * The operational tools of spec 002 "Other tools" in one plugin scope (registered with one line in
 * app.ts): monitor alarms, work orders (with @fastify/multipart for attachments, only in this scope),
 * log analysis and cross-platform backup. docs/operations-tools.md.
 */
import type { FastifyInstance } from 'fastify';
import type { DB } from '../db';
import type { ServerConfig } from '../config';
import { monitorRoutes } from './routes';
import { workOrderRoutes } from '../workorders/routes';
import { logAnalysisRoutes } from '../loganalysis/routes';
import { backupRoutes } from '../backup/routes';

export async function opsToolsPlugin(app: FastifyInstance, opts: { db: DB; config: ServerConfig }): Promise<void> {
  monitorRoutes(app, opts.db);
  await workOrderRoutes(app, opts.db, opts.config);
  logAnalysisRoutes(app, opts.db);
  backupRoutes(app, opts.db, opts.config);
}
