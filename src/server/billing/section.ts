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
import { guardListedAccounts, headerRoutes } from './header';
import { consumptionRoutes } from './consumption/routes';
import { donationRoutes } from './donation/routes';
import { ledgerRoutes } from './ledger/routes';

export function billingRoutes(app: FastifyInstance, db: DB, config: ServerConfig, sms: SmsSender): void {
  // the listed accounts (docs/billing.md): one hook over every billing call, the money routes' too
  guardListedAccounts(app, config);
  headerRoutes(app, db, config);
  billRoutes(app, db, sms);
  voucherRoutes(app, db);
  resourceRoutes(app, db);
  consumptionRoutes(app, db);
  donationRoutes(app, db);
  ledgerRoutes(app, db); // the balance ledger (docs/billing-money.md "The ledger")
}

export { scheduleBilling } from './bills/make';
