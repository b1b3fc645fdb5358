/**
 * The domains tab (docs/service-tabs.md): the list (15 a page), adding and removing, at most 10 per
 * service, one service per domain across all accounts, the CNAME check through a stub resolver given
 * in the configuration, and the default domain shown only to exempt accounts and buckets.
 */
import { startTestServer, Client, type TestServer } from './helpers';
import { configFromEnv } from '../../src/server/config';
import { domainConfigFromEnv } from '../../src/server/domains/config';
import type { CnameResolver } from '../../src/server/domains/resolver';

/** What the stub "DNS" knows: host → CNAME targets, or a node:dns error code. */
const DNS: Record<string, string[] | string> = {
  'www.demo-example.com': ['demo-www.cdn-cname.example.net.'],
  'img-www.demo-example.com': ['elsewhere.example.net'],
  'slow.demo-example.com': 'ETIMEOUT',
};
const asked: string[] = [];
const stub: CnameResolver = {
  async resolveCname(host) {
    asked.push(host);
    const v = DNS[host];
    if (v === undefined) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    if (typeof v === 'string') throw Object.assign(new Error(v), { code: v });
    return v;
  },
};

let s: TestServer;
let c: Client;
beforeAll(async () => {
  s = await startTestServer({ config: { domains: { ...domainConfigFromEnv({}), resolver: stub, exempt: ['demo-static'] } } });
  c = await new Client(s.app).signIn('demo');
}, 180000);
afterAll(async () => {
  await s.close();
});

const list = async (q: string) => (await c.get(`/api/account/domains/?${q}`)).json();
const add = (bucket: string, domain: string) => c.post('/api/account/domains/', { bucket_name: bucket, domain });
const remove = (bucket: string, domain: string) => c.request({ method: 'DELETE', url: '/api/account/domains/', payload: { bucket_name: bucket, domain } });

it('lists the domains of a service with its count, the limit and the CNAME each must point to', async () => {
  const res = await list('bucket_name=demo-www');
  expect(res.data.map((d: { domain: string }) => d.domain)).toEqual(['www.demo-example.com', 'img-www.demo-example.com']);
  expect(res.data[0]).toMatchObject({ cname: 'demo-www.cdn-cname.example.net', bucket_name: 'demo-www', is_default: false, check: null });
  expect(res).toMatchObject({ total: 2, limit: 10, default_domain: null, pager: { since: null, max: null } });
  expect(asked).toEqual([]); // no lookup unless asked
});

it('pages the account\'s domains 15 at a time and searches them', async () => {
  const first = await list('');
  expect(first.data).toHaveLength(15);
  expect(first.pager.max).not.toBeNull();
  const next = await list(`max=${first.pager.max}`);
  expect(next.data.length).toBeGreaterThan(0);
  expect(next.data[0].id).toBeGreaterThan(first.data[14].id);
  const found = await list('domain=IMG-www');
  expect(found.data.map((d: { domain: string }) => d.domain)).toEqual(['img-www.demo-example.com']);
  // another account's domain is not listed
  expect((await list('domain=secure-example')).data).toEqual([]);
});

it('looks the CNAMEs up when asked and keeps the last result', async () => {
  const res = await list('bucket_name=demo-www&check=true');
  expect(res.data.map((d: { check: { status: string } }) => d.check.status)).toEqual(['ok', 'mismatch']);
  expect(res.data[1].check.resolved).toEqual(['elsewhere.example.net']);
  const again = await list('bucket_name=demo-www');
  expect(again.data[0].check).toMatchObject({ status: 'ok', resolved: ['demo-www.cdn-cname.example.net'] });
});

it('adds a domain, refuses a duplicate, another account\'s domain and a malformed one', async () => {
  const res = await add('demo-static', 'Slow.Demo-Example.com');
  expect(res.statusCode).toBe(200);
  expect(res.json().data).toMatchObject({ domain: 'slow.demo-example.com', cname: 'demo-static.cdn-cname.example.net', bucket_name: 'demo-static' });
  const check = (await c.get('/api/account/domains/cname/?bucket_name=demo-static&domain=slow.demo-example.com')).json();
  expect(check.data.check).toMatchObject({ status: 'timeout' });
  expect((await add('demo-static', 'slow.demo-example.com')).json()).toMatchObject({ error_code: 21245, errors: [{ path: '/domain', message: '域名 slow.demo-example.com 已绑定到此服务' }] });
  // bound to a service of another account (demo2fa's secure-www)
  expect((await add('demo-static', 'www.secure-example.com')).json()).toMatchObject({ error_code: 21215, message: '域名已被其他服务绑定' });
  // bound to another service of the same account
  expect((await add('demo-static', 'www.demo-example.com')).json()).toMatchObject({ error_code: 21215 });
  for (const bad of ['http://a.example.com', 'nodot', 'a_b.example.com', 'x.example.com/path']) {
    const r = await add('demo-static', bad);
    expect(r.statusCode).toBe(400);
    expect(r.json()).toMatchObject({ error_code: 20001, errors: [{ path: '/domain', message: '请填写正确的域名，如 www.example.com，不带 http:// 和路径' }] });
  }
  expect((await add('demo-static', 'x.b0.cdn-default.example.net')).json()).toMatchObject({ errors: [{ path: '/domain', message: '不能绑定平台的默认域名' }] });
  const log = await s.db.selectFrom('operation_logs').select(['action', 'target']).where('action', '=', 'domain.add').execute();
  expect(log).toEqual([{ action: 'domain.add', target: 'demo-static' }]);
});

it('holds at most 10 domains per service', async () => {
  const have = (await list('bucket_name=demo-cdn-01')).total;
  for (let i = have; i < 10; i++) expect((await add('demo-cdn-01', `d${i}.limit-example.com`)).statusCode).toBe(200);
  const res = await add('demo-cdn-01', 'eleven.limit-example.com');
  expect(res.statusCode).toBe(400);
  expect(res.json()).toMatchObject({ error_code: 21240, message: '每个服务最多绑定 10 个域名' });
  expect((await list('bucket_name=demo-cdn-01')).total).toBe(10);
  // removing one makes room again
  expect((await remove('demo-cdn-01', 'd9.limit-example.com')).json()).toMatchObject({ result: true });
  expect((await add('demo-cdn-01', 'eleven.limit-example.com')).statusCode).toBe(200);
});

it('removes a domain of the service only', async () => {
  expect((await remove('demo-static', 'www.demo-example.com')).json()).toMatchObject({ error_code: 21241 });
  expect((await remove('demo-static', 'slow.demo-example.com')).json()).toMatchObject({ result: true });
  expect((await remove('demo-static', 'slow.demo-example.com')).json()).toMatchObject({ error_code: 21241, message: '域名不存在或不属于该服务' });
  // a freed domain may be bound by another service
  expect((await add('demo-assets', 'slow.demo-example.com')).statusCode).toBe(200);
});

it('shows the default domain only for the exempt accounts and buckets', async () => {
  // demo-static is exempt in this server's configuration; demo-www is not
  expect((await list('bucket_name=demo-static')).default_domain).toBe('demo-static.b0.cdn-default.example.net');
  expect((await list('bucket_name=demo-www')).default_domain).toBeNull();
  // domains under the default suffix already in the table are hidden where the suffix is
  const www = await s.db.selectFrom('buckets').select('id').where('name', '=', 'demo-www').executeTakeFirstOrThrow();
  await s.db.insertInto('bucket_domains').values({ bucket_id: www.id, domain: 'demo-www.b0.cdn-default.example.net', cname: 'demo-www.cdn-cname.example.net' }).execute();
  expect((await list('bucket_name=demo-www')).data.map((d: { domain: string }) => d.domain)).not.toContain('demo-www.b0.cdn-default.example.net');
  expect((await c.get('/api/account/domains/cname/?bucket_name=demo-www&domain=demo-www.b0.cdn-default.example.net')).json()).toMatchObject({ error_code: 21241 });
});

it('refuses key customers and reaches a sub-account\'s granted service only', async () => {
  const key = await new Client(s.app).signIn('demokey');
  expect((await key.post('/api/account/domains/', { bucket_name: 'key-www', domain: 'new.key-example.com' })).json()).toMatchObject({ error_code: 21210 });
  expect((await key.request({ method: 'DELETE', url: '/api/account/domains/', payload: { bucket_name: 'key-www', domain: 'www.key-example.com' } })).json()).toMatchObject({ error_code: 21210 });
  const ops = await new Client(s.app).signIn('demo_ops');
  const own = (await ops.get('/api/account/domains/')).json();
  expect(new Set(own.data.map((d: { bucket_name: string }) => d.bucket_name))).toEqual(new Set(['demo-www']));
  expect((await ops.get('/api/account/domains/?bucket_name=demo-static')).json()).toMatchObject({ error_code: 21905 });
  // another account's service is out of reach
  expect((await add('secure-www', 'x.example.com')).json()).toMatchObject({ error_code: 21905 });
});

it('uses the default domain configuration when the environment says nothing', () => {
  expect(configFromEnv({}).domains).toMatchObject({ defaultSuffix: 'b0.cdn-default.example.net', exempt: [], dnsTimeoutMs: 2000 });
  expect(configFromEnv({ DEFAULT_DOMAIN_EXEMPT: 'demo, demo-www ' }).domains?.exempt).toEqual(['demo', 'demo-www']);
});
