/**
 * Names the edge node cannot hold are refused at save (issue 34 item 13): every domain field — the domains
 * tab, a new service's domains, a live service's push and play domains — and the Referer list follow the DNS
 * rules of one function (src/shared/domains.ts `dnsNameProblem`, through the `dnsName` keyword the console
 * compiles too): at most 253 characters, labels of at most 63 letters, digits and hyphens, no hyphen at a
 * label's ends. A Chinese name is refused with a message to write its punycode form, and that form saves.
 */
import { startTestServer, Client, type TestServer } from './helpers';

let s: TestServer;
let c: Client;
beforeAll(async () => {
  s = await startTestServer();
  c = await new Client(s.app).signIn('demo');
}, 180000);
afterAll(async () => {
  await s.close();
});

const PUNYCODE = '中文域名请转换为 punycode 形式后填写，如 中国.cn 填写为 xn--fiqs8s.cn';
/** 133 characters in one label of the issue, and names that break one rule each */
const LONG_LABEL = `${'a'.repeat(129)}.com`;
const BAD = [LONG_LABEL, `www.${'b'.repeat(64)}.com`, '-www.demo-example.com', 'www-.demo-example.com', 'a_b.demo-example.com'];

const domainsOf = async (bucket: string) => (await c.get(`/api/account/domains/?bucket_name=${bucket}`)).json().data.map((d: { domain: string }) => d.domain);

test.each(BAD)('the domains tab refuses %p at its field, and stores nothing', async (domain) => {
  const before = await domainsOf('demo-www');
  const res = await c.post('/api/account/domains/', { bucket_name: 'demo-www', domain });
  expect(res.statusCode).toBe(400);
  expect(res.json()).toMatchObject({ error_code: 20001, errors: [{ path: '/domain', message: '请填写正确的域名，如 www.example.com，不带 http:// 和路径' }] });
  expect(await domainsOf('demo-www')).toEqual(before);
});

test('a Chinese domain is refused with the punycode message; its punycode form saves', async () => {
  const res = await c.post('/api/account/domains/', { bucket_name: 'demo-www', domain: '图片.例子.中国' });
  expect(res.json()).toMatchObject({ error_code: 20001, errors: [{ path: '/domain', message: PUNYCODE }] });
  expect(res.json().errors).toHaveLength(1);
  const ok = await c.post('/api/account/domains/', { bucket_name: 'demo-www', domain: 'xn--tiq49x.xn--fsqu00a.xn--fiqs8s' });
  expect(ok.statusCode).toBe(200);
});

test('a new service refuses the same names in its domains, and a 254-character one', async () => {
  const long = `${'a'.repeat(63)}.${'a'.repeat(63)}.${'a'.repeat(63)}.${'b'.repeat(62)}`;
  for (const [i, domain] of [...BAD, long].entries()) {
    const res = await c.put('/api/buckets/', { bucket_name: `dnsnames-${i}x`, kind: 'cdn', domains: ['ok.dnsnames-example.com', domain] });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].path).toBe('/domains/1');
  }
  expect((await c.put('/api/buckets/', { bucket_name: 'dnsnames-zz', kind: 'cdn', domains: ['例子.com'] })).json()).toMatchObject({ errors: [{ path: '/domains/0', message: PUNYCODE }] });
  expect((await c.get('/api/buckets/info/?bucket_name=dnsnames-0x')).statusCode).not.toBe(200);
});

test('the Referer list refuses a 133-character entry, a bad label and a Chinese name; punycode and *. save', async () => {
  const save = (domains: string[]) => c.post('/api/settings/referer_antileech/', { bucket_name: 'demo-www', mode: 'whitelist', domains, allow_empty_referer: true });
  const before = (await c.get('/api/settings/referer_antileech/?bucket_name=demo-www')).json().data;
  const res = await save(['ok.example.com', LONG_LABEL, '*.-x.example.com', '*.例子.中国']);
  expect(res.statusCode).toBe(400);
  const msg = '请填写正确的域名，如 www.example.com 或 *.example.com，不带 http:// 和路径';
  expect(res.json().errors).toEqual([
    expect.objectContaining({ path: '/domains/1', message: msg }),
    expect.objectContaining({ path: '/domains/2', message: msg }),
    expect.objectContaining({ path: '/domains/3', message: PUNYCODE }),
  ]);
  expect((await c.get('/api/settings/referer_antileech/?bucket_name=demo-www')).json().data).toEqual(before);
  expect((await save(['*.xn--fsqu00a.xn--fiqs8s', `${'a'.repeat(63)}.example.com`])).statusCode).toBe(200);
});

test('a live service refuses a 64-character label and a Chinese play domain', async () => {
  const base = { bucket_name: 'demo-live', push_domain: 'push.demo-example.com', play_domains: ['play.demo-example.com'], push_auth: false, push_key: '', expire: 7200 };
  const long = await c.post('/api/settings/live_domain/', { ...base, push_domain: `${'p'.repeat(64)}.demo-example.com` });
  expect(long.json()).toMatchObject({ errors: [{ path: '/push_domain', message: '请填写正确的域名，如 push.example.com' }] });
  const zh = await c.post('/api/settings/live_domain/', { ...base, play_domains: ['直播.example.com'] });
  expect(zh.json()).toMatchObject({ errors: [{ path: '/play_domains/0', message: PUNYCODE }] });
});
