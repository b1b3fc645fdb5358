/**
 * Bills from stored usage, settlement (packages, vouchers, balance), the bill threshold, vouchers and
 * resource packages through the API (docs/billing.md). Usage is written by hand into statistics'
 * tables for days of March 2026, so every figure is worked out here.
 */
import { sql } from 'kysely';
import { startTestServer, Client, type TestServer } from './helpers';
import { runBilling } from '../../src/server/billing/bills/make';
import { setPriceConfig } from '../../src/server/billing/price';
import { issueVoucher, createVoucherCode } from '../../src/server/billing/vouchers/issue';
import { grantPackage } from '../../src/server/billing/resources/grant';
import { assertPromoAvailable } from '../../src/server/billing/resources/routes';
import { renewPackages } from '../../src/server/billing/resources/renew';
import { billingCommands, parseLadder } from '../../src/server/billing/commands';
import { visibilityFor } from '../../src/server/billing/header';
import { dayStart } from '../../src/shared/stats/time';
import { PRICE_SERVICE_TYPES } from '../../src/shared/billing/price';
import { DEMO_VOUCHER_CODES } from '../../src/server/seed/billing';
import { outboxSender } from '../../src/server/sms/outbox';
import { setBalance } from '../../src/server/billing/ledger/ledger';

jest.setTimeout(180_000);

let s: TestServer;
let demo: Client;
let twofa: Client;
let key: Client;
const GB = 1024 ** 3;
const MAR1 = dayStart('2026-03-01') as number;
const APRIL_NOON = new Date((dayStart('2026-04-01') as number) * 1000 + 12 * 3600_000);
const bytesOf = (mbps: number) => Math.round((mbps * 1e6 * 300) / 8);

async function account(username: string) {
  const u = await s.db.selectFrom('users').select(['id']).where('username', '=', username).executeTakeFirstOrThrow();
  const b = await s.db.selectFrom('buckets').select(['id', 'name']).where('owner_id', '=', u.id).where('kind', '=', 'cdn').orderBy('id').executeTakeFirstOrThrow();
  const d = await s.db.selectFrom('bucket_domains').select(['id']).where('bucket_id', '=', b.id).executeTakeFirstOrThrow();
  return { id: u.id, bucket: b.id, domain: d.id };
}

/** One CST day of CDN usage: 5-minute rows of the given Mbps (slot i) and the daily rollup. */
async function writeDay(a: { id: number; bucket: number; domain: number }, day: number, mbps: number[] | null, totalBytes?: number) {
  const rows = (mbps ?? []).map((m, i) => ({ account_id: a.id, bucket_id: a.bucket, domain_id: a.domain, flow_type: 'cdn', direction: '', slot: new Date((day + i * 300) * 1000), bytes: bytesOf(m) }));
  for (let i = 0; i < rows.length; i += 100) await s.db.insertInto('traffic_5m').values(rows.slice(i, i + 100)).execute();
  const bytes = totalBytes ?? rows.reduce((x, r) => x + r.bytes, 0);
  const peak = rows.reduce((p, r) => (r.bytes > p.bytes ? r : p), { bytes: 0, slot: new Date(day * 1000) });
  await s.db.insertInto('traffic_1d').values({ account_id: a.id, bucket_id: a.bucket, domain_id: a.domain, flow_type: 'cdn', direction: '', day: new Date(day * 1000), bytes, peak_bytes: peak.bytes, peak_at: peak.slot }).execute();
}

beforeAll(async () => {
  s = await startTestServer();
  demo = await new Client(s.app).signIn('demo');
  // demo2fa's second step is not what these tests are about
  await s.db.updateTable('users').set({ two_step: false }).where('username', '=', 'demo2fa').execute();
  twofa = await new Client(s.app).signIn('demo2fa');
  key = await new Client(s.app).signIn('demokey');
});
afterAll(async () => {
  await s.close();
});

describe('bills from stored usage', () => {
  let a: { id: number; bucket: number; domain: number };
  beforeAll(async () => {
    a = await account('demo2fa');
    // monthly 95 at 10 yuan per Mbps-month; only 2026-03-02 has usage: 1..288 Mbps
    await setPriceConfig(s.db, a.id, 'cdn', { amount_cal_type: 'MONTHLY_95', regions: { domestic: parseLadder('0-:10') } });
    await writeDay(a, MAR1 + 86400, Array.from({ length: 288 }, (_, i) => i + 1));
    await issueVoucher(s.db, a.id, { amount: 50, validDays: 400, source: 'platform' });
    expect((await twofa.post('/api/bill_threshold', { threshold: 80 })).json()).toMatchObject({ data: { threshold: 80, warned: false } });
  });

  it('makes 31 day bills and the month bill, settles them: voucher 50 first, then the balance', async () => {
    const made = await runBilling(s.db, { now: APRIL_NOON, from: '2026-03-01', accountIds: [a.id], sms: outboxSender(s.db, s.app.log, false) });
    expect(made.filter((m) => m.created)).toHaveLength(32);
    const month = (await twofa.get('/api/bills/?type=MONTH_BILL')).json();
    expect(month.data).toHaveLength(1);
    // 274 Mbps (288 samples, 14 dropped) × 10 yuan × 1/31 valid days = 88.387
    expect(month.data[0]).toMatchObject({ id: `20260301M${a.id}`, type: 'MONTH_BILL', original: 88.387, voucher_deduct: 50, settlement: 38.39, status: 'SETTLED' });
    const user = await s.db.selectFrom('users').select(['money', 'actual_charge']).where('id', '=', a.id).executeTakeFirstOrThrow();
    // 100.00 − 38.39; the recharge balance never exceeds the money
    expect(Number(user.money)).toBe(61.61);
    expect(Number(user.actual_charge)).toBe(61.61);
  });

  it('explains the month bill: usage, ladder step, the billed 5-minute sample, the proration', async () => {
    const id = `20260301M${a.id}`;
    const bill = (await twofa.get(`/api/bill/?id=${id}`)).json().data;
    expect(bill.detail.price_config.cdn).toMatchObject({ amount_cal_type: 'MONTHLY_95', period_bill_type: 'MONTH', charge_dimension: 'bandwidth' });
    const line = bill.detail.used.cdn.lines[0];
    expect(line).toMatchObject({ item: 'bandwidth', usage: 274, unit: 'Mbps', amount: 88.387 });
    expect(line.sample).toEqual({ time: MAR1 + 86400 + 273 * 300, value: 274, rank: 15, count: 288, dropped: 14 });
    expect(line.steps).toEqual([{ min: 0, max: Number.MAX_SAFE_INTEGER, unit_price: 10, used: 274, amount: 2740 }]);
    expect(line.factor.reason).toBe('本月有用量 1 天，按 1/31 月计费');
    expect(bill.detail.settlement.vouchers).toHaveLength(1);
  });

  it("lists a month's day bills oldest first (limit 31); a day bill shows the day's bandwidth without charging it", async () => {
    const res = (await twofa.get(`/api/bills/?type=DAY_BILL&start_time=${MAR1}&end_time=${MAR1 + 31 * 86400}&limit=31`)).json();
    expect(res.pager).toEqual({ page: 1, limit: 31, total: 31 });
    expect(res.data[0].id).toBe(`20260301D${a.id}`);
    expect(res.data[30].id).toBe(`20260331D${a.id}`);
    const d2 = (await twofa.get(`/api/bill/?id=20260302D${a.id}`)).json().data;
    expect(d2.original).toBe(0);
    expect(d2.detail.used.cdn).toMatchObject({ charged: false, total: 0, note: '按月结算，费用见月账单', used: { bandwidth: 274 } });
    // the list's bandwidth per service type (the database reads it out of the detail) is the detail's
    const fromDetail = Object.fromEntries(Object.entries(d2.detail.used as Record<string, { used?: { bandwidth?: unknown } }>).filter(([, sb]) => typeof sb?.used?.bandwidth === 'number').map(([t, sb]) => [t, sb.used!.bandwidth]));
    expect(res.data[1].bandwidth).toEqual(fromDetail);
    expect(res.data[1].bandwidth.cdn).toBe(274);
    // a page past the end is empty and still tells the total
    const past = (await twofa.get(`/api/bills/?type=DAY_BILL&start_time=${MAR1}&end_time=${MAR1 + 31 * 86400}&limit=31&page=2`)).json();
    expect(past.data).toEqual([]);
    expect(past.pager).toEqual({ page: 2, limit: 31, total: 31 });
  });

  it('warned once through the message centre and SMS when the balance fell below the threshold', async () => {
    const msgs = await s.db.selectFrom('messages').selectAll().where('account_id', '=', a.id).where('title', '=', '余额不足提醒').execute();
    expect(msgs).toHaveLength(1);
    // filed as the platform telling the account (平台公告), not as 服务反馈 (issue 19)
    expect(msgs[0]).toMatchObject({ category: 'balance', link: '/billing/charge/' });
    const listed = (await twofa.get('/api/messages/?type=platform_notify')).json().data;
    expect(listed.find((m: { title: string }) => m.title === '余额不足提醒')).toMatchObject({ type: 'platform_notify' });
    expect((await twofa.get('/api/messages/?type=service_feedback')).json().data.find((m: { title: string }) => m.title === '余额不足提醒')).toBeUndefined();
    expect(msgs[0].body).toContain('61.61');
    const sms = await s.db.selectFrom('sms_outbox').selectAll().where('mobile', '=', '13912345678').where('purpose', '=', 'notice:balance').execute();
    expect(sms).toHaveLength(1);
    // running again makes nothing and tells nothing
    expect((await runBilling(s.db, { now: APRIL_NOON, from: '2026-03-01', accountIds: [a.id] })).filter((m) => m.created)).toHaveLength(0);
    expect((await twofa.get('/api/bill_threshold')).json().data).toMatchObject({ threshold: 80, warned: true, money: 61.61 });
    // a new threshold above the balance warns at once; deleting it ends the warnings
    expect((await twofa.post('/api/bill_threshold', { threshold: 70 })).json().data.warned).toBe(true);
    expect((await twofa.request({ method: 'DELETE', url: '/api/bill_threshold' })).json().data).toEqual({ threshold: null });
    expect((await twofa.get('/api/bill_threshold')).json().data.threshold).toBeNull();
  });

  it('refuses a threshold out of range or with more than 2 decimals', async () => {
    for (const threshold of [-1, 1000001, 1.234, '5']) {
      const res = await twofa.post('/api/bill_threshold', { threshold });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error_code: 20001, errors: [{ message: '请输入 0 到 1000000 之间的金额，最多两位小数' }] });
    }
  });

  it("does not show another account's bill (22501) and refuses ids that are not bill ids", async () => {
    expect((await demo.get(`/api/bill/?id=20260301M${a.id}`)).json()).toMatchObject({ error_code: 22501, message: '账单不存在或无权访问' });
    expect((await twofa.get('/api/bill/?id=nope')).statusCode).toBe(404);
  });
});

describe('traffic packages before money', () => {
  it('deducts a valid package from daily traffic: 3 GB − 1 GB package = 2 GB × 0.29 = 0.58', async () => {
    const a = await account('demokey');
    await setPriceConfig(s.db, a.id, 'cdn', { amount_cal_type: 'DAILY', regions: { domestic: parseLadder('0-:0.29') } });
    const pkg = await grantPackage(s.db, a.id, { kind: 'resources', spec: 'platform', amount: 1, unit: 'GB', validDays: 90, startsAt: new Date(MAR1 * 1000) });
    await writeDay(a, MAR1 + 4 * 86400, null, 3 * GB);
    const made = await runBilling(s.db, { now: new Date((MAR1 + 5 * 86400 + 3600) * 1000), from: '2026-03-05', accountIds: [a.id] });
    expect(made).toHaveLength(1);
    const bill = (await key.get(`/api/bill/?id=${made[0].id}`)).json().data;
    expect(bill.detail.used.cdn.used).toMatchObject({ discharge: 3, discharge_package: 1, discharge_price: 0.58 });
    expect(bill.detail.settlement.packages).toEqual([{ id: pkg, amount: 1, unit: 'GB' }]);
    expect(bill.settlement).toBe(0.58);
    const left = await s.db.selectFrom('resource_packages').select('remain').where('id', '=', pkg).executeTakeFirstOrThrow();
    expect(Number(left.remain)).toBe(0);
  });
});

describe('price configuration', () => {
  it('answers every service type, stored or default, for statistics and bills', async () => {
    const cfg = (await demo.get('/api/accounts/price_config')).json().data;
    expect(Object.keys(cfg).sort()).toEqual([...PRICE_SERVICE_TYPES].sort());
    expect(cfg.cdn).toMatchObject({ service_type: 'cdn', amount_cal_type: 'MONTHLY_95', period_bill_type: 'MONTH', charge_dimension: 'bandwidth' });
    expect(cfg.cdn.regions.domestic).toEqual([
      { min: 0, max: 100, unit_price: 30 },
      { min: 100, max: 500, unit_price: 26 },
      { min: 500, max: Number.MAX_SAFE_INTEGER, unit_price: 22 },
    ]);
    expect(cfg.overseas.unit_price_ladder).toEqual([{ min: 0, max: Number.MAX_SAFE_INTEGER, unit_price: 0.89 }]);
    expect(cfg.https.discount).toBe(80);
  });

  it('is changed by the platform command, which refuses broken ladders', async () => {
    const cmd = billingCommands.find((c) => c.name === 'price-config')!;
    const out = (await cmd.run(s.db, { account: 'demonew', service: 'cdn', mode: 'TOP_4', domestic: '0-50:40,50-:35', discount: '90' })) as any;
    expect(out).toMatchObject({ amount_cal_type: 'TOP_4', period_bill_type: 'MONTH', charge_dimension: 'bandwidth', discount: 90 });
    const c = await new Client(s.app).signIn('demonew');
    expect((await c.get('/api/accounts/price_config')).json().data.cdn.unit_price_ladder).toEqual([
      { min: 0, max: 50, unit_price: 40 },
      { min: 50, max: Number.MAX_SAFE_INTEGER, unit_price: 35 },
    ]);
    await expect(cmd.run(s.db, { account: 'demonew', service: 'cdn', domestic: '0-50:40,60-:35' })).rejects.toThrow('第 2 级的 min 应为 50');
    await expect(cmd.run(s.db, { account: 'demonew', service: 'https', mode: 'MONTHLY_95' })).rejects.toThrow('不能按带宽计费');
    await expect(cmd.run(s.db, { account: 'demo_ops', service: 'cdn' })).rejects.toThrow('子账号');
  });
});

describe('vouchers', () => {
  it('activates a code once (22102 again), refuses unknown (22101) and expired codes (22103)', async () => {
    const res = await demo.post('/api/ticket/', { ticket_id: DEMO_VOUCHER_CODES[0] });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ value: 20, remain: 20, used: 0, status: 'USING', source: 'activation' });
    expect((await twofa.post('/api/ticket/', { ticket_id: DEMO_VOUCHER_CODES[0] })).json()).toMatchObject({ error_code: 22102, message: '该代金券已被激活' });
    expect((await demo.post('/api/ticket/', { ticket_id: 'NOSUCHCODE0001' })).json()).toMatchObject({ error_code: 22101, message: '代金券不存在，请检查券号' });
    await createVoucherCode(s.db, 'LATECODE0001', { amount: 5, validDays: 30, source: 'activation' });
    await s.db.updateTable('vouchers').set({ expired_at: new Date(Date.now() - 1000) }).where('ticket_id', '=', 'LATECODE0001').execute();
    expect((await demo.post('/api/ticket/', { ticket_id: 'LATECODE0001' })).json()).toMatchObject({ error_code: 22103 });
    expect((await demo.post('/api/ticket/', { ticket_id: 'ab' })).json()).toMatchObject({ error_code: 20001, errors: [{ path: '/ticket_id', message: '请输入正确的代金券券号' }] });
  });

  it('lists vouchers newest first with the derived status and a pager; filters by status', async () => {
    const a = await account('demo');
    await s.db.insertInto('vouchers').values({ account_id: a.id, ticket_id: null, value: '10.00', remain: '0.00', valid_days: 30, source: 'platform', remark: null, activated_at: new Date(), expired_at: new Date(Date.now() + 86400_000) }).execute();
    await s.db.insertInto('vouchers').values({ account_id: a.id, ticket_id: null, value: '10.00', remain: '0.00', valid_days: 30, source: 'platform', remark: null, activated_at: new Date(), expired_at: new Date(Date.now() - 86400_000) }).execute();
    const all = (await demo.get('/api/tickets/?limit=2')).json();
    expect(all.data.map((v: { status: string }) => v.status)).toEqual(['EXPIRED', 'USED']);
    expect(all.pager.max).not.toBeNull();
    const next = (await demo.get(`/api/tickets/?limit=2&max=${all.pager.max}`)).json();
    expect(next.data.length).toBeGreaterThan(0);
    expect(next.pager.since).toBe(next.data[0].id);
    expect((await demo.get('/api/tickets/?status=USED')).json().data.every((v: { status: string }) => v.status === 'USED')).toBe(true);
    expect((await demo.get('/api/tickets/?status=EXPIRED')).json().data).toHaveLength(1);
  });

  it('filters by the time obtained: start_time included, end_time (the end day + 86400) excluded, in CST days', async () => {
    const a = await account('demo');
    const d10 = dayStart('2020-03-10') as number;
    const at = (s: number) => new Date(s * 1000);
    const put = (remark: string, created: number, activated: number | null) =>
      s.db.insertInto('vouchers').values({ account_id: a.id, ticket_id: null, value: '1.00', remain: '1.00', valid_days: 30, source: 'platform', remark, created_at: at(created), activated_at: activated === null ? null : at(activated), expired_at: new Date(Date.now() + 86400_000) }).execute();
    await put('before', d10 - 1, null); // 2020-03-09 23:59:59 CST
    await put('first', d10, null); // 2020-03-10 00:00:00 CST, granted (no activation)
    await put('activated', d10 - 30 * 86400, d10 + 86400 + 86399); // issued long before, activated 2020-03-11 23:59:59 CST
    await put('after', d10 + 2 * 86400, null); // 2020-03-12 00:00:00 CST
    await put('issued-in-range', d10 + 3600, d10 + 5 * 86400); // issued in the range, obtained (activated) after it
    const q = `start_time=${d10}&end_time=${dayStart('2020-03-11')! + 86400}`;
    const r = (await demo.get(`/api/tickets/?${q}`)).json();
    expect(r.data.map((v: { remark: string }) => v.remark)).toEqual(['activated', 'first']);
    expect(r.data[0].created_at).toBe(d10 + 86400 + 86399);
    expect((await demo.get(`/api/tickets/?start_time=${d10 + 2 * 86400}&end_time=${d10 + 3 * 86400}`)).json().data.map((v: { remark: string }) => v.remark)).toEqual(['after']);
    // only a start, only an end
    expect((await demo.get(`/api/tickets/?end_time=${d10}`)).json().data.map((v: { remark: string }) => v.remark)).toEqual(['before']);
    expect((await demo.get(`/api/tickets/?start_time=${d10}&status=USING&limit=100`)).json().data.map((v: { remark: string }) => v.remark)).toEqual(expect.arrayContaining(['first', 'activated', 'after', 'issued-in-range']));
    expect((await demo.get('/api/tickets/?start_time=-1')).json()).toMatchObject({ error_code: 20001 });
    expect((await demo.get('/api/tickets/?end_time=abc')).json()).toMatchObject({ error_code: 20001 });
  });

  it('allows 10 wrong codes an hour, then 22104', async () => {
    const c = await new Client(s.app).signIn('demonew');
    for (let i = 0; i < 10; i++) expect((await c.post('/api/ticket/', { ticket_id: `WRONGCODE${i}00` })).json().error_code).toBe(22101);
    const res = await c.post('/api/ticket/', { ticket_id: DEMO_VOUCHER_CODES[1] });
    expect(res.statusCode).toBe(429);
    expect(res.json()).toMatchObject({ error_code: 22104 });
  });
});

describe('resource packages', () => {
  const code = async (c: Client) => {
    expect((await c.post('/api/accounts/transaction/captcha', {})).statusCode).toBe(200);
    const row = await s.db.selectFrom('sms_outbox').select('text').where('purpose', '=', 'pay').orderBy('id', 'desc').executeTakeFirstOrThrow();
    return /(\d{6})/.exec(row.text)![1];
  };

  it('lists the specs of a kind with the promotional ones', async () => {
    const specs = (await demo.get('/api/resources/specs/?kind=resources')).json().data;
    expect(specs.map((x: { name: string; price: number }) => `${x.name}=${x.price}`)).toEqual(['100 GB=20', '500 GB=100', '1 TB=270', '2 TB=540', '5 TB=1335', '10 TB=2670']);
    expect(specs[0]).toMatchObject({ index: 0, promo: true, available: true, valid_months: 3 });
    expect((await demo.get('/api/resources/specs/?kind=nope')).json().error_code).toBe(20001);
  });

  it('buys a traffic package with the balance after the pay code; the header and the list show it', async () => {
    const before = (await demo.get('/api/billing/usage/')).json().data;
    expect((await demo.post('/api/resources/account/', { spec: 'traffic_100g' })).json()).toMatchObject({ error_code: 22216 });
    const res = await demo.post('/api/resources/account/', { spec: 'traffic_100g', code: await code(demo) });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.balance).toBeCloseTo(before.money - 20, 2);
    const after = (await demo.get('/api/billing/usage/')).json().data;
    expect(after.resource_flow_remain_value).toBeCloseTo(before.resource_flow_remain_value + 100, 3);
    expect(after.resource_flow_remain_unit).toBe('GB');
    const list = (await demo.get('/api/resources/account/?kind=resources&status=VALID')).json();
    expect(list.data[0]).toMatchObject({ spec: 'traffic_100g', name: '100 GB', amount: 100, remain: 100, unit: 'GB', price: 20, status: 'VALID' });
    // a package is valid 3 months from the purchase day
    expect(list.data[0].expires_at - list.data[0].starts_at).toBeGreaterThanOrEqual(89 * 86400);
    // one promotional package per 3 months
    // (refused before the pay code is looked at)
    expect((await demo.post('/api/resources/account/', { spec: 'traffic_500g', code: '000000' })).json()).toMatchObject({ error_code: 22504 });
    expect((await demo.get('/api/resources/specs/?kind=resources')).json().data[1].available).toBe(false);
    const remain = (await demo.get('/api/resource')).json().data;
    expect(remain.transcode).toEqual({ remain: 1000, unit: '分钟' });
    expect(after.transcode_remains).toBe(1000 * 60000);
  });

  it('refuses when the balance is short with the amount to top up (22201), and unknown specs (22502)', async () => {
    const c = await new Client(s.app).signIn('demonew');
    const u = await s.db.selectFrom('users').select(['id', 'money', 'actual_charge']).where('username', '=', 'demonew').executeTakeFirstOrThrow();
    const pay = await code(c);
    const res = await c.post('/api/resources/account/', { spec: 'traffic_1t', code: pay });
    // the top-up link carries the pay page to come back to (spec 001 §2.5 charge/ with amount and referer)
    expect(res.json()).toMatchObject({ error_code: 22201, data: { need: 270, link: '/billing/charge/?amount=270&referer=%2Fbilling%2Fresources%2Fpay%2F%3Fresource%3Dtraffic_1t' } });
    expect((await c.post('/api/resources/account/', { spec: 'nope' })).json()).toMatchObject({ error_code: 22502 });
    // the refusal did not spend the code: after the top-up the same code pays, once
    await setBalance(s.db, u.id, 1000, 1000);
    const paid = await c.post('/api/resources/account/', { spec: 'traffic_1t', code: pay });
    expect(paid.statusCode).toBe(200);
    expect(paid.json().data.balance).toBeCloseTo(730, 2);
    expect((await c.post('/api/resources/account/', { spec: 'traffic_1t', code: pay })).json().error_code).toBe(21102);
    // two promotional packages at once with one code: one is bought, the other refused — on PostgreSQL it
    // waits for the first's row lock and then finds the promotion taken (22504) or the code spent (21102)
    await s.db.updateTable('sms_outbox').set({ created_at: new Date(Date.now() - 120_000) }).execute();
    const again = await code(c);
    const both = await Promise.all(['traffic_100g', 'traffic_500g'].map((spec) => c.post('/api/resources/account/', { spec, code: again })));
    const answers = both.map((r) => (r.statusCode === 200 ? 200 : r.json().error_code)).sort((a, b) => a - b);
    expect(answers[0]).toBe(200);
    expect([21102, 22504]).toContain(answers[1]);
    const promos = await s.db.selectFrom('resource_packages').select('spec').where('account_id', '=', u.id).where('spec', 'in', ['traffic_100g', 'traffic_500g']).execute();
    expect(promos).toHaveLength(1);
    // the check inside the payment (PGlite runs one transaction at a time, so the first check above usually answers)
    await expect(s.db.transaction().execute((trx) => assertPromoAvailable(trx, u.id))).rejects.toMatchObject({ code: 22504 });
    const twofaId = (await s.db.selectFrom('users').select('id').where('username', '=', 'demo2fa').executeTakeFirstOrThrow()).id;
    await expect(s.db.transaction().execute((trx) => assertPromoAvailable(trx, twofaId))).resolves.toBeUndefined();
    await setBalance(s.db, u.id, Number(u.money), Number(u.actual_charge));
  });

  it('sets auto-renewal, and deletes only used-up or expired packages', async () => {
    const list = (await demo.get('/api/resources/account/?kind=resources&status=VALID')).json().data;
    const id = list[0].id;
    expect((await demo.put('/api/resources/account/', { id, auto_renew: true })).json().data.auto_renew).toBe(true);
    expect((await demo.request({ method: 'DELETE', url: `/api/resources/account/?id=${id}` })).json()).toMatchObject({ error_code: 22505 });
    await s.db.updateTable('resource_packages').set({ remain: '0' }).where('id', '=', id).execute();
    expect((await demo.request({ method: 'DELETE', url: `/api/resources/account/?id=${id}` })).json().data).toEqual({ id });
    expect((await twofa.request({ method: 'DELETE', url: `/api/resources/account/?id=${list[1]?.id ?? 999999}` })).json().error_code).toBe(22503);
    expect((await demo.put('/api/resources/account/', { id: 999999, auto_renew: false })).json().error_code).toBe(22503);
  });
});

describe('auto-renewal', () => {
  const expired = async (username: string, spec: string, amount: number, unit: string) => {
    const u = await s.db.selectFrom('users').select(['id', 'money']).where('username', '=', username).executeTakeFirstOrThrow();
    const id = await grantPackage(s.db, u.id, { kind: spec.split('_')[0], spec, amount, unit, validDays: 30, startsAt: new Date(Date.now() - 40 * 86400_000) });
    await s.db.updateTable('resource_packages').set({ auto_renew: true }).where('id', '=', id).execute();
    return { user: u, id };
  };
  it('buys an expired package with the flag again from the balance; a short balance ends the flag and tells the account', async () => {
    const ok1 = await expired('demo', 'transcode_1000', 1000, '分钟');
    const short = await expired('demonew', 'sms_1000', 1000, '条');
    const r = await renewPackages(s.db, { accountIds: [ok1.user.id, short.user.id] });
    expect(r.failed).toEqual([short.id]);
    expect(r.renewed).toHaveLength(1);
    const fresh = await s.db.selectFrom('resource_packages').selectAll().where('id', '=', r.renewed[0]).executeTakeFirstOrThrow();
    expect(fresh).toMatchObject({ account_id: ok1.user.id, spec: 'transcode_1000', auto_renew: true });
    const money = await s.db.selectFrom('users').select('money').where('id', '=', ok1.user.id).executeTakeFirstOrThrow();
    // transcode_1000 costs 30 yuan
    expect(Number(money.money)).toBeCloseTo(Number(ok1.user.money) - 30, 2);
    const order = await s.db.selectFrom('billing_orders').select(['title', 'amount']).where('account_id', '=', ok1.user.id).orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(order).toMatchObject({ title: '转码时长包 1,000 分钟（自动续费）' });
    for (const id of [ok1.id, short.id]) expect((await s.db.selectFrom('resource_packages').select('auto_renew').where('id', '=', id).executeTakeFirstOrThrow()).auto_renew).toBe(false);
    const msg = await s.db.selectFrom('messages').select(['title']).where('account_id', '=', short.user.id).where('title', '=', '资源包自动续费失败').execute();
    expect(msg).toHaveLength(1);
    // nothing is due any more
    expect(await renewPackages(s.db, { accountIds: [ok1.user.id, short.user.id] })).toEqual({ renewed: [], failed: [] });
  });
});

describe('the billing header', () => {
  it('splits the balance and counts usable vouchers', async () => {
    const h = (await twofa.get('/api/billing/usage/')).json().data;
    expect(h).toMatchObject({ money: 61.61, actual_charge: 61.61, gift: 0, money_int: '61', money_decimal: '.61', ticket_count: 0, total_rebate: 0, hidden: [], redirect: null });
    const d = (await demo.get('/api/billing/usage/')).json().data;
    expect(d.ticket_count).toBeGreaterThanOrEqual(1);
    expect(d.total_rebate).toBeGreaterThan(0);
  });
  it('hides items and redirects for the listed accounts of the server configuration', () => {
    const v = { hiddenItemsAccounts: ['a'], detailRedirectAccounts: ['b'], containerRedirectAccounts: ['c'] };
    expect(visibilityFor(v, 'a')).toEqual({ hidden: ['balance', 'history', 'bills', 'invoicing'], redirect: null });
    expect(visibilityFor(v, 'b')).toEqual({ hidden: [], redirect: 'detail' });
    expect(visibilityFor(v, 'c')).toEqual({ hidden: [], redirect: 'container' });
    expect(visibilityFor(undefined, 'a')).toEqual({ hidden: [], redirect: null });
  });
  it('is for main accounts and sub-accounts holding bill only', async () => {
    const ops = await new Client(s.app).signIn('demo_ops');
    expect((await ops.get('/api/billing/usage/')).json().error_code).toBe(21111);
  });
});

it('keeps bills on PostgreSQL and PGlite alike (numeric money)', async () => {
  const r = await sql<{ n: string }>`select count(*)::text as n from bills`.execute(s.db);
  expect(Number(r.rows[0].n)).toBeGreaterThan(30);
});

describe('listed accounts of the server configuration (docs/billing.md "Listed accounts")', () => {
  let t: TestServer;
  const REFUSED = { result: false, error_code: 22006, message: '该功能暂不对您的账号开放' };
  const calls = {
    balance: [
      ['GET', '/orders/recharge/discount'],
      ['POST', '/api/orders/recharge', { amount: 100 }],
      ['GET', '/api/orders/recharge?order_no=NOSUCHORDER'],
    ],
    history: [['GET', '/api/v2/orders/?status=success']],
    bills: [
      ['GET', '/api/bills/'],
      ['GET', '/api/bill/?id=NOSUCHBILL'],
      ['GET', '/api/bill_threshold'],
    ],
    invoicing: [
      ['GET', '/api/account/invoice/consume/'],
      ['GET', '/api/account/invoices'],
      ['GET', '/api/account/invoice?invoice_id=999999'],
      ['GET', '/api/account/invoice/info'],
      ['PUT', '/api/account/invoice', { amount: 1, info_id: 999999, address_id: 999999 }],
    ],
    other: [
      ['GET', '/api/tickets/'],
      ['GET', '/api/resources/specs/'],
      ['GET', '/api/account/rebate/info'],
      ['GET', '/api/accounts/transaction/captcha'],
    ],
  } as const;
  const call = (c: Client, [method, url, payload]: readonly [string, string, object?]) => c.request({ method: method as 'GET', url, ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    t = await startTestServer({ config: { billing: { hiddenItemsAccounts: ['demokey'], detailRedirectAccounts: ['demonew'], containerRedirectAccounts: ['demo2fa'] } } });
    await t.db.updateTable('users').set({ two_step: false }).where('username', '=', 'demo2fa').execute();
  });
  afterAll(async () => {
    await t.close();
  });

  it('refuses the calls behind the hidden items, and only those', async () => {
    const c = await new Client(t.app).signIn('demokey');
    expect((await c.get('/api/billing/usage/')).json().data).toMatchObject({ hidden: ['balance', 'history', 'bills', 'invoicing'], redirect: null });
    for (const item of ['balance', 'history', 'bills', 'invoicing'] as const) {
      for (const req of calls[item]) {
        const res = await call(c, req);
        expect([req[1], res.statusCode, res.json()]).toEqual([req[1], 403, REFUSED]);
      }
    }
    for (const req of calls.other) expect([req[1], (await call(c, req)).statusCode]).toEqual([req[1], 200]);
  });

  it('refuses bill detail, the history and invoice detail to the redirected accounts', async () => {
    const c = await new Client(t.app).signIn('demonew');
    expect((await c.get('/api/billing/usage/')).json().data).toMatchObject({ hidden: [], redirect: 'detail' });
    for (const req of [calls.bills[1], calls.history[0], calls.invoicing[2]]) expect([req[1], (await call(c, req)).json()]).toEqual([req[1], REFUSED]);
    for (const req of [calls.bills[0], calls.invoicing[1], calls.balance[0], ...calls.other]) expect([req[1], (await call(c, req)).statusCode]).toEqual([req[1], 200]);
  });

  it('refuses every billing call but the header to the container-redirected accounts', async () => {
    const c = await new Client(t.app).signIn('demo2fa');
    const usage = await c.get('/api/billing/usage/');
    expect(usage.statusCode).toBe(200);
    expect(usage.json().data.redirect).toBe('container');
    for (const req of Object.values(calls).flat()) expect([req[1], (await call(c, req)).json()]).toEqual([req[1], REFUSED]);
    // not a billing call
    expect((await c.get('/api/buckets/')).statusCode).not.toBe(403);
  });

  it('leaves the other accounts alone', async () => {
    const c = await new Client(t.app).signIn('demo');
    expect((await c.get('/api/billing/usage/')).json().data).toMatchObject({ hidden: [], redirect: null });
    for (const req of [calls.balance[0], calls.history[0], calls.bills[0], calls.bills[2], calls.invoicing[0], calls.invoicing[1], ...calls.other]) {
      expect([req[1], (await call(c, req)).statusCode]).toEqual([req[1], 200]);
    }
  });
});
