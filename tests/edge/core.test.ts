/**
 * The edge itself (docs/edge.md): a demo domain answers through nginx from the demo origin with
 * X-Cache, an unknown host gets the node's refusal, a refused service leaves the others serving and is
 * reported in Chinese, and the console's edge status follows the versions.
 */
import { startEdgeStack, type EdgeStack } from './harness';
import { currentVersion } from '../../src/server/edge/repo';

let edge: EdgeStack;

beforeAll(async () => {
  edge = await startEdgeStack();
  await edge.waitLive();
});
afterAll(async () => {
  await edge?.close();
});

test('a demo domain answers from the demo origin, MISS then HIT', async () => {
  const first = await edge.request('www.demo-example.com', '/css/site.css');
  expect(first.status).toBe(200);
  expect(first.headers['x-origin-uri']).toBe('/css/site.css');
  expect(first.headers['x-cache']).toBe('MISS');
  const second = await edge.request('www.demo-example.com', '/css/site.css');
  expect(second.headers['x-cache']).toBe('HIT');
  expect(edge.origin.hits.get('/css/site.css')).toBe(1);
});

test('what reaches the origin: the URI with its query, the client address, the Host', async () => {
  const res = await edge.request('www.demo-example.com', '/echo/a?b=1&c=2', { headers: { 'x-test': 'yes' } });
  const echo = JSON.parse(res.text);
  expect(echo.uri).toBe('/echo/a?b=1&c=2');
  expect(echo.headers.host).toBe('www.demo-example.com');
  expect(echo.headers['x-test']).toBe('yes');
  expect(echo.headers['x-real-ip']).toBe('127.0.0.1');
  expect(res.headers['x-cache']).toBe('MISS');
});

test('a host no service has gets the node refusal', async () => {
  const res = await edge.request('nobody.example.org', '/');
  expect(res.status).toBe(404);
  expect(res.text).toContain('该域名未接入本节点');
});

test('a certificate nginx cannot load refuses that service only; the others keep serving; the status says so', async () => {
  await edge.enableHttps('shop.demo-example.com', { certificate: { crt: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n', key: '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n' } });
  await edge.waitLive();
  const ok = await edge.request('www.demo-example.com', '/echo/still');
  expect(ok.status).toBe(200);
  // the refused service still serves its previous configuration over HTTP
  const shop = await edge.request('shop.demo-example.com', '/echo/x');
  expect(shop.status).toBe(200);
  const status = await edge.client.get('/api/buckets/edge/?bucket_name=demo-shop');
  const body = JSON.parse(status.body);
  expect(body.data.enabled).toBe(true);
  expect(body.data.state).toBe('refused');
  expect(body.data.message).toMatch(/^边缘节点（nginx）拒绝了该服务的配置：/);
  const www = JSON.parse((await edge.client.get('/api/buckets/edge/?bucket_name=demo-www')).body);
  expect(www.data.state).toBe('applied');
  expect(www.data.applied_version).toBeGreaterThanOrEqual(www.data.version);
});

test('a saved setting is pending until the edge applies it, then applied; every apply is recorded with its version', async () => {
  await edge.save('demo-static', 'cache_rules', { rules: [{ type: 'suffix', value: 'css', ttl: 600, ignore_query: false }] });
  const v = await currentVersion(edge.server.db);
  await edge.waitLive();
  const s = JSON.parse((await edge.client.get('/api/buckets/edge/?bucket_name=demo-static')).body).data;
  expect(s.settings.cache_rules.state).toBe('applied');
  const applies = await edge.server.db.selectFrom('edge_applies').select(['version', 'ok']).orderBy('id', 'desc').limit(1).execute();
  expect(Number(applies[0].version)).toBeGreaterThanOrEqual(v);
  expect(applies[0].ok).toBe(true);
});

test('the edge API refuses a request without the node key', async () => {
  const res = await fetch(`${edge.url}/edge/v1/config`);
  expect(res.status).toBe(401);
  const body = await res.json();
  expect(body.error_code).toBe(20010);
  expect(body.message).toBe('边缘节点密钥无效');
});
