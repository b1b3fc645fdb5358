/**
 * The payment captcha and paying an order (spec 001 §7 "pay confirmation with an SMS code, payment
 * captcha POST and GET /api/accounts/transaction/captcha"; docs/billing-money.md).
 *
 *   GET  /api/accounts/transaction/captcha   the masked mobile and the seconds before a new code may be sent
 *   POST /api/accounts/transaction/captcha   sends a code (23701 within 60 s, 23702 after 10 a day)
 *   POST /api/orders/pay                     { order_no, method, code? } pays a pending order:
 *                                            balance → SMS code, then the balance (22201 with the top-up);
 *                                            alipay → the provider's pay URL for the QR code
 */
import type { FastifyInstance } from 'fastify';
import type { DB } from '../../db';
import type { SmsSender } from '../../sms/outbox';
import { ApiError } from '../../http/errors';
import { ok } from '../../http/envelope';
import { publicLink } from '../../http/links';
import { debitBalance, payCodeState, sendPayCode, usePayCode, verifyPayCode } from './confirm';
import { markOrderPaid } from './orders';
import { paymentProvider } from './provider';
import { PAY_METHODS } from '../../../shared/billing-money';

const bill = { access: 'parent' as const, needs: ['bill' as const] };

export function payRoutes(app: FastifyInstance, db: DB, sms: SmsSender): void {
  app.get('/api/accounts/transaction/captcha', { config: { ...bill, openapi: { summary: '支付验证码状态：脱敏手机号与距可重新发送的秒数' } } }, async (req) => ok(await payCodeState(db, req.user!.account_id)));
  app.post('/api/accounts/transaction/captcha', { config: { ...bill, openapi: { summary: '发送支付短信验证码（60 秒一次）' } } }, async (req) => ok(await sendPayCode(db, sms, req.user!.account_id)));

  app.post<{ Body: { order_no: string; method: string; code?: string } }>(
    '/api/orders/pay',
    {
      config: { ...bill, openapi: { summary: '支付订单：余额（须短信验证码，余额不足 22201 附需充值金额）或支付宝' } },
      schema: {
        body: {
          type: 'object',
          required: ['order_no', 'method'],
          additionalProperties: false,
          properties: {
            order_no: { type: 'string', minLength: 1, maxLength: 40, errorMessage: '订单不存在或已关闭' },
            method: { type: 'string', enum: [...PAY_METHODS], errorMessage: '请选择支付方式' },
            code: { type: 'string', pattern: '^(\\d{6})?$', errorMessage: '请输入 6 位数字验证码' },
          },
          errorMessage: { required: { order_no: '订单不存在或已关闭', method: '请选择支付方式' }, additionalProperties: '包含不支持的配置项' },
        },
      },
    },
    async (req) => {
      const user = req.user!;
      const order = await db.selectFrom('billing_orders').selectAll().where('order_no', '=', req.body.order_no).where('account_id', '=', user.account_id).executeTakeFirst();
      if (!order || order.status === 'closed') throw new ApiError(22211, 404);
      if (order.status === 'success') throw new ApiError(22212, 400);
      if (req.body.method === 'alipay') {
        const provider = paymentProvider(req); // 22217 when online payment is off
        if (order.pay_token) return ok({ order_no: order.order_no, pay_url: publicLink(req, `/api/pay/sandbox/${order.pay_token}`) });
        const pay = await provider.createPayment({ order_no: order.order_no, amount: Number(order.amount), title: order.title }, publicLink(req, ''));
        await db.updateTable('billing_orders').set({ pay_token: pay.token }).where('id', '=', order.id).execute();
        return ok({ order_no: order.order_no, pay_url: pay.pay_url });
      }
      if (order.kind === 'recharge') throw new ApiError(22213, 400);
      // the balance is checked before the code is spent, so a short balance does not cost a code
      const balance = Number((await db.selectFrom('users').select('money').where('id', '=', user.account_id).executeTakeFirstOrThrow()).money);
      if (balance < Number(order.amount)) await db.transaction().execute((trx) => debitBalance(trx, user.account_id, Number(order.amount)));
      const codeId = await verifyPayCode(db, user.account_id, req.body.code);
      // the code is used up in the payment's transaction: a refusal there (22201, 22212) leaves it usable
      await markOrderPaid(db, { order_no: order.order_no, account_id: user.account_id }, 'balance', async (trx, o) => {
        await debitBalance(trx, user.account_id, Number(o.amount), undefined, { ref: o.order_no, memo: order.title });
        await usePayCode(trx, codeId);
      });
      return ok({ order_no: order.order_no, status: 'success' });
    },
  );
}
