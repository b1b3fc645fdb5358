/** Billing money: recharge through the sandbox, orders, the pay confirmation, invoices, pictures, rebates and payees. */
import { startTestServer, Client, type TestServer } from './helpers';
import { createOrder } from '../../src/server/billing/pay/orders';
import { payWithBalance } from '../../src/server/billing/pay/confirm';
import { rebateTotals } from '../../src/server/billing/rebates/totals';
import { reviewRebate } from '../../src/server/billing/rebates/review';
import { PLATFORM_COMMANDS } from '../../src/server/platform/commands';

let s: TestServer;
let demo: Client;
let other: Client;
let demoId: number;
beforeAll(async () => {
  s = await startTestServer();
  demo = await new Client(s.app).signIn('demo');
  other = await new Client(s.app).signIn('demonew');
  demoId = (await s.db.selectFrom('users').select('id').where('username', '=', 'demo').executeTakeFirstOrThrow()).id;
}, 60_000);
afterAll(async () => {
  await s.close();
});


const balance = async (id: number) => {
  const u = await s.db.selectFrom('users').select(['money', 'actual_charge']).where('id', '=', id).executeTakeFirstOrThrow();
  return { money: Number(u.money), actual: Number(u.actual_charge) };
};
const del = (c: Client, url: string, payload: unknown) => c.request({ method: 'DELETE', url, payload: payload as object });
/** Lets the next SMS to a number go out (the 60-second limit counts from the outbox). */
const ageOutbox = () => s.db.updateTable('sms_outbox').set({ created_at: new Date(Date.now() - 120_000) }).execute();
const lastCode = async (mobile: string) => {
  const row = await s.db.selectFrom('sms_outbox').select('text').where('mobile', '=', mobile).where('purpose', '=', 'pay').orderBy('id', 'desc').executeTakeFirstOrThrow();
  return /(\d{6})/.exec(row.text)![1];
};

function multipart(name: string, filename: string, data: Buffer, type = 'application/octet-stream') {
  const boundary = '----billingmoney' + Math.random().toString(16).slice(2);
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { payload: Buffer.concat([head, data, tail]), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201ab8d0f1a0000000049454e44ae426082', 'hex');
const upload = (c: Client, data: Buffer, filename = 'id.png', type = 'image/png') => c.request({ method: 'POST', url: '/accounts/invoice/pic/', ...multipart('image', filename, data, type) });

describe('recharge through the sandbox provider', () => {
  it('gives the discount tiers', async () => {
    const res = await demo.get('/orders/recharge/discount');
    expect(res.json().data.discount).toEqual([{ min: 5000, rate: 2 }, { min: 20000, rate: 5 }]);
  });

  it('refuses amounts out of range with the messages', async () => {
    expect((await demo.post('/api/orders/recharge', {})).json().errors).toEqual([{ path: '/amount', message: '请填写充值金额' }]);
    expect((await demo.post('/api/orders/recharge', { amount: 0.5 })).json().errors).toEqual([{ path: '/amount', message: '充值金额不能少于 1 元' }]);
    expect((await demo.post('/api/orders/recharge', { amount: 1000001 })).json().errors).toEqual([{ path: '/amount', message: '单笔充值金额不能超过 1000000 元' }]);
    expect((await demo.post('/api/orders/recharge', { amount: '100' })).json().errors).toEqual([{ path: '/amount', message: '请填写充值金额' }]);
    // at most 2 decimals, with the charge page's text
    const orders = async () => (await s.db.selectFrom('billing_orders').select('id').where('account_id', '=', demoId).execute()).length;
    const n = await orders();
    const threeDecimals = await demo.post('/api/orders/recharge', { amount: 1.005 });
    expect(threeDecimals.statusCode).toBe(400);
    expect(threeDecimals.json()).toMatchObject({ error_code: 20001, errors: [{ path: '/amount', message: '请填写 1 - 1000000 元之间的金额，最多两位小数' }] });
    expect(await orders()).toBe(n);
  });

  it('pays an order on the sandbox page: the balance grows by the amount and its gift, once', async () => {
    const before = await balance(demoId);
    const res = await demo.post('/api/orders/recharge', { amount: 5000 });
    expect(res.statusCode).toBe(200);
    const { order_no, pay_url, gift, method } = res.json().data;
    expect(method).toBe('alipay');
    expect(res.json().data.sandbox).toBe(true);
    expect(gift).toBe(100);
    // made from PUBLIC_URL (here the listening address), not from the request's Host header
    expect(pay_url).toMatch(/^http:\/\/127\.0\.0\.1:8080\/api\/pay\/sandbox\/[0-9a-f]{48}$/);
    const path = new URL(pay_url).pathname;
    expect((await demo.get(`/api/orders/recharge?order_no=${order_no}`)).json().data.status).toBe('pending');
    // the page needs the paying account's session: without one it asks to sign in, another account is refused, and nothing is paid
    const anonymous = await s.app.inject({ method: 'GET', url: path });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.body).toContain('请先在本浏览器');
    expect((await s.app.inject({ method: 'POST', url: path, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: '' })).statusCode).toBe(401);
    expect((await other.request({ method: 'GET', url: path })).statusCode).toBe(403);
    expect((await other.request({ method: 'POST', url: path, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: '' })).body).toContain('该订单不属于当前登录的账号');
    expect((await demo.get(`/api/orders/recharge?order_no=${order_no}`)).json().data.status).toBe('pending');
    const page = await demo.request({ method: 'GET', url: path });
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('确认付款');
    expect(page.body).toContain('沙箱');
    expect(page.body).toContain('5000.00');
    // as the page's form posts it
    const paid = await demo.request({ method: 'POST', url: path, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: '' });
    expect(paid.statusCode).toBe(200);
    expect(paid.body).toContain('付款成功');
    const after = await balance(demoId);
    expect(after.money).toBeCloseTo(before.money + 5100, 2);
    expect(after.actual).toBeCloseTo(before.actual + 5000, 2);
    expect((await demo.get(`/api/orders/recharge?order_no=${order_no}`)).json().data).toMatchObject({ status: 'success', amount: 5000, gift: 100, pay_method: 'alipay' });
    const again = await demo.request({ method: 'POST', url: path });
    expect(again.statusCode).toBe(400);
    expect(again.body).toContain('该订单已支付');
    expect((await balance(demoId)).money).toBeCloseTo(after.money, 2);
    expect((await demo.request({ method: 'GET', url: path })).body).toContain('该订单已支付');
  });

  it('answers an unknown payment link with a Chinese page', async () => {
    const res = await s.app.inject({ method: 'GET', url: `/api/pay/sandbox/${'a'.repeat(48)}` });
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain('支付链接无效');
  });

  it('lists paid orders in a date range whose end is the end day plus one day', async () => {
    const pending = (await demo.post('/api/orders/recharge', { amount: 12.34 })).json().data.order_no;
    const today = new Date();
    const startOfToday = Math.floor(new Date(today.getFullYear(), today.getMonth(), today.getDate()).getTime() / 1000);
    const res = (await demo.get(`/api/v2/orders/?status=success&start_time=${startOfToday}&end_time=${startOfToday + 86400}`)).json();
    expect(res.data.map((o: { amount: number }) => o.amount)).toEqual([5000]);
    expect(res.data.some((o: { order_no: string }) => o.order_no === pending)).toBe(false);
    expect(res.pager).toMatchObject({ total: 1, page: 1 });
    // the seeded recharges are older
    const all = (await demo.get('/api/v2/orders/?status=success')).json();
    expect(all.pager.total).toBe(3);
    const yesterday = (await demo.get(`/api/v2/orders/?status=success&end_time=${startOfToday}`)).json();
    expect(yesterday.data.every((o: { created_at: number }) => o.created_at < startOfToday)).toBe(true);
    expect((await demo.get('/api/v2/orders/?status=paid')).json().errors).toEqual([{ path: '/status', message: '订单状态不正确' }]);
  });

  it('does not pay a recharge from the balance', async () => {
    const { order_no } = (await demo.post('/api/orders/recharge', { amount: 10 })).json().data;
    expect((await demo.post('/api/orders/pay', { order_no, method: 'balance', code: '123456' })).json().error_code).toBe(22213);
    const ali = (await demo.post('/api/orders/pay', { order_no, method: 'alipay' })).json();
    expect(ali.data.pay_url).toMatch(/\/api\/pay\/sandbox\/[0-9a-f]{48}$/);
  });

  it("does not show another account's order", async () => {
    const { order_no } = (await demo.post('/api/orders/recharge', { amount: 10 })).json().data;
    expect((await other.get(`/api/orders/recharge?order_no=${order_no}`)).json().error_code).toBe(22211);
    expect((await other.post('/api/orders/pay', { order_no, method: 'alipay' })).json().error_code).toBe(22211);
  });
});

describe('the pay confirmation', () => {
  it('sends a code once a minute and tells how long to wait', async () => {
    await ageOutbox();
    expect((await demo.get('/api/accounts/transaction/captcha')).json().data).toEqual({ mobile: '138****8000', resend_in: expect.any(Number) });
    const sent = (await demo.post('/api/accounts/transaction/captcha', {})).json();
    expect(sent.data).toEqual({ mobile: '138****8000', resend_in: 60 });
    expect((await demo.get('/api/accounts/transaction/captcha')).json().data.resend_in).toBeGreaterThan(55);
    expect((await demo.post('/api/accounts/transaction/captcha', {})).json()).toMatchObject({ error_code: 23701, message: '验证码发送过于频繁，请 60 秒后再试' });
  });

  it('pays an order from the balance only with the right code', async () => {
    const accountId = demoId;
    const order = await createOrder(s.db, { account_id: accountId, user_id: accountId, kind: 'resource', title: '流量包 100GB', amount: 20 });
    expect((await demo.post('/api/orders/pay', { order_no: order.order_no, method: 'balance' })).json()).toMatchObject({ error_code: 22216, message: '请输入支付验证码' });
    await ageOutbox();
    await demo.post('/api/accounts/transaction/captcha', {});
    const code = await lastCode('13800138000');
    const wrong = code === '000000' ? '111111' : '000000';
    expect((await demo.post('/api/orders/pay', { order_no: order.order_no, method: 'balance', code: wrong })).json().error_code).toBe(21102);
    expect((await demo.post('/api/orders/pay', { order_no: order.order_no, method: 'balance', code: '12ab' })).json().errors).toEqual([{ path: '/code', message: '请输入 6 位数字验证码' }]);
    const before = await balance(accountId);
    const res = await demo.post('/api/orders/pay', { order_no: order.order_no, method: 'balance', code });
    expect(res.json()).toMatchObject({ result: true, data: { status: 'success' } });
    expect((await balance(accountId)).money).toBeCloseTo(before.money - 20, 2);
    // the code is used up, and the order is paid
    expect((await demo.post('/api/orders/pay', { order_no: order.order_no, method: 'balance', code })).json().error_code).toBe(22212);
  });

  it('refuses an expired code', async () => {
    const order = await createOrder(s.db, { account_id: demoId, user_id: demoId, kind: 'resource', title: '流量包 100GB', amount: 20 });
    await ageOutbox();
    await demo.post('/api/accounts/transaction/captcha', {});
    const code = await lastCode('13800138000');
    await s.db.updateTable('verification_codes').set({ expires_at: new Date(Date.now() - 1000) }).where('purpose', '=', 'pay').execute();
    expect((await demo.post('/api/orders/pay', { order_no: order.order_no, method: 'balance', code })).json()).toMatchObject({ error_code: 21103 });
  });

  it('answers a short balance with 22201, the amount to top up and the charge link, before spending a code', async () => {
    const u = await balance(demoId);
    const order = await createOrder(s.db, { account_id: demoId, user_id: demoId, kind: 'resource', title: '流量包 10TB', amount: u.money + 35.5 });
    const res = await demo.post('/api/orders/pay', { order_no: order.order_no, method: 'balance', code: '123456' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error_code: 22201, message: '账户余额不足，请先充值', data: { need: 35.5, link: '/billing/charge/?amount=36' } });
  });

  it('exports payWithBalance for the other sections: code, debit, order and delivery in one transaction', async () => {
    await ageOutbox();
    await demo.post('/api/accounts/transaction/captcha', {});
    const code = await lastCode('13800138000');
    const before = await balance(demoId);
    let delivered = '';
    const out = await payWithBalance(s.db, { id: demoId, account_id: demoId }, { kind: 'certificate', title: 'DV 证书', amount: 9.9, code, deliver: async (_trx, o) => void (delivered = o.order_no) });
    expect(delivered).toBe(out.order_no);
    expect(out.balance).toBeCloseTo(before.money - 9.9, 2);
    const listed = (await demo.get('/api/v2/orders/?status=success&kind=certificate')).json().data;
    expect(listed[0]).toMatchObject({ order_no: out.order_no, pay_method: 'balance', amount: 9.9 });
  });
});

describe('pictures', () => {
  it('accepts an image checked by its content and serves it to its owner only', async () => {
    const res = await upload(demo, PNG);
    expect(res.statusCode).toBe(200);
    const { url, type } = res.json().data;
    expect(type).toBe('image/png');
    expect(url).toMatch(/^\/accounts\/invoice\/pic\/[0-9a-f]{32}$/);
    const got = await demo.get(url);
    expect(got.headers['content-type']).toBe('image/png');
    expect(got.rawPayload.equals(PNG)).toBe(true);
    expect((await other.get(url)).json().error_code).toBe(22411);
  });

  it('refuses a file that is not an image whatever its name, and one over 5 MB', async () => {
    expect((await upload(demo, Buffer.from('<?php echo 1; ?>'), 'id.png')).json()).toMatchObject({ error_code: 21123, message: '仅支持 .jpg .jpeg .bmp .gif .png 格式' });
    const big = Buffer.concat([PNG, Buffer.alloc(5242880 - PNG.length + 1)]);
    expect((await upload(demo, big)).json()).toMatchObject({ error_code: 21124, message: '照片大小不超过5M' });
    const exact = Buffer.concat([PNG, Buffer.alloc(5242880 - PNG.length)]);
    expect((await upload(demo, exact)).statusCode).toBe(200);
    expect((await demo.post('/accounts/invoice/pic/', {})).json().error_code).toBe(22403);
  });
});

describe('invoices', () => {
  const info = { type: 'NORMAL', title: '示例科技有限公司', tax_no: '91310000MA1FL0XX1A' };
  const address = { recipient: '张三', mobile: '13800138000', address: '上海市浦东新区示例路 1 号' };

  it('keeps titles and addresses with the declarations\' messages', async () => {
    expect((await demo.put('/api/account/invoice/info', { type: 'SPECIAL', title: '', tax_no: 'abc' })).json().errors).toEqual(
      expect.arrayContaining([
        { path: '/title', message: '请填写发票抬头' },
        { path: '/tax_no', message: '请填写正确的纳税人识别号（15、18 或 20 位数字或大写字母）' },
      ]),
    );
    const id = (await demo.put('/api/account/invoice/info', info)).json().data.info_id;
    expect((await demo.post('/api/account/invoice/info', { ...info, info_id: id, title: '示例云计算有限公司' })).json().result).toBe(true);
    expect((await demo.get('/api/account/invoice/info')).json().data.infos).toEqual([{ ...info, title: '示例云计算有限公司', info_id: id }]);
    expect((await other.post('/api/account/invoice/info', { ...info, info_id: id })).json().error_code).toBe(22304);
    expect((await demo.put('/api/account/invoice/address', { ...address, mobile: '123' })).json().errors).toEqual([{ path: '/mobile', message: '请填写正确的手机号' }]);
    const aid = (await demo.put('/api/account/invoice/address', address)).json().data.address_id;
    expect((await demo.get('/api/account/invoice/address')).json().data.addresses).toEqual([{ ...address, address_id: aid }]);
    expect((await del(other, '/api/account/invoice/address', { address_id: aid })).json().error_code).toBe(22305);
  });

  it('keeps the 一般纳税人资格证明 of a special invoice title: a picture this account uploaded', async () => {
    const special = { type: 'SPECIAL', title: '示例科技有限公司', tax_no: '91310000MA1FL0XX1A', bank: '招商银行上海分行', bank_account: '121909876510001', reg_address: '上海市浦东新区示例路 1 号', reg_phone: '021-12345678' };
    const url = (await upload(demo, PNG, 'cert.png')).json().data.url;
    expect((await demo.put('/api/account/invoice/info', { ...special, qualification_pic: 'https://example.com/a.png' })).json().errors).toEqual([{ path: '/qualification_pic', message: '请重新上传一般纳税人资格证明' }]);
    // another account's picture, or one that does not exist
    expect((await other.put('/api/account/invoice/info', { ...special, qualification_pic: url })).json()).toMatchObject({ error_code: 22411, errors: [{ path: '/qualification_pic', message: '照片不存在，请重新上传' }] });
    expect((await demo.put('/api/account/invoice/info', { ...special, qualification_pic: '/accounts/invoice/pic/0123456789abcdef0123456789abcdef' })).json().error_code).toBe(22411);
    const id = (await demo.put('/api/account/invoice/info', { ...special, qualification_pic: url })).json().data.info_id;
    expect((await demo.get('/api/account/invoice/info')).json().data.infos.find((i: { info_id: number }) => i.info_id === id)).toMatchObject({ qualification_pic: url });
    expect((await demo.post('/api/account/invoice/info', { ...special, info_id: id, qualification_pic: '/accounts/invoice/pic/0123456789abcdef0123456789abcdef' })).json().error_code).toBe(22411);
    expect((await demo.post('/api/account/invoice/info', { ...special, info_id: id, qualification_pic: '' })).json().result).toBe(true);
    expect((await del(demo, '/api/account/invoice/info', { info_id: id })).json().result).toBe(true);
  });

  it('keeps at most 10 titles', async () => {
    const n = (await other.get('/api/account/invoice/info')).json().data.infos.length;
    for (let i = n; i < 10; i++) expect((await other.put('/api/account/invoice/info', info)).statusCode).toBe(200);
    expect((await other.put('/api/account/invoice/info', info)).json().error_code).toBe(22306);
  });

  it('invoices at most the cash received, freezes it while waiting, deletes only what is not issued', async () => {
    const infoId = (await demo.get('/api/account/invoice/info')).json().data.infos[0].info_id;
    const addressId = (await demo.get('/api/account/invoice/address')).json().data.addresses[0].address_id;
    const consume = (await demo.get('/api/account/invoice/consume/')).json().data;
    // two seeded recharges of 500, the 5000 paid above (the gift is not invoiced), nothing invoiced yet
    expect(consume).toEqual({ total: 6000, freeze: 0, invoiced: 0, available: 6000 });
    const over = (await demo.put('/api/account/invoice', { amount: 6000.01, info_id: infoId, address_id: addressId })).json();
    expect(over).toMatchObject({ error_code: 22301, errors: [{ path: '/amount', message: '最多可开票 6000.00 元' }] });
    expect((await demo.put('/api/account/invoice', { amount: 0, info_id: infoId, address_id: addressId })).json().errors).toEqual([{ path: '/amount', message: '开票金额须大于 0' }]);
    expect((await demo.put('/api/account/invoice', { amount: 10, info_id: 999999, address_id: addressId })).json().error_code).toBe(22304);
    expect((await demo.put('/api/account/invoice', { amount: 10.005, info_id: infoId, address_id: addressId })).json()).toMatchObject({ error_code: 20001, errors: [{ path: '/amount', message: '请填写大于 0 的开票金额，最多两位小数' }] });
    const id = (await demo.put('/api/account/invoice', { amount: 1000, info_id: infoId, address_id: addressId, remark: '请尽快开具' })).json().data.invoice_id;
    expect((await demo.get('/api/account/invoice/consume/')).json().data).toEqual({ total: 6000, freeze: 1000, invoiced: 0, available: 5000 });
    const list = (await demo.get('/api/account/invoices')).json();
    expect(list.pager.total).toBe(1);
    expect(list.data.invoices[0]).toMatchObject({ invoice_id: id, amount: 1000, status: 'INIT', info: { title: '示例云计算有限公司' } });
    expect((await demo.get(`/api/account/invoice?invoice_id=${id}`)).json().data.remark).toBe('请尽快开具');
    expect((await other.get(`/api/account/invoice?invoice_id=${id}`)).json().error_code).toBe(22303);
    // issued invoices stay
    await s.db.updateTable('invoices').set({ status: 'DONE' }).where('id', '=', id).execute();
    expect((await demo.get('/api/account/invoice/consume/')).json().data).toEqual({ total: 6000, freeze: 0, invoiced: 1000, available: 5000 });
    expect((await del(demo, '/api/account/invoice', { invoice_id: id })).json().error_code).toBe(22302);
    const id2 = (await demo.put('/api/account/invoice', { amount: 5, info_id: infoId, address_id: addressId })).json().data.invoice_id;
    expect((await del(demo, '/api/account/invoice', { invoice_id: id2 })).json().result).toBe(true);
    expect((await demo.get(`/api/account/invoice?invoice_id=${id2}`)).json().error_code).toBe(22303);
  });
});

describe('rebates and payees', () => {
  let front = '';
  let back = '';
  const payee = () => ({ receive_type: 'ALIPAY', name: '李四', open_account: 'pay.li@example.com', id_code: '11010519491231002x', id_front_pic: front, id_reverse_pic: back });

  beforeAll(async () => {
    front = (await upload(demo, PNG)).json().data.url;
    back = (await upload(demo, PNG)).json().data.url;
  });

  it('lists the seeded records with the amounts, newest first, in pages of 20', async () => {
    const res = (await demo.get('/api/account/rebate')).json();
    expect(res.data.amounts).toEqual({ total: 318.5, freeze: 40, available: 278.5 });
    expect(res.data.rebates.map((r: { status: string }) => r.status)).toEqual(['INIT', 'CANCEL', 'DONE']);
    expect(res.data.rebates[1]).toMatchObject({ draw_type: 'WITHDRAWAL', receive_type: 'ALIPAY', reason: '收款人姓名与实名认证信息不一致', sum: 30 });
    expect(res.pager).toEqual({ total: 3, page: 1, size: 20 });
    const now = Math.floor(Date.now() / 1000);
    const recent = (await demo.get(`/api/account/rebate?start_time=${now - 10 * 86400}&end_time=${now + 86400}`)).json();
    expect(recent.data.rebates.map((r: { sum: number }) => r.sum)).toEqual([40]);
    expect(await rebateTotals(s.db, demoId)).toEqual({ total: 318.5, freeze: 40, available: 278.5 });
  });

  it('refuses an amount missing, under 20 or over the withdrawable amount', async () => {
    expect((await demo.put('/api/account/rebate', { draw_type: 'TICKET' })).json().errors).toEqual([{ path: '/sum', message: '请填写提现金额' }]);
    expect((await demo.put('/api/account/rebate', { sum: 19.99, draw_type: 'TICKET' })).json().errors).toEqual([{ path: '/sum', message: '单笔申请，金额 20 元起提交' }]);
    expect((await demo.put('/api/account/rebate', { sum: 278.51, draw_type: 'TICKET' })).json()).toMatchObject({ error_code: 20001, errors: [{ path: '/sum', message: '最大提现金额为 278.50' }] });
    expect((await demo.put('/api/account/rebate', { sum: 30, draw_type: 'WITHDRAWAL' })).json().errors).toEqual([{ path: '/rebate_info_id', message: '请选择收款信息' }]);
  });

  it('turns a rebate into a voucher valid one year at once, which cannot be deleted', async () => {
    const res = (await demo.put('/api/account/rebate', { sum: 20, draw_type: 'TICKET' })).json();
    expect(res.data.amounts).toEqual({ total: 298.5, freeze: 40, available: 258.5 });
    const row = await s.db.selectFrom('rebates').selectAll().where('id', '=', res.data.rebate_id).executeTakeFirstOrThrow();
    expect(row.status).toBe('DONE');
    const v = await s.db.selectFrom('vouchers').selectAll().where('id', '=', row.voucher_id!).executeTakeFirstOrThrow();
    expect(Number(v.value)).toBe(20);
    expect(v.account_id).toBe(demoId);
    // one calendar year: the same day next year (365 or 366 days)
    const nextYear = new Date();
    nextYear.setUTCFullYear(nextYear.getUTCFullYear() + 1);
    expect(Math.abs(new Date(v.expired_at!).getTime() - nextYear.getTime())).toBeLessThan(0.1 * 86_400_000);
    expect((await del(demo, '/api/account/rebate', { rebate_id: row.id })).json()).toMatchObject({ error_code: 22405, message: '已完成的返利申请不能删除' });
  });

  it('keeps payees with every rule of the declaration', async () => {
    const bad = (await demo.put('/api/account/rebate/info', { receive_type: 'BANK_CARD', name: '李', open_account: '0123456789012345', id_code: '123', id_front_pic: '', id_reverse_pic: back })).json();
    expect(bad.errors).toEqual(
      expect.arrayContaining([
        { path: '/name', message: '姓名长度限制 2 ~ 20 位字符' },
        { path: '/open_account', message: '请填写正确格式的银行卡号' },
        { path: '/id_code', message: '请填写 18 位二代身份证' },
        { path: '/id_front_pic', message: '请上传正面身份证照片' },
      ]),
    );
    expect((await demo.put('/api/account/rebate/info', { ...payee(), open_account: 'not-an-account' })).json().errors).toEqual([{ path: '/open_account', message: '请填写正确格式的支付宝账号(邮箱地址或者手机号)' }]);
    // a picture of another account
    const foreign = (await upload(other, PNG)).json().data.url;
    expect((await demo.put('/api/account/rebate/info', { ...payee(), id_front_pic: foreign })).json()).toMatchObject({ error_code: 22411, errors: [{ path: '/id_front_pic', message: '照片不存在，请重新上传' }] });
    const id = (await demo.put('/api/account/rebate/info', { ...payee(), default: true })).json().data.rebate_info_id;
    const list = (await demo.get('/api/account/rebate/info')).json().data;
    expect(list.max).toBe(6);
    expect(list.rebate_infos.filter((p: { default: boolean }) => p.default).map((p: { rebate_info_id: number }) => p.rebate_info_id)).toEqual([id]);
    expect(list.rebate_infos.find((p: { rebate_info_id: number }) => p.rebate_info_id === id)).toMatchObject({ id_code: '11010519491231002X', open_account: 'pay.li@example.com' });
    // editing keeps the method
    expect((await demo.post('/api/account/rebate/info', { ...payee(), rebate_info_id: id, receive_type: 'BANK_CARD', open_account: '6222020200112233' })).json()).toMatchObject({
      error_code: 22410,
      errors: [{ path: '/receive_type', message: '编辑收款信息时不能切换收款方式' }],
    });
    expect((await demo.post('/api/account/rebate/info', { ...payee(), rebate_info_id: id, name: '李四五' })).json().result).toBe(true);
    expect((await other.post('/api/account/rebate/info', { ...payee(), rebate_info_id: id })).json().error_code).toBe(22407);
  });

  it('keeps at most 6 payees', async () => {
    const n = (await demo.get('/api/account/rebate/info')).json().data.rebate_infos.length;
    for (let i = n; i < 6; i++) expect((await demo.put('/api/account/rebate/info', payee())).statusCode).toBe(200);
    expect((await demo.put('/api/account/rebate/info', payee())).json()).toMatchObject({ error_code: 22406, message: '收款信息最多保存 6 个' });
    const last = (await demo.get('/api/account/rebate/info')).json().data.rebate_infos.at(-1).rebate_info_id;
    expect((await del(demo, '/api/account/rebate/info', { rebate_info_id: last })).json().result).toBe(true);
    expect((await del(demo, '/api/account/rebate/info', { rebate_info_id: last })).json().error_code).toBe(22407);
  });

  it('sends a withdrawal for review with the payee copied; the platform approves or cancels it', async () => {
    const infos = (await demo.get('/api/account/rebate/info')).json().data.rebate_infos;
    const pid = infos.find((p: { name: string }) => p.name === '李四五').rebate_info_id;
    const a = (await demo.put('/api/account/rebate', { sum: 25, draw_type: 'WITHDRAWAL', rebate_info_id: pid })).json();
    expect(a.data.amounts).toEqual({ total: 298.5, freeze: 65, available: 233.5 });
    const b = (await demo.put('/api/account/rebate', { sum: 21, draw_type: 'WITHDRAWAL', rebate_info_id: pid })).json();
    const list = (await demo.get('/api/account/rebate')).json().data.rebates;
    expect(list[0]).toMatchObject({ rebate_id: b.data.rebate_id, status: 'INIT', receive_type: 'ALIPAY', name: '李四五', open_account: 'pay.li@example.com', update_at: null });
    // approve through the platform command
    const cmd = PLATFORM_COMMANDS.find((c) => c.name === 'rebate-review')!;
    expect(await cmd.run(s.db, { id: String(a.data.rebate_id), approve: 'true' })).toEqual({ rebate_id: a.data.rebate_id, status: 'DONE' });
    await expect(cmd.run(s.db, { id: String(a.data.rebate_id), cancel: 'true', reason: 'x' })).rejects.toThrow('已处理');
    await expect(cmd.run(s.db, { id: String(b.data.rebate_id), cancel: 'true' })).rejects.toThrow('缺少参数 --reason');
    await reviewRebate(s.db, b.data.rebate_id, { approve: false, reason: '收款账号有误' });
    const after = (await demo.get('/api/account/rebate')).json().data;
    expect(after.amounts).toEqual({ total: 273.5, freeze: 40, available: 233.5 });
    expect(after.rebates.find((r: { rebate_id: number }) => r.rebate_id === b.data.rebate_id)).toMatchObject({ status: 'CANCEL', reason: '收款账号有误', update_at: expect.any(Number) });
    const msgs = await s.db.selectFrom('messages').select(['title']).where('account_id', '=', demoId).orderBy('id', 'desc').limit(2).execute();
    expect(msgs.map((m) => m.title)).toEqual(['返利提现申请已取消', '返利提现已完成']);
    // a cancelled one may be deleted, a done one not; another account's is not found
    expect((await del(other, '/api/account/rebate', { rebate_id: b.data.rebate_id })).json().error_code).toBe(22404);
    expect((await del(demo, '/api/account/rebate', { rebate_id: b.data.rebate_id })).json().result).toBe(true);
    expect((await del(demo, '/api/account/rebate', { rebate_id: a.data.rebate_id })).json().error_code).toBe(22405);
  });

  it('credits a rebate through the platform command', async () => {
    const cmd = PLATFORM_COMMANDS.find((c) => c.name === 'rebate-credit')!;
    const before = await rebateTotals(s.db, demoId);
    await cmd.run(s.db, { account: 'demo', amount: '12.5' });
    expect((await rebateTotals(s.db, demoId)).total).toBeCloseTo(before.total + 12.5, 2);
  });
});
