/**
 * Tenants isolated on the edge as data (issue 33, docs/edge.md "Services as data"): a service the node
 * cannot use is refused for that service alone, with its Chinese reason, while another account's change
 * goes live beside it; a refusal is not retried in a loop; customers' changes never reload nginx (the
 * master and its workers stay the same processes).
 */
import fs from 'node:fs';
import path from 'node:path';
import { startEdgeStack, type EdgeStack } from './harness';
import { writeSetting } from '../../src/server/settings/repo';

let edge: EdgeStack;

/** nginx's worker processes (not the cache loader, which ends by itself a minute after the start). */
const children = (pid: number) =>
  fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter((p) => p && fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').includes('worker process')).sort().join(' ');
const master = () => Number(fs.readFileSync(path.join(edge.dir, 'run', 'nginx.pid'), 'utf8').trim());

/** Writes a setting of any account's service as the operator would (the database), bumping its version. */
async function operatorSetting(bucket: string, setting: string, value: object) {
  const db = edge.server.db;
  const b = await db.selectFrom('buckets').select(['id', 'owner_id']).where('name', '=', bucket).executeTakeFirstOrThrow();
  await writeSetting(db, b.id, setting, value, b.owner_id);
}

beforeAll(async () => {
  edge = await startEdgeStack();
  await edge.waitLive();
});
afterAll(async () => {
  await edge?.close();
});

test('a service the node cannot use is refused alone; another account’s change beside it goes live; no reload, no retry loop', async () => {
  const pid = master();
  const workers = children(pid);
  const reloads = edge.agent.reloads;

  // demo's shop gets a certificate OpenSSL cannot read; demokey's site (another account) changes its origin Host
  await edge.enableHttps('shop.demo-example.com', { certificate: { crt: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n', key: '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n' } });
  await operatorSetting('key-www', 'origin', { protocol: 'http', host: 'isolated.origin.example', servers: [{ address: '127.0.0.1', port: edge.origin.port, weight: 10, backup: false }], failover: { enable: false, timeout: 10, max_fails: 1 } });
  await edge.waitLive();

  const key = JSON.parse((await edge.request('www.key-example.com', '/echo/isolated')).text);
  expect(key.headers.host).toBe('isolated.origin.example');
  const shop = await edge.client.get('/api/buckets/edge/?bucket_name=demo-shop');
  const status = JSON.parse(shop.body).data;
  expect(status.state).toBe('refused');
  expect(status.message).toMatch(/^边缘节点（nginx）拒绝了该服务的配置：域名 shop\.demo-example\.com 的证书无法加载/);
  // the refused service keeps serving its previous version over plain HTTP
  expect((await edge.request('shop.demo-example.com', '/echo/still')).status).toBe(200);

  // the refusal is reported once for its version, not retried in a loop while nothing changes
  const applies = edge.agent.applied.length;
  await new Promise((r) => setTimeout(r, 2000));
  expect(edge.agent.applied.length - applies).toBeLessThanOrEqual(1);

  // twenty customer changes later: the same master, the same workers, no reload
  for (let i = 0; i < 20; i++) await edge.saveLive('demo-www', 'cache_rules', { rules: [{ type: 'suffix', value: 'css', ttl: 60 + i, ignore_query: false }] });
  expect(master()).toBe(pid);
  expect(children(pid)).toBe(workers);
  expect(edge.agent.reloads).toBe(reloads);
  expect(reloads).toBe(0);
});

test('a domain moved to another service never meets the first one’s cached objects (the cache key names the service)', async () => {
  // cached by demo-static…
  const host = 'static.demo-example.com';
  const first = await edge.request(host, '/css/site.css');
  expect(first.status).toBe(200);
  expect((await edge.request(host, '/css/site.css')).headers['x-cache']).toBe('HIT');
  // …then the domain goes to demokey's site, whose origin answers for it under another Host
  const db = edge.server.db;
  const to = await db.selectFrom('buckets').select('id').where('name', '=', 'key-www').executeTakeFirstOrThrow();
  await db.updateTable('bucket_domains').set({ bucket_id: to.id }).where('domain', '=', host).execute();
  await operatorSetting('key-www', 'origin', { protocol: 'http', host: 'moved.origin.example', servers: [{ address: '127.0.0.1', port: edge.origin.port, weight: 10, backup: false }], failover: { enable: false, timeout: 10, max_fails: 1 } });
  await edge.waitLive();
  const moved = await edge.request(host, '/css/site.css');
  expect(moved.status).toBe(200);
  expect(moved.headers['x-cache']).toBe('MISS');
});
