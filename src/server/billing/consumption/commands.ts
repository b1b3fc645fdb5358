/**
 * Platform commands of the usage reports (docs/billing.md "Usage reported by the external products"):
 *   product-key --product sms|oneclicklogin|blockchain   a new key for the product (printed once; the old one stops working)
 *   product-usage --username NAME [--product sms] [--days 30]   what the product reported for an account
 */
import { sql } from 'kysely';
import type { PlatformCommand } from '../../platform/command';
import { required } from '../../platform/command';
import { randomToken } from '../../accounts/passwords';
import { CONSUMED_PRODUCTS } from '../../../shared/billing/consumption';
import { hashKey } from './report';
import { addDays, dayOf } from '../../../shared/stats/time';
import type {} from './tables';

export const consumptionCommands: PlatformCommand[] = [
  {
    name: 'product-key',
    summary: '为外部产品生成上报用量的密钥（只显示一次；旧密钥随即失效）',
    usage: `--product ${CONSUMED_PRODUCTS.join('|')}`,
    async run(db, args) {
      const product = required(args, 'product');
      if (!(CONSUMED_PRODUCTS as readonly string[]).includes(product)) throw new Error(`--product 为 ${CONSUMED_PRODUCTS.join('、')} 之一`);
      const key = randomToken(32);
      await db
        .insertInto('external_product_keys')
        .values({ product, key_hash: hashKey(key) })
        .onConflict((oc) => oc.column('product').doUpdateSet({ key_hash: hashKey(key), created_at: new Date(), last_used_at: null }))
        .execute();
      return { product, key, header: `Authorization: Bearer ${key}` };
    },
  },
  {
    name: 'product-usage',
    summary: '查看外部产品为某主账号上报的用量（按日汇总）',
    usage: '--username NAME [--product sms] [--days 30]',
    async run(db, args) {
      const u = await db.selectFrom('users').select(['id', 'parent_id']).where('username', '=', required(args, 'username')).executeTakeFirst();
      if (!u || u.parent_id !== null) throw new Error(`没有这个主账号：${args.username}`);
      const days = Math.max(1, Math.min(366, Number(args.days ?? 30) || 30));
      let q = db
        .selectFrom('external_usage')
        .select(['product', sql<string>`to_char(day, 'YYYY-MM-DD')`.as('day'), sql<number>`sum(quantity)::int`.as('quantity'), sql<number>`sum(covered)::int`.as('covered'), sql<number>`count(*)::int`.as('reports')])
        .where('account_id', '=', u.id)
        .where('day', '>=', sql<any>`${addDays(dayOf(Math.floor(Date.now() / 1000)), -(days - 1))}::date`)
        .groupBy(['product', 'day'])
        .orderBy('day', 'desc')
        .orderBy('product');
      if (args.product) q = q.where('product', '=', args.product);
      return await q.execute();
    },
  },
];
