/**
 * The billing centre's money (docs/billing-money.md): recharge and orders, the pay confirmation,
 * invoices and pictures, rebates and payees. Registered with one line in src/server/app.ts.
 */
import type { FastifyInstance } from 'fastify';
import type { DB } from '../../db';
import type { SmsSender } from '../../sms/outbox';
import { rechargeRoutes } from '../recharge/routes';
import { payRoutes } from './routes';
import { invoiceRoutes } from '../invoices/routes';
import { pictureRoutes } from '../invoices/pictures';
import { rebateRoutes } from '../rebates/routes';

export { rebateTotals } from '../rebates/totals';
export { payWithBalance, checkPayCode, debitBalance, sendPayCode } from './confirm';

export function moneyRoutes(app: FastifyInstance, db: DB, sms: SmsSender): void {
  rechargeRoutes(app, db);
  payRoutes(app, db, sms);
  invoiceRoutes(app, db);
  pictureRoutes(app, db);
  rebateRoutes(app, db);
}
