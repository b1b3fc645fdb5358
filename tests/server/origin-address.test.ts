/**
 * Origins at this machine, a link-local or a metadata address are refused for customers' services
 * (20011, src/shared/origins.ts, the origin setting's guard); the operator's demo origin (DEMO_ORIGIN,
 * config.edge.demoOrigin) stays allowed at exactly its address and port, and the GET answer carries it
 * (vars.demo_origin) so that the console's dialog runs the same guard and agrees.
 */
import { startTestServer, Client, type TestServer } from './helpers';
import { configFromEnv } from '../../src/server/config';
import type { RuleContext } from '../../schemas/types';
import { isPrivateOriginAddress } from '../../src/shared/origins';

const DEMO = '127.0.0.1:18082';
/** The operator's allowance (EDGE_ALLOWED_ORIGINS): one address at one port, one at any port. */
const ALLOWED = '10.1.2.3:18080, 192.168.50.5';
let s: TestServer;
let c: Client;
beforeAll(async () => {
  s = await startTestServer({ config: { edge: { ...configFromEnv({}).edge, demoOrigin: DEMO, allowedOrigins: ALLOWED } } });
  c = await new Client(s.app).signIn('demo');
}, 180000);
afterAll(async () => {
  await s.close();
});

const failover = { enable: true, timeout: 10, max_fails: 3 };
const srv = (address: string, port = 80, backup = false) => ({ address, port, weight: 10, backup });
const save = (bucket: string, servers: object[]) => c.post('/api/settings/origin/', { bucket_name: bucket, protocol: 'http', host: '', servers, failover });

test.each(['127.0.0.1', '127.8.9.10', '127.1', '0177.0.0.1', '169.254.169.254', '169.254.0.23', '100.100.100.200', '0.0.0.0', 'localhost.localdomain', 'api.localhost', 'metadata.google.internal'])(
  'an origin at %s is refused with 20011 at its field',
  async (address) => {
    const res = await save('demo-www', [srv('1.2.3.4'), srv(address)]);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      error_code: 20011,
      message: '源站地址不能是本机、链路本地或元数据地址',
      errors: [{ path: '/servers/1/address', code: 20011, message: '源站地址不能是本机、链路本地或元数据地址' }],
    });
  },
);

test('nothing is stored when refused; public addresses and names are saved', async () => {
  const before = (await c.get('/api/settings/origin/?bucket_name=demo-static')).json().data;
  expect((await save('demo-static', [srv('127.0.0.1', 8080)])).statusCode).toBe(400);
  expect((await c.get('/api/settings/origin/?bucket_name=demo-static')).json().data).toEqual(before);
  const ok = await save('demo-static', [srv('203.0.113.7'), srv('198.51.100.8', 8080, true), srv('origin.example.com')]);
  expect(ok.statusCode).toBe(200);
});

test('the demo origin is allowed at exactly its address and port, also when the dialog is saved again', async () => {
  const res = await save('demo-www', [srv('127.0.0.1', 18082)]);
  expect(res.statusCode).toBe(200);
  // what the console loads and saves back unchanged
  const loaded = (await c.get('/api/settings/origin/?bucket_name=demo-www')).json();
  expect(loaded.vars).toEqual({ demo_origin: DEMO, edge_allowed_origins: ALLOWED });
  expect((await c.post('/api/settings/origin/', { bucket_name: 'demo-www', ...loaded.data })).statusCode).toBe(200);
  // another port of the same machine is not the demo origin
  expect((await save('demo-www', [srv('127.0.0.1', 18082), srv('127.0.0.1', 22, true)])).json()).toMatchObject({ error_code: 20011, errors: [{ path: '/servers/1/address' }] });
  expect((await save('demo-www', [srv('api.localhost', 18082)])).json()).toMatchObject({ error_code: 20011 });
  // a bare name is not a domain at all: the schema's own message, before any guard
  expect((await save('demo-www', [srv('localhost', 18082)])).json()).toMatchObject({ error_code: 20001, errors: [{ path: '/servers/0/address', message: '请填写正确的源站地址：IPv4 地址或域名，不带 http:// 和端口' }] });
});

test('the console runs the same guard with the vars of the GET answer: the same verdicts', async () => {
  const registry = s.registry;
  const loaded = (await c.get('/api/settings/origin/?bucket_name=demo-www')).json();
  const ctx = (vars?: Record<string, string>): RuleContext => ({ kind: 'cdn', bucketName: 'demo-www', read: async () => undefined, bucket: async () => null, vars });
  const value = (servers: object[]) => ({ protocol: 'http', host: '', servers, failover });
  const demo = await registry.validate('origin', value([srv('127.0.0.1', 18082)]), ctx(loaded.vars));
  expect(demo.ok).toBe(true);
  const local = await registry.validate('origin', value([srv('169.254.169.254')]), ctx(loaded.vars));
  expect(local).toMatchObject({ ok: false, errors: [{ path: '/servers/0/address', code: 20011, message: '源站地址不能是本机、链路本地或元数据地址' }] });
  // without the server's variable even the demo address is refused: the server alone decides what the operator's origin is
  expect((await registry.validate('origin', value([srv('127.0.0.1', 18082)]), ctx(undefined))).ok).toBe(false);
});

test('the DDoS forwarding rules refuse local origins with 20011 (website and non-website), and save public ones', async () => {
  const inst = (await c.get('/api/ddos/instance')).json().data[0];
  const website = { instance_id: inst.id, ip: '103.211.40.10', domain: 'local-origin.demo-example.com', protocols: ['http'], cc_level: 'normal', status: 'on' };
  const refused = await c.put('/api/ddos/l7', { ...website, origins: ['198.51.100.30', '169.254.169.254'] });
  expect(refused.statusCode).toBe(400);
  expect(refused.json()).toMatchObject({ error_code: 20011, message: '源站地址不能是本机、链路本地或元数据地址', errors: [{ path: '/origins/1', message: '源站地址不能是本机、链路本地或元数据地址' }] });
  expect((await c.put('/api/ddos/l7', { ...website, origins: ['localhost.localdomain'] })).json()).toMatchObject({ error_code: 20011 });
  const portRule = { instance_id: inst.id, ip: '103.211.40.10', protocol: 'tcp', port: 7100, origin_port: 7100, status: 'on' };
  expect((await c.put('/api/ddos/l7/non_website', { ...portRule, origins: ['127.0.0.1'] })).json()).toMatchObject({ error_code: 20011, errors: [{ path: '/origins/0' }] });
  const rules = (await c.get(`/api/ddos/l7?instance_id=${inst.id}&type=website`)).json().data;
  expect(rules.some((r: { domain: string }) => r.domain === 'local-origin.demo-example.com')).toBe(false);
  expect((await c.put('/api/ddos/l7', { ...website, origins: ['198.51.100.30'] })).statusCode).toBe(200);
  expect((await c.put('/api/ddos/l7/non_website', { ...portRule, origins: ['10.0.0.9'] })).statusCode).toBe(200);
});

// issue 34 item 12: the provider's own network is not an origin a customer may name
const PRIVATE = '源站地址不能是内网、运营商级 NAT、组播或保留地址，请填写公网地址或域名';
test.each(['10.255.255.53', '192.168.0.1', '172.16.0.1', '172.31.255.255', '100.64.0.1', '100.127.255.254', '224.0.0.1', '239.255.255.250', '240.0.0.1', '255.255.255.255', '198.18.0.1', '192.0.0.8', '012.1.2.3', '0xc0.0xa8.1.1'])(
  'an origin at %s is refused with 20012 at its field',
  async (address) => {
    const res = await save('demo-www', [srv('1.2.3.4'), srv(address, 18080)]);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error_code: 20012, message: PRIVATE, errors: [{ path: '/servers/1/address', code: 20012, message: PRIVATE }] });
  },
);

// the origin's schema admits no IPv6 literal; the rule refuses these wherever one can be written
test.each(['fd00::1', 'fc12:3456::1', 'ff02::1', 'fec0::1', '::ffff:10.0.0.1', '::ffff:192.168.1.1', '64:ff9b::a00:1', '64:ff9b::7f00:1'])('%s is a private or reserved IPv6 address', (a) => {
  expect(isPrivateOriginAddress(a)).toBe(true);
});
test.each(['2001:db8::1', '2400:3200::1', '::ffff:8.8.8.8', 'origin.example.com'])('%s is not', (a) => {
  expect(isPrivateOriginAddress(a)).toBe(false);
});

test('the operator\'s allowance (EDGE_ALLOWED_ORIGINS) and the demo origin are saved; the GET answer carries the allowance', async () => {
  expect((await save('demo-www', [srv('10.1.2.3', 18080), srv('192.168.50.5', 9000), srv('127.0.0.1', 18082)])).statusCode).toBe(200);
  expect((await save('demo-www', [srv('10.1.2.3', 18081)])).json().error_code).toBe(20012);
  expect((await c.get('/api/settings/origin/?bucket_name=demo-www')).json().vars).toMatchObject({ edge_allowed_origins: ALLOWED });
  // documentation and public ranges stay allowed
  expect((await save('demo-www', [srv('192.0.2.1'), srv('198.51.100.1'), srv('203.0.113.1'), srv('8.8.8.8'), srv('100.63.0.1'), srv('172.32.0.1')])).statusCode).toBe(200);
});
