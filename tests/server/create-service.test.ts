/** Creating services (spec 000 §5): key customers, the overseas balance rule, unique names and domains, 10 domains. */
import { startTestServer, Client, type TestServer } from './helpers';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s.close();
});

async function demo2fa(): Promise<Client> {
  const c = new Client(s.app);
  await c.put('/accounts/two_step_verify/code', { username: 'demo2fa', password: 'demo123456', verify_type: 'sms' });
  const sms = await s.db.selectFrom('sms_outbox').select('text').where('mobile', '=', '13912345678').orderBy('id', 'desc').executeTakeFirstOrThrow();
  await c.post('/accounts/signin/', { username: 'demo2fa', password: 'demo123456', code: /(\d{6})/.exec(sms.text)![1] });
  return c;
}

describe('PUT /api/buckets/', () => {
  it('creates a CDN service with its domains, lists it and logs it', async () => {
    const c = await new Client(s.app).signIn('demo');
    const res = await c.put('/api/buckets/', { bucket_name: 'new-site', kind: 'cdn', domains: ['www.new-example.com'], remark: '新站点' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ bucket_name: 'new-site', kind: 'cdn', remark: '新站点', domains: [{ domain: 'www.new-example.com', cname: 'new-site.cdn-cname.example.net' }] });
    const list = (await c.get('/api/buckets/?business_type=cdn&bucket_name=new-site')).json();
    expect(list.data.map((b: { bucket_name: string }) => b.bucket_name)).toEqual(['new-site']);
    const log = await s.db.selectFrom('operation_logs').select(['action', 'target']).where('target', '=', 'new-site').execute();
    expect(log).toEqual([{ action: 'bucket.create', target: 'new-site' }]);
  });

  it('refuses a taken name and a domain bound to another service, storing nothing', async () => {
    const c = await new Client(s.app).signIn('demo');
    const name = await c.put('/api/buckets/', { bucket_name: 'secure-www', kind: 'cdn', domains: [] });
    expect(name.statusCode).toBe(409);
    expect(name.json()).toMatchObject({ error_code: 21213, message: '服务名称已存在，请换一个名称' });
    const domain = await c.put('/api/buckets/', { bucket_name: 'other-site', kind: 'cdn', domains: ['ok.example.com', 'www.secure-example.com'] });
    expect(domain.json()).toMatchObject({ error_code: 21215, errors: [{ path: '/domains/1', message: '域名 www.secure-example.com 已被其他服务绑定' }] });
    expect(await s.db.selectFrom('buckets').select('id').where('name', '=', 'other-site').executeTakeFirst()).toBeUndefined();
    expect(await s.db.selectFrom('bucket_domains').select('id').where('domain', '=', 'ok.example.com').executeTakeFirst()).toBeUndefined();
  });

  it('refuses more than 10 domains and bad names with the schema messages', async () => {
    const c = await new Client(s.app).signIn('demo');
    const res = await c.put('/api/buckets/', { bucket_name: 'Bad_Name', kind: 'cdn', domains: Array.from({ length: 11 }, (_, i) => `d${i}.example.com`) });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual(
      expect.arrayContaining([
        { path: '/bucket_name', message: '服务名称为 5 - 40 位小写英文、数字或中划线，以小写英文开头' },
        { path: '/domains', message: '每个服务最多绑定 10 个域名' },
      ]),
    );
  });

  it('refuses file and CDN creation for key customers with the lock message', async () => {
    const key = await new Client(s.app).signIn('demokey');
    for (const kind of ['file', 'cdn']) {
      const res = await key.put('/api/buckets/', { bucket_name: `key-new-${kind}`, kind, domains: [] });
      expect(res.statusCode).toBe(403);
      expect(res.json().error_code).toBe(21210);
    }
    // a live service is not locked
    expect((await key.put('/api/buckets/', { bucket_name: 'key-new-live', kind: 'live', domains: [] })).statusCode).toBe(200);
  });

  it('allows overseas creation only from a balance of 399 or with the switch on', async () => {
    const poor = await demo2fa(); // balance 100
    const refused = await poor.put('/api/buckets/', { bucket_name: 'poor-global', kind: 'overseas', domains: [] });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error_code: 21212, message: '账户余额不足 399 元，暂不能创建海外加速服务，请充值或联系客服开通' });
    await s.db.updateTable('users').set({ overseas_acceleration_switch: true }).where('username', '=', 'demo2fa').execute();
    expect((await poor.put('/api/buckets/', { bucket_name: 'poor-global', kind: 'overseas', domains: [] })).statusCode).toBe(200);
    const rich = await new Client(s.app).signIn('demo'); // balance 1288.50
    expect((await rich.put('/api/buckets/', { bucket_name: 'rich-global', kind: 'overseas', domains: [] })).statusCode).toBe(200);
  });
});
