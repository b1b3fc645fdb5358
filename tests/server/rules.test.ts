/**
 * Rules between settings, written once in rules.ts beside their schemas: the server refuses what
 * the console would have prevented, with the rule's error code, and nothing is stored.
 */
import { startTestServer, Client, type TestServer } from './helpers';

let s: TestServer;
let c: Client;
beforeAll(async () => {
  s = await startTestServer();
  c = await new Client(s.app).signIn('demo');
});
afterAll(async () => {
  await s.close();
});

const get = async (id: string, bucket: string) => (await c.get(`/api/settings/${id}/?bucket_name=${bucket}`)).json();
const post = (id: string, bucket: string, payload: object) => c.post(`/api/settings/${id}/`, { bucket_name: bucket, ...payload });

describe('TLS 1.3 and the minimum TLS version', () => {
  const B = 'demo-cdn-01';

  it('refuses TLSv1.3 while TLS 1.3 is off, pointing at the TLS 1.3 panel', async () => {
    const res = await post('tls_min_version', B, { version: 'TLSv1.3' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      result: false,
      error_code: 21203,
      message: 'TLS 1.3 功能未开启，请先开启 TLS 1.3 后再选择 TLSv1.3',
      errors: [{ path: '/version', message: 'TLS 1.3 功能未开启，请先开启 TLS 1.3 后再选择 TLSv1.3', code: 21203, link: { setting: 'tls13', text: '开启 TLS 1.3' } }],
    });
    expect((await get('tls_min_version', B)).data).toEqual({ version: 'TLSv1.0' });
  });

  it('accepts TLSv1.3 once TLS 1.3 is on, answering 提交成功 in the console', async () => {
    expect((await post('tls13', B, { tls: true })).statusCode).toBe(200);
    const res = await post('tls_min_version', B, { version: 'TLSv1.3' });
    expect(res.statusCode).toBe(200);
    expect(res.json().summary).toBe('TLSv1.3');
  });

  it('refuses turning TLS 1.3 off while the minimum version is TLSv1.3', async () => {
    const res = await post('tls13', B, { tls: false });
    expect(res.statusCode).toBe(400);
    expect(res.json().error_code).toBe(21204);
    expect(res.json().errors[0].link).toEqual({ setting: 'tls_min_version', text: '修改最低 TLS 版本' });
    expect((await get('tls13', B)).data).toEqual({ tls: true });
  });

  it('lets TLS 1.3 off after the minimum version goes down', async () => {
    expect((await post('tls_min_version', B, { version: 'TLSv1.2' })).statusCode).toBe(200);
    expect((await post('tls13', B, { tls: false })).statusCode).toBe(200);
  });
});

describe('HTTP/3 and TLS 1.3', () => {
  const B = 'demo-cdn-02';

  it('refuses HTTP/3 while TLS 1.3 is off', async () => {
    const res = await post('http3', B, { enable: true });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error_code: 21205, message: 'HTTP/3 基于 TLS 1.3，请先开启 TLS 1.3 后再开启 HTTP/3' });
    expect((await get('http3', B)).data).toEqual({ enable: false });
  });

  it('turns HTTP/3 on after TLS 1.3, and then keeps TLS 1.3 on', async () => {
    await post('tls13', B, { tls: true });
    expect((await post('http3', B, { enable: true })).statusCode).toBe(200);
    const res = await post('tls13', B, { tls: false });
    expect(res.json().error_code).toBe(21206);
  });

  it('sends the HTTP/3 CNAME the confirmation names', async () => {
    const body = await get('http3', B);
    expect(body.vars).toEqual({ http3_cname: 'http3-beta.cdn-cname.example.net' });
  });
});

describe('HTTP/2 and Server Push', () => {
  const B = 'demo-cdn-03';

  it('refuses push while HTTP/2 is off', async () => {
    const res = await post('server_push', B, { server_push_enable: true, server_push_options: { url_patterns: ['/'], assets: ['/a.css'], preload: false } });
    expect(res.json()).toMatchObject({ error_code: 21208, message: '请先开启 HTTP/2 后再开启 Server Push' });
  });

  it('labels HTTP/2 by its own status and push: 已关闭, 已开启, HTTP/2 + Server Push 已开启', async () => {
    expect((await get('http2', B)).summary).toBe('已关闭');
    expect((await post('http2', B, { status: 'enable' })).json().summary).toBe('已开启');
    expect((await post('server_push', B, { server_push_enable: true, server_push_options: { url_patterns: ['/'], assets: [], preload: true } })).statusCode).toBe(200);
    expect((await get('http2', B)).summary).toBe('HTTP/2 + Server Push 已开启');
  });

  it('refuses HTTP/2 off while push is on', async () => {
    const res = await post('http2', B, { status: 'disable' });
    expect(res.json().error_code).toBe(21211);
    expect((await get('http2', B)).data).toEqual({ status: 'enable' });
  });

  it('keeps HTTP/2 always on for overseas services and refuses changes', async () => {
    const body = await get('http2', 'demo-global');
    expect(body).toMatchObject({ data: { status: 'enable' }, fixed: true, summary: '已开启' });
    const res = await post('http2', 'demo-global', { status: 'disable' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error_code: 21207, message: '该服务的此项配置固定开启，无需修改' });
  });

  it('refuses push paths that break the line rules with the schema messages', async () => {
    const res = await post('server_push', B, { server_push_enable: true, server_push_options: { url_patterns: ['/ok', 'no-slash'], assets: [], preload: false } });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([{ path: '/server_push_options/url_patterns/1', message: '匹配路径须以 / 开头，且不能包含 *' }]);
  });
});

describe('mirror migration', () => {
  const B = 'demo-cdn-04';

  it('needs a destination storage when on', async () => {
    const res = await post('mirror', B, { mirror: 'enable', url_patterns: [], mirror_bucket: '' });
    expect(res.json().errors).toEqual([{ path: '/mirror_bucket', message: '请选择云存储空间' }]);
  });

  it('accepts one of the account\'s file services and removes duplicate paths', async () => {
    const res = await post('mirror', B, { mirror: 'enable', url_patterns: ['/img/*', '/img/*', '/js/*', '/js/*'], mirror_bucket: 'demo-assets' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ mirror: 'enable', url_patterns: ['/img/*', '/js/*'], mirror_bucket: 'demo-assets' });
    expect(res.json().summary).toBe('已开启');
  });

  it('refuses a CDN service or another account\'s storage as destination', async () => {
    for (const name of ['demo-www', 'secure-www', 'no-such-bucket']) {
      const res = await post('mirror', B, { mirror: 'paused', url_patterns: [], mirror_bucket: name });
      expect(res.json()).toMatchObject({ error_code: 21209, message: '请选择本账号下的云存储空间' });
    }
    expect((await get('mirror', B)).data.mirror_bucket).toBe('demo-assets');
  });

  it('accepts the service\'s own bucket (an old migration)', async () => {
    expect((await post('mirror', B, { mirror: 'paused', url_patterns: [], mirror_bucket: B })).statusCode).toBe(200);
  });

  // another service, so the operation log below still counts the changes of B
  const OTHER = 'demo-cdn-08';

  it('counts the 50-path limit after removing duplicates (spec 002 §5)', async () => {
    const unique = Array.from({ length: 50 }, (_, i) => `/p${i}/*`);
    const res = await post('mirror', OTHER, { mirror: 'enable', url_patterns: [...unique, '/p7/*'], mirror_bucket: 'demo-assets' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.url_patterns).toEqual(unique);
    const tooMany = await post('mirror', OTHER, { mirror: 'enable', url_patterns: [...unique, '/p50/*', '/p50/*'], mirror_bucket: 'demo-assets' });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().errors).toEqual([{ path: '/url_patterns', message: '个数超出限制' }]);
  });

  it('takes mirror_bucket as optional (spec 002 §7): stored as "" when off, required when on', async () => {
    const off = await post('mirror', OTHER, { mirror: 'disable', url_patterns: ['/img/*'] });
    expect(off.statusCode).toBe(200);
    expect(off.json().data).toEqual({ mirror: 'disable', url_patterns: ['/img/*'], mirror_bucket: '' });
    expect((await get('mirror', OTHER)).data).toEqual({ mirror: 'disable', url_patterns: ['/img/*'], mirror_bucket: '' });
    const on = await post('mirror', OTHER, { mirror: 'enable', url_patterns: [] });
    expect(on.statusCode).toBe(400);
    expect(on.json().errors).toEqual([{ path: '/mirror_bucket', message: '请选择云存储空间' }]);
  });

  it('is for CDN services only', async () => {
    const res = await post('mirror', 'demo-shop', { mirror: 'disable', url_patterns: [], mirror_bucket: '' });
    expect(res.json().error_code).toBe(21201);
  });
});

describe('key customers', () => {
  it('may read their settings but every configuration write is refused with the lock message', async () => {
    const key = await new Client(s.app).signIn('demokey');
    expect((await key.get('/api/settings/tls13/?bucket_name=key-www')).statusCode).toBe(200);
    const res = await key.post('/api/settings/tls13/', { bucket_name: 'key-www', tls: true });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error_code: 21210, message: '因贵司属于重要客户，为防止误操作，已对相关配置进行锁定保护，如需修改请联系我们。' });
    expect((await key.get('/api/settings/tls13/?bucket_name=key-www')).json().data).toEqual({ tls: false });
    const usage = (await key.get('/api/accounts/v2/usage/')).json();
    expect(usage.user.custom_prohibit_configuration).toBe(true);
  });
});

describe('operation log', () => {
  it('records who changed what, when and from where', async () => {
    const rows = await s.db.selectFrom('operation_logs').selectAll().where('target', '=', 'demo-cdn-04/mirror').orderBy('id').execute();
    expect(rows.length).toBe(2);
    expect(rows[0]).toMatchObject({ action: 'setting.update', ip: '127.0.0.1' });
    // a Date (from PGlite's worker thread it is of Node's own realm, not of the test's)
    expect(Object.prototype.toString.call(rows[0].created_at)).toBe('[object Date]');
  });
});

describe('origin: a file service may have none (回源 is optional there), every other service needs one', () => {
  test('the guard refuses an empty list except for file services', async () => {
    const { loadDeclarations } = await import('../../schemas/load');
    const { SettingRegistry } = await import('../../schemas/registry');
    const registry = new SettingRegistry(loadDeclarations());
    const none = { protocol: 'http', host: '', servers: [], failover: { enable: true, timeout: 10, max_fails: 3 } };
    const ctx = (kind: string) => ({ kind, bucketName: 'x', read: async () => undefined, bucket: async () => null }) as any;
    expect(await registry.validate('origin', none, ctx('file'))).toMatchObject({ ok: true });
    for (const kind of ['cdn', 'scdn', 'websocket', 'overseas', 'fusion'])
      expect(await registry.validate('origin', none, ctx(kind))).toEqual({ ok: false, errors: [{ path: '/servers', message: '请至少添加一个源站' }] });
    // without a service (the schema alone: fixtures, the CLI) the kind is unknown and the list may be empty
    expect((await registry.validate('origin', none)).ok).toBe(true);
  });
});
