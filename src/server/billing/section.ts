/**
 * The billing centre's bills, vouchers and resource packages (docs/billing.md), registered with one
 * line in app.ts. The money parts (recharge, payment, invoices, rebates) register their own routes.
 */
import type { FastifyInstance } from 'fastify';
import type { DB } from '../db';
import type { ServerConfig } from '../config';
import type { SmsSender } from '../sms/outbox';
import { billRoutes } from './bills/routes';
import { voucherRoutes } from './vouchers/routes';
import { resourceRoutes } from './resources/routes';
import { headerRoutes } from './header';
import { consumptionRoutes } from './consumption/routes';

export function billingRoutes(app: FastifyInstance, db: DB, config: ServerConfig, sms: SmsSender): void {
  headerRoutes(app, db, config);
  billRoutes(app, db, sms);
  voucherRoutes(app, db);
  resourceRoutes(app, db);
  consumptionRoutes(app, db);
}

export { scheduleBilling } from './bills/make';
