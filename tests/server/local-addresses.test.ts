/**
 * Loopback, link-local and metadata addresses are refused beyond the edge's origins (issue 21 item 14):
 * as live callbacks (schemas/settings/live_callbacks/rules.ts) and as DDoS forwarding origins (the
 * ddos_l7 / ddos_non_website rules), both through `isLocalOriginAddress` (src/shared/origins.ts), the
 * check the origin setting uses. Nothing refused is stored.
 */
import { startTestServer, Client, type TestServer } from './helpers';
import { isLocalOriginAddress } from '../../src/shared/origins';
import { LOCAL_CALLBACK_MESSAGE } from '../../schemas/settings/live_callbacks/rules';
import { ERROR_TEXTS } from '../../src/shared/errors';

let s: TestServer;
let c: Client;
let instanceId: number;
beforeAll(async () => {
  s = await startTestServer();
  c = await new Client(s.app).signIn('demo');
  instanceId = (await c.get('/api/ddos/instance')).json().data[0].id;
}, 60_000);
afterAll(async () => {
  await s.close();
});

/** The addresses of the issue, in the forms the URL pattern lets a customer write. */
const LOCAL_HOSTS = ['127.0.0.1', '127.8.9.10', '0.0.0.0', '169.254.169.254', '169.254.1.1', 'localhost', 'app.localhost', 'metadata.google.internal', '100.100.100.200', '2130706433', '0x7f.1', '0177.0.0.1'];

it('the one rule covers every range of the issue, IPv6 included', () => {
  for (const a of [...LOCAL_HOSTS, '::1', 'fe80::1', 'febf::ffff', '::ffff:127.0.0.1', '0:0:0:0:0:0:0:1']) expect([a, isLocalOriginAddress(a)]).toEqual([a, true]);
  for (const a of ['198.51.100.30', 'callback.example.com', '2001:db8::1', 'fec0::1', '10.0.0.1']) expect([a, isLocalOriginAddress(a)]).toEqual([a, false]);
});

describe('live callbacks', () => {
  const base = { bucket_name: 'demo-class', enable: true, on_publish: '', on_unpublish: '', on_record: '', on_snapshot: '', secret: 's' };
  const stored = async () => (await c.get('/api/settings/live_callbacks/?bucket_name=demo-class')).json().data;

  it.each(LOCAL_HOSTS)('a callback at %s is refused in every field, nothing stored', async (host) => {
    const before = await stored();
    for (const field of ['on_publish', 'on_unpublish', 'on_record', 'on_snapshot']) {
      const res = await c.post('/api/settings/live_callbacks/', { ...base, [field]: `http://${host}:8080/hook` });
      expect([host, field, res.statusCode]).toEqual([host, field, 400]);
      expect(res.json().errors).toEqual([expect.objectContaining({ path: `/${field}`, message: LOCAL_CALLBACK_MESSAGE })]);
    }
    expect(await stored()).toEqual(before);
  });

  it('a public callback is saved', async () => {
    const res = await c.post('/api/settings/live_callbacks/', { ...base, on_publish: 'https://hooks.example.com/live', on_record: 'http://198.51.100.7/rec' });
    expect(res.json()).toMatchObject({ result: true });
    expect(await stored()).toMatchObject({ on_publish: 'https://hooks.example.com/live', on_record: 'http://198.51.100.7/rec' });
  });
});

describe('DDoS forwarding origins', () => {
  const WEBSITE = { ip: '103.211.40.10', domain: 'local-test.demo-example.com', protocols: ['http'], cc_level: 'normal', status: 'on' };
  const PORT = { ip: '103.211.41.10', protocol: 'tcp', port: 7100, origin_port: 7101, status: 'on' };
  const rules = async () => Number((await s.db.selectFrom('ddos_l7_rules').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  // what the origin pattern (IPv4 or a domain name) lets through of the local addresses
  const ORIGINS = ['127.0.0.1', '127.8.9.10', '0.0.0.0', '169.254.169.254', '169.254.1.1', 'app.localhost', 'metadata.google.internal', '100.100.100.200'];

  it.each(ORIGINS)('%s is refused as a website and as a non-website origin with 20011', async (origin) => {
    const before = await rules();
    const web = (await c.put('/api/ddos/l7', { instance_id: instanceId, ...WEBSITE, origins: ['198.51.100.30', origin] })).json();
    expect(web).toMatchObject({ error_code: 20011, errors: [{ path: '/origins/1', message: ERROR_TEXTS[20011] }] });
    const port = (await c.put('/api/ddos/l7/non_website', { instance_id: instanceId, ...PORT, origins: [origin] })).json();
    // a non-website origin is an IPv4 address by its pattern: names never get as far as the rule (20001)
    if (/^[\d.]+$/.test(origin)) expect(port).toMatchObject({ error_code: 20011, errors: [{ path: '/origins/0', message: ERROR_TEXTS[20011] }] });
    else expect(port).toMatchObject({ result: false, error_code: 20001, errors: [{ path: '/origins/0' }] });
    expect(await rules()).toBe(before);
  });

  it('a public origin is saved', async () => {
    const res = (await c.put('/api/ddos/l7', { instance_id: instanceId, ...WEBSITE, origins: ['198.51.100.30'] })).json();
    expect(res).toMatchObject({ result: true });
  });
});
