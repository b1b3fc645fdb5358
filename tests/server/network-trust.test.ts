/**
 * Trust of the network (issue 21 items 7, 11, 12; docs/security.md): forwarded headers believed only
 * from TRUST_PROXY, links made from PUBLIC_URL whatever the Host header says, the session cookie
 * Secure over HTTPS, and session ids stored hashed.
 */
import { startTestServer, Client, type TestServer } from './helpers';
import { configFromEnv } from '../../src/server/config';
import { secureCookie, sessionKey } from '../../src/server/accounts/session';

let plain: TestServer;
let proxied: TestServer;

beforeAll(async () => {
  plain = await startTestServer({ config: { smsOutboxApi: true } });
  proxied = await startTestServer({ seed: true, config: { trustProxy: ['10.0.0.1'], publicUrl: 'https://console.example.com' } });
});
afterAll(async () => {
  await plain.close();
  await proxied.close();
});

const signin = (t: TestServer, headers: Record<string, string>, remoteAddress = '127.0.0.1') =>
  t.app.inject({ method: 'POST', url: '/accounts/signin/', payload: { username: 'demo', password: 'demo123456' }, headers, remoteAddress });

async function lastSessionIp(t: TestServer) {
  return (await t.db.selectFrom('sessions').select('ip').orderBy('created_at', 'desc').executeTakeFirstOrThrow()).ip;
}

describe('TRUST_PROXY', () => {
  it('reads the variable: empty by default, a comma-separated list otherwise', () => {
    expect(configFromEnv({}).trustProxy).toEqual([]);
    expect(configFromEnv({ TRUST_PROXY: '10.0.0.1, 192.168.0.0/16' }).trustProxy).toEqual(['10.0.0.1', '192.168.0.0/16']);
  });

  it('believes no X-Forwarded-For by default: the address is the socket’s', async () => {
    const res = await signin(plain, { 'x-forwarded-for': '6.6.6.6', 'x-forwarded-proto': 'https' });
    expect(res.statusCode).toBe(200);
    expect(await lastSessionIp(plain)).toBe('127.0.0.1');
    // nor its scheme: the cookie is not Secure over plain HTTP
    expect(String(res.headers['set-cookie'])).not.toMatch(/;\s*Secure/i);
    const c = await new Client(plain.app).signIn('demo');
    const log = (await c.get('/api/logs/')).json();
    expect(JSON.stringify(log)).not.toContain('6.6.6.6');
  });

  it('believes the configured proxy, and only it', async () => {
    const viaProxy = await signin(proxied, { 'x-forwarded-for': '203.0.113.5', 'x-forwarded-proto': 'https' }, '10.0.0.1');
    expect(viaProxy.statusCode).toBe(200);
    expect(await lastSessionIp(proxied)).toBe('203.0.113.5');
    // the proxy says the browser came over HTTPS: the cookie is Secure
    expect(String(viaProxy.headers['set-cookie'])).toMatch(/;\s*Secure/i);
    const direct = await signin(proxied, { 'x-forwarded-for': '6.6.6.6', 'x-forwarded-proto': 'https' }, '10.0.0.2');
    expect(direct.statusCode).toBe(200);
    expect(await lastSessionIp(proxied)).toBe('10.0.0.2');
    expect(String(direct.headers['set-cookie'])).not.toMatch(/;\s*Secure/i);
  });
});

describe('PUBLIC_URL', () => {
  it('defaults to the listening address, drops a trailing slash, refuses what is not http(s)', () => {
    expect(configFromEnv({}).publicUrl).toBe('http://127.0.0.1:8080');
    expect(configFromEnv({ HOST: '0.0.0.0', PORT: '9000' }).publicUrl).toBe('http://127.0.0.1:9000');
    expect(configFromEnv({ PUBLIC_URL: 'https://console.example.com/' }).publicUrl).toBe('https://console.example.com');
    expect(() => configFromEnv({ PUBLIC_URL: 'ftp://x.example' })).toThrow(/PUBLIC_URL/);
  });

  it('makes the invitation, payment and activation links whatever Host says', async () => {
    const c = new Client(proxied.app);
    await c.signIn('demo');
    const forged = { host: 'evil.example' };
    const invite = (await c.request({ method: 'GET', url: '/api/accounts/invite-url/', headers: forged })).json().data.url as string;
    expect(invite).toMatch(/^https:\/\/console\.example\.com\/register\/\?invite=/);
    const recharge = (await c.request({ method: 'POST', url: '/api/orders/recharge', payload: { amount: 10 }, headers: forged })).json().data;
    expect(recharge.pay_url).toMatch(/^https:\/\/console\.example\.com\/api\/pay\/sandbox\/[0-9a-f]{48}$/);
    const ali = (await c.request({ method: 'POST', url: '/api/orders/pay', payload: { order_no: recharge.order_no, method: 'alipay' }, headers: forged })).json().data;
    expect(ali.pay_url).toBe(recharge.pay_url);
    // the activation e-mail of an address not verified yet
    const demoId = (await proxied.db.selectFrom('users').select('id').where('username', '=', 'demo').executeTakeFirstOrThrow()).id;
    await proxied.db.updateTable('users').set({ email_verified: false }).where('id', '=', demoId).execute();
    const sent = await c.request({ method: 'PUT', url: '/api/accounts/authentication/email/', payload: {}, headers: forged });
    expect(sent.statusCode).toBe(200);
    const mail = await proxied.db.selectFrom('email_outbox').select('text').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(mail.text).toContain('https://console.example.com/register/activate/?token=');
    expect(mail.text).not.toContain('evil.example');
  });
});

describe('sessions', () => {
  it('stores the SHA-256 of the cookie, never the cookie', async () => {
    const res = await signin(plain, {});
    const token = /sid=([^;]+)/.exec(String(res.headers['set-cookie']))![1];
    expect(await plain.db.selectFrom('sessions').select('id').where('id', '=', token).executeTakeFirst()).toBeUndefined();
    expect(await plain.db.selectFrom('sessions').select('id').where('id', '=', sessionKey(token)).executeTakeFirst()).toBeDefined();
    // a stored id used as a cookie signs no one in
    const stolen = await plain.app.inject({ method: 'GET', url: '/api/accounts/v2/usage/', headers: { cookie: `sid=${sessionKey(token)}` } });
    expect(stolen.statusCode).toBe(401);
    expect((await plain.app.inject({ method: 'GET', url: '/api/accounts/v2/usage/', headers: { cookie: `sid=${token}` } })).statusCode).toBe(200);
  });

  it('makes the cookie Secure always with SECURE_COOKIES, else over HTTPS only', () => {
    const req = (protocol: string) => ({ protocol }) as Parameters<typeof secureCookie>[1];
    expect(secureCookie({ secureCookies: true }, req('http'))).toBe(true);
    expect(secureCookie({ secureCookies: false }, req('http'))).toBe(false);
    expect(secureCookie({ secureCookies: false }, req('https'))).toBe(true);
  });
});
