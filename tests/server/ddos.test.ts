/** DDoS 高防 IP: ordering and paying with the balance, instances, rules and their codes, attacks and flows. */
import { startTestServer, Client, type TestServer } from './helpers';
import { ddosPrice, packageOf } from '../../src/shared/ddos';
import { setBalance } from '../../src/server/billing/ledger/ledger';

let s: TestServer;
let c: Client;
let demoId: number;
let instanceId: number;
beforeAll(async () => {
  s = await startTestServer();
  c = await new Client(s.app).signIn('demo');
  demoId = (await s.db.selectFrom('users').select('id').where('username', '=', 'demo').executeTakeFirstOrThrow()).id;
  instanceId = (await c.get('/api/ddos/instance')).json().data[0].id;
});
afterAll(async () => {
  await s.close();
});

const del = (url: string, payload: object) => c.request({ method: 'DELETE', url, payload });
const money = async (id = demoId) => Number((await s.db.selectFrom('users').select('money').where('id', '=', id).executeTakeFirstOrThrow()).money);
const WEBSITE = { ip: '103.211.40.10', domain: 'shop.demo-example.com', protocols: ['http', 'https'], origins: ['198.51.100.30'], cc_level: 'normal', status: 'on' };

describe('the demo instance', () => {
  it('lists the seeded instance, its IPs and the nodes', async () => {
    const inst = (await c.get('/api/ddos/instance')).json();
    expect(inst.data).toEqual([expect.objectContaining({ id: instanceId, package: 'standard', package_name: '标准版', protect_gbps: 50, status: 'normal', ip_count: 2 })]);
    const ips = (await c.get(`/api/ddos/ip?instance_id=${instanceId}`)).json();
    expect(ips.data.map((i: { ip: string; node_name: string }) => [i.ip, i.node_name])).toEqual([['103.211.40.10', '华东-杭州 BGP'], ['103.211.41.10', '华南-广州 BGP']]);
    const nodes = (await c.get('/api/ddos/node/list')).json();
    expect(nodes.data[0]).toEqual({ id: 1, name: '华东-杭州 BGP' });
  });

  it('answers 24001 for an instance of no one, and 24018 for an account without DDoS (read as empty)', async () => {
    expect((await c.get('/api/ddos/ip?instance_id=999999')).json()).toMatchObject({ result: false, error_code: 24001 });
    // demonew: a main account without an instance
    const none = await new Client(s.app).signIn('demonew');
    for (const url of ['/api/ddos/instance', '/api/ddos/ip', '/api/ddos/l7', '/api/ddos/l4', '/api/ddos/attack/list', '/api/ddos/attack/statistics', '/api/ddos/stat/flow?type=1']) {
      const res = await none.get(url);
      expect([url, res.statusCode, res.json().error_code]).toEqual([url, 404, 24018]);
    }
  });

  it('refuses sub-accounts: the pages are for main accounts', async () => {
    const ops = await new Client(s.app).signIn('demo_ops');
    expect((await ops.get('/api/ddos/instance')).json().error_code).toBe(21111);
  });
});

describe('ordering and paying with the balance', () => {
  it('prices an order: package × nodes × months with the duration discount', async () => {
    const res = (await c.post('/api/ddos/calculate', { package: 'basic', nodes: [1, 2], months: 12 })).json();
    expect(res.data).toMatchObject({ package_name: '基础版', original_price: '47520.00', price: '39600.00', nodesId2Name: { 1: '华东-杭州 BGP', 2: '华南-广州 BGP' } });
    expect(ddosPrice(packageOf('basic')!, 1, 6).price).toBe(11286);
    const bad = (await c.post('/api/ddos/calculate', { package: 'gold', nodes: [], months: 2 })).json();
    expect(bad.errors).toEqual(
      expect.arrayContaining([
        { path: '/package', message: '请选择套餐' },
        { path: '/nodes', message: '请至少选择一个防护节点' },
        { path: '/months', message: '购买时长只能是 1、3、6 或 12 个月' },
      ]),
    );
  });

  it('refuses to pay beyond the balance with 22201, the amount to top up and the link; nothing changes', async () => {
    const order = (await c.post('/api/ddos/order', { package: 'basic', nodes: [3], months: 1 })).json().data;
    expect(order).toMatchObject({ status: 'unpaid', price: '1980.00' });
    await setBalance(s.db, demoId, 1000.5);
    const res = await c.post('/api/ddos/order/pay', { order_id: order.order_id });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error_code: 22201, message: '账户余额不足，请先充值', data: { price: '1980.00', balance: '1000.50', need: '979.50', link: '/billing/charge/' } });
    expect(await money()).toBe(1000.5);
    expect((await c.get('/api/ddos/instance')).json().data).toHaveLength(1);
  });

  it('pays: deducts the balance, opens an instance with one IP per node, tells the account; a second payment is refused', async () => {
    await setBalance(s.db, demoId, 5000);
    const order = (await c.post('/api/ddos/order', { package: 'basic', nodes: [3, 4], months: 1 })).json().data;
    const paid = (await c.post('/api/ddos/order/pay', { order_id: order.order_id })).json();
    expect(paid.data).toMatchObject({ price: '3960.00', balance: '1040.00' });
    expect(await money()).toBe(1040);
    const ips = (await c.get(`/api/ddos/ip?instance_id=${paid.data.instance_id}`)).json().data;
    expect(ips.map((i: { ip: string }) => i.ip)).toEqual(['103.211.42.10', '103.211.43.10']);
    const msg = await s.db.selectFrom('messages').selectAll().where('account_id', '=', demoId).where('title', '=', 'DDoS 高防 IP 已开通').executeTakeFirst();
    expect(msg?.link).toBe('/services/ddos/instance/');
    expect((await c.post('/api/ddos/order/pay', { order_id: order.order_id })).json().error_code).toBe(24010);
    expect((await c.post('/api/ddos/order/pay', { order_id: 999999 })).json().error_code).toBe(24009);
    const orders = (await c.get('/api/ddos/order')).json().data;
    expect(orders[0]).toMatchObject({ id: order.order_id, status: 'paid', instance_id: paid.data.instance_id });
  });
});

describe('website rules (L7)', () => {
  it('creates, lists, changes, switches WAF and deletes a rule', async () => {
    const created = (await c.put('/api/ddos/l7', { instance_id: instanceId, ...WEBSITE })).json();
    expect(created.data).toMatchObject({ type: 'website', domain: 'shop.demo-example.com', waf: false, status: 'on' });
    const id = created.data.id;
    const list = (await c.get(`/api/ddos/l7?instance_id=${instanceId}&type=website`)).json();
    expect(list.data.map((r: { domain: string }) => r.domain)).toEqual(['www.demo-example.com', 'shop.demo-example.com']);
    expect(list.pager.total).toBe(2);
    const changed = (await c.post('/api/ddos/l7', { id, instance_id: instanceId, ...WEBSITE, cc_level: 'strict' })).json();
    expect(changed.data.cc_level).toBe('strict');
    const waf = (await c.post('/api/ddos/l7/waf', { id, waf: true, mode: 'observe' })).json();
    expect(waf.data).toMatchObject({ waf: true, waf_mode: 'observe' });
    expect((await del('/api/ddos/l7', { id })).json().data).toEqual({ id });
    expect((await del('/api/ddos/l7', { id })).json().error_code).toBe(24007);
    const log = await s.db.selectFrom('operation_logs').select('action').where('account_id', '=', demoId).where('action', 'like', 'ddos.%').execute();
    expect(log.map((l) => l.action)).toEqual(expect.arrayContaining(['ddos.l7.create', 'ddos.l7.update', 'ddos.waf', 'ddos.l7.delete']));
  });

  it('refuses a duplicate domain (24003), an IP of another instance (24002), an unknown instance (24001) and the declaration messages', async () => {
    expect((await c.put('/api/ddos/l7', { instance_id: instanceId, ...WEBSITE, domain: 'www.demo-example.com' })).json()).toMatchObject({
      error_code: 24003,
      errors: [{ path: '/domain', message: 'www.demo-example.com 已添加到此高防实例' }],
    });
    expect((await c.put('/api/ddos/l7', { instance_id: instanceId, ...WEBSITE, ip: '103.211.42.10' })).json().error_code).toBe(24002);
    expect((await c.put('/api/ddos/l7', { instance_id: 999999, ...WEBSITE })).json().error_code).toBe(24001);
    const bad = (await c.put('/api/ddos/l7', { instance_id: instanceId, ...WEBSITE, domain: 'http://x', origins: [] })).json();
    expect(bad).toMatchObject({ error_code: 20001 });
    expect(bad.errors).toEqual(
      expect.arrayContaining([
        { path: '/domain', message: '请填写正确的域名，如 www.example.com，支持 *.example.com' },
        { path: '/origins', message: '请填写源站地址' },
      ]),
    );
    expect((await c.put('/api/ddos/l7', { id: 5, instance_id: instanceId, ...WEBSITE })).json().errors).toEqual([{ path: '/id', message: '新建规则时不能指定规则编号' }]);
  });

  it('refuses the WAF on a non-website rule (24011) and beyond the package limit (24004)', async () => {
    const nonWebsite = (await c.get(`/api/ddos/l7?instance_id=${instanceId}&type=non_website`)).json().data[0];
    expect((await c.post('/api/ddos/l7/waf', { id: nonWebsite.id, waf: true })).json().error_code).toBe(24011);
    const limit = packageOf('standard')!.max_websites;
    await s.db
      .insertInto('ddos_l7_rules')
      .values(Array.from({ length: limit - 1 }, (_, i) => ({ instance_id: instanceId, type: 'website', ip: WEBSITE.ip, domain: `fill${i}.demo-example.com`, protocols: '["http"]', origins: '["1.1.1.1"]', cc_level: 'normal' })))
      .execute();
    const res = (await c.put('/api/ddos/l7', { instance_id: instanceId, ...WEBSITE, domain: 'one-more.demo-example.com' })).json();
    expect(res).toMatchObject({ error_code: 24004, data: { limit } });
    await s.db.deleteFrom('ddos_l7_rules').where('domain', 'like', 'fill%').execute();
  });

  it('refuses changes on an expired instance (24008)', async () => {
    const order = await s.db.selectFrom('ddos_instances').select('id').where('account_id', '=', demoId).orderBy('id', 'desc').executeTakeFirstOrThrow();
    await s.db.updateTable('ddos_instances').set({ end_time: new Date(Date.now() - 1000) }).where('id', '=', order.id).execute();
    expect((await c.put('/api/ddos/l7', { instance_id: order.id, ...WEBSITE, ip: '103.211.42.10' })).json().error_code).toBe(24008);
    expect((await c.get('/api/ddos/instance')).json().data.find((i: { id: number }) => i.id === order.id).status).toBe('expired');
  });

  it('locks key customers out of changes (21210)', async () => {
    await s.db.updateTable('users').set({ custom_prohibit_configuration: true }).where('id', '=', demoId).execute();
    try {
      const locked = await new Client(s.app).signIn('demo');
      expect((await locked.put('/api/ddos/l7', { instance_id: instanceId, ...WEBSITE })).json().error_code).toBe(21210);
    } finally {
      await s.db.updateTable('users').set({ custom_prohibit_configuration: false }).where('id', '=', demoId).execute();
    }
  });
});

describe('non-website rules', () => {
  const RULE = { ip: '103.211.41.10', protocol: 'udp', port: 7000, origin_port: 7001, origins: ['198.51.100.40'], status: 'on' };
  it('creates and changes a forwarding rule; TCP and UDP may share a port, the same protocol may not (24006)', async () => {
    const created = (await c.put('/api/ddos/l7/non_website', { instance_id: instanceId, ...RULE })).json();
    expect(created.data).toMatchObject({ type: 'non_website', protocols: ['udp'], port: 7000, origin_port: 7001 });
    const dup = (await c.put('/api/ddos/l7/non_website', { instance_id: instanceId, ...RULE, protocol: 'tcp' })).json();
    expect(dup).toMatchObject({ error_code: 24006, errors: [{ path: '/port', message: '103.211.41.10 的 TCP 7000 端口已被其他转发规则使用' }] });
    const changed = (await c.put('/api/ddos/l7/non_website', { id: created.data.id, instance_id: instanceId, ...RULE, status: 'off' })).json();
    expect(changed.data).toMatchObject({ id: created.data.id, status: 'off' });
    const bad = (await c.put('/api/ddos/l7/non_website', { instance_id: instanceId, ...RULE, port: 70000 })).json();
    expect(bad.errors).toEqual([{ path: '/port', message: '端口为 1 - 65535' }]);
  });

  it('stops at the package\'s number of non-website rules (24005)', async () => {
    const limit = packageOf('standard')!.max_ports;
    const have = (await c.get(`/api/ddos/l7?instance_id=${instanceId}&type=non_website`)).json().pager.total;
    await s.db
      .insertInto('ddos_l7_rules')
      .values(Array.from({ length: limit - have }, (_, i) => ({ instance_id: instanceId, type: 'non_website', ip: RULE.ip, domain: null, protocols: '["tcp"]', port: 20000 + i, origin_port: 80, origins: '["1.1.1.1"]', cc_level: null })))
      .execute();
    const res = (await c.put('/api/ddos/l7/non_website', { instance_id: instanceId, ...RULE, port: 30000 })).json();
    expect(res).toMatchObject({ error_code: 24005, data: { limit } });
    // changing an existing rule is still possible at the limit
    const one = (await c.get(`/api/ddos/l7?instance_id=${instanceId}&type=non_website&limit=1`)).json().data[0];
    expect((await c.put('/api/ddos/l7/non_website', { id: one.id, instance_id: instanceId, ip: one.ip, protocol: one.protocols[0], port: one.port, origin_port: one.origin_port, origins: one.origins, status: 'off' })).json().result).toBe(true);
    await s.db.deleteFrom('ddos_l7_rules').where('port', '>=', 20000).execute();
  });
});

describe('L4 policies', () => {
  it('creates, lists, changes and deletes; one policy of a type per IP (24013)', async () => {
    const created = (await c.put('/api/ddos/l4', { instance_id: instanceId, ip: '103.211.40.10', type: 'rate_limit', values: [], limit: 5000, status: 'on' })).json();
    expect(created.data).toMatchObject({ type: 'rate_limit', limit: 5000 });
    const dup = (await c.put('/api/ddos/l4', { instance_id: instanceId, ip: '103.211.40.10', type: 'blacklist', values: ['1.2.3.4'], status: 'on' })).json();
    expect(dup.error_code).toBe(24013);
    const list = (await c.get(`/api/ddos/l4?instance_id=${instanceId}&ip=103.211.40.10`)).json();
    expect(list.data.map((r: { type: string }) => r.type)).toEqual(['blacklist', 'rate_limit']);
    const changed = (await c.post('/api/ddos/l4', { id: created.data.id, instance_id: instanceId, ip: '103.211.40.10', type: 'rate_limit', values: ['1.2.3.0/24'], limit: 100, status: 'off' })).json();
    expect(changed.data).toMatchObject({ values: ['1.2.3.0/24'], limit: 100, status: 'off' });
    expect((await c.post('/api/ddos/l4', { instance_id: instanceId, ip: '103.211.40.10', type: 'rate_limit', values: [], limit: 1, status: 'on' })).json().errors).toEqual([{ path: '/id', message: '请指定要修改的策略' }]);
    const bad = (await c.put('/api/ddos/l4', { instance_id: instanceId, ip: '103.211.40.10', type: 'port_block', values: ['abc'], status: 'on' })).json();
    expect(bad.errors).toEqual([{ path: '/values/0', message: '请填写端口或端口范围，如 8080 或 1000-2000' }]);
    expect((await del('/api/ddos/l4', { id: created.data.id })).json().data).toEqual({ id: created.data.id });
  });
});

describe('attacks and flows', () => {
  it('counts the attacks of the last week with the peak in Gbps, and lists them newest first with cursors', async () => {
    const stats = (await c.get('/api/ddos/attack/statistics')).json().data;
    expect(stats.count).toBe(13);
    expect(stats.attacking).toBe(1);
    expect(stats.peak_gbps).toBe(Number((stats.peak_bps / 1e9).toFixed(2)));
    expect(stats.by_type.reduce((n: number, t: { count: number }) => n + t.count, 0)).toBe(13);
    const first = (await c.get('/api/ddos/attack/list?limit=5')).json();
    expect(first.data).toHaveLength(5);
    expect(first.data[0]).toMatchObject({ status: 'attacking', end_time: null });
    expect(first.pager.max).toBe(first.data[4].id);
    const next = (await c.get(`/api/ddos/attack/list?limit=5&max=${first.pager.max}`)).json();
    expect(next.data[0].id).toBeLessThan(first.data[4].id);
  });

  it('serves the four flow series as 5-minute points; refuses other types and bad periods (24012)', async () => {
    const end = Math.floor(Date.now() / 1000);
    for (const type of [1, 3, 4, 5]) {
      const res = (await c.get(`/api/ddos/stat/flow?type=${type}&start_time=${end - 86_400}&end_time=${end}`)).json();
      expect(res.data.points.length).toBeGreaterThanOrEqual(287);
      expect(res.data.points[1].time - res.data.points[0].time).toBe(300);
      expect(res.data.peak).toBe(Math.max(...res.data.points.map((p: { value: number }) => p.value)));
    }
    const total = (await c.get('/api/ddos/stat/flow?type=1')).json().data;
    const attack = (await c.get('/api/ddos/stat/flow?type=3')).json().data;
    expect(total.peak).toBeGreaterThanOrEqual(attack.peak);
    expect(total.peak_gbps).toBe(Number((total.peak / 1e9).toFixed(2)));
    expect((await c.get('/api/ddos/stat/flow?type=2')).json().errors).toEqual([{ path: '/type', message: '类型只能是 1、3、4 或 5' }]);
    expect((await c.get(`/api/ddos/stat/flow?type=1&start_time=${end}&end_time=${end - 60}`)).json().error_code).toBe(24012);
    expect((await c.get(`/api/ddos/stat/flow?type=1&start_time=${end - 40 * 86_400}&end_time=${end}`)).json().error_code).toBe(24012);
  });
});
