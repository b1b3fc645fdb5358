/**
 * spec 002 §5 (issue 19 item 21): an unbalanced chain, a private key in the certificate field and a
 * certificate in the key field are warnings the customer may confirm (confirm_warnings), not refusals:
 * without the confirmation the declaration's messages come back and nothing is stored; confirmed, the
 * upload is parsed and only the certificate blocks and the key block are stored.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Client, startTestServer, type TestServer } from './helpers';

let s: TestServer;
let demo: Client;
const pem = (f: string) => fs.readFileSync(path.resolve(__dirname, '../fixtures/certs', f), 'utf8').trim();

beforeAll(async () => {
  s = await startTestServer();
  // an account without the seeded demo wildcard (the same certificate twice is 21704)
  demo = await new Client(s.app).signIn('demosec');
}, 120_000);
afterAll(async () => {
  await s?.close();
});

const stored = (id: number) => s.db.selectFrom('certificates').select(['certificate', 'private_key']).where('id', '=', id).executeTakeFirstOrThrow();
const remove = (id: number) => demo.request({ method: 'DELETE', url: `/api/https/certificate/?certificate_id=${id}` });

it('a key pasted inside the chain: refused with the message until confirmed, then stored without the key', async () => {
  const certificate = `${pem('leaf.crt')}\n${pem('leaf.key')}\n${pem('ca.crt')}`;
  const before = await s.db.selectFrom('certificates').select('id').execute();
  let res = await demo.post('/api/https/certificate/', { certificate, private_key: pem('leaf.key') });
  expect(res.statusCode).toBe(400);
  expect(res.json().errors).toEqual([{ path: '/certificate', message: '证书内容中包含私钥，请将私钥填写到私钥栏' }]);
  expect(await s.db.selectFrom('certificates').select('id').execute()).toHaveLength(before.length);
  res = await demo.post('/api/https/certificate/', { certificate, private_key: pem('leaf.key'), confirm_warnings: true });
  expect(res.statusCode).toBe(200);
  const id = res.json().data.certificate_id;
  const row = await stored(id);
  expect(row.certificate).toBe(`${pem('leaf.crt')}\n${pem('ca.crt')}`);
  expect(row.certificate).not.toContain('PRIVATE KEY');
  expect(row.private_key).toBe(pem('leaf.key'));
  await remove(id);
});

it('an unbalanced chain and a certificate in the key field: confirmed, the complete blocks are kept', async () => {
  // a second BEGIN line without its END: the counts differ
  const certificate = `${pem('leaf.crt')}\n-----BEGIN CERTIFICATE-----\n${pem('ca.crt')}`;
  const private_key = `${pem('leaf.crt')}\n${pem('leaf.key')}`;
  let res = await demo.post('/api/https/certificate/', { certificate, private_key });
  expect(res.json().errors).toEqual(
    expect.arrayContaining([
      { path: '/certificate', message: '证书链不完整：BEGIN CERTIFICATE 与 END CERTIFICATE 的数量不一致' },
      { path: '/private_key', message: '私钥内容中包含证书，请将证书填写到证书栏' },
    ]),
  );
  res = await demo.post('/api/https/certificate/', { certificate, private_key, confirm_warnings: true });
  expect(res.json()).toMatchObject({ result: true });
  const row = await stored(res.json().data.certificate_id);
  expect(row.private_key).toBe(pem('leaf.key'));
  expect(row.certificate.match(/BEGIN CERTIFICATE/g)).toHaveLength(row.certificate.match(/END CERTIFICATE/g)!.length);
  await remove(res.json().data.certificate_id);
  // a confirmation does not lift the refusals: not PEM at all, a key that does not match
  res = await demo.post('/api/https/certificate/', { certificate: 'nonsense', private_key: pem('leaf.key'), confirm_warnings: true });
  expect(res.json().errors).toEqual([{ path: '/certificate', message: '证书须以 -----BEGIN CERTIFICATE----- 开头、以 -----END CERTIFICATE----- 结尾' }]);
  res = await demo.post('/api/https/certificate/', { certificate: pem('leaf.crt'), private_key: pem('other.key'), confirm_warnings: true });
  expect(res.json()).toMatchObject({ error_code: 21702, data: { status: 4 } });
});
