/** GET and POST /api/https/tls answer as the minimum-TLS-version setting does (spec 002 §7). */
import { startTestServer, Client, type TestServer } from './helpers';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

test('the alias reads and writes the same setting, with the same rules and messages', async () => {
  const demo = await new Client(s.app).signIn('demo');
  expect((await demo.get('/api/https/tls?bucket_name=demo-static')).json()).toMatchObject({ result: true, data: { version: 'TLSv1.0' } });
  const saved = await demo.post('/api/https/tls', { bucket_name: 'demo-static', version: 'TLSv1.2' });
  expect(saved.json()).toMatchObject({ result: true, data: { version: 'TLSv1.2' } });
  expect((await demo.get('/api/settings/tls_min_version/?bucket_name=demo-static')).json().data).toEqual({ version: 'TLSv1.2' });
  const bad = await demo.post('/api/https/tls', { bucket_name: 'demo-static', version: 'SSLv3' });
  expect(bad.statusCode).toBe(400);
  expect(bad.json().errors).toEqual([{ path: '/version', message: '请选择 TLSv1.0、TLSv1.1、TLSv1.2 或 TLSv1.3' }]);
  // TLSv1.3 needs TLS 1.3 on: the same cross-setting rule as the setting route
  const needs13 = await demo.post('/api/https/tls', { bucket_name: 'demo-static', version: 'TLSv1.3' });
  expect(needs13.statusCode).toBe(400);
  expect(needs13.json().error_code).toBe((await demo.post('/api/settings/tls_min_version/', { bucket_name: 'demo-static', version: 'TLSv1.3' })).json().error_code);
  expect((await demo.get('/api/settings/tls_min_version/?bucket_name=demo-static')).json().data).toEqual({ version: 'TLSv1.2' });
  // another account's service is out of reach
  expect((await demo.get('/api/https/tls?bucket_name=secure-www')).json().error_code).toBe(21905);
});
