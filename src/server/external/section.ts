/** External products, partner sign-in and referrals: one registration line in src/server/app.ts. */
import type { FastifyInstance } from 'fastify';
import type { DB } from '../db';
import type { ServerConfig } from '../config';
import { externalRoutes } from './routes';
import { referralRoutes } from '../referrals/routes';
import { announcementRoutes } from './announcements';
import { auditRoutes } from './audit';

export function externalSection(app: FastifyInstance, db: DB, config: ServerConfig): void {
  externalRoutes(app, db, config);
  referralRoutes(app, db);
  announcementRoutes(app, db);
  auditRoutes(app, db);
}
