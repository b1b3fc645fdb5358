/**
 * Payment providers (DESIGN.md "Outside services … behind small interfaces"). The embedded default is a
 * sandbox: its payment page is served by this server (GET /api/pay/sandbox/{token}); a person opens it
 * by scanning the QR code, confirms, and the order is paid (markOrderPaid). A real Alipay provider
 * would return its own pay URL from createPayment and call markOrderPaid from its notify callback.
 */
import { randomBytes } from 'node:crypto';

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

let current: PaymentProvider = sandboxProvider;
export const paymentProvider = (): PaymentProvider => current;
/** For a deployment (or a test) that plugs in another provider. */
export function setPaymentProvider(p: PaymentProvider): void {
  current = p;
}
