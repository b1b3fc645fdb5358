/**
 * Service lists (cursor paging, search, domains), service info and isolation between accounts.
 */
import { startTestServer, Client, type TestServer } from './helpers';

let s: TestServer;
let demo: Client;
beforeAll(async () => {
  s = await startTestServer();
  demo = await new Client(s.app).signIn('demo');
});
afterAll(async () => {
  await s.close();
});

/** demo's CDN services in creation order, as seeded. */
const CDN_NAMES = ['demo-www', 'demo-static', ...Array.from({ length: 10 }, (_, i) => `demo-cdn-${String(i + 1).padStart(2, '0')}`)];

const names = (body: any) => body.data.map((b: any) => b.bucket_name);

async function signInDemo2fa(): Promise<Client> {
  const c = new Client(s.app);
  const sent = await c.put('/accounts/two_step_verify/code', { username: 'demo2fa', password: 'demo123456', verify_type: 'sms' });
  expect(sent.statusCode).toBe(200);
  const sms = await s.db.selectFrom('sms_outbox').select('text').where('mobile', '=', '13912345678').orderBy('id', 'desc').executeTakeFirstOrThrow();
  const code = /\b(\d{6})\b/.exec(sms.text)![1];
  const res = await c.post('/accounts/signin/', { username: 'demo2fa', password: 'demo123456', code });
  expect(res.statusCode).toBe(200);
  return c;
}

describe('GET /api/buckets/ paging', () => {
  it('pages the CDN services 10 at a time, forwards and back', async () => {
    const first = await demo.get('/api/buckets/?business_type=cdn');
    expect(first.statusCode).toBe(200);
    const p1 = first.json();
    expect(p1.result).toBe(true);
    expect(p1.error_code).toBe(0);
    expect(p1.data).toHaveLength(10);
    expect(names(p1)).toEqual(CDN_NAMES.slice(0, 10));
    expect(p1.data.every((b: any) => b.kind === 'cdn')).toBe(true);
    expect(p1.pager.since).toBeNull();
    expect(typeof p1.pager.max).toBe('number');
    expect(p1.pager.max).toBe(p1.data[9].bucket_id);

    const second = await demo.get(`/api/buckets/?business_type=cdn&max=${p1.pager.max}`);
    expect(second.statusCode).toBe(200);
    const p2 = second.json();
    expect(names(p2)).toEqual(CDN_NAMES.slice(10));
    expect(p2.pager.max).toBeNull();
    expect(typeof p2.pager.since).toBe('number');
    expect(p2.pager.since).toBe(p2.data[0].bucket_id);

    const back = await demo.get(`/api/buckets/?business_type=cdn&since=${p2.pager.since}`);
    expect(back.statusCode).toBe(200);
    const p3 = back.json();
    expect(names(p3)).toEqual(names(p1));
    expect(p3.pager.since).toBeNull();
    expect(p3.pager.max).toBe(p1.pager.max);
  });

  it('keeps ids ascending within a page', async () => {
    const body = (await demo.get('/api/buckets/?business_type=cdn')).json();
    const ids = body.data.map((b: any) => b.bucket_id);
    expect(ids).toEqual([...ids].sort((a: number, b: number) => a - b));
  });

  it('honours an explicit limit', async () => {
    const p1 = (await demo.get('/api/buckets/?business_type=cdn&limit=5')).json();
    expect(names(p1)).toEqual(CDN_NAMES.slice(0, 5));
    expect(p1.pager).toEqual({ since: null, max: p1.data[4].bucket_id });
    const p2 = (await demo.get(`/api/buckets/?business_type=cdn&limit=5&max=${p1.pager.max}`)).json();
    expect(names(p2)).toEqual(CDN_NAMES.slice(5, 10));
    expect(p2.pager).toEqual({ since: p2.data[0].bucket_id, max: p2.data[4].bucket_id });
    const p3 = (await demo.get(`/api/buckets/?business_type=cdn&limit=5&max=${p2.pager.max}`)).json();
    expect(names(p3)).toEqual(CDN_NAMES.slice(10));
    expect(p3.pager).toEqual({ since: p3.data[0].bucket_id, max: null });
    // one step back from the third page is the second page
    const back = (await demo.get(`/api/buckets/?business_type=cdn&limit=5&since=${p3.pager.since}`)).json();
    expect(names(back)).toEqual(names(p2));
    expect(back.pager).toEqual({ since: back.data[0].bucket_id, max: back.data[4].bucket_id });
  });

  it('fits a short list on one page with no cursors', async () => {
    const res = await demo.get('/api/buckets/?business_type=live');
    expect(res.statusCode).toBe(200);
    expect(names(res.json())).toEqual(['demo-live', 'demo-class']);
    expect(res.json().pager).toEqual({ since: null, max: null });
  });

  it('lists every kind of demo without business_type', async () => {
    const res = await demo.get('/api/buckets/?limit=100');
    const body = res.json();
    // 7 kinds × 2 + 10 extra CDN services
    expect(body.data).toHaveLength(26);
    expect(new Set(body.data.map((b: any) => b.kind))).toEqual(new Set(['file', 'cdn', 'scdn', 'live', 'websocket', 'overseas', 'fusion']));
    expect(body.pager).toEqual({ since: null, max: null });
  });
});

describe('GET /api/buckets/ cursors at the edges', () => {
  it('gives no previous cursor on the first page, however it was reached', async () => {
    const c = await new Client(s.app).signIn('demo');
    const res = (await c.get('/api/buckets/?business_type=cdn&max=0')).json();
    expect(names(res)).toEqual(CDN_NAMES.slice(0, 10));
    expect(res.pager.since).toBeNull();
    expect(res.pager.max).not.toBeNull();
  });

  it('can page forward again from an empty page before the first item', async () => {
    const c = await new Client(s.app).signIn('demo');
    const first = (await c.get('/api/buckets/?business_type=cdn')).json();
    const before = (await c.get(`/api/buckets/?business_type=cdn&since=${first.data[0].bucket_id}`)).json();
    expect(before.data).toEqual([]);
    expect(before.pager.since).toBeNull();
    expect(before.pager.max).not.toBeNull();
    const again = (await c.get(`/api/buckets/?business_type=cdn&max=${before.pager.max}`)).json();
    expect(names(again)).toEqual(CDN_NAMES.slice(0, 10));
  });
});

describe('GET /api/buckets/ search and domains', () => {
  it('filters by part of the name', async () => {
    const res = await demo.get('/api/buckets/?business_type=cdn&bucket_name=static');
    expect(res.statusCode).toBe(200);
    expect(names(res.json())).toEqual(['demo-static']);
    expect(res.json().pager).toEqual({ since: null, max: null });
  });

  it('searches case-insensitively and across kinds', async () => {
    const res = await demo.get('/api/buckets/?bucket_name=WW');
    expect(names(res.json())).toEqual(['demo-www']);
  });

  it('treats % and _ in the search as plain characters', async () => {
    for (const q of ['%25', '_', 'demo%25www', 'demo_www']) {
      const res = await demo.get(`/api/buckets/?bucket_name=${q}`);
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toEqual([]);
    }
  });

  it('finds nothing for a name nobody has', async () => {
    const res = await demo.get('/api/buckets/?bucket_name=no-such-service');
    expect(res.json()).toEqual({ result: true, error_code: 0, data: [], pager: { since: null, max: null } });
  });

  it('includes domains only when asked', async () => {
    const without = (await demo.get('/api/buckets/?business_type=cdn&bucket_name=demo-www')).json();
    expect(names(without)).toEqual(['demo-www']);
    expect(without.data[0]).not.toHaveProperty('domains');

    const withD = (await demo.get('/api/buckets/?business_type=cdn&bucket_name=demo-www&with_domains=true')).json();
    expect(withD.data[0].domains).toEqual([
      { domain: 'www.demo-example.com', cname: 'demo-www.cdn-cname.example.net' },
      { domain: 'img-www.demo-example.com', cname: 'demo-www.cdn-cname.example.net' },
    ]);

    const page = (await demo.get('/api/buckets/?business_type=cdn&with_domains=true')).json();
    expect(page.data).toHaveLength(10);
    for (const b of page.data) expect(Array.isArray(b.domains) && b.domains.length > 0).toBe(true);
    expect(page.data.find((b: any) => b.bucket_name === 'demo-cdn-03').domains).toEqual([
      { domain: 'act3.demo-example.com', cname: 'demo-cdn-03.cdn-cname.example.net' },
    ]);

    const off = (await demo.get('/api/buckets/?business_type=cdn&bucket_name=demo-www&with_domains=false')).json();
    expect(off.data[0]).not.toHaveProperty('domains');
  });
});

describe('GET /api/buckets/ validation and access', () => {
  it('refuses an unknown service type', async () => {
    const res = await demo.get('/api/buckets/?business_type=nope');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      result: false,
      error_code: 20001,
      message: '提交的数据不符合要求，请检查后重试',
      errors: [{ path: '/business_type', message: '不支持的服务类型' }],
    });
  });

  it('refuses a bad limit and bad cursors', async () => {
    const zero = await demo.get('/api/buckets/?limit=0');
    expect(zero.statusCode).toBe(400);
    expect(zero.json().errors).toEqual([{ path: '/limit', message: '每页数量为 1 - 100' }]);
    const big = await demo.get('/api/buckets/?limit=101');
    expect(big.json().errors).toEqual([{ path: '/limit', message: '每页数量为 1 - 100' }]);
    const text = await demo.get('/api/buckets/?limit=ten');
    expect(text.statusCode).toBe(400);
    expect(text.json().errors).toEqual([{ path: '/limit', message: '每页数量须为整数' }]);
    const max = await demo.get('/api/buckets/?max=-1');
    expect(max.statusCode).toBe(400);
    expect(max.json().errors).toEqual([{ path: '/max', message: '分页参数不正确' }]);
    const since = await demo.get('/api/buckets/?since=abc');
    expect(since.statusCode).toBe(400);
    expect(since.json().errors).toEqual([{ path: '/since', message: '分页参数不正确' }]);
    const wd = await demo.get('/api/buckets/?with_domains=maybe');
    expect(wd.statusCode).toBe(400);
    expect(wd.json().errors).toEqual([{ path: '/with_domains', message: '参数 with_domains 须为 true 或 false' }]);
  });

  it('answers 401 with 21110 without a session', async () => {
    for (const url of ['/api/buckets/', '/api/buckets/info/?bucket_name=demo-www']) {
      const res = await new Client(s.app).get(url);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ result: false, error_code: 21110, message: '登录已失效，请重新登录' });
    }
  });

  it('never shows demo the services of demo2fa', async () => {
    const all = (await demo.get('/api/buckets/?limit=100')).json();
    expect(names(all)).not.toContain('secure-www');
    const search = (await demo.get('/api/buckets/?bucket_name=secure')).json();
    expect(search.data).toEqual([]);
    const info = await demo.get('/api/buckets/info/?bucket_name=secure-www');
    expect(info.statusCode).toBe(404);
    expect(info.json()).toEqual({ result: false, error_code: 21905, message: '服务不存在或无权访问' });
  });

  it('shows demo2fa only its own service', async () => {
    const other = await signInDemo2fa();
    const list = (await other.get('/api/buckets/?limit=100')).json();
    expect(names(list)).toEqual(['secure-www']);
    const info = await other.get('/api/buckets/info/?bucket_name=secure-www');
    expect(info.statusCode).toBe(200);
    expect(info.json().data).toMatchObject({ bucket_name: 'secure-www', kind: 'cdn', domains: [{ domain: 'www.secure-example.com', cname: 'secure-www.cdn-cname.example.net' }] });
    const denied = await other.get('/api/buckets/info/?bucket_name=demo-www');
    expect(denied.statusCode).toBe(404);
    expect(denied.json().error_code).toBe(21905);
  });
});

describe('GET /api/buckets/info/', () => {
  it('describes a CDN service', async () => {
    const res = await demo.get('/api/buckets/info/?bucket_name=demo-www');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.result).toBe(true);
    expect(body.error_code).toBe(0);
    expect(body.data).toMatchObject({
      bucket_name: 'demo-www',
      kind: 'cdn',
      type: 'ucdn',
      business_type: 'file',
      fusion_cdn: false,
      websocket: false,
      abroad: false,
      security_cdn: false,
      remark: '官网加速',
      status: 'NORMAL',
      storage: { used: 0 },
      domains: [
        { domain: 'www.demo-example.com', cname: 'demo-www.cdn-cname.example.net' },
        { domain: 'img-www.demo-example.com', cname: 'demo-www.cdn-cname.example.net' },
      ],
    });
    expect(typeof body.data.bucket_id).toBe('number');
    expect(new Date(body.data.created_at).toISOString()).toBe(body.data.created_at);
  });

  it('describes a live service', async () => {
    const res = await demo.get('/api/buckets/info/?bucket_name=demo-live');
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ bucket_name: 'demo-live', kind: 'live', type: 'ucdn', business_type: 'live' });
  });

  it('describes a file service and the flags of the other kinds', async () => {
    const file = (await demo.get('/api/buckets/info/?bucket_name=demo-assets')).json().data;
    // storage.used counts the service's stored files (src/server/files)
    const stored = await s.db.selectFrom('file_objects').select((eb) => eb.fn.sum<number>('size').as('n')).where('bucket_id', '=', file.bucket_id).executeTakeFirstOrThrow();
    expect(Number(stored.n)).toBeGreaterThan(0);
    expect(file).toMatchObject({ kind: 'file', type: 'file', business_type: 'file', storage: { used: Number(stored.n) } });
    expect((await demo.get('/api/buckets/info/?bucket_name=demo-shop')).json().data).toMatchObject({ kind: 'scdn', security_cdn: true });
    expect((await demo.get('/api/buckets/info/?bucket_name=demo-chat')).json().data).toMatchObject({ kind: 'websocket', websocket: true });
    expect((await demo.get('/api/buckets/info/?bucket_name=demo-global')).json().data).toMatchObject({ kind: 'overseas', abroad: true });
    expect((await demo.get('/api/buckets/info/?bucket_name=demo-fusion')).json().data).toMatchObject({ kind: 'fusion', fusion_cdn: true });
  });

  it('answers 21905 for a service that does not exist', async () => {
    const res = await demo.get('/api/buckets/info/?bucket_name=no-such-service');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ result: false, error_code: 21905, message: '服务不存在或无权访问' });
  });

  it('asks for the service name', async () => {
    for (const url of ['/api/buckets/info/', '/api/buckets/info/?bucket_name=']) {
      const res = await demo.get(url);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        result: false,
        error_code: 20001,
        message: '提交的数据不符合要求，请检查后重试',
        errors: [{ path: '/bucket_name', message: '请填写服务名称' }],
      });
    }
  });
});
