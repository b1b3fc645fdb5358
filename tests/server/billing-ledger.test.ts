/**
 * "The money must add up" (issue 19; docs/billing-money.md "The ledger"): every change of a balance is a
 * ledger row written in the same transaction, and the balance is what the ledger says. A month of the
 * demo is replayed — the seed, each day's settlement, a recharge through the sandbox, a package bought
 * with the balance, a DDoS order, the month bill — and after every step the balance equals the ledger's
 * sum and every settled bill has its row; then the seed's own bills (seedDemoBills) obey the same rule.
 */
import { sql } from 'kysely';
import { Client, startTestServer, type TestServer } from './helpers';
import { runBilling } from '../../src/server/billing/bills/make';
import { billingCommands } from '../../src/server/billing/commands';
import { ledgerProblems, postLedger } from '../../src/server/billing/ledger/ledger';
import { DEMO_RESERVE, seedDemoBills } from '../../src/server/seed/billing';
import { addDays, dayOf, dayStart } from '../../src/shared/stats/time';

let s: TestServer;
let demo: Client;
let demoId: number;

beforeAll(async () => {
  // traffic from the first day of last month on (at most 62 days before today)
  s = await startTestServer({ traffic: { days: 63, fiveMinuteDays: 1, geoHourlyDays: 1 } });
  demo = await new Client(s.app).signIn('demo');
  demoId = (await s.db.selectFrom('users').select('id').where('username', '=', 'demo').executeTakeFirstOrThrow()).id;
}, 300_000);
afterAll(() => s.close());

async function balance(id = demoId) {
  const u = await s.db.selectFrom('users').select(['money', 'actual_charge']).where('id', '=', id).executeTakeFirstOrThrow();
  const l = await s.db
    .selectFrom('balance_ledger')
    .select([sql<string>`coalesce(sum(amount), 0)`.as('s'), sql<string>`coalesce(sum(recharge), 0)`.as('r'), sql<number>`count(*)::int`.as('n')])
    .where('account_id', '=', id)
    .executeTakeFirstOrThrow();
  return { money: Number(u.money), actual: Number(u.actual_charge), sum: Number(l.s), recharge: Number(l.r), rows: Number(l.n) };
}

/** The rule, checked after every step: for every account, and every settled bill and paid order. */
async function expectMoneyAddsUp() {
  expect(await ledgerProblems(s.db)).toEqual([]);
  const b = await balance();
  expect(b.money).toBe(b.sum);
  expect(b.actual).toBe(b.recharge);
  // the header reads the same balance
  expect((await demo.get('/api/billing/usage/')).json().data.money).toBe(b.money);
  const settled = await s.db.selectFrom('bills').select(['id', 'settlement']).where('account_id', '=', demoId).where('status', '=', 'SETTLED').execute();
  for (const bill of settled.filter((x) => Number(x.settlement) > 0)) {
    const row = await s.db.selectFrom('balance_ledger').select(['amount', 'kind']).where('ref', '=', bill.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ kind: 'bill', amount: (-Number(bill.settlement)).toFixed(2) });
  }
  return b;
}

const code = async (c: Client) => {
  await s.db.updateTable('sms_outbox').set({ created_at: new Date(Date.now() - 120_000) }).where('purpose', '=', 'pay').execute();
  expect((await c.post('/api/accounts/transaction/captcha', {})).statusCode).toBe(200);
  const row = await s.db.selectFrom('sms_outbox').select('text').where('purpose', '=', 'pay').orderBy('id', 'desc').executeTakeFirstOrThrow();
  return /(\d{6})/.exec(row.text)![1];
};

describe('the balance is what the ledger says', () => {
  it('the seed writes every balance as ledger rows: demo 288.50 given + two 500-yuan recharges = 1,288.50', async () => {
    const b = await expectMoneyAddsUp();
    expect(b).toMatchObject({ money: 1288.5, actual: 1000, rows: 5 });
    // in the order they happened, each row's balance the one before plus its amount; the DDoS plan of
    // 119,600 paid after a bank transfer of the same amount
    const rows = await s.db.selectFrom('balance_ledger').select(['kind', 'amount', 'recharge', 'balance']).where('account_id', '=', demoId).orderBy('created_at').orderBy('id').execute();
    expect(rows).toEqual([
      { kind: 'recharge', amount: '500.00', recharge: '500.00', balance: '500.00' },
      { kind: 'recharge', amount: '119600.00', recharge: '119600.00', balance: '120100.00' },
      { kind: 'payment', amount: '-119600.00', recharge: '-119600.00', balance: '500.00' },
      { kind: 'gift', amount: '288.50', recharge: '0.00', balance: '788.50' },
      { kind: 'recharge', amount: '500.00', recharge: '500.00', balance: '1288.50' },
    ]);
    const other = async (u: string) => balance((await s.db.selectFrom('users').select('id').where('username', '=', u).executeTakeFirstOrThrow()).id);
    expect(await other('demo2fa')).toMatchObject({ money: 100, sum: 100, actual: 100 });
    // 50,000 recharged with the recharge discount's 5 % gift
    expect(await other('demokey')).toMatchObject({ money: 52500, sum: 52500, actual: 50000, rows: 2 });
    expect(await other('demonew')).toMatchObject({ money: 0, sum: 0, rows: 0 });
  });

  it('the database refuses a balance change without its ledger row, and a row applies itself', async () => {
    await expect(s.db.updateTable('users').set({ money: '999999.00' }).where('id', '=', demoId).execute()).rejects.toThrow(/balance_ledger/);
    await expect(sql`update users set actual_charge = 0 where id = ${demoId}`.execute(s.db)).rejects.toThrow(/balance_ledger/);
    // a row that fails (no such account) leaves nothing behind
    await expect(postLedger(s.db, 987654, { kind: 'adjust', amount: 1 })).rejects.toThrow();
    expect((await balance()).money).toBe(1288.5);
    await expectMoneyAddsUp();
  });

  it('the platform adjusts a balance by a ledger row and checks the ledger', async () => {
    const adjust = billingCommands.find((c) => c.name === 'balance-adjust')!;
    const check = billingCommands.find((c) => c.name === 'ledger-check')!;
    await expect(adjust.run(s.db, { account: 'demonew', amount: '1.005', remark: 'x' })).rejects.toThrow('最多两位小数');
    await expect(adjust.run(s.db, { account: 'demonew', amount: '10' })).rejects.toThrow();
    expect(await adjust.run(s.db, { account: 'demonew', amount: '12.34', remark: '补偿' })).toEqual({ balance: 12.34 });
    expect(await adjust.run(s.db, { account: 'demonew', amount: '-12.34', remark: '冲正' })).toEqual({ balance: 0 });
    const id = (await s.db.selectFrom('users').select('id').where('username', '=', 'demonew').executeTakeFirstOrThrow()).id;
    expect((await s.db.selectFrom('balance_ledger').select(['kind', 'amount', 'memo']).where('account_id', '=', id).orderBy('id').execute())).toEqual([
      { kind: 'adjust', amount: '12.34', memo: '补偿' },
      { kind: 'adjust', amount: '-12.34', memo: '冲正' },
    ]);
    expect(await check.run(s.db, {})).toEqual({ ok: true, problems: [] });
    // a settled bill whose ledger row is missing is reported (the row is removed behind the ledger's back)
    await s.db.insertInto('bills').values({ id: `20200101D${id}`, account_id: id, type: 'DAY_BILL', start_time: new Date('2019-12-31T16:00:00Z'), end_time: new Date('2020-01-01T16:00:00Z'), original: 3, detail: '{}', status: 'SETTLED', settlement: 3 } as any).execute();
    try {
      expect(await check.run(s.db, { account: 'demonew' })).toEqual({ ok: false, problems: [{ account_id: id, problem: `账单 20200101D${id} 余额扣款 3.00 元，账本记录 无` }] });
    } finally {
      await s.db.deleteFrom('bills').where('id', '=', `20200101D${id}`).execute();
    }
  });

  it('replays last month day by day with a recharge, a package, a DDoS order and the month bill; adds up after every step', async () => {
    const now = new Date();
    const today = dayOf(Math.floor(now.getTime() / 1000));
    const first = `${addDays(`${today.slice(0, 7)}-01`, -1).slice(0, 7)}-01`;
    const settleAt = (day: string) => new Date(((dayStart(addDays(day, 1)) as number) + 300) * 1000);
    let i = 0;
    for (let day = first; day < `${today.slice(0, 7)}-01`; day = addDays(day, 1), i++) {
      const before = await balance();
      const made = (await runBilling(s.db, { now: settleAt(day), from: first, accountIds: [demoId] })).filter((m) => m.created);
      expect(made.length).toBeGreaterThanOrEqual(1);
      const after = await expectMoneyAddsUp();
      // what the day's bill (and, after the last day, the month bill) took from the balance, to the fen
      const taken = await s.db.selectFrom('bills').select(sql<string>`coalesce(sum(settlement), 0)`.as('t')).where('id', 'in', made.map((m) => m.id)).executeTakeFirstOrThrow();
      expect(Math.round((before.money - after.money) * 100)).toBe(Math.round(Number(taken.t) * 100));
      if (i === 9) {
        // a recharge through the sandbox Alipay: 100,000 yuan and the 5 % gift, two rows
        const r = (await demo.post('/api/orders/recharge', { amount: 100000 })).json().data;
        expect(r.gift).toBe(5000);
        // confirmed by the paying account (signed in), as the page's form posts it
        const paid = await demo.request({ method: 'POST', url: new URL(r.pay_url).pathname, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: '' });
        expect(paid.statusCode).toBe(200);
        const b = await expectMoneyAddsUp();
        expect(Math.round((b.money - after.money) * 100)).toBe(10_500_000);
        expect(Math.round((b.actual - after.actual) * 100)).toBe(10_000_000);
        const rows = await s.db.selectFrom('balance_ledger').select(['kind', 'amount', 'recharge']).where('ref', '=', r.order_no).orderBy('id').execute();
        expect(rows).toEqual([
          { kind: 'recharge', amount: '100000.00', recharge: '100000.00' },
          { kind: 'gift', amount: '5000.00', recharge: '0.00' },
        ]);
      }
      if (i === 14) {
        // a 1 TB traffic package (270 yuan) paid from the balance after the SMS code
        const res = await demo.post('/api/resources/account/', { spec: 'traffic_1t', code: await code(demo) });
        expect(res.statusCode).toBe(200);
        const b = await expectMoneyAddsUp();
        expect(Math.round((after.money - b.money) * 100)).toBe(27_000);
        expect(res.json().data.balance).toBe(b.money);
        const row = await s.db.selectFrom('balance_ledger').select(['kind', 'amount', 'memo']).where('ref', '=', res.json().data.order_no).executeTakeFirstOrThrow();
        expect(row).toEqual({ kind: 'payment', amount: '-270.00', memo: '流量包 1 TB' });
      }
      if (i === 19) {
        // a DDoS order (基础版, one node, one month: 1,980 yuan)
        const order = (await demo.post('/api/ddos/order', { package: 'basic', nodes: [3], months: 1 })).json().data;
        const paid = (await demo.post('/api/ddos/order/pay', { order_id: order.order_id })).json();
        expect(paid.data.price).toBe('1980.00');
        const b = await expectMoneyAddsUp();
        expect(Math.round((after.money - b.money) * 100)).toBe(198_000);
        expect(Number(paid.data.balance)).toBe(b.money);
      }
    }
    // bills are settled even into arrears; falling below the threshold (100) warned as a platform notice, not 服务反馈
    const lowest = Math.min(...(await s.db.selectFrom('balance_ledger').select('balance').where('account_id', '=', demoId).where('kind', '=', 'bill').execute()).map((r) => Number(r.balance)));
    const notices = (await demo.get('/api/messages/?limit=100')).json().data.filter((m: { title: string }) => m.title === '余额不足提醒');
    expect(notices.length > 0).toBe(lowest < 100);
    for (const m of notices) expect(m.type).toBe('platform_notify');
    // the month bill was made after the month's last day
    const month = await s.db.selectFrom('bills').select(['id', 'status']).where('account_id', '=', demoId).where('type', '=', 'MONTH_BILL').execute();
    expect(month).toHaveLength(1);
    expect(month[0]!.status).toBe('SETTLED');
    // the ledger answers the account: newest first, the balance equal to its sum
    const page = (await demo.get('/api/billing/ledger?size=5')).json();
    expect(page.data.balance).toBe(page.data.ledger_sum);
    expect(page.data.entries).toHaveLength(5);
    expect(page.pager.total).toBe((await balance()).rows);
    expect((await demo.get('/api/billing/ledger?kind=recharge')).json().data.entries.map((e: { amount: number; kind_label: string }) => `${e.kind_label} ${e.amount}`)).toEqual(['充值 100000', '充值 500', '充值 119600', '充值 500']);
    expect((await demo.get('/api/billing/ledger?kind=nope')).json()).toMatchObject({ error_code: 20001 });
  }, 300_000);

  it("the seed's own bills (seedDemoBills) recharge before a bill they could not pay, and add up", async () => {
    const made = await seedDemoBills(s.db);
    await expectMoneyAddsUp();
    // this month's day bills (none on the 1st): each paid from a balance that held it and the reserve
    const today = dayOf(Math.floor(Date.now() / 1000));
    const rows = await s.db
      .selectFrom('balance_ledger')
      .select(['balance'])
      .where('account_id', '=', demoId)
      .where('kind', '=', 'bill')
      .where('created_at', '>', new Date(((dayStart(`${today.slice(0, 7)}-01`) as number) + 3600) * 1000))
      .execute();
    expect(rows).toHaveLength(made);
    for (const r of rows) expect(Number(r.balance)).toBeGreaterThanOrEqual(DEMO_RESERVE);
    // 收支明细 reads as a statement although these bills were written after rows of later moments: read
    // newest first, each row's balance is the next (older) row's balance plus its own amount, and the
    // newest carries the balance
    const all = (await demo.get('/api/billing/ledger?size=100')).json().data;
    expect(all.entries[0].balance).toBeCloseTo(all.balance, 2);
    for (let i = 0; i + 1 < all.entries.length; i++) expect(all.entries[i].balance).toBeCloseTo(all.entries[i + 1].balance + all.entries[i].amount, 2);
  }, 300_000);
});
