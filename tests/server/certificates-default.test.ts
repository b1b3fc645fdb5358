/** The default-domain HTTPS page's calls and certificate/domain migration (spec 002 §2, §4, §7). */
import fs from 'node:fs';
import path from 'node:path';
import { Client, startTestServer, type TestServer } from './helpers';

const CERTS = path.resolve(__dirname, '../fixtures/certs');
const read = (f: string) => fs.readFileSync(path.join(CERTS, f), 'utf8');

let s: TestServer;
let demo: Client;

beforeAll(async () => {
  s = await startTestServer();
  demo = await new Client(s.app).signIn('demo');
}, 120_000);
afterAll(() => s.close());

describe('default domain HTTPS', () => {
  it('lists every service with its default domain, HTTPS off at first', async () => {
    const res = await demo.get('/api/https/domain/default/manager/');
    expect(res.statusCode).toBe(200);
    const www = res.json().data.find((d: { bucket_name: string }) => d.bucket_name === 'demo-www');
    expect(www).toEqual({ bucket_name: 'demo-www', kind: 'cdn', domain: `demo-www.${res.json().suffix}`, https: false, force_https: false });
  });

  it('forcing implies HTTPS on; HTTPS off clears forcing', async () => {
    let res = await demo.post('/api/https/domain/default/manager/', { bucket_name: 'demo-www', https: false, force_https: true });
    expect(res.json().data).toMatchObject({ https: true, force_https: true });
    res = await demo.post('/api/https/domain/default/manager/', { bucket_name: 'demo-www', https: true, force_https: false });
    expect(res.json().data).toMatchObject({ https: true, force_https: false });
    res = await demo.post('/api/https/domain/default/manager/', { bucket_name: 'demo-www', https: false, force_https: false });
    expect(res.json().data).toMatchObject({ https: false, force_https: false });
    res = await demo.get('/api/https/domain/default/manager/');
    expect(res.json().data.find((d: { bucket_name: string }) => d.bucket_name === 'demo-www')).toMatchObject({ https: false, force_https: false });
  });

  it("refuses another account's service and a locked account", async () => {
    let res = await demo.post('/api/https/domain/default/manager/', { bucket_name: 'secure-www', https: true, force_https: false });
    expect(res.json()).toMatchObject({ error_code: 21905 });
    const key = await new Client(s.app).signIn('demokey');
    const own = (await key.get('/api/https/domain/default/manager/')).json().data[0];
    res = await key.post('/api/https/domain/default/manager/', { bucket_name: own.bucket_name, https: true, force_https: false });
    expect(res.json().result).toBe(false);
  });
});

describe('migration', () => {
  let seedCert = 0;
  let leafCert = 0;
  let ecCert = 0;

  beforeAll(async () => {
    const list = (await demo.get('/api/https/certificate/list/?limit=100')).json().data;
    seedCert = list.find((c: { bound: string[] }) => c.bound.includes('www.demo-example.com')).certificate_id;
    let res = await demo.post('/api/https/certificate/', { certificate: read('chain.pem'), private_key: read('leaf.key') });
    leafCert = res.json().data?.certificate_id ?? res.json().certificate_id;
    res = await demo.post('/api/https/certificate/', { certificate: read('ec.crt'), private_key: read('ec.key') });
    ecCert = res.json().data.certificate_id;
    expect([seedCert, leafCert, ecCert].every(Boolean)).toBe(true);
  });

  it('moves every domain of a certificate to one that covers them, or none', async () => {
    let res = await demo.post('/api/https/migrate/certificate', { certificate_id: seedCert, target_certificate_id: ecCert });
    expect(res.json()).toMatchObject({ error_code: 21707 });
    expect(res.json().errors[0].message).toBe('证书不包含域名 www.demo-example.com');
    res = await demo.post('/api/https/migrate/certificate', { certificate_id: seedCert, target_certificate_id: leafCert });
    expect(res.json()).toMatchObject({ result: true, data: { certificate_id: leafCert, domains: ['www.demo-example.com'] } });
    const www = (await demo.get('/api/https/services/manager?bucket_name=demo-www')).json().data.find((d: { domain: string }) => d.domain === 'www.demo-example.com');
    expect(www).toMatchObject({ https: true, certificate_id: leafCert });
    // and back, so the seed's state is kept
    res = await demo.post('/api/https/migrate/certificate', { certificate_id: leafCert, target_certificate_id: seedCert });
    expect(res.json().data.domains).toEqual(['www.demo-example.com']);
  });

  it('moves chosen domains, creating their HTTPS row with HTTPS still off', async () => {
    let res = await demo.post('/api/https/migrate/domain', { domains: ['Static.demo-example.com'], certificate_id: leafCert });
    expect(res.json()).toMatchObject({ result: true, data: { certificate_id: leafCert, domains: ['static.demo-example.com'] } });
    const st = (await demo.get('/api/https/services/manager?bucket_name=demo-static')).json().data.find((d: { domain: string }) => d.domain === 'static.demo-example.com');
    expect(st).toMatchObject({ https: false, certificate_id: leafCert });
    res = await demo.post('/api/https/migrate/domain', { domains: ['www.secure-example.com'], certificate_id: ecCert });
    expect(res.json()).toMatchObject({ error_code: 21905 });
    res = await demo.post('/api/https/migrate/domain', { domains: ['static.demo-example.com'], certificate_id: ecCert });
    expect(res.json()).toMatchObject({ error_code: 21707 });
    res = await demo.post('/api/https/migrate/domain', { domains: [], certificate_id: ecCert });
    expect(res.json().errors[0]).toMatchObject({ path: '/domains', message: '请选择域名' });
  });
});
