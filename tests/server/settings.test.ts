import { startTestServer, Client, type TestServer } from './helpers';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s.close();
});

describe('settings API', () => {
  it('reads defaults for a setting never saved', async () => {
    const c = await new Client(s.app).signIn('demo');
    const res = await c.get('/api/settings/compression/?bucket_name=demo-www');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      result: true,
      error_code: 0,
      data: { status: 'enable', gzip: { disable: false, level: 1 }, br: { disable: false, level: 1 } },
      summary: 'Gzip 和 Brotli 已开启',
      summary_intent: 'success',
      fixed: false,
    });
  });

  it('stores a valid payload and returns it on the next read', async () => {
    const c = await new Client(s.app).signIn('demo');
    const payload = { status: 'enable', gzip: { disable: false, level: 3 }, br: { disable: true, level: 1 } };
    const res = await c.post('/api/settings/compression/', { bucket_name: 'demo-www', ...payload });
    expect(res.statusCode).toBe(200);
    expect(res.json().summary).toBe('仅开启 Gzip');
    const again = await c.get('/api/settings/compression/?bucket_name=demo-www');
    expect(again.json().data).toEqual(payload);
  });

  it('saves compression from gzip and br alone, status defaulting to enable (spec 002 §3, §7)', async () => {
    const c = await new Client(s.app).signIn('demo');
    const off = { status: 'disable', gzip: { disable: true, level: 1 }, br: { disable: true, level: 1 } };
    expect((await c.post('/api/settings/compression/', { bucket_name: 'demo-static', ...off })).json().data).toEqual(off);
    const codecs = { gzip: { disable: false, level: 2 }, br: { disable: false, level: 4 } };
    const res = await c.post('/api/settings/compression/', { bucket_name: 'demo-static', ...codecs });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ data: { status: 'enable', ...codecs }, summary: 'Gzip 和 Brotli 已开启' });
    expect((await c.get('/api/settings/compression/?bucket_name=demo-static')).json().data).toEqual({ status: 'enable', ...codecs });
  });

  it('refuses a bad payload with the schema\'s Chinese message and keeps the stored value', async () => {
    const c = await new Client(s.app).signIn('demo');
    const good = { options: [{ code: [404], url: '/404.html' }] };
    expect((await c.post('/api/settings/error_pages/', { bucket_name: 'demo-static', ...good })).statusCode).toBe(200);
    const res = await c.post('/api/settings/error_pages/', { bucket_name: 'demo-static', options: [{ code: [404], url: '404.html' }] });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      result: false,
      error_code: 20001,
      message: '提交的数据不符合要求，请检查后重试',
      errors: [{ path: '/options/0/url', message: '请填写正确的 URI 地址，以 / 开头' }],
    });
    const again = await c.get('/api/settings/error_pages/?bucket_name=demo-static');
    expect(again.json().data).toEqual({ ...good, status: 'enable' });
  });

  it('derives the error-page status from the rules', async () => {
    const c = await new Client(s.app).signIn('demo');
    const res = await c.post('/api/settings/error_pages/', { bucket_name: 'demo-assets', options: [], status: 'enable' });
    expect(res.json().data).toEqual({ options: [], status: 'disable' });
  });

  it('runs the guard written beside the schema', async () => {
    const c = await new Client(s.app).signIn('demo');
    const res = await c.post('/api/settings/error_pages/', { bucket_name: 'demo-assets', options: [{ code: [404], url: '/a.html' }, { code: [404, 500], url: '/b.html' }] });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([{ path: '/options/1/code', message: '状态码 404 已在第 1 条规则中配置' }]);
  });

  it('refuses another account\'s bucket for reading and writing, and changes nothing', async () => {
    const owner = await new Client(s.app).signIn('demo');
    await owner.post('/api/settings/tls13/', { bucket_name: 'demo-www', tls: true });
    // demo2fa signs in with its code
    const other = new Client(s.app);
    await other.put('/accounts/two_step_verify/code', { username: 'demo2fa', password: 'demo123456', verify_type: 'sms' });
    const sms = await s.db.selectFrom('sms_outbox').select('text').orderBy('id', 'desc').executeTakeFirstOrThrow();
    const code = /(\d{6})/.exec(sms.text)![1];
    expect((await other.post('/accounts/signin/', { username: 'demo2fa', password: 'demo123456', code })).statusCode).toBe(200);
    const read = await other.get('/api/settings/tls13/?bucket_name=demo-www');
    expect(read.statusCode).toBe(404);
    expect(read.json().error_code).toBe(21905);
    const write = await other.post('/api/settings/tls13/', { bucket_name: 'demo-www', tls: false });
    expect(write.statusCode).toBe(404);
    expect((await owner.get('/api/settings/tls13/?bucket_name=demo-www')).json().data).toEqual({ tls: true });
  });

  it('refuses a setting on a kind it does not declare', async () => {
    const c = await new Client(s.app).signIn('demo');
    const res = await c.post('/api/settings/compression/', { bucket_name: 'demo-live', status: 'disable', gzip: { disable: true, level: 1 }, br: { disable: true, level: 1 } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error_code: 21201, message: '该设置不适用于此类型的服务' });
  });

  it('answers 21202 for an unknown setting and 21110 without a session', async () => {
    const c = await new Client(s.app).signIn('demo');
    expect((await c.get('/api/settings/nope/?bucket_name=demo-www')).json().error_code).toBe(21202);
    const anon = new Client(s.app);
    const res = await anon.get('/api/settings/tls13/?bucket_name=demo-www');
    expect(res.statusCode).toBe(401);
    expect(res.json().error_code).toBe(21110);
  });

  it('refuses a state-changing call from another origin', async () => {
    const c = await new Client(s.app).signIn('demo');
    const res = await c.post('/api/settings/tls13/', { bucket_name: 'demo-www', tls: false }, { origin: 'https://evil.example' });
    expect(res.statusCode).toBe(403);
    expect(res.json().error_code).toBe(21112);
    expect((await c.get('/api/settings/tls13/?bucket_name=demo-www')).json().data).toEqual({ tls: true });
  });

  it('writes an operation log entry for a change', async () => {
    const rows = await s.db.selectFrom('operation_logs').select(['action', 'target']).where('target', '=', 'demo-www/compression').execute();
    expect(rows.length).toBeGreaterThan(0);
  });

  it("the log entry names who, from where and the stored value (written by the save's own statement)", async () => {
    const c = await new Client(s.app).signIn('demo');
    expect((await c.post('/api/settings/compression/', { bucket_name: 'demo-www', status: 'enable', gzip: { disable: false, level: 4 }, br: { disable: true, level: 1 } })).json().result).toBe(true);
    const demo = await s.db.selectFrom('users').select('id').where('username', '=', 'demo').executeTakeFirstOrThrow();
    const www = await s.db.selectFrom('buckets').select('id').where('name', '=', 'demo-www').executeTakeFirstOrThrow();
    const stored = await s.db.selectFrom('service_settings').select(['value', 'updated_by']).where('bucket_id', '=', www.id).where('setting_id', '=', 'compression').executeTakeFirstOrThrow();
    const row = await s.db.selectFrom('operation_logs').selectAll().where('target', '=', 'demo-www/compression').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(row).toMatchObject({ account_id: demo.id, user_id: demo.id, username: 'demo', action: 'setting.update', ip: '127.0.0.1' });
    expect(row.detail).toEqual({ value: stored.value });
    expect(stored).toMatchObject({ updated_by: demo.id, value: { gzip: { level: 4 } } });
  });

  it('a save whose log row cannot be written stores nothing (one statement, one transaction)', async () => {
    const { saveSetting } = await import('../../src/server/settings/repo');
    const www = await s.db.selectFrom('buckets').select('id').where('name', '=', 'demo-www').executeTakeFirstOrThrow();
    const read = () => s.db.selectFrom('service_settings').select('value').where('bucket_id', '=', www.id).where('setting_id', '=', 'compression').executeTakeFirstOrThrow();
    const before = await read();
    // an account that does not exist: the log row's reference to users fails, and with it the whole statement
    const nobody = { account_id: 2_000_000_000, id: 2_000_000_000, username: 'nobody' };
    await expect(saveSetting(s.db, www.id, 'compression', { ...(before.value as object), status: 'disable' }, nobody, '127.0.0.1', { action: 'setting.update', target: 'demo-www/compression' })).rejects.toThrow();
    expect(await read()).toEqual(before);
  });
});

describe('the summary label with placeholders (回源配置 says where requests go)', () => {
  const origin = (protocol: string, ...servers: [string, number][]) => ({ protocol, host: '', servers: servers.map(([address, port]) => ({ address, port, weight: 10, backup: false })), failover: { enable: true, timeout: 10, max_fails: 3 } });

  it('answers the label filled from the value, and its colour, on a save and on the next read', async () => {
    const c = await new Client(s.app).signIn('demo');
    const saved = await c.post('/api/settings/origin/', { bucket_name: 'demo-static', ...origin('http', ['203.0.113.10', 8080]) });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ summary: '回源 203.0.113.10:8080', summary_intent: 'success' });
    expect((await c.get('/api/settings/origin/?bucket_name=demo-static')).json()).toMatchObject({ summary: '回源 203.0.113.10:8080', summary_intent: 'success', fixed: false });
    const several = await c.post('/api/settings/origin/', { bucket_name: 'demo-static', ...origin('https', ['origin.example.com', 443], ['b.example.com', 443], ['203.0.113.10', 8443]) });
    expect(several.json()).toMatchObject({ summary: '回源 origin.example.com 等 3 个地址', summary_intent: 'success' });
    expect((await c.get('/api/settings/origin/?bucket_name=demo-static')).json().summary).toBe('回源 origin.example.com 等 3 个地址');
  });

  it('keeps the labels without an origin, in their colours', async () => {
    const c = await new Client(s.app).signIn('demo');
    expect((await c.get('/api/settings/origin/?bucket_name=demo-assets')).json()).toMatchObject({ summary: '仅从云存储读取', summary_intent: 'none' });
    const none = await c.post('/api/settings/origin/', { bucket_name: 'demo-backup', ...origin('http') });
    expect(none.json()).toMatchObject({ data: { servers: [] }, summary: '仅从云存储读取', summary_intent: 'none' });
  });
});

describe('housekeeping', () => {
  it('removes expired sessions and old attempts, keeps live ones', async () => {
    const { cleanup } = await import('../../src/server/jobs/cleanup');
    const c = await new Client(s.app).signIn('demo');
    await s.db.insertInto('sessions').values({ id: 'expired-session', user_id: 1, expires_at: new Date(Date.now() - 1000), ip: null }).execute();
    await s.db.insertInto('signin_attempts').values({ username: 'old', ip: null, ok: false, created_at: new Date(Date.now() - 2 * 86_400_000) }).execute();
    const counts = await cleanup(s.db);
    expect(counts.sessions).toBeGreaterThanOrEqual(1);
    expect(counts.signin_attempts).toBeGreaterThanOrEqual(1);
    expect(await s.db.selectFrom('sessions').select('id').where('id', '=', 'expired-session').executeTakeFirst()).toBeUndefined();
    expect((await c.get('/api/accounts/v2/usage/')).statusCode).toBe(200);
  });
});
