/**
 * The price configuration belongs to billing (spec 001 §6: parent_only plus bill; issue 21 item 18):
 * a sub-account with statistics but without bill gets only the billing mode the statistics pages need.
 */
import { startTestServer, Client, type TestServer } from './helpers';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ statsSettings: true });
});
afterAll(async () => {
  await s.close();
});

it('answers the price configuration to the main account only, the billing mode to statistics users', async () => {
  const demo = await new Client(s.app).signIn('demo');
  const ops = await new Client(s.app).signIn('demo_ops'); // a sub-account of demo: CDN and statistics, no bill
  const full = (await demo.get('/api/accounts/price_config')).json().data;
  expect(full.cdn).toMatchObject({ amount_cal_type: 'MONTHLY_95' });
  const refused = await ops.get('/api/accounts/price_config');
  expect(refused.statusCode).toBe(403);
  expect(refused.json().error_code).toBe(21111);
  const mode = await ops.get('/api/flow/billing_mode/');
  expect(mode.statusCode).toBe(200);
  const data = mode.json().data as Record<string, unknown>;
  expect(data.cdn).toBe('MONTHLY_95');
  // nothing but the modes: no prices, ladders or discounts
  expect(Object.values(data).every((v) => typeof v === 'string')).toBe(true);
  expect(Object.keys(data).sort()).toEqual(Object.keys(full).sort());
  expect((await demo.get('/api/flow/billing_mode/')).json().data).toEqual(data);
});
