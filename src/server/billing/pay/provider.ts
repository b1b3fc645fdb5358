/**
 * Payment providers (DESIGN.md "Outside services … behind small interfaces"). The embedded default is a
 * sandbox: its payment page is served by this server (GET /api/pay/sandbox/{token}); the person signed in
 * to the paying account opens it, confirms, and the order is paid (markOrderPaid). A real Alipay provider
 * would return its own pay URL from createPayment and call markOrderPaid from its notify callback.
 *
 * PAYMENT_PROVIDER chooses the provider explicitly (ServerConfig.paymentProvider): `sandbox` (the default
 * only for the demo, SEED_DEMO on) or `none`, with which online payment is refused (22217) and the sandbox
 * page does not exist, so no one can credit a balance for free on a real deployment (docs/security.md).
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { PaymentProviderName } from '../../config';
import { ApiError } from '../../http/errors';

declare module 'fastify' {
  interface FastifyInstance {
    /** The configured online payment provider; null: online payment is off. */
    paymentProvider: PaymentProvider | null;
  }
}

export interface PaymentRequest {
  order_no: string;
  amount: number;
  title: string;
}

export interface PaymentProvider {
  /** alipay (the only online method of spec 001 §2.6) */
  method: 'alipay';
  name: string;
  /** Starts a payment: the URL the QR code carries and the token that identifies it on our side. */
  createPayment(req: PaymentRequest, origin: string): Promise<{ pay_url: string; token: string }>;
}

export const sandboxProvider: PaymentProvider = {
  method: 'alipay',
  name: 'sandbox',
  async createPayment(_req, origin) {
    const token = randomBytes(24).toString('hex');
    return { pay_url: `${origin}/api/pay/sandbox/${token}`, token };
  },
};

/** Installs the provider PAYMENT_PROVIDER names on the application. */
export function registerPaymentProvider(app: FastifyInstance, name: PaymentProviderName): void {
  app.decorate('paymentProvider', name === 'sandbox' ? sandboxProvider : null);
}

/** The provider of this server, or 22217 when online payment is off. */
export function paymentProvider(req: FastifyRequest): PaymentProvider {
  const p = req.server.paymentProvider;
  if (!p) throw new ApiError(22217, 400);
  return p;
}
