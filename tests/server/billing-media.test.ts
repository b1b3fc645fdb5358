/**
 * Audio/video processing on bills and the platform's invoice review (docs/billing.md "Audio and video
 * processing", docs/billing-money.md "Invoices"). media_usage rows are written as the media worker
 * writes them (src/server/media/worker.ts); every figure is worked out here.
 */
import { startTestServer, Client, type TestServer } from './helpers';
import { computeBill, runBilling } from '../../src/server/billing/bills/make';
import { grantPackage } from '../../src/server/billing/resources/grant';
import { billingCommands } from '../../src/server/billing/commands';
import { hashPassword } from '../../src/server/accounts/passwords';
import { addDays, dayOf, dayStart } from '../../src/shared/stats/time';

jest.setTimeout(180_000);

let s: TestServer;
const command = (name: string) => billingCommands.find((c) => c.name === name)!;

/** A main account of its own with one file service, 10 yuan of balance, signed in. */
async function freshAccount(name: string) {
  const u = await s.db
    .insertInto('users')
    .values({ username: name, email: `${name}@example.com`, mobile: null, password_hash: await hashPassword('demo123456'), parent_id: null, permissions: '[]', money: '10.00', actual_charge: '10.00' } as any)
    .returning('id')
    .executeTakeFirstOrThrow();
  await s.db.insertInto('buckets').values({ name: `${name}-media`, owner_id: u.id, kind: 'file' } as any).execute();
  return { id: u.id, client: await new Client(s.app).signIn(name) };
}

/** As the media worker records a finished task: minutes and tasks added to the day's row of its key. */
async function recordTask(accountId: number, day: string, usageKey: string, minutes: number) {
  await s.db
    .insertInto('media_usage')
    .values({ account_id: accountId, day, usage_key: usageKey, minutes, tasks: 1 })
    .onConflict((oc) => oc.columns(['account_id', 'day', 'usage_key']).doUpdateSet({ minutes: (eb) => eb('media_usage.minutes', '+', eb.ref('excluded.minutes')) as any, tasks: (eb) => eb('media_usage.tasks', '+', 1) as any }))
    .execute();
}

beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s.close();
});

describe('audio/video processing on the day bill', () => {
  it('prices a recorded transcode on the next day bill, transcode package minutes first (the dearest key first)', async () => {
    const a = await freshAccount('mediabill1');
    // 2026-03-20 (CST): 12.5 min of 720P, 47.5 min of < 480P (two tasks of 20 and 27.5), 3 thumbnails
    await recordTask(a.id, '2026-03-20', 'video_transcode_gte720p', 12.5);
    await recordTask(a.id, '2026-03-20', 'video_transcode_lt480p', 20);
    await recordTask(a.id, '2026-03-20', 'video_transcode_lt480p', 27.5);
    for (let i = 0; i < 3; i++) await recordTask(a.id, '2026-03-20', 'video_thumbnail', 0);
    const pkg = await grantPackage(s.db, a.id, { kind: 'transcode', spec: 'platform', amount: 20, unit: '分钟', validDays: 365, startsAt: new Date((dayStart('2026-03-01') as number) * 1000) });
    const now = new Date(((dayStart('2026-03-21') as number) + 3600) * 1000);
    const made = await runBilling(s.db, { now, from: '2026-03-20', accountIds: [a.id] });
    expect(made.map((m) => m.id)).toEqual([`20260320D${a.id}`]);

    const bill = (await a.client.get(`/api/bill/?id=20260320D${a.id}`)).json().data;
    const media = bill.detail.used.media;
    // the package's 20 minutes: 12.5 of 720P (0.1 yuan) first, then 7.5 of < 480P (0.025);
    // paid: (47.5 − 7.5) × 0.025 = 1 + 3 thumbnails × 0.001 = 0.003 → 1.003
    expect(media.used).toMatchObject({ video_transcode_gte720p: 12.5, video_transcode_gte720p_price: 0, video_transcode_gte720p_package: 12.5, video_transcode_lt480p: 47.5, video_transcode_lt480p_package: 7.5, video_transcode_lt480p_price: 1, video_thumbnail: 3, video_thumbnail_price: 0.003 });
    expect(media).toMatchObject({ charged: true, total: 1.003 });
    expect(media.lines.find((l: any) => l.item === 'video_transcode_lt480p')).toMatchObject({ label: '视频转码 480P 以下', unit: '分钟', usage: 47.5, package: 7.5, billed: 40, steps: [{ unit_price: 0.025, used: 40, amount: 1 }] });
    expect(bill.detail.price_config.media.processing.video_transcode_gte720p).toBe(0.1);
    expect(bill).toMatchObject({ original: 1.003, settlement: 1, status: 'SETTLED' });
    expect(bill.detail.settlement.packages).toEqual([{ id: pkg, amount: 20, unit: '分钟' }]);

    // the package is used up: the header shows no transcode minutes left; 10 − 1.00 yuan
    const h = (await a.client.get('/api/billing/usage/')).json().data;
    expect(h).toMatchObject({ transcode_remains: 0, money: 9 });
    // the next day has no processing: no media line; running again makes nothing
    const next = await runBilling(s.db, { now: new Date(now.getTime() + 86400_000), accountIds: [a.id] });
    expect(next.map((m) => m.id)).toEqual([`20260321D${a.id}`]);
    expect((await a.client.get(`/api/bill/?id=20260321D${a.id}`)).json().data.detail.used.media).toBeUndefined();
    expect((await runBilling(s.db, { now: new Date(now.getTime() + 86400_000), accountIds: [a.id] })).filter((m) => m.created)).toEqual([]);
  });

  it('charges monthly processing on the month bill only, with the price the platform set', async () => {
    const a = await freshAccount('mediabill2');
    await command('price-config').run(s.db, { account: 'mediabill2', service: 'media', mode: 'MONTHLY', processing: 'video_transcode_gte1080p:0.3' });
    await recordTask(a.id, '2026-04-29', 'video_transcode_gte1080p', 10);
    await recordTask(a.id, '2026-04-30', 'video_transcode_gte1080p', 5);
    const made = await runBilling(s.db, { now: new Date(((dayStart('2026-05-01') as number) + 3600) * 1000), from: '2026-04-29', accountIds: [a.id] });
    expect(made.map((m) => m.id)).toEqual([`20260429D${a.id}`, `20260430D${a.id}`, `20260401M${a.id}`]);
    const day = (await a.client.get(`/api/bill/?id=20260429D${a.id}`)).json().data;
    expect(day.detail.used.media).toMatchObject({ charged: false, total: 0, note: '按月结算，费用见月账单', used: { video_transcode_gte1080p: 10 } });
    // (10 + 5) × 0.3 = 4.5
    const month = (await a.client.get(`/api/bill/?id=20260401M${a.id}`)).json().data;
    expect(month.detail.used.media).toMatchObject({ charged: true, total: 4.5, used: { video_transcode_gte1080p: 15, video_transcode_gte1080p_price: 4.5 } });
    expect(month.original).toBe(4.5);
  });

  it('has a processing table in every price configuration; the demo has contracted prices; the command refuses bad ones', async () => {
    const demo = await new Client(s.app).signIn('demo');
    const cfg = (await demo.get('/api/accounts/price_config')).json().data;
    expect(cfg.media).toMatchObject({ service_type: 'media', amount_cal_type: 'DAILY', charge_dimension: 'minutes' });
    expect(cfg.media.processing).toMatchObject({ video_transcode_gte1080p: 0.18, video_transcode_gte720p: 0.09, video_transcode_lt480p: 0.025, video_thumbnail: 0.001, probe: 0 });
    // the demo's processing of last month, priced at its contracted 1080P price: 42.5 × 0.18 = 7.65 + 20 thumbnails × 0.001 = 7.67
    const id = (await s.db.selectFrom('users').select('id').where('username', '=', 'demo').executeTakeFirstOrThrow()).id;
    const today = dayOf(Math.floor(Date.now() / 1000));
    const third = addDays(`${addDays(`${today.slice(0, 7)}-01`, -1).slice(0, 7)}-01`, 2);
    const c = await computeBill(s.db, id, 'DAY_BILL', third);
    expect(c.detail.used.media).toMatchObject({ charged: true, total: 7.67, used: { video_transcode_gte1080p: 42.5, video_transcode_gte1080p_price: 7.65, video_thumbnail: 20 } });
    const cmd = command('price-config');
    await expect(cmd.run(s.db, { account: 'demonew', service: 'media', processing: 'bogus_key:1' })).rejects.toThrow('未知的用量键 bogus_key');
    await expect(cmd.run(s.db, { account: 'demonew', service: 'media', processing: 'video_clip_gte480p:-1' })).rejects.toThrow('无法识别的处理单价');
    await expect(cmd.run(s.db, { account: 'demonew', service: 'media', mode: 'HOURLY' })).rejects.toThrow('media 只能按日');
    await expect(cmd.run(s.db, { account: 'demonew', service: 'cdn', processing: 'probe:1' })).rejects.toThrow('处理单价只属于 media');
  });
});

describe('the platform issues or rejects an invoice', () => {
  it('issues a waiting invoice (DONE, counted as invoiced) and rejects another with a reason (CANCEL, freed); tells the account', async () => {
    const a = await freshAccount('invoicereview1');
    await s.db.insertInto('billing_orders').values({ order_no: 'INVREVIEW0001', title: '充值', account_id: a.id, kind: 'recharge', amount: '500.00', status: 'success', pay_method: 'alipay' } as any).execute();
    const addr = { recipient: '张三', mobile: '13800000000', address: '北京市海淀区' };
    const info = { type: 'NORMAL', title: '某某科技有限公司', tax_no: '91110000123456789X' };
    const [i1, i2] = await Promise.all(
      [120, 80].map(async (amount) => (await s.db.insertInto('invoices').values({ account_id: a.id, amount: amount.toFixed(2), info: JSON.stringify(info), address: JSON.stringify(addr) } as any).returning('id').executeTakeFirstOrThrow()).id),
    );
    expect((await a.client.get('/api/account/invoice/consume/')).json().data).toMatchObject({ total: 500, freeze: 200, invoiced: 0, available: 300 });
    const cmd = command('invoice-review');

    expect(await cmd.run(s.db, { id: String(i1), issue: 'true', remark: '顺丰 SF1234567890' })).toEqual({ invoice_id: i1, status: 'DONE', reason: '顺丰 SF1234567890' });
    expect(await cmd.run(s.db, { id: String(i2), reject: 'true', reason: '抬头与营业执照不一致' })).toEqual({ invoice_id: i2, status: 'CANCEL', reason: '抬头与营业执照不一致' });
    expect((await a.client.get(`/api/account/invoice?invoice_id=${i2}`)).json().data).toMatchObject({ status: 'CANCEL', reason: '抬头与营业执照不一致' });
    expect((await a.client.get(`/api/account/invoice?invoice_id=${i1}`)).json().data).toMatchObject({ status: 'DONE' });
    expect((await a.client.get('/api/account/invoice/consume/')).json().data).toMatchObject({ freeze: 0, invoiced: 120, available: 380 });
    const msgs = await s.db.selectFrom('messages').select(['title', 'body']).where('account_id', '=', a.id).orderBy('id').execute();
    expect(msgs.map((m) => m.title)).toEqual(['发票已开具', '发票申请已驳回']);
    expect(msgs[1].body).toContain('抬头与营业执照不一致');

    // reviewed once only; a rejection needs a reason; unknown ids and a missing decision are refused
    await expect(cmd.run(s.db, { id: String(i1), reject: 'true', reason: '重复' })).rejects.toThrow('已处理（DONE）');
    await expect(cmd.run(s.db, { id: String(i2), reject: 'true' })).rejects.toThrow('缺少参数 --reason');
    await expect(cmd.run(s.db, { id: '999999', issue: 'true' })).rejects.toThrow('发票申请 999999 不存在');
    await expect(cmd.run(s.db, { id: String(i1) })).rejects.toThrow('请指定 --issue 或 --reject');
    // an issued invoice cannot be deleted by the account (22302)
    expect((await a.client.request({ method: 'DELETE', url: '/api/account/invoice', payload: { invoice_id: i1 } })).json().error_code).toBe(22302);
  });
});
