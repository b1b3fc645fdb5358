/**
 * Free certificates: the application calls, the limits, and a real ACME issuance from Debian's
 * pebble on loopback with HTTP-01 validated against this server (tests/server/certificates-pebble.ts),
 * bound to a demo domain, then renewed in place.
 */
import { X509Certificate } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { Client, startTestServer, type TestServer } from './helpers';
import { freePort, startPebble, type Pebble } from './certificates-pebble';
import { runAcmeJobs, type AcmeConfig } from '../../src/server/certificates/acme';
import { grantPackage } from '../../src/server/billing/resources/grant';

let s: TestServer;
let pebble: Pebble;
let acme: AcmeConfig;
let demo: Client;

beforeAll(async () => {
  s = await startTestServer();
  await s.app.listen({ port: 0, host: '127.0.0.1' });
  const port = (s.app.server.address() as AddressInfo).port;
  pebble = await startPebble(port);
  acme = { directoryUrl: pebble.directoryUrl, caFile: pebble.caFile, email: 'ops@demo-example.com', renewDays: 30 };
  demo = await new Client(s.app).signIn('demo');
}, 120_000);

afterAll(async () => {
  await pebble?.stop();
  await s?.close();
});

describe('applying', () => {
  it('refuses wildcards, foreign domains and a second domain for single-domain agents', async () => {
    let res = await demo.post('/api/https/letsencrypt', { agent: 'letsencrypt', domains: ['*.demo-example.com'] });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0]).toMatchObject({ path: '/domains/0', message: '请填写正确的域名（小写，免费证书不支持泛域名）' });
    res = await demo.post('/api/https/letsencrypt', { agent: 'letsencrypt', domains: ['www.secure-example.com'] });
    expect(res.json()).toMatchObject({ error_code: 23602 });
    res = await demo.post('/api/https/trustasia', { agent: 'trustasia', domains: ['static.demo-example.com', 'img.demo-example.com'] });
    expect(res.json()).toMatchObject({ error_code: 23607 });
  });

  it('racent: pre-domain-check, then apply with apply_id; apply twice is refused', async () => {
    let res = await demo.post('/api/https/racent/certificate/free/predcv', { agent: 'racent', domains: ['act1.demo-example.com'] });
    expect(res.statusCode).toBe(200);
    const apply = res.json().data;
    expect(apply).toMatchObject({ agent: 'racent', status: 'dcv', status_text: '待验证', dcv_path: '/.well-known/acme-challenge/' });
    res = await demo.post('/api/https/trustasia', { agent: 'trustasia', domains: ['act1.demo-example.com'] });
    expect(res.json()).toMatchObject({ error_code: 23604 });
    res = await demo.post('/api/https/racent/certificate/free/apply', { apply_id: apply.apply_id });
    expect(res.json().data).toMatchObject({ status: 'pending', status_text: '申请中' });
    res = await demo.post('/api/https/racent/certificate/free/apply', { apply_id: apply.apply_id });
    expect(res.json()).toMatchObject({ error_code: 23606 });
    // another account cannot see it
    const other = await new Client(s.app).signIn('demokey');
    res = await other.get(`/api/https/apply?apply_id=${apply.apply_id}`);
    expect(res.json()).toMatchObject({ error_code: 23605 });
    // without a directory the worker leaves it waiting
    expect(await runAcmeJobs(s.db, { ...acme, directoryUrl: '' })).toBe(0);
    await s.db.deleteFrom('certificate_applications').where('id', '=', apply.apply_id).execute();
  });

  it('at most 20 free certificates (24601); failed applications do not count', async () => {
    const user = await s.db.selectFrom('users').select('id').where('username', '=', 'demo').executeTakeFirstOrThrow();
    const rows = Array.from({ length: 21 }, (_, i) => ({ account_id: user.id, agent: 'letsencrypt', domains: JSON.stringify([`n${i}.demo-example.com`]), status: i === 20 ? 'failed' : 'issued' }));
    const ids = (await s.db.insertInto('certificate_applications').values(rows).returning('id').execute()).map((r) => r.id);
    try {
      const res = await demo.post('/api/https/letsencrypt', { agent: 'letsencrypt', domains: ['act3.demo-example.com'] });
      expect(res.json()).toMatchObject({ error_code: 24601, message: '免费证书最多申请 20 张', data: { link: '/billing/sslpack/' } });
      const list = await demo.get('/api/https/apply/certificate_list/?limit=5');
      expect(list.json()).toMatchObject({ free_used: 20, free_limit: 20, pack_remain: 0 });
      expect(list.json().data).toHaveLength(5);
    } finally {
      await s.db.deleteFrom('certificate_applications').where('id', 'in', ids).execute();
    }
  });

  it('beyond 20, each application takes one unit of a free-certificate extension package; a failed one gives it back', async () => {
    const user = await s.db.selectFrom('users').select('id').where('username', '=', 'demo').executeTakeFirstOrThrow();
    const rows = Array.from({ length: 20 }, (_, i) => ({ account_id: user.id, agent: 'letsencrypt', domains: JSON.stringify([`m${i}.demo-example.com`]), status: 'issued' }));
    const ids = (await s.db.insertInto('certificate_applications').values(rows).returning('id').execute()).map((r) => r.id);
    // an expired package is not used; the valid one is
    const old = await grantPackage(s.db, user.id, { kind: 'sslpack', spec: 'sslpack_10', amount: 10, unit: '张', validDays: 1, startsAt: new Date(Date.now() - 3 * 86_400_000) });
    const pack = await grantPackage(s.db, user.id, { kind: 'sslpack', spec: 'sslpack_10', amount: 10, unit: '张', validDays: 365 });
    const remainOf = async (id: number) => Number((await s.db.selectFrom('resource_packages').select('remain').where('id', '=', id).executeTakeFirstOrThrow()).remain);
    try {
      const res = await demo.post('/api/https/letsencrypt', { agent: 'letsencrypt', domains: ['act3.demo-example.com'] });
      expect(res.statusCode).toBe(200);
      const applyId = res.json().data.apply_id;
      expect((await s.db.selectFrom('certificate_applications').select('pack_id').where('id', '=', applyId).executeTakeFirstOrThrow()).pack_id).toBe(pack);
      expect([await remainOf(old), await remainOf(pack)]).toEqual([10, 9]);
      expect((await demo.get('/api/https/apply/certificate_list/?limit=5')).json()).toMatchObject({ free_used: 21, free_limit: 20, pack_remain: 9 });
      expect((await demo.get('/api/resources/usage?kind=sslpack')).json().data).toEqual([{ day: expect.any(String), quantity: 1, covered: 1, charged: 0 }]);
      // the CA cannot validate (a pebble whose validation goes to a port where nothing listens): the unit goes back
      const elsewhere = await startPebble(await freePort());
      try {
        expect(await runAcmeJobs(s.db, { ...acme, directoryUrl: elsewhere.directoryUrl, caFile: elsewhere.caFile })).toBe(1);
      } finally {
        await elsewhere.stop();
      }
      const failed = await s.db.selectFrom('certificate_applications').select(['status', 'pack_id']).where('id', '=', applyId).executeTakeFirstOrThrow();
      expect(failed).toEqual({ status: 'failed', pack_id: null });
      expect(await remainOf(pack)).toBe(10);
      await s.db.deleteFrom('certificate_applications').where('id', '=', applyId).execute();
    } finally {
      await s.db.deleteFrom('certificate_applications').where('id', 'in', ids).execute();
      await s.db.deleteFrom('resource_packages').where('id', 'in', [old, pack]).execute();
    }
  }, 120_000);
});

describe('ACME against pebble', () => {
  const domain = 'static.demo-example.com';

  it('answers HTTP-01 only for a known token', async () => {
    await s.db.insertInto('acme_challenges').values({ token: 'tok-known', key_authorization: 'tok-known.thumb' }).execute();
    let res = await s.app.inject({ method: 'GET', url: '/.well-known/acme-challenge/tok-known' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('tok-known.thumb');
    res = await s.app.inject({ method: 'GET', url: '/.well-known/acme-challenge/tok-unknown' });
    expect(res.statusCode).toBe(404);
    await s.db.deleteFrom('acme_challenges').where('token', '=', 'tok-known').execute();
  });

  it('obtains a real certificate, binds it to a demo domain, renews it in place', async () => {
    let res = await demo.post('/api/https/letsencrypt', { agent: 'letsencrypt', domains: [domain] });
    expect(res.statusCode).toBe(200);
    const applyId = res.json().data.apply_id;
    expect(await runAcmeJobs(s.db, acme)).toBe(1);
    res = await demo.get(`/api/https/apply?apply_id=${applyId}`);
    const app = res.json().data;
    expect(app).toMatchObject({ status: 'issued', status_text: '已签发', error: null });
    expect(await s.db.selectFrom('acme_challenges').select('token').execute()).toEqual([]);
    const told = await s.db.selectFrom('messages').select(['title', 'body']).where('category', '=', 'certificate').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(told).toEqual({ title: '免费证书已签发', body: `${domain} 的免费证书已签发，可在 SSL 证书中为域名开启 HTTPS。` });

    res = await demo.get(`/api/https/certificate/?certificate_id=${app.certificate_id}`);
    const cert = res.json().data;
    expect(cert.domains).toEqual([domain]);
    expect(cert.issuer).toMatch(/Pebble/);
    expect(cert.days_left).toBeGreaterThan(30);

    // the chain pebble returned leads to pebble's root
    const row = await s.db.selectFrom('certificates').select(['certificate', 'serial']).where('id', '=', app.certificate_id).executeTakeFirstOrThrow();
    const blocks = row.certificate.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g)!;
    const root = new X509Certificate(await pebble.root());
    const leaf = new X509Certificate(blocks[0]!);
    const intermediate = new X509Certificate(blocks[1]!);
    expect(leaf.checkIssued(intermediate) && leaf.verify(intermediate.publicKey)).toBe(true);
    expect(intermediate.verify(root.publicKey)).toBe(true);

    res = await demo.post('/api/https/certificate/manager', { domain, certificate_id: app.certificate_id, https: true, force_https: true });
    expect(res.json()).toMatchObject({ result: true, data: { https: true, force_https: true } });
    res = await demo.get('/api/https/services/manager?bucket_name=demo-static');
    expect(res.json().data.find((d: { domain: string }) => d.domain === domain)).toMatchObject({ https: true, certificate_id: app.certificate_id });

    // renewal: seen from a day 10 days before the end, the job orders again and replaces the row in place
    const validTo = new Date(cert.valid_to);
    await s.db.updateTable('certificate_applications').set({ updated_at: new Date(Date.now() - 2 * 3_600_000) }).where('id', '=', applyId).execute();
    expect(await runAcmeJobs(s.db, acme, undefined, new Date(validTo.getTime() - 10 * 86_400_000))).toBe(1);
    const renewed = await s.db.selectFrom('certificates').select(['id', 'serial']).where('id', '=', app.certificate_id).executeTakeFirstOrThrow();
    expect(renewed.serial).not.toBe(row.serial);
    expect((await s.db.selectFrom('messages').select('title').where('category', '=', 'certificate').orderBy('id', 'desc').executeTakeFirstOrThrow()).title).toBe('免费证书已续期');
    res = await demo.get('/api/https/services/manager?bucket_name=demo-static');
    expect(res.json().data.find((d: { domain: string }) => d.domain === domain)).toMatchObject({ https: true, certificate_id: app.certificate_id });
    // nothing due now
    expect(await runAcmeJobs(s.db, acme)).toBe(0);
  }, 120_000);

  it('a domain that does not answer the challenge fails with the CA message', async () => {
    const res = await demo.post('/api/https/letsencrypt', { agent: 'letsencrypt', domains: ['act2.demo-example.com'] });
    const applyId = res.json().data.apply_id;
    const elsewhere = await startPebble(await freePort()); // a second pebble whose validation goes to a port where nothing listens
    try {
      expect(await runAcmeJobs(s.db, { ...acme, directoryUrl: elsewhere.directoryUrl, caFile: elsewhere.caFile })).toBe(1);
    } finally {
      await elsewhere.stop();
    }
    const app = (await demo.get(`/api/https/apply?apply_id=${applyId}`)).json().data;
    expect(app.status).toBe('failed');
    expect(app.error).toBeTruthy();
  }, 120_000);
});
