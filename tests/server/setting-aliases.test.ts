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

test('HTTP/3 accepts http3_enable (spec 002 §7) as another name of enable', async () => {
  const demo = await new Client(s.app).signIn('demo');
  await demo.post('/api/settings/tls13/', { bucket_name: 'demo-static', tls: true });
  const on = await demo.post('/api/settings/http3/', { bucket_name: 'demo-static', http3_enable: true });
  expect(on.json()).toMatchObject({ result: true, data: { enable: true } });
  expect((await demo.get('/api/settings/http3/?bucket_name=demo-static')).json().data).toEqual({ enable: true });
  // the rules between settings see the renamed field: without TLS 1.3, turning HTTP/3 on is refused
  expect((await demo.post('/api/settings/http3/', { bucket_name: 'demo-static', http3_enable: false })).json().data).toEqual({ enable: false });
  await demo.post('/api/settings/tls13/', { bucket_name: 'demo-static', tls: false });
  const refused = await demo.post('/api/settings/http3/', { bucket_name: 'demo-static', http3_enable: true });
  expect(refused.statusCode).toBe(400);
  expect(refused.json().errors).toEqual([expect.objectContaining({ path: '/enable', message: 'HTTP/3 基于 TLS 1.3，请先开启 TLS 1.3 后再开启 HTTP/3' })]);
  // the field's own name still works, and a wrong type under the alias gets the field's message
  expect((await demo.post('/api/settings/http3/', { bucket_name: 'demo-static', enable: false })).json().data).toEqual({ enable: false });
  const bad = await demo.post('/api/settings/http3/', { bucket_name: 'demo-static', http3_enable: 'yes' });
  expect(bad.json().errors).toEqual([{ path: '/enable', message: 'HTTP/3 状态只能是开启或关闭' }]);
});
