/**
 * Paid certificates through the sandbox CA: products and prices, create, pay from the balance with the
 * SMS code (22201 when short), apply with the CA message, verify message, the job moving the order to
 * issued (a certificate signed by the local test CA), deploy to the CDN, re-issue, failure and reapply,
 * cancel, delete, templates, CSR parsing.
 */
import { X509Certificate } from 'node:crypto';
import * as acme from 'acme-client';
import { Client, startTestServer, type TestServer } from './helpers';
import { runOrderJobs, sandboxCa } from '../../src/server/certificates/ca';
import { setBalance } from '../../src/server/billing/ledger/ledger';

let s: TestServer;
let demo: Client;
const TEMPLATE = { name: '公司模板', organization: '演示科技有限公司', country: 'CN', province: '浙江', city: '杭州', address: '西湖区文三路 1 号', contact_name: '张三', contact_phone: '13800138000', contact_email: 'ops@demo-example.com' };

const age = () => s.db.updateTable('sms_outbox').set({ created_at: new Date(Date.now() - 120_000) }).execute();
async function payCode(c: Client): Promise<string> {
  await age();
  const sent = await c.post('/api/accounts/transaction/captcha', {});
  expect(sent.statusCode).toBe(200);
  const row = await s.db.selectFrom('sms_outbox').select('text').where('mobile', '=', '13800138000').where('purpose', '=', 'pay').orderBy('id', 'desc').executeTakeFirstOrThrow();
  return /(\d{6})/.exec(row.text)![1]!;
}
const money = async (username: string) => Number((await s.db.selectFrom('users').select('money').where('username', '=', username).executeTakeFirstOrThrow()).money);
const del = (c: Client, url: string) => c.request({ method: 'DELETE', url });

async function paidOrder(product_id: string, default_domain: number, general_domain: number) {
  const created = (await demo.post('/api/https/v2/certificate/order/', { product_id, years: 1, default_domain, general_domain })).json().data;
  const res = await demo.post('/api/https/v2/certificate/order/pay/', { order_id: created.order_id, code: await payCode(demo) });
  expect(res.json()).toMatchObject({ result: true, data: { status: 'paid' } });
  return created.order_id as number;
}

beforeAll(async () => {
  s = await startTestServer();
  demo = await new Client(s.app).signIn('demo');
  // enough balance for every order of this file
  await setBalance(s.db, (await s.db.selectFrom('users').select('id').where('username', '=', 'demo').executeTakeFirstOrThrow()).id, 100000);
}, 120_000);
afterAll(() => s.close());

describe('products and prices', () => {
  it('lists the catalogue with names and agents', async () => {
    const res = await demo.get('/api/https/trustasia/products/');
    const p = res.json().data.find((x: { product_id: string }) => x.product_id === 'symantec-ov-single');
    expect(p).toMatchObject({ brand_name: 'Symantec', level_name: 'OV', kind_name: '单域名', agent: 'racent', domain_type: 'single' });
  });

  it('calculates prices and refuses counts the kind does not take', async () => {
    let res = await demo.post('/api/https/v2/certificate/crm/calculate/', { product_id: 'trustasia-dv-mixed', years: 2, default_domain: 3, general_domain: 2 });
    expect(res.json().data.price).toBe((1898 + 2 * 299 + 1699) * 2);
    res = await demo.post('/api/https/v2/certificate/crm/calculate/', { product_id: 'trustasia-dv-single', years: 1, default_domain: 2, general_domain: 0 });
    expect(res.json().errors[0].message).toBe('域名数量与证书类型不符');
    res = await demo.post('/api/https/v2/certificate/crm/calculate/', { product_id: 'nope', years: 1, default_domain: 1, general_domain: 0 });
    expect(res.json()).toMatchObject({ error_code: 24604 });
  });
});

describe('an order walked to issuance in the sandbox', () => {
  let orderId = 0;

  it('creates an unpaid order; paying needs the SMS code and takes the price from the balance', async () => {
    const created = await demo.post('/api/https/v2/certificate/order/', { product_id: 'trustasia-dv-multiple', years: 1, default_domain: 3, general_domain: 0 });
    expect(created.json().data).toMatchObject({ status: 'unpaid', status_text: '待支付', price: 598 + 299, domain_type: 'multiple', certificate_agent: 'trustasia' });
    orderId = created.json().data.order_id;
    let res = await demo.post('/api/https/v2/certificate/order/pay/', { order_id: orderId });
    expect(res.json()).toMatchObject({ error_code: 22216 });
    const before = await money('demo');
    res = await demo.post('/api/https/v2/certificate/order/pay/', { order_id: orderId, code: await payCode(demo) });
    expect(res.json().data).toMatchObject({ status: 'paid', status_text: '待提交资料' });
    expect(await money('demo')).toBeCloseTo(before - 897, 2);
    const bo = await s.db.selectFrom('billing_orders').select(['kind', 'amount']).where('order_no', '=', res.json().data.order_no).executeTakeFirstOrThrow();
    expect(bo).toMatchObject({ kind: 'certificate' });
    expect(Number(bo.amount)).toBe(897);
    // paying twice is refused
    res = await demo.post('/api/https/v2/certificate/order/pay/', { order_id: orderId, code: '000000' });
    expect(res.json()).toMatchObject({ error_code: 24603 });
  });

  it('refuses the CA message when the domains break the rules, with error_message', async () => {
    let res = await demo.post('/api/https/trustasia/certificate/paid/apply/', { order_id: orderId, domains: ['www.demo-example.com', 'demo-example.com', 'static.demo-example.com'] });
    expect(res.json()).toMatchObject({ error_code: 24606, data: { error_message: ['申购域名填写重复'] } });
    res = await demo.post('/api/https/trustasia/certificate/paid/apply/', { order_id: orderId, domains: ['a.demo-example.com', 'b.demo-example.com', 'c.demo-example.com', 'd.demo-example.com', 'e.demo-example.com', 'f.demo-example.com'] });
    expect(res.json().data.error_message).toEqual(['个数超出限制']);
    res = await demo.post('/api/https/trustasia/certificate/paid/apply/', { order_id: orderId, domains: ['a_b.demo-example.com'] });
    expect(res.json().errors).toEqual([{ path: '/domains/0', message: '域名不能包含下划线等特殊符号' }]);
    res = await demo.post('/api/https/racent/certificate/paid/apply/', { order_id: orderId, domains: ['www.demo-example.com', 'static.demo-example.com'] });
    expect(res.json()).toMatchObject({ error_code: 24604 });
    res = await demo.post('/api/https/trustasia/certificate/paid/apply/', { order_id: orderId, domains: ['www.demo-example.com', 'static.demo-example.com'], template_id: 999999 });
    expect(res.json()).toMatchObject({ error_code: 24605 });
  });

  it('applies, shows the DCV records, moves applying → verifying → issued', async () => {
    const t = (await demo.post('/api/https/certificate/template', TEMPLATE)).json().data;
    // trustasia multiple takes 2 to 5 plain domains when up to 5 were bought
    let res = await demo.post('/api/https/trustasia/certificate/paid/apply/', { order_id: orderId, domains: ['www.demo-example.com', 'static.demo-example.com'], template_id: t.template_id });
    expect(res.json().data).toMatchObject({ status: 'applying', status_text: '待验证' });
    res = await demo.get(`/api/https/v2/certificate/paid/apply_message/?order_id=${orderId}`);
    expect(res.json().data).toMatchObject({ ca_message: { main_domain: 'www.demo-example.com', multiple_domain: 'static.demo-example.com', add_domains: '' }, template: { name: '公司模板', organization: '演示科技有限公司' } });
    res = await demo.get(`/api/https/trustasia/certificate/paid/verify_message/?order_id=${orderId}`);
    const dcv = res.json().data.dcv;
    expect(dcv).toHaveLength(2);
    expect(dcv[0]).toMatchObject({ domain: 'www.demo-example.com', type: 'TXT', host: '_dnsauth.www.demo-example.com' });
    expect(await runOrderJobs(s.db)).toBeGreaterThanOrEqual(1);
    res = await demo.get(`/api/https/v2/certificate/order/?order_id=${orderId}`);
    expect(res.json().data).toMatchObject({ status: 'verifying', status_text: '审核中' });
    await runOrderJobs(s.db);
    res = await demo.get(`/api/https/v2/certificate/order/?order_id=${orderId}`);
    const issued = res.json().data;
    expect(issued).toMatchObject({ status: 'issued', status_text: '已签发' });
    const cert = (await demo.get(`/api/https/certificate/?certificate_id=${issued.certificate_id}`)).json().data;
    expect(cert.domains).toEqual(['www.demo-example.com', 'static.demo-example.com']);
    expect(cert.issuer).toBe('Sandbox CA');
    // signed by the sandbox's test CA
    const pem = (await demo.get(`/api/https/trustasia/certificate/download?order_id=${orderId}`)).body;
    const leaf = new X509Certificate(pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/)![0]);
    expect(leaf.verify(new X509Certificate((await sandboxCa(s.db)).certificate).publicKey)).toBe(true);
    expect(pem).toContain('-----BEGIN PRIVATE KEY-----');
    const msg = await s.db.selectFrom('messages').select(['title', 'link']).where('category', '=', 'certificate').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(msg).toEqual({ title: '证书已签发', link: `/toolbox/certificateDetail/?order_id=${orderId}` });
  });

  it('deploys to the CDN: every covered domain of the account gets HTTPS with it', async () => {
    const res = await demo.get(`/api/https/trustasia/certificate/deploy/?order_id=${orderId}`);
    expect(res.json().data.domains.sort()).toEqual(['static.demo-example.com', 'www.demo-example.com']);
    const cid = res.json().data.certificate_id;
    const www = (await demo.get('/api/https/services/manager?bucket_name=demo-www')).json().data.find((d: { domain: string }) => d.domain === 'www.demo-example.com');
    expect(www).toMatchObject({ https: true, certificate_id: cid });
  });

  it('re-issues with new domains as a new order (oldOrderId, reIssuedType)', async () => {
    let res = await demo.post('/api/https/v2/certificate/paid/replace', { order_id: orderId, domains: ['www.demo-example.com', 'www.demo-example.com'] });
    expect(res.json()).toMatchObject({ error_code: 24606, data: { error_message: ['申购域名填写重复'] } });
    res = await demo.post('/api/https/v2/certificate/paid/replace', { order_id: orderId, domains: ['*.demo-example.com', 'img.demo-example.com'] });
    expect(res.json().data.error_message).toEqual(['该订单不支持泛域名']);
    res = await demo.post('/api/https/trustasia/certificate/paid/replace', { order_id: orderId, domains: ['www.demo-example.com', 'img-www.demo-example.com', 'assets.demo-example.com'] });
    const again = res.json().data;
    expect(again).toMatchObject({ status: 'applying', oldOrderId: orderId, reIssuedType: 'replace', price: 0 });
    await runOrderJobs(s.db);
    await runOrderJobs(s.db);
    res = await demo.get(`/api/https/v2/certificate/order/?order_id=${again.order_id}`);
    expect(res.json().data.status).toBe('issued');
    // only an issued order is re-issued
    res = await demo.post('/api/https/v2/certificate/paid/replace', { order_id: (await paidOrder('trustasia-dv-single', 1, 0)), domains: ['www.demo-example.com'] });
    expect(res.json()).toMatchObject({ error_code: 24603 });
  });
});

describe('failure, reapply, cancel, delete', () => {
  it('a CA refusal fails the order; reapply sends it again', async () => {
    const id = await paidOrder('trustasia-dv-single', 1, 0);
    let res = await demo.post('/api/https/trustasia/certificate/paid/apply/', { order_id: id, domains: ['reject.demo-example.com'] });
    expect(res.json().data.status).toBe('applying');
    await runOrderJobs(s.db);
    res = await demo.get(`/api/https/racent/certificate/verify_message/?order_id=${id}`);
    expect(res.json().data).toMatchObject({ status: 'failed', status_text: '审核失败', error: '域名 reject.demo-example.com 验证失败：未找到 DNS 验证记录' });
    res = await demo.post('/api/https/v2/certificate/paid/reapply/', { order_id: id });
    expect(res.json().data).toMatchObject({ status: 'applying', error: null });
    res = await demo.post('/api/https/v2/certificate/paid/reapply/', { order_id: id });
    expect(res.json()).toMatchObject({ error_code: 24603 });
  });

  it('cancel applying goes back to paid; only unpaid, failed or issued orders are deleted', async () => {
    const id = await paidOrder('symantec-ov-single', 1, 0);
    let res = await demo.post('/api/https/racent/certificate/paid/apply/', { order_id: id, domains: ['www.demo-example.com'] });
    expect(res.json().data.status).toBe('applying');
    res = await del(demo, `/api/https/trustasia/delete/order/?order_id=${id}`);
    expect(res.json()).toMatchObject({ error_code: 24603 });
    res = await demo.get(`/api/https/v2/certificate/paid/cancel_apply/?order_id=${id}`);
    expect(res.json().data).toMatchObject({ status: 'paid', dcv: [] });
    const unpaid = (await demo.post('/api/https/v2/certificate/order/', { product_id: 'sslTrus-dv-single'.toLowerCase(), years: 1, default_domain: 1, general_domain: 0 })).json().data;
    res = await del(demo, `/api/https/trustasia/delete/order/?order_id=${unpaid.order_id}`);
    expect(res.json().result).toBe(true);
    res = await demo.get(`/api/https/v2/certificate/order/?order_id=${unpaid.order_id}`);
    expect(res.json()).toMatchObject({ error_code: 24602 });
  });

  it('another account sees none of it; a short balance is 22201', async () => {
    const list = (await demo.get('/api/https/v2/certificate/order/?limit=2')).json();
    expect(list.data).toHaveLength(2);
    const other = await new Client(s.app).signIn('demonew');
    let res = await other.get(`/api/https/v2/certificate/order/?order_id=${list.data[0].order_id}`);
    expect(res.json()).toMatchObject({ error_code: 24602 });
    // demo with an empty balance for a moment
    const before = await money('demo');
    const demoId = (await s.db.selectFrom('users').select('id').where('username', '=', 'demo').executeTakeFirstOrThrow()).id;
    await setBalance(s.db, demoId, 1, 0);
    try {
      const o = (await demo.post('/api/https/v2/certificate/order/', { product_id: 'digicert-ev-single', years: 1, default_domain: 1, general_domain: 0 })).json().data;
      res = await demo.post('/api/https/v2/certificate/order/pay/', { order_id: o.order_id, code: await payCode(demo) });
      expect(res.json()).toMatchObject({ error_code: 22201, data: { need: 11998 } });
      expect((await demo.get(`/api/https/v2/certificate/order/?order_id=${o.order_id}`)).json().data.status).toBe('unpaid');
    } finally {
      await setBalance(s.db, demoId, before);
    }
  });
});

describe('templates and CSR', () => {
  it('creates, lists, updates and deletes templates', async () => {
    let res = await demo.post('/api/https/certificate/template', { ...TEMPLATE, contact_phone: '123' });
    expect(res.json().errors).toEqual([{ path: '/contact_phone', message: '请填写正确的联系电话' }]);
    const t = (await demo.post('/api/https/certificate/template', { ...TEMPLATE, name: '第二个' })).json().data;
    res = await demo.put(`/api/https/certificate/template?template_id=${t.template_id}`, { ...TEMPLATE, name: '改名了', city: '宁波' });
    expect(res.json().data).toMatchObject({ name: '改名了', city: '宁波' });
    res = await demo.get('/api/https/certificate/template');
    expect(res.json().data.map((x: { name: string }) => x.name)).toContain('改名了');
    res = await del(demo, `/api/https/certificate/template?template_id=${t.template_id}`);
    expect(res.json().result).toBe(true);
    res = await del(demo, `/api/https/certificate/template?template_id=${t.template_id}`);
    expect(res.json()).toMatchObject({ error_code: 24605 });
  });

  it('parses a CSR', async () => {
    const [, csr] = await acme.crypto.createCsr({ commonName: 'www.demo-example.com', altNames: ['www.demo-example.com', 'shop.demo-example.com'] }, await acme.crypto.createPrivateEcdsaKey());
    let res = await demo.post('/api/https/trustasia/csr_parse/', { csr: csr.toString() });
    expect(res.json().data).toEqual({ common_name: 'www.demo-example.com', domains: ['www.demo-example.com', 'shop.demo-example.com'] });
    res = await demo.post('/api/https/trustasia/csr_parse/', { csr: 'nonsense' });
    expect(res.json().errors[0].message).toBe('CSR 解析失败，请检查内容');
  });
});
