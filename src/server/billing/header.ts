/**
 * The billing header (spec 001 §2.6, §3 "Usage (account)"): GET /api/billing/usage/ — balances, total
 * rebate, usable vouchers, remaining traffic and transcode minutes, and what the listed accounts of
 * the server configuration may not see (docs/billing.md "Listed accounts").
 *
 * The same lists are enforced on the calls (one preHandler hook, `guardListedAccounts`): a billing route
 * (one that needs the `bill` permission) declares what it belongs to in `config.billing`:
 *
 *   item    'balance' | 'history' | 'bills' | 'invoicing': refused for BILLING_HIDDEN_ACCOUNTS
 *   detail  true: bill detail, billing history, invoice detail: refused for BILLING_REDIRECT_ACCOUNTS
 *   header  true: GET /api/billing/usage/ only, which the console needs to send them away
 *
 * Every other billing call is refused for BILLING_CONTAINER_REDIRECT_ACCOUNTS. Refusal: 403 22006.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { DB } from '../db';
import type { ServerConfig } from '../config';
import { ok } from '../http/envelope';
import { ApiError } from '../http/errors';
import type {} from './tables';
import { rebateTotals } from './rebates/totals';
import { remainByKind } from './resources/remain';
import { usableVoucherCount } from './vouchers/routes';
import { flowRemain } from '../../shared/billing/resources';
import { HIDEABLE_ITEMS, moneyParts, type BillingUsage, type BillingVisibility, type HideableItem } from '../../shared/billing/header';

/** What a billing route belongs to, for the listed accounts (docs/billing.md "Listed accounts"). */
export interface BillingRouteItem {
  item?: HideableItem;
  detail?: boolean;
  header?: boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    billing?: BillingRouteItem;
  }
}

export function visibilityFor(v: BillingVisibility | undefined, username: string): Pick<BillingUsage, 'hidden' | 'redirect'> {
  const has = (list?: string[]) => Boolean(list?.includes(username));
  return {
    hidden: has(v?.hiddenItemsAccounts) ? [...HIDEABLE_ITEMS] : [],
    redirect: has(v?.containerRedirectAccounts) ? 'container' : has(v?.detailRedirectAccounts) ? 'detail' : null,
  };
}

/** Whether the listed account `username` may not make a billing call declared with `route`. */
export function billingRefused(v: BillingVisibility | undefined, username: string, route: BillingRouteItem = {}): boolean {
  if (route.header) return false;
  const { hidden, redirect } = visibilityFor(v, username);
  if (redirect === 'container') return true;
  if (redirect === 'detail' && route.detail) return true;
  return Boolean(route.item && hidden.includes(route.item));
}

/**
 * One hook for every billing call (routes that need the `bill` permission), registered once; it runs
 * after the access control, so the caller is signed in and may use the billing centre.
 */
export function guardListedAccounts(app: FastifyInstance, config: Pick<ServerConfig, 'billing'>): void {
  const v = config.billing;
  if (!v || (!v.hiddenItemsAccounts?.length && !v.detailRedirectAccounts?.length && !v.containerRedirectAccounts?.length)) return;
  app.addHook('preHandler', async (req: FastifyRequest) => {
    const c = req.routeOptions.config ?? {};
    if (!c.needs?.includes('bill') || !req.user) return;
    if (billingRefused(v, req.user.username, c.billing)) throw new ApiError(22006, 403);
  });
}

export async function billingUsage(db: DB, accountId: number, username: string, config: Pick<ServerConfig, 'billing'>): Promise<BillingUsage> {
  const u = await db.selectFrom('users').select(['money', 'actual_charge', 'pcdn_open', 'mingmou']).where('id', '=', accountId).executeTakeFirstOrThrow();
  const money = Number(u.money);
  const actual = Number(u.actual_charge);
  const rebate = await rebateTotals(db, accountId).catch(() => ({ total: 0, freeze: 0 }));
  const remain = await remainByKind(db, accountId);
  const flowGB = remain.resources ?? 0;
  const flow = flowRemain(flowGB);
  const parts = moneyParts(money);
  return {
    money,
    actual_charge: actual,
    gift: Math.round((money - actual) * 100) / 100,
    money_int: parts.int,
    money_decimal: parts.decimal,
    total_rebate: rebate.total,
    freeze_rebate: rebate.freeze,
    ticket_count: await usableVoucherCount(db, accountId),
    resource_flow_remain: Math.round(flowGB * 1024 ** 3),
    resource_flow_remain_value: flow.value,
    resource_flow_remain_unit: flow.unit,
    transcode_remains: Math.round((remain.transcode ?? 0) * 60000),
    transcode_narrowband_remains: 0,
    pcdn_open: u.pcdn_open,
    mingmou: u.mingmou,
    ...visibilityFor(config.billing, username),
  };
}

export function headerRoutes(app: FastifyInstance, db: DB, config: ServerConfig): void {
  app.get('/api/billing/usage/', { config: { access: 'parent', needs: ['bill'], billing: { header: true }, openapi: { summary: '费用中心页头：余额、返利、代金券、剩余流量与转码时长，以及本账号隐藏的项目' } } }, async (req) => {
    return ok(await billingUsage(db, req.user!.account_id, req.user!.username, config));
  });
}
