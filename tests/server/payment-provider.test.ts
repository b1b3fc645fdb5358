/**
 * PAYMENT_PROVIDER (issue 21 item 17, docs/security.md): the sandbox page that credits a balance exists
 * only while the sandbox is the configured provider; the default is the sandbox only for the demo.
 */
import { startTestServer, Client, type TestServer } from './helpers';
import { configFromEnv } from '../../src/server/config';
import { errorText } from '../../src/shared/errors';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ config: { paymentProvider: 'none' } });
});
afterAll(async () => {
  await s.close();
});

it('chooses the provider explicitly: the sandbox only for the demo by default', () => {
  expect(configFromEnv({}).paymentProvider).toBe('sandbox');
  expect(configFromEnv({ SEED_DEMO: '0' }).paymentProvider).toBe('none');
  expect(configFromEnv({ SEED_DEMO: '0', PAYMENT_PROVIDER: 'sandbox' }).paymentProvider).toBe('sandbox');
  expect(configFromEnv({ PAYMENT_PROVIDER: 'none' }).paymentProvider).toBe('none');
  expect(() => configFromEnv({ PAYMENT_PROVIDER: 'alipay-real' })).toThrow(/PAYMENT_PROVIDER/);
});

it('without a provider refuses online payment with 22217 and has no sandbox page', async () => {
  const demo = await new Client(s.app).signIn('demo');
  const orders = async () => Number((await s.db.selectFrom('billing_orders').select((e) => e.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  const before = await orders();
  const res = await demo.post('/api/orders/recharge', { amount: 100 });
  expect(res.statusCode).toBe(400);
  expect(res.json()).toEqual({ result: false, error_code: 22217, message: errorText(22217) });
  expect(await orders()).toBe(before);
  // a seeded token of the demo's orders would be credited by the page if it existed
  const page = await demo.request({ method: 'GET', url: `/api/pay/sandbox/${'a'.repeat(48)}` });
  expect(page.statusCode).toBe(404);
  expect((await demo.request({ method: 'POST', url: `/api/pay/sandbox/${'a'.repeat(48)}`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: '' })).statusCode).toBe(404);
});
