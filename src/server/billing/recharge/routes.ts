/**
 * Recharge and the order history (spec 001 §2.5 charge/ and history/, §7; docs/billing-money.md).
 *
 *   GET  /orders/recharge/discount        the recharge discount tiers
 *   POST /api/orders/recharge             { amount } → a pending order and the provider's pay URL (QR code)
 *   GET  /api/orders/recharge             ?order_no → the order (the page polls it until it is paid)
 *   GET  /api/v2/orders/                  ?status=success&start_time&end_time&page&size (unix seconds; end exclusive)
 *   GET  /api/pay/sandbox/{token}         the sandbox's payment page: only while PAYMENT_PROVIDER is sandbox, and only
 *                                         for a session of the paying account (main, or a sub-account with bill)
 *   POST /api/pay/sandbox/{token}         that person confirms: the order is paid, the balance grows
 */
import { sandboxPageHeaders } from '../../http/csp';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { DB } from '../../db';
import { ApiError, VALIDATION_ERROR } from '../../http/errors';
import { ok } from '../../http/envelope';
import { publicLink } from '../../http/links';
import { paymentProvider } from '../pay/provider';
import { markOrderPaid } from '../pay/orders';
import { mayUse } from '../../../shared/permissions';
import { newOrderNo } from '../pay/confirm';
import {
  ORDER_KIND_LABELS,
  ORDER_STATUSES,
  ORDERS_PAGE_SIZE,
  RECHARGE_AMOUNT_TEXT,
  RECHARGE_DISCOUNTS,
  RECHARGE_MAX,
  RECHARGE_MIN,
  hasAtMostTwoDecimals,
  rechargeGift,
  type OrderRow,
} from '../../../shared/billing-money';
import type {} from '../money-tables';

const bill = { access: 'parent' as const, needs: ['bill' as const] };
/** What the listed accounts may not call (docs/billing.md "Listed accounts"): recharge under 'balance', the order history under 'history'. */
const balance = { ...bill, billing: { item: 'balance' as const } };
const history = { ...bill, billing: { item: 'history' as const, detail: true } };
const seconds = (d: Date | string | null) => (d ? Math.floor(new Date(d).getTime() / 1000) : null);

export function toOrderRow(o: { order_no: string; kind: string; title: string; amount: string; gift: string; pay_method: string | null; status: string; created_at: Date | string; paid_at: Date | string | null }): OrderRow {
  return {
    order_no: o.order_no,
    kind: o.kind,
    title: o.title,
    amount: Number(o.amount),
    gift: Number(o.gift),
    pay_method: o.pay_method as OrderRow['pay_method'],
    status: o.status as OrderRow['status'],
    created_at: seconds(o.created_at)!,
    paid_at: seconds(o.paid_at),
  };
}

function originOf(req: FastifyRequest): string {
  return publicLink(req, '');
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function sandboxPage(body: string): string {
  return `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>支付宝沙箱支付</title>
<style>body{font-family:system-ui,"PingFang SC","Microsoft YaHei",sans-serif;background:#f5f6f7;margin:0;padding:24px;color:#1c2127}
.card{max-width:420px;margin:0 auto;background:#fff;border-radius:8px;padding:24px;box-shadow:0 1px 3px rgba(0,0,0,.15)}
h1{font-size:20px;margin:0 0 4px;color:#1677ff}.note{color:#5f6b7c;font-size:13px}.amount{font-size:32px;margin:16px 0}
dl{display:grid;grid-template-columns:auto 1fr;gap:6px 12px;font-size:14px}dt{color:#5f6b7c}
button{width:100%;padding:12px;font-size:16px;border:0;border-radius:6px;background:#1677ff;color:#fff;cursor:pointer;margin-top:16px}</style></head>
<body><div class="card">${body}</div></body></html>`;
}

export function rechargeRoutes(app: FastifyInstance, db: DB): void {
  app.get('/orders/recharge/discount', { config: { ...balance, openapi: { summary: '充值优惠：单笔充值满 min 元赠送 rate%' } } }, async () => ok({ discount: RECHARGE_DISCOUNTS }));

  app.post<{ Body: { amount: number } }>(
    '/api/orders/recharge',
    {
      config: { ...balance, openapi: { summary: '创建充值订单，返回支付页面地址（二维码内容）' } },
      schema: {
        body: {
          type: 'object',
          required: ['amount'],
          additionalProperties: false,
          properties: {
            amount: {
              type: 'number',
              minimum: RECHARGE_MIN,
              maximum: RECHARGE_MAX,
              errorMessage: { type: '请填写充值金额', minimum: `充值金额不能少于 ${RECHARGE_MIN} 元`, maximum: '单笔充值金额不能超过 1000000 元' },
            },
          },
          errorMessage: { required: { amount: '请填写充值金额' }, additionalProperties: '包含不支持的配置项' },
        },
      },
    },
    async (req) => {
      const user = req.user!;
      const amount = req.body.amount;
      // more than 2 decimals (1.005) is refused with the charge page's own text, as /api/bill_threshold does
      if (!hasAtMostTwoDecimals(amount)) throw new ApiError(VALIDATION_ERROR, 400, [{ path: '/amount', message: RECHARGE_AMOUNT_TEXT }]);
      const gift = rechargeGift(amount);
      const orderNo = newOrderNo();
      const provider = paymentProvider(req);
      const pay = await provider.createPayment({ order_no: orderNo, amount, title: '账户充值' }, originOf(req));
      await db
        .insertInto('billing_orders')
        .values({ order_no: orderNo, account_id: user.account_id, user_id: user.id, kind: 'recharge', title: '账户充值', amount: amount.toFixed(2), gift: gift.toFixed(2), pay_method: provider.method, pay_token: pay.token, detail: JSON.stringify({ provider: provider.name }) })
        .execute();
      return ok({ order_no: orderNo, amount, gift, method: provider.method, pay_url: pay.pay_url, sandbox: provider.name === 'sandbox' });
    },
  );

  app.get<{ Querystring: { order_no: string } }>(
    '/api/orders/recharge',
    { config: balance, schema: { querystring: { type: 'object', required: ['order_no'], properties: { order_no: { type: 'string', maxLength: 40 } }, errorMessage: { required: { order_no: '订单不存在或已关闭' } } } } },
    async (req) => {
      const o = await db.selectFrom('billing_orders').selectAll().where('order_no', '=', req.query.order_no).where('account_id', '=', req.user!.account_id).executeTakeFirst();
      if (!o) throw new ApiError(22211, 404);
      return ok(toOrderRow(o));
    },
  );

  app.get<{ Querystring: { status?: string; kind?: string; start_time?: number; end_time?: number; page: number; size: number } }>(
    '/api/v2/orders/',
    {
      config: history,
      schema: {
        querystring: {
          type: 'object',
          properties: {
            status: { type: 'string', enum: Object.keys(ORDER_STATUSES), errorMessage: { enum: '订单状态不正确' } },
            kind: { type: 'string', enum: Object.keys(ORDER_KIND_LABELS), errorMessage: { enum: '订单类型不正确' } },
            start_time: { type: 'integer', minimum: 0, errorMessage: '开始时间须为 unix 秒' },
            end_time: { type: 'integer', minimum: 0, errorMessage: '结束时间须为 unix 秒' },
            page: { type: 'integer', minimum: 1, default: 1, errorMessage: '页码须为正整数' },
            size: { type: 'integer', minimum: 1, maximum: 100, default: ORDERS_PAGE_SIZE, errorMessage: '每页条数为 1 - 100' },
          },
        },
      },
    },
    async (req) => {
      const q = req.query;
      let base = db.selectFrom('billing_orders').where('account_id', '=', req.user!.account_id);
      if (q.status) base = base.where('status', '=', q.status);
      if (q.kind) base = base.where('kind', '=', q.kind);
      if (q.start_time !== undefined) base = base.where('created_at', '>=', new Date(q.start_time * 1000));
      // the console sends the end day plus one day (86400 s); the end is exclusive
      if (q.end_time !== undefined) base = base.where('created_at', '<', new Date(q.end_time * 1000));
      const total = Number((await base.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow()).n);
      const rows = await base.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(q.size).offset((q.page - 1) * q.size).execute();
      return ok(rows.map(toOrderRow), { pager: { total, page: q.page, size: q.size } });
    },
  );

  // ---- the sandbox provider's payment page ----
  // only while the sandbox is the configured provider (PAYMENT_PROVIDER; docs/security.md): otherwise the
  // routes do not exist, and a real deployment has no page that credits a balance without a payment
  if (app.paymentProvider?.name !== 'sandbox') return;
  /** The order of a token, for the signed-in paying account only; otherwise the page that says why. */
  async function payable(req: FastifyRequest, token: string) {
    const o = await db.selectFrom('billing_orders').select(['order_no', 'title', 'amount', 'status', 'account_id']).where('pay_token', '=', token).executeTakeFirst();
    if (!o) return { status: 404, page: sandboxPage('<h1>支付宝沙箱</h1><p>支付链接无效或订单已关闭。</p>') };
    const user = req.user;
    if (!user || user.status !== 'normal')
      return { status: 401, page: sandboxPage(`<h1>支付宝沙箱</h1><p>请先在本浏览器<a href="/login/">登录</a>下单的账号，再打开此支付页面。</p>`) };
    if (user.account_id !== o.account_id || !mayUse(user, ['parent_only', 'bill']))
      return { status: 403, page: sandboxPage('<h1>支付宝沙箱</h1><p>该订单不属于当前登录的账号，请使用下单的账号登录后再支付。</p>') };
    return { order: o };
  }
  // in a scope of its own: the page's form posts application/x-www-form-urlencoded (an empty body), which no other route accepts
  app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1024 }, (_req, _body, done) => done(null, {}));
    const tokenParams = { type: 'object', required: ['token'], properties: { token: { type: 'string', pattern: '^[0-9a-f]{48}$', errorMessage: '支付链接无效' } } };

    // public as routes (the page itself answers who may pay: the paying account's session), HTML answers
    scope.get<{ Params: { token: string } }>('/api/pay/sandbox/:token', { config: { access: 'public', openapi: { summary: '沙箱支付页面（HTML；仅当 PAYMENT_PROVIDER 为 sandbox，须登录下单的账号）' } }, schema: { params: tokenParams } }, async (req, reply) => {
      sandboxPageHeaders(reply).type('text/html; charset=utf-8').header('cache-control', 'no-store');
      const found = await payable(req, req.params.token);
      if (!found.order) return reply.status(found.status).send(found.page);
      const o = found.order;
      const info = `<dl><dt>商品</dt><dd>${esc(o.title)}</dd><dt>订单号</dt><dd>${esc(o.order_no)}</dd></dl>`;
      if (o.status === 'success') return sandboxPage(`<h1>支付宝沙箱</h1><div class="amount">￥${esc(o.amount)}</div>${info}<p><strong>该订单已支付</strong>，请回到控制台查看余额。</p>`);
      return sandboxPage(
        `<h1>支付宝沙箱</h1><p class="note">这是本地沙箱支付页面，确认后订单即视为已支付，不会产生真实扣款。</p><div class="amount">￥${esc(o.amount)}</div>${info}` +
          `<form method="post"><button type="submit">确认付款</button></form>`,
      );
    });

    scope.post<{ Params: { token: string } }>('/api/pay/sandbox/:token', { config: { access: 'public', accepts: 'form', openapi: { summary: '在沙箱支付页面确认付款：订单已支付，余额增加（须登录下单的账号）' } }, schema: { params: tokenParams } }, async (req, reply) => {
      sandboxPageHeaders(reply).type('text/html; charset=utf-8').header('cache-control', 'no-store');
      const found = await payable(req, req.params.token);
      if (!found.order) return reply.status(found.status).send(found.page);
      try {
        const o = await markOrderPaid(db, { token: req.params.token }, 'alipay');
        return sandboxPage(`<h1>支付宝沙箱</h1><div class="amount">￥${esc(o.amount)}</div><p><strong>付款成功</strong>，订单 ${esc(o.order_no)} 已支付，请回到控制台查看余额。</p>`);
      } catch (e) {
        if (e instanceof ApiError) return reply.status(e.status).send(sandboxPage(`<h1>支付宝沙箱</h1><p>${e.code === 22212 ? '该订单已支付，请勿重复支付。' : '支付链接无效或订单已关闭。'}</p>`));
        throw e;
      }
    });
  });
}
