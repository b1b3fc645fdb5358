/**
 * Donation addresses (spec 001 §3, §7; docs/billing.md "Donation addresses"): the account's own
 * receiving address per coin, checked by the declaration schemas/forms/coin_address.
 *
 *   POST   /api/coin/address/bind  { type: BTC|ETH, address }  binds or replaces the type's address
 *   GET    /api/coin/address                                  the account's addresses
 *   DELETE /api/coin/address?type=                            unbinds one
 */
import type { FastifyInstance } from 'fastify';
import coinSchema from '../../../../schemas/forms/coin_address/schema.json';
import type { DB } from '../../db';
import { ok } from '../../http/envelope';
import { ApiError } from '../../http/errors';
import type {} from './tables';

const bill = { access: 'parent' as const, needs: ['bill' as const] };
const epoch = (d: Date | string) => Math.floor(new Date(d).getTime() / 1000);

export function donationRoutes(app: FastifyInstance, db: DB): void {
  const list = async (accountId: number) =>
    (await db.selectFrom('coin_addresses').select(['type', 'address', 'updated_at']).where('account_id', '=', accountId).orderBy('type').execute()).map((r) => ({ type: r.type, address: r.address, updated_at: epoch(r.updated_at) }));

  app.post<{ Body: { type: 'BTC' | 'ETH'; address: string } }>(
    '/api/coin/address/bind',
    { config: { ...bill, openapi: { summary: '绑定数字货币捐赠收款地址（每个币种一个，再次绑定即替换）' } }, schema: { body: coinSchema } },
    async (req) => {
      const { type, address } = req.body;
      await db
        .insertInto('coin_addresses')
        .values({ account_id: req.user!.account_id, type, address })
        .onConflict((oc) => oc.columns(['account_id', 'type']).doUpdateSet({ address, updated_at: new Date() }))
        .execute();
      return ok(await list(req.user!.account_id));
    },
  );

  app.get('/api/coin/address', { config: { ...bill, openapi: { summary: '数字货币捐赠收款地址' } } }, async (req) => ok(await list(req.user!.account_id)));

  app.delete<{ Querystring: { type: 'BTC' | 'ETH' } }>(
    '/api/coin/address',
    { config: { ...bill, openapi: { summary: '解绑一个币种的捐赠收款地址' } }, schema: { querystring: { type: 'object', required: ['type'], additionalProperties: false, properties: { type: { type: 'string', enum: ['BTC', 'ETH'] } } } } },
    async (req) => {
      const r = await db.deleteFrom('coin_addresses').where('account_id', '=', req.user!.account_id).where('type', '=', req.query.type).executeTakeFirst();
      if (!Number(r.numDeletedRows ?? 0)) throw new ApiError(22651, 404);
      return ok(await list(req.user!.account_id));
    },
  );
}
