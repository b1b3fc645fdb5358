/**
 * The account's own pages and the entry pages (docs/accounts.md): registration, activation, lost
 * password, the security page, profile and real-name verification, operators. One call from app.ts.
 */
import { avatarRoutes } from './avatar';
import type { FastifyInstance } from 'fastify';
import type { DB } from '../db';
import type { ServerConfig } from '../config';
import type { SmsSender } from '../sms/outbox';
import { mailOutboxRoutes, outboxMailer, type Mailer } from './mail';
import { registrationRoutes } from './registration';
import { securityRoutes } from './security';
import { operatorRoutes } from './operators';

export function selfServiceRoutes(app: FastifyInstance, db: DB, config: ServerConfig, sms: SmsSender, mailer?: Mailer): void {
  const mail = mailer ?? outboxMailer(db, app.log, config.logSms);
  registrationRoutes(app, db, config, sms, mail);
  securityRoutes(app, db, config, sms, mail);
  operatorRoutes(app, db);
  avatarRoutes(app, db);
  if (config.smsOutboxApi) mailOutboxRoutes(app, db);
}
