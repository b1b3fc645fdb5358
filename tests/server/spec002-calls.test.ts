/**
 * The calls of spec 002 §7 that answer beside the console's own (issue 19 item 19):
 * /api/https/trustasia/validate, query buckets v2, and every method on /api/https/certificate/manager/.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Client, startTestServer, type TestServer } from './helpers';

let s: TestServer;
let demo: Client;
const pem = (f: string) => fs.readFileSync(path.resolve(__dirname, '../fixtures/certs', f), 'utf8');

beforeAll(async () => {
  s = await startTestServer();
  demo = await new Client(s.app).signIn('demo');
}, 60_000);
afterAll(async () => {
  await s?.close();
});

const count = async (table: 'certificate_applications' | 'domain_https') => Number((await s.db.selectFrom(table).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);

describe('POST /api/https/trustasia/validate', () => {
  it('runs the application checks and stores nothing', async () => {
    const before = await count('certificate_applications');
    let res = await demo.post('/api/https/trustasia/validate', { domains: ['act2.demo-example.com'] });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ domains: ['act2.demo-example.com'], free_used: expect.any(Number), free_limit: 20, uses_pack: false, pack_remain: 0 });
    // the same refusals as POST /api/https/trustasia
    res = await demo.post('/api/https/trustasia/validate', { domains: ['www.secure-example.com'] });
    expect(res.json()).toMatchObject({ error_code: 23602, errors: [{ path: '/domains/0', message: 'www.secure-example.com 不是您服务中的域名' }] });
    res = await demo.post('/api/https/trustasia/validate', { domains: ['act2.demo-example.com', 'act3.demo-example.com'] });
    expect(res.json()).toMatchObject({ error_code: 23607 });
    res = await demo.post('/api/https/trustasia/validate', { domains: ['*.demo-example.com'] });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0]).toMatchObject({ path: '/domains/0', message: '请填写正确的域名（小写，免费证书不支持泛域名）' });
    res = await demo.post('/api/https/trustasia/validate', {});
    expect(res.json().errors[0].message).toBe('请填写域名');
    expect(await count('certificate_applications')).toBe(before);
    // a domain being applied for is refused
    const applied = await demo.post('/api/https/trustasia', { agent: 'trustasia', domains: ['act2.demo-example.com'] });
    expect(applied.statusCode).toBe(200);
    res = await demo.post('/api/https/trustasia/validate', { domains: ['act2.demo-example.com'] });
    expect(res.json()).toMatchObject({ error_code: 23604 });
    await s.db.deleteFrom('certificate_applications').where('id', '=', applied.json().data.apply_id).execute();
  });
});

describe('GET /api/buckets/v2/', () => {
  it('pages file services by number, filters by name, says the storage class', async () => {
    let res = await demo.get('/api/buckets/v2/?type=file&business_type=file&infrequent_access=true');
    expect(res.statusCode).toBe(200);
    const { buckets, pager } = res.json().data;
    expect(buckets.map((b: { bucket_name: string }) => b.bucket_name).sort()).toEqual(['demo-assets', 'demo-backup']);
    expect(buckets[0]).toMatchObject({ type: 'file', business_type: 'file', kind: 'file', storage_class: 'standard' });
    expect(pager).toEqual({ total: 2, page: 1, pages: 1 });
    res = await demo.get('/api/buckets/v2/?type=file&business_type=file&infrequent_access=true&bucket_name=asset&perPage=1');
    expect(res.json().data).toMatchObject({ buckets: [{ bucket_name: 'demo-assets' }], pager: { total: 1, page: 1, pages: 1 } });
    res = await demo.get('/api/buckets/v2/?type=ucdn&perPage=5&page=2');
    expect(res.json().data.buckets).toHaveLength(5);
    expect(res.json().data.pager.page).toBe(2);
    res = await demo.get('/api/buckets/v2/?type=file&business_type=live');
    expect(res.json().data).toEqual({ buckets: [], pager: { total: 0, page: 1, pages: 0 } });
    res = await demo.get('/api/buckets/v2/?type=image');
    expect(res.json()).toMatchObject({ error_code: 20001, errors: [{ message: '不支持的服务类型' }] });
  });
});

describe('/api/https/certificate/manager/ with the trailing slash', () => {
  it('GET reads a domain, POST and PUT change it, DELETE turns HTTPS off; another account cannot', async () => {
    const up = await demo.post('/api/https/certificate/', { certificate: pem('leaf.crt'), private_key: pem('leaf.key'), remark: 'spec002' });
    const certificateId = up.json().data?.certificate_id ?? up.json().data?.result?.certificate_id;
    expect(certificateId).toBeGreaterThan(0);
    const domain = 'img-www.demo-example.com';
    let res = await demo.post('/api/https/certificate/manager/', { domain, https: true, force_https: false, certificate_id: certificateId });
    expect(res.json().data).toEqual({ domain, https: true, force_https: false, certificate_id: certificateId });
    res = await demo.request({ method: 'PUT', url: '/api/https/certificate/manager/', payload: { domain: domain.toUpperCase(), https: true, force_https: true, certificate_id: certificateId } });
    expect(res.json().data).toMatchObject({ domain, force_https: true });
    res = await demo.get(`/api/https/certificate/manager/?domain=${domain}`);
    expect(res.json().data).toEqual({ domain, https: true, force_https: true, certificate_id: certificateId });
    const other = await new Client(s.app).signIn('demokey');
    res = await other.get(`/api/https/certificate/manager/?domain=${domain}`);
    expect(res.json()).toMatchObject({ error_code: 21905 });
    res = await other.request({ method: 'DELETE', url: `/api/https/certificate/manager/?domain=${domain}` });
    expect(res.json()).toMatchObject({ error_code: 21905 });
    res = await demo.request({ method: 'DELETE', url: `/api/https/certificate/manager/?domain=${domain}` });
    expect(res.json().data).toEqual({ domain, https: false, force_https: false, certificate_id: null });
    res = await demo.get(`/api/https/certificate/manager/?domain=${domain}`);
    expect(res.json().data).toMatchObject({ https: false, force_https: false });
    res = await demo.get('/api/https/certificate/manager/');
    expect(res.json().errors[0].message).toBe('请填写域名');
  });
});
