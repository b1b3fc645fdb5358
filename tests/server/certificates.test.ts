/** Own certificates parsed for real, and per-domain HTTPS (spec 002 Certificates). */
import fs from 'node:fs';
import path from 'node:path';
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { startTestServer, Client, type TestServer } from './helpers';
import { DEMO_CERTIFICATE_DAYS } from '../../src/server/certificates/seed';

const pem = (f: string) => fs.readFileSync(path.join(__dirname, '../fixtures/certs', f), 'utf8');
let s: TestServer;
let c: Client;
beforeAll(async () => {
  s = await startTestServer();
  c = await new Client(s.app).signIn('demo');
});
afterAll(async () => {
  await s.close();
});

const upload = (payload: object, client = c) => client.post('/api/https/certificate/', payload);

describe('upload', () => {
  it('parses a chain and a key: status 0 with names, issuer, validity, fingerprint', async () => {
    const res = await upload({ certificate: pem('ec.crt'), private_key: pem('ec.key'), remark: 'EC' });
    expect(res.statusCode).toBe(200);
    const d = res.json().data;
    expect(d).toMatchObject({ status: 0, common_name: 'www.secure-example.com', domains: ['www.secure-example.com'], remark: 'EC', gm: false });
    expect(d.fingerprint).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    expect(d.days_left).toBeGreaterThan(30000);
  });

  it('answers status 2 for a certificate already uploaded (the demo wildcard is seeded)', async () => {
    const seeded = await s.db.selectFrom('certificates').select(['certificate', 'private_key']).where('remark', '=', '演示通配符证书').executeTakeFirstOrThrow();
    const res = await upload({ certificate: seeded.certificate, private_key: seeded.private_key });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ error_code: 21704, message: '该证书已存在', data: { status: 2 } });
  });

  it('answers status 3 for an expired certificate, 4 for a key of another certificate', async () => {
    const expired = await upload({ certificate: pem('expired.crt'), private_key: pem('expired.key') });
    expect(expired.json()).toMatchObject({ error_code: 21705, message: '证书已过期', data: { status: 3 } });
    const mismatch = await upload({ certificate: pem('leaf.crt'), private_key: pem('other.key') });
    expect(mismatch.json()).toMatchObject({ error_code: 21702, message: '证书与私钥不匹配', data: { status: 4 } });
  });

  it('answers status 1 for a block that is not a certificate', async () => {
    const res = await upload({ certificate: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----', private_key: pem('leaf.key') });
    expect(res.json()).toMatchObject({ error_code: 21701, data: { status: 1 } });
  });

  it('refuses a password-protected key: by the declaration for PKCS#8, by the parser for legacy RSA', async () => {
    const pkcs8 = await upload({ certificate: pem('leaf.crt'), private_key: pem('encrypted.key') });
    expect(pkcs8.statusCode).toBe(400);
    expect(pkcs8.json().errors).toEqual([{ path: '/private_key', message: '私钥须为 PEM 格式（PRIVATE KEY、RSA PRIVATE KEY 或 EC PRIVATE KEY），不支持带密码的私钥' }]);
    const { execFileSync } = await import('node:child_process');
    const legacy = execFileSync('openssl', ['rsa', '-aes128', '-traditional', '-passout', 'pass:x'], { input: pem('leaf-rsa.key') }).toString();
    expect(legacy).toContain('Proc-Type: 4,ENCRYPTED');
    const res = await upload({ certificate: pem('leaf.crt'), private_key: legacy });
    expect(res.json()).toMatchObject({ error_code: 21703, message: '暂不支持带密码的私钥，请先去除私钥密码', data: { status: 1 } });
  });

  it('refuses a key pasted as certificate with the declaration\'s messages, storing nothing', async () => {
    const before = await s.db.selectFrom('certificates').select('id').execute();
    const res = await upload({ certificate: pem('leaf.key'), private_key: pem('leaf.crt') });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual(
      expect.arrayContaining([
        { path: '/certificate', message: '证书内容中包含私钥，请将私钥填写到私钥栏' },
        { path: '/private_key', message: '私钥内容中包含证书，请将证书填写到证书栏' },
      ]),
    );
    expect((await s.db.selectFrom('certificates').select('id').execute()).length).toBe(before.length);
  });
});

describe('list, search, view, download, delete', () => {
  it('lists the account\'s certificates newest first with the domains using them', async () => {
    const list = (await c.get('/api/https/certificate/list/')).json();
    expect(list.data.map((x: { common_name: string }) => x.common_name)).toEqual(['www.secure-example.com', '*.demo-example.com']);
    expect(list.data[1].bound).toEqual(['www.demo-example.com']);
    expect(list.pager).toEqual({ since: null, max: null });
  });

  it('the demo certificate is issued at seed time for a year by the sandbox CA, not valid for a century (issue 20 item 14)', async () => {
    const row = await s.db.selectFrom('certificates').selectAll().where('remark', '=', '演示通配符证书').executeTakeFirstOrThrow();
    const x = new X509Certificate(row.certificate);
    const days = (Date.parse(x.validTo) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(DEMO_CERTIFICATE_DAYS - 2);
    expect(days).toBeLessThanOrEqual(DEMO_CERTIFICATE_DAYS);
    expect(x.issuer).toMatch(/Sandbox Test CA/);
    expect(x.subjectAltName).toBe('DNS:*.demo-example.com, DNS:demo-example.com');
    expect(x.checkPrivateKey(createPrivateKey(row.private_key))).toBe(true);
  });

  it('finds certificates covering a domain, wildcards one level deep', async () => {
    const names = async (domain: string) => (await c.get(`/api/https/certificate/search?domain=${domain}`)).json().data.map((x: { common_name: string }) => x.common_name);
    expect(await names('static.demo-example.com')).toEqual(['*.demo-example.com']);
    expect(await names('demo-example.com')).toEqual(['*.demo-example.com']);
    expect(await names('a.b.demo-example.com')).toEqual([]);
  });

  it('downloads the PEM bundle, and never another account\'s', async () => {
    const id = (await c.get('/api/https/certificate/list/')).json().data[0].certificate_id;
    const res = await c.get(`/api/https/certificate/download?certificate_id=${id}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="www.secure-example.com.pem"');
    expect(res.body).toContain('-----BEGIN CERTIFICATE-----');
    expect(res.body).toContain('-----BEGIN PRIVATE KEY-----');
    const other = await new Client(s.app).signIn('demokey');
    expect((await other.get(`/api/https/certificate/download?certificate_id=${id}`)).json().error_code).toBe(21709);
    expect((await other.get(`/api/https/certificate/?certificate_id=${id}`)).statusCode).toBe(404);
  });

  it('refuses to delete a certificate in use, deletes one that is not', async () => {
    const list = (await c.get('/api/https/certificate/list/')).json().data;
    const used = list.find((x: { bound: string[] }) => x.bound.length).certificate_id;
    const res = await c.request({ method: 'DELETE', url: `/api/https/certificate/?certificate_id=${used}` });
    expect(res.json()).toMatchObject({ error_code: 21706, data: { bound: ['www.demo-example.com'] } });
    const free = list.find((x: { bound: string[] }) => !x.bound.length).certificate_id;
    expect((await c.request({ method: 'DELETE', url: `/api/https/certificate/?certificate_id=${free}` })).statusCode).toBe(200);
    expect((await c.get(`/api/https/certificate/?certificate_id=${free}`)).json().error_code).toBe(21709);
  });
});

describe('per-domain HTTPS', () => {
  const state = async (bucket: string) => (await c.get(`/api/https/services/manager?bucket_name=${bucket}`)).json().data;

  it('shows the seeded binding of www', async () => {
    expect((await state('demo-www'))[0]).toMatchObject({ domain: 'www.demo-example.com', https: true, force_https: false, certificate: { common_name: '*.demo-example.com' } });
  });

  it('tells whether the bound certificate is GM, so turning HTTPS on from the list can ask first', async () => {
    const [www] = await state('demo-www');
    expect(www.certificate.gm).toBe(false);
    await s.db.updateTable('certificates').set({ gm: true }).where('id', '=', www.certificate_id).execute();
    try {
      expect((await state('demo-www'))[0].certificate).toMatchObject({ common_name: '*.demo-example.com', gm: true });
    } finally {
      await s.db.updateTable('certificates').set({ gm: false }).where('id', '=', www.certificate_id).execute();
    }
  });

  it('forcing implies HTTPS on; HTTPS off clears forcing', async () => {
    const id = (await c.get('/api/https/certificate/search?domain=static.demo-example.com')).json().data[0].certificate_id;
    const on = await c.post('/api/https/certificate/manager', { domain: 'static.demo-example.com', certificate_id: id, https: false, force_https: true });
    expect(on.json().data).toMatchObject({ https: true, force_https: true });
    const off = await c.post('/api/https/certificate/manager', { domain: 'static.demo-example.com', certificate_id: id, https: false, force_https: false });
    expect(off.json().data).toMatchObject({ https: false, force_https: false });
    expect((await state('demo-static'))[0]).toMatchObject({ https: false, force_https: false });
  });

  it('needs a certificate that covers the domain', async () => {
    const none = await c.post('/api/https/certificate/manager', { domain: 'static.demo-example.com', https: true, force_https: false });
    expect(none.json()).toMatchObject({ error_code: 21708 });
    await upload({ certificate: pem('ec.crt'), private_key: pem('ec.key') });
    const ec = (await c.get('/api/https/certificate/search?domain=www.secure-example.com')).json().data[0].certificate_id;
    const wrong = await c.post('/api/https/certificate/manager', { domain: 'static.demo-example.com', certificate_id: ec, https: true, force_https: false });
    expect(wrong.json()).toMatchObject({ error_code: 21707, message: '证书不包含该域名，请选择包含该域名的证书' });
  });

  it('never reaches a domain of another account, and locks key customers', async () => {
    const key = await new Client(s.app).signIn('demokey');
    const res = await key.post('/api/https/certificate/manager', { domain: 'www.demo-example.com', https: false, force_https: false });
    expect(res.statusCode).toBe(404);
    expect((await key.post('/api/https/certificate/manager', { domain: 'www.key-example.com', https: false, force_https: false })).json().error_code).toBe(21210);
    expect((await state('demo-www'))[0].https).toBe(true);
  });
});
