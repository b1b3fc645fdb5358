/**
 * External products and partner sign-in (docs/external-products.md): the entry token exchange, its
 * one-time use, expiry and product binding, the verify_status gate, audit accounts, the redirect
 * prefix check of partner applications, and the platform commands that add them.
 */
import { startTestServer, Client, type TestServer } from './helpers';
import { hashToken } from '../../src/server/external/tokens';
import { externalCommands } from '../../src/server/external/commands';
import { withToken, redirectAllowed } from '../../src/server/external/routes';

jest.setTimeout(120_000);
let s: TestServer;
const EXTERNAL = {
  sms: 'https://sms.partner.example.com/console/?from=cdn',
  oneclicklogin: 'https://login.partner.example.com/',
  cdp: 'https://cdp.partner.example.com/entry',
  audit: 'https://audit.partner.example.com/',
};
beforeAll(async () => {
  s = await startTestServer({ config: { external: EXTERNAL } });
});
afterAll(async () => {
  await s.close();
});

const anon = () => new Client(s.app);
const signedIn = (name: string) => new Client(s.app).signIn(name);
const run = (name: string, args: Record<string, string>) => externalCommands.find((c) => c.name === name)!.run(s.db, args);

async function entry(c: Client, product: string) {
  return c.get(`/api/external/entry?product=${product}`);
}
const tokenOf = (url: string) => new URL(url).searchParams.get('token')!;

describe('GET /api/external/entry', () => {
  it('gives the configured address with a one-time token that the partner redeems once', async () => {
    const demo = await signedIn('demo');
    const res = await entry(demo, 'sms');
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.url.startsWith('https://sms.partner.example.com/console/?from=cdn&token=')).toBe(true);
    expect(data.expires_in).toBe(120);
    const token = tokenOf(data.url);
    // only the hash is stored
    const stored = await s.db.selectFrom('external_tokens').selectAll().where('token_hash', '=', hashToken(token)).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ product: 'sms', used_at: null });
    expect(await s.db.selectFrom('external_tokens').select('id').where('token_hash', '=', token).executeTakeFirst()).toBeUndefined();

    const first = await anon().post('/accounts/app/', { token, product: 'sms' });
    expect(first.statusCode).toBe(200);
    const demoRow = await s.db.selectFrom('users').select('id').where('username', '=', 'demo').executeTakeFirstOrThrow();
    expect(first.json().data).toEqual({ product: 'sms', app_id: null, user_id: demoRow.id, username: 'demo', child: null, verify_status: 'yes' });
    const again = await anon().post('/accounts/app/', { token, product: 'sms' });
    expect(again.statusCode).toBe(400);
    expect(again.json().error_code).toBe(27601);
  });

  it('refuses an expired token (27602), a token of another product (27603, left unused) and an unknown one (27601)', async () => {
    const demo = await signedIn('demo');
    const expired = tokenOf((await entry(demo, 'cdp')).json().data.url);
    await s.db.updateTable('external_tokens').set({ expires_at: new Date(Date.now() - 1000) }).where('token_hash', '=', hashToken(expired)).execute();
    expect((await anon().post('/accounts/app/', { token: expired })).json().error_code).toBe(27602);

    const token = tokenOf((await entry(demo, 'oneclicklogin')).json().data.url);
    const wrong = await anon().post('/accounts/app/', { token, product: 'sms' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error_code).toBe(27603);
    const right = await anon().post('/accounts/app/', { token, product: 'oneclicklogin' });
    expect(right.json().data.product).toBe('oneclicklogin');

    expect((await anon().post('/accounts/app/', { token: 'no-such-token' })).json().error_code).toBe(27601);
    expect((await anon().post('/accounts/app/', {})).statusCode).toBe(400);
  });

  it('needs real-name for SMS, one-click login and CDP (22005), not for audit or the work order', async () => {
    const demonew = await signedIn('demonew');
    for (const p of ['sms', 'oneclicklogin', 'cdp']) {
      const res = await entry(demonew, p);
      expect(res.statusCode).toBe(403);
      expect(res.json().error_code).toBe(22005);
    }
    const audit = await entry(demonew, 'audit');
    expect(audit.statusCode).toBe(200);
    expect(audit.json().data).toEqual({ product: 'audit', url: null, landing: '/toolbox/audit/' });
    const work = await entry(demonew, 'workorder');
    expect(work.json().data).toEqual({ product: 'workorder', url: null, landing: '/work/' });
    expect((await entry(demonew, 'nothing')).statusCode).toBe(400);
  });

  it('opens the audit console only for an account holding an audit account', async () => {
    const demo = await signedIn('demo');
    expect((await entry(demo, 'audit')).json().data.url).toBeNull();
    await run('audit-account-add', { username: 'demo' });
    const url = (await entry(demo, 'audit')).json().data.url;
    expect(url.startsWith('https://audit.partner.example.com/?token=')).toBe(true);
    await run('audit-account-remove', { username: 'demo' });
    expect((await entry(demo, 'audit')).json().data.url).toBeNull();
    await expect(run('audit-account-add', { username: 'demo_ops' })).rejects.toThrow('没有这个主账号');
  });

  it('keeps SMS, one-click login and CDP to main accounts; audit to sub-accounts holding cloud_audit', async () => {
    const ops = await signedIn('demo_ops');
    expect((await entry(ops, 'sms')).json().error_code).toBe(21111);
    expect((await entry(ops, 'audit')).json().error_code).toBe(21111);
    expect((await entry(ops, 'workorder')).statusCode).toBe(200);
  });

  it('answers the landing page when the product has no address', async () => {
    const bare = await startTestServer({ config: { external: {} } });
    try {
      const c = await new Client(bare.app).signIn('demo');
      const res = await c.get('/api/external/entry?product=sms');
      expect(res.json().data).toEqual({ product: 'sms', url: null, landing: '/toolbox/sms/' });
      expect(await bare.db.selectFrom('external_tokens').select('id').execute()).toHaveLength(0);
    } finally {
      await bare.close();
    }
  });
});

describe('partner sign-in', () => {
  it('issues a token for a registered application and redirects only within its prefix', async () => {
    await run('partner-app-add', { app_id: 'partner_cdp', name: '合作伙伴 CDP', redirect_prefix: 'https://cdp.partner.example.com/oauth/' });
    const info = await anon().get('/api/oauth/app/?app_id=partner_cdp');
    expect(info.json().data).toMatchObject({ app_id: 'partner_cdp', name: '合作伙伴 CDP' });
    expect((await anon().get('/api/oauth/app/?app_id=nobody')).json().error_code).toBe(27604);

    const demo = await signedIn('demo');
    const okUri = encodeURIComponent('https://cdp.partner.example.com/oauth/callback?state=x');
    const res = await demo.get(`/api/oauth/hash/?app_id=partner_cdp&redirect_uri=${okUri}`);
    expect(res.statusCode).toBe(200);
    const { token, redirect } = res.json().data;
    expect(redirect).toBe(`https://cdp.partner.example.com/oauth/callback?state=x&token=${encodeURIComponent(token)}`);
    // the partner redeems it for its own app id only
    expect((await anon().post('/accounts/app/', { token, app_id: 'other_app' })).json().error_code).toBe(27603);
    const redeemed = await anon().post('/accounts/app/', { token, app_id: 'partner_cdp' });
    expect(redeemed.json().data).toMatchObject({ product: 'oauth', app_id: 'partner_cdp', username: 'demo' });

    for (const bad of ['https://cdp.partner.example.com.evil.example/oauth/', 'https://evil.example/oauth/', 'javascript:alert(1)', 'https://cdp.partner.example.com/other/']) {
      const r = await demo.get(`/api/oauth/hash/?app_id=partner_cdp&redirect_uri=${encodeURIComponent(bad)}`);
      expect(r.json().error_code).toBe(27605);
    }
    expect((await demo.get(`/api/oauth/hash/?app_id=nobody&redirect_uri=${okUri}`)).json().error_code).toBe(27604);
    expect((await anon().get(`/api/oauth/hash/?app_id=partner_cdp&redirect_uri=${okUri}`)).json().error_code).toBe(21110);
  });

  it('checks the command arguments', async () => {
    await expect(run('partner-app-add', { app_id: 'x', name: 'n', redirect_prefix: 'https://a.example/' })).rejects.toThrow('app_id');
    await expect(run('partner-app-add', { app_id: 'okapp', name: 'n', redirect_prefix: 'https://a.example' })).rejects.toThrow('redirect_prefix');
    expect(await run('partner-app-remove', { app_id: 'partner_cdp' })).toEqual({ removed: 1 });
  });

  it('adds the token to an address with a fragment or a query', () => {
    expect(withToken('https://a.example/p#x', 'T')).toBe('https://a.example/p?token=T#x');
    expect(withToken('https://a.example/p?q=1', 'T')).toBe('https://a.example/p?q=1&token=T');
    expect(redirectAllowed('https://user:pw@a.example/p/', 'https://user:pw@a.example/p/')).toBe(false);
  });
});

describe('popup announcement', () => {
  it('shows the newest current announcement once per user', async () => {
    const cmd = (name: string) => externalCommands.find((c) => c.name === name)!;
    const { id } = (await cmd('announcement-add').run(s.db, { title: '系统维护通知', body: '本周六凌晨维护', link: '/work/', days: '3' })) as { id: number };
    await expect(cmd('announcement-add').run(s.db, { title: 't', body: 'b', link: 'javascript:x' })).rejects.toThrow('--link');
    const demo = await signedIn('demo');
    const shown = await demo.get('/api/announcements/popup');
    expect(shown.json().data).toEqual({ id, title: '系统维护通知', body: '本周六凌晨维护', link: '/work/' });
    expect((await demo.post('/api/announcements/popup', { id })).statusCode).toBe(200);
    expect((await demo.get('/api/announcements/popup')).json().data).toBeNull();
    // another user still sees it, until it ends
    const other = await signedIn('demokey');
    expect((await other.get('/api/announcements/popup')).json().data.id).toBe(id);
    await cmd('announcement-end').run(s.db, { id: String(id) });
    expect((await other.get('/api/announcements/popup')).json().data).toBeNull();
    expect((await anon().get('/api/announcements/popup')).statusCode).toBe(401);
  });
});

describe('content audit (toolbox.audit)', () => {
  it('enables audit per service, lists and reviews records, and answers the audit-content check', async () => {
    const demo = await signedIn('demo');
    const ids = Object.fromEntries((await s.db.selectFrom('users').select(['id', 'username']).execute()).map((u) => [u.username, u.id]));
    // the seed enabled it on demo's first file service
    expect((await demo.get(`/api/audit/exists?user_id=${ids.demo}`)).json().data).toEqual({ exists: true });
    expect((await demo.get(`/api/audit/exists?user_id=${ids.demo_ops}`)).json().data).toEqual({ exists: true });
    // another account's user is not answered
    expect((await demo.get(`/api/audit/exists?user_id=${ids.demokey}`)).json().data).toEqual({ exists: false });
    const demokey = await signedIn('demokey');
    expect((await demokey.get(`/api/audit/exists?user_id=${ids.demokey}`)).json().data).toEqual({ exists: false });

    const services = (await demo.get('/api/audit/services')).json().data.services as { bucket_name: string; kind: string; enabled: boolean }[];
    expect(services.find((x) => x.bucket_name === 'demo-assets')).toMatchObject({ kind: 'file', enabled: true });
    expect(services.every((x) => ['file', 'cdn', 'fusion'].includes(x.kind))).toBe(true);
    const cdn = services.find((x) => x.kind === 'cdn')!;
    expect((await demo.post('/api/audit/services', { bucket_name: cdn.bucket_name, enabled: true })).statusCode).toBe(200);
    expect((await demo.get('/api/audit/services')).json().data.services.find((x: { bucket_name: string }) => x.bucket_name === cdn.bucket_name).enabled).toBe(true);
    expect((await demo.post('/api/audit/services', { bucket_name: cdn.bucket_name, enabled: false })).statusCode).toBe(200);
    expect((await demo.post('/api/audit/services', { bucket_name: 'demo-live', enabled: true })).json().error_code).toBe(27663);
    expect((await demokey.post('/api/audit/services', { bucket_name: 'demo-assets', enabled: true })).json().error_code).toBe(21905);

    const pending = (await demo.get('/api/audit/records?review_state=pending')).json().data.records as { id: number; review_state: string }[];
    expect(pending.length).toBeGreaterThanOrEqual(2);
    expect(pending.every((r) => r.review_state === 'pending')).toBe(true);
    const one = pending[0].id;
    expect((await demokey.post('/api/audit/records/review', { id: one, review_state: 'blocked' })).json().error_code).toBe(27661);
    const reviewed = await demo.post('/api/audit/records/review', { id: one, review_state: 'blocked' });
    expect(reviewed.json().data).toEqual({ id: one, review_state: 'blocked' });
    expect((await demo.post('/api/audit/records/review', { id: one, review_state: 'passed' })).json().error_code).toBe(27662);
    const page = (await demo.get('/api/audit/records?limit=2')).json().data;
    expect(page.records).toHaveLength(2);
    expect(page.pager.max).not.toBeNull();
  });
});
