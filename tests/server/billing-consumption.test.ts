/**
 * Usage reported by the external products (docs/billing.md "Usage reported by the external products"):
 * the product key, the refusals, packages counted down at the report (never twice, also when reports
 * race), the rest on the day bill at the price configuration's ladder, and the usage records.
 */
import { startTestServer, Client, type TestServer } from './helpers';
import { consumptionCommands } from '../../src/server/billing/consumption/commands';
import { receiveReport } from '../../src/server/billing/consumption/report';
import { grantPackage } from '../../src/server/billing/resources/grant';
import { makeBill } from '../../src/server/billing/bills/make';
import { addDays, dayOf } from '../../src/shared/stats/time';
import { EXTERNAL_UNIT_PRICES } from '../../src/shared/billing/price';

let s: TestServer;
let key: Client;
let keyId: number;
let smsKey: string;

const command = (name: string) => consumptionCommands.find((c) => c.name === name)!;
const report = (body: object, k = smsKey) => s.app.inject({ method: 'POST', url: '/accounts/app/usage', payload: body, headers: { authorization: `Bearer ${k}` } });
const remainOf = async (id: number) => Number((await s.db.selectFrom('resource_packages').select('remain').where('id', '=', id).executeTakeFirstOrThrow()).remain);

beforeAll(async () => {
  s = await startTestServer();
  key = await new Client(s.app).signIn('demokey');
  keyId = (await s.db.selectFrom('users').select('id').where('username', '=', 'demokey').executeTakeFirstOrThrow()).id;
  smsKey = ((await command('product-key').run(s.db, { product: 'sms' })) as { key: string }).key;
});
afterAll(async () => {
  await s.close();
});

describe('the product key', () => {
  it('is printed once, stored as its sha256, and replaced by a new one', async () => {
    const row = await s.db.selectFrom('external_product_keys').select('key_hash').where('product', '=', 'blockchain').executeTakeFirst();
    expect(row).toBeUndefined();
    const first = (await command('product-key').run(s.db, { product: 'blockchain' })) as { key: string; header: string };
    expect(first.header).toBe(`Authorization: Bearer ${first.key}`);
    const stored = await s.db.selectFrom('external_product_keys').select('key_hash').where('product', '=', 'blockchain').executeTakeFirstOrThrow();
    expect(stored.key_hash).not.toContain(first.key);
    const second = (await command('product-key').run(s.db, { product: 'blockchain' })) as { key: string };
    let res = await report({ product: 'blockchain', report_id: 'k1', account_id: keyId, quantity: 1 }, first.key);
    expect(res.json()).toMatchObject({ error_code: 27606, message: '产品密钥缺失或无效' });
    res = await report({ product: 'blockchain', report_id: 'k1', account_id: keyId, quantity: 1 }, second.key);
    expect(res.statusCode).toBe(200);
    await expect(command('product-key').run(s.db, { product: 'cdn' })).rejects.toThrow('--product 为 sms、oneclicklogin、blockchain 之一');
  });

  it('refuses a missing key, another product, unknown and sub-accounts, bad bodies — storing nothing', async () => {
    const before = (await s.db.selectFrom('external_usage').select('id').execute()).length;
    let res = await s.app.inject({ method: 'POST', url: '/accounts/app/usage', payload: { product: 'sms', report_id: 'x', account_id: keyId, quantity: 1 } });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ error_code: 27606 });
    res = await report({ product: 'oneclicklogin', report_id: 'x', account_id: keyId, quantity: 1 });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error_code: 27607, message: '该密钥不能上报此产品的用量' });
    res = await report({ product: 'sms', report_id: 'x', account_id: 999999, quantity: 1 });
    expect(res.json()).toMatchObject({ error_code: 27608, message: '账号不存在或不是主账号' });
    const ops = await s.db.selectFrom('users').select('id').where('username', '=', 'demo_ops').executeTakeFirstOrThrow();
    res = await report({ product: 'sms', report_id: 'x', account_id: ops.id, quantity: 1 });
    expect(res.json()).toMatchObject({ error_code: 27608 });
    res = await report({ product: 'sms', report_id: 'has space', account_id: keyId, quantity: 0 });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual(
      expect.arrayContaining([
        { path: '/report_id', message: '报告编号仅限 1-64 位英文、数字、下划线和中划线' },
        { path: '/quantity', message: '用量须为正整数' },
      ]),
    );
    res = await report({ product: 'sms', report_id: 'big', account_id: keyId, quantity: 1_000_001 });
    expect(res.json().errors).toEqual([{ path: '/quantity', message: '单次上报的用量不超过 1000000' }]);
    expect((await s.db.selectFrom('external_usage').select('id').execute()).length).toBe(before);
  });
});

describe('packages first, then the day bill', () => {
  let pack: number;
  beforeAll(async () => {
    // an expired package and a valid one of 100; the valid one is used
    await grantPackage(s.db, keyId, { kind: 'sms', spec: 'sms_1000', amount: 1000, unit: '条', validDays: 1, startsAt: new Date(Date.now() - 5 * 86400_000) });
    pack = await grantPackage(s.db, keyId, { kind: 'sms', spec: 'platform', amount: 100, unit: '条', validDays: 30 });
  });

  it('covers a report from the package and answers what remains', async () => {
    const res = await report({ product: 'sms', report_id: 'r-1', account_id: keyId, quantity: 60 });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ product: 'sms', report_id: 'r-1', account_id: keyId, quantity: 60, covered: 60, charged_quantity: 0, bill_day: dayOf(Math.floor(Date.now() / 1000)), remain: 40, duplicate: false });
    expect(await remainOf(pack)).toBe(40);
  });

  it('answers a repeated report as the first time without deducting again; other content under the same id is refused', async () => {
    const res = await report({ product: 'sms', report_id: 'r-1', account_id: keyId, quantity: 60 });
    expect(res.json().data).toMatchObject({ covered: 60, charged_quantity: 0, remain: 40, duplicate: true });
    expect(await remainOf(pack)).toBe(40);
    const other = await report({ product: 'sms', report_id: 'r-1', account_id: keyId, quantity: 61 });
    expect(other.statusCode).toBe(409);
    expect(other.json()).toMatchObject({ error_code: 27609, message: '该编号的用量报告已收到，内容与本次不同' });
  });

  it('spends each unit once when reports race: 6 reports of 10 against 40 left', async () => {
    const all = await Promise.all(Array.from({ length: 6 }, (_, i) => report({ product: 'sms', report_id: `race-${i}`, account_id: keyId, quantity: 10 })));
    const data = all.map((r) => r.json().data);
    expect(data.reduce((a, d) => a + d.covered, 0)).toBe(40);
    expect(data.reduce((a, d) => a + d.charged_quantity, 0)).toBe(20);
    expect(await remainOf(pack)).toBe(0);
  });

  it('puts the uncovered part on the day bill at the ladder, with the package shown', async () => {
    const today = dayOf(Math.floor(Date.now() / 1000));
    await makeBill(s.db, keyId, 'DAY_BILL', today);
    const bill = (await key.get(`/api/bill/?id=${today.replace(/-/g, '')}D${keyId}`)).json().data;
    const sms = bill.detail.used.sms;
    // sms: 60 (r-1) + 60 (the race) = 120, of which the package covered 100; blockchain's 1 from the key test
    expect(sms.used).toMatchObject({ sms_times: 120, sms_package: 100, sms_price: 1 });
    expect(sms.lines[0]).toMatchObject({ item: 'sms', label: '短信发送量', usage: 120, unit: '条', package: 100, billed: 20, amount: round(20 * EXTERNAL_UNIT_PRICES.sms), note: '资源包已抵扣 100 条（上报时扣减）' });
    expect(bill.detail.used.blockchain.lines[0]).toMatchObject({ usage: 1, package: 0, billed: 1, amount: EXTERNAL_UNIT_PRICES.blockchain });
    expect(bill.original).toBeCloseTo(round(20 * EXTERNAL_UNIT_PRICES.sms + EXTERNAL_UNIT_PRICES.blockchain), 3);
  });

  it('lists the usage records per day for main accounts and holders of bill', async () => {
    const res = await key.get('/api/resources/usage?kind=sms&days=7');
    expect(res.json().data).toEqual([{ day: dayOf(Math.floor(Date.now() / 1000)), quantity: 120, covered: 100, charged: 20 }]);
    expect((await key.get('/api/resources/usage?kind=resources')).statusCode).toBe(400);
    const ops = await new Client(s.app).signIn('demo_ops');
    expect((await ops.get('/api/resources/usage?kind=sms')).statusCode).toBe(403);
  });

  it('/billing/other/ sums the month per product: reported, covered, charged by the day bills, still to be billed', async () => {
    const month = dayOf(Math.floor(Date.now() / 1000)).slice(0, 7);
    const res = await key.get(`/api/billing/other?month=${month}`);
    expect(res.json().month).toBe(month);
    const [sms, login, chain] = res.json().data;
    // today's day bill was made above, so nothing waits
    expect(sms).toEqual({ product: 'sms', unit: '条', quantity: 120, covered: 100, charged_quantity: 20, amount: round(20 * EXTERNAL_UNIT_PRICES.sms), unbilled_quantity: 0, remain: 0 });
    expect(login).toMatchObject({ product: 'oneclicklogin', unit: '次', quantity: 0, amount: 0 });
    expect(chain).toMatchObject({ product: 'blockchain', quantity: 1, charged_quantity: 1, amount: EXTERNAL_UNIT_PRICES.blockchain });
    // a report arriving after its day was billed goes to the next day's bill
    const late = (await report({ product: 'sms', report_id: 'late', account_id: keyId, quantity: 7 })).json().data;
    expect(late).toMatchObject({ covered: 0, charged_quantity: 7, bill_day: addDays(dayOf(Math.floor(Date.now() / 1000)), 1) });
    expect((await key.get('/api/billing/other?month=2026-13')).json().errors).toEqual([{ path: '/month', message: '月份格式为 YYYY-MM' }]);
  });

  it('/billing/other/ counts a report of today as waiting for its bill', async () => {
    const demo = await new Client(s.app).signIn('demo');
    const demoId = (await s.db.selectFrom('users').select('id').where('username', '=', 'demo').executeTakeFirstOrThrow()).id;
    const month = dayOf(Math.floor(Date.now() / 1000)).slice(0, 7);
    const before = (await demo.get(`/api/billing/other?month=${month}`)).json().data[1];
    await receiveReport(s.db, { product: 'oneclicklogin', report_id: 'today-1', account_id: demoId, quantity: 40 });
    const after = (await demo.get(`/api/billing/other?month=${month}`)).json().data[1];
    expect(after).toMatchObject({ product: 'oneclicklogin', quantity: before.quantity + 40, charged_quantity: before.charged_quantity + 40, unbilled_quantity: before.unbilled_quantity + 40, amount: before.amount });
  });

  it('the platform command sums what a product reported', async () => {
    const rows = (await command('product-usage').run(s.db, { username: 'demokey', product: 'sms' })) as { quantity: number; covered: number; reports: number }[];
    expect(rows).toEqual([
      { product: 'sms', day: addDays(dayOf(Math.floor(Date.now() / 1000)), 1), quantity: 7, covered: 0, reports: 1 },
      { product: 'sms', day: dayOf(Math.floor(Date.now() / 1000)), quantity: 120, covered: 100, reports: 7 },
    ]);
  });
});

describe('the demo', () => {
  it("demo's SMS package of 1,000 ran out on the last of 9 reported days", async () => {
    const demo = await s.db.selectFrom('users').select('id').where('username', '=', 'demo').executeTakeFirstOrThrow();
    const rows = await s.db.selectFrom('external_usage').select(['quantity', 'covered']).where('account_id', '=', demo.id).where('product', '=', 'sms').orderBy('id').execute();
    expect(rows).toHaveLength(9);
    expect(rows.reduce((a, r) => a + r.covered, 0)).toBe(1000);
    expect(rows.at(-1)!.covered).toBeLessThan(rows.at(-1)!.quantity);
    // a second run of the seed's reports changes nothing
    await receiveReport(s.db, { product: 'sms', report_id: 'demo-sms-0', account_id: demo.id, quantity: 96 });
    expect((await s.db.selectFrom('external_usage').select('id').where('account_id', '=', demo.id).where('product', '=', 'sms').execute()).length).toBe(9);
  });
});

function round(v: number) {
  return Math.round(v * 1000) / 1000;
}

describe('donation addresses (POST /api/coin/address/bind)', () => {
  it('binds one address per coin by the declaration, replaces it, lists and unbinds it; another account sees none', async () => {
    let res = await key.post('/api/coin/address/bind', { type: 'BTC', address: '0x52908400098527886E0F7030069857D2E4169EE7' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([{ path: '/address', message: '请填写正确的比特币地址（1、3 或 bc1 开头）' }]);
    res = await key.post('/api/coin/address/bind', { type: 'DOGE', address: 'x' });
    expect(res.json().errors).toEqual(expect.arrayContaining([{ path: '/type', message: '请选择币种' }]));
    expect((await key.get('/api/coin/address')).json().data).toEqual([]);
    await key.post('/api/coin/address/bind', { type: 'ETH', address: '0x52908400098527886E0F7030069857D2E4169EE7' });
    res = await key.post('/api/coin/address/bind', { type: 'BTC', address: '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2' });
    res = await key.post('/api/coin/address/bind', { type: 'BTC', address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' });
    expect(res.json().data.map((a: { type: string; address: string }) => [a.type, a.address])).toEqual([
      ['BTC', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq'],
      ['ETH', '0x52908400098527886E0F7030069857D2E4169EE7'],
    ]);
    const other = await new Client(s.app).signIn('demo');
    expect((await other.get('/api/coin/address')).json().data).toEqual([]);
    expect((await other.request({ method: 'DELETE', url: '/api/coin/address?type=ETH' })).json()).toMatchObject({ error_code: 22651, message: '该币种尚未绑定捐赠地址' });
    res = await key.request({ method: 'DELETE', url: '/api/coin/address?type=ETH' });
    expect(res.json().data.map((a: { type: string }) => a.type)).toEqual(['BTC']);
  });
});
