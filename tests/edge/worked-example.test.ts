/**
 * Replays the worked example of docs/adding-a-setting.md on a real edge: the folder's files are taken
 * from the document, put in a copy of schemas/settings (SCHEMAS_DIR), and a server and an edge agent
 * reading that copy make the new setting work — an expired page answers from the cache while the
 * origin is down — with no code touched.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { copySettingsWithExample, exampleFiles } from '../fixtures/worked-example';
import { startEdgeStack, type EdgeStack } from './harness';

const ROOT = path.resolve(__dirname, '../..');
let tmp: string;
let edge: EdgeStack;

beforeAll(async () => {
  const files = exampleFiles(fs.readFileSync(path.join(ROOT, 'docs/adding-a-setting.md'), 'utf8'));
  expect(Object.keys(files)).toContain('edge.ts');
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'worked-example-'));
  // nginx's workers (nobody when the test runs as root) read the settings' edge.lua from the copy
  fs.chmodSync(tmp, 0o755);
  const settings = path.join(tmp, 'settings');
  copySettingsWithExample(ROOT, settings, files);
  process.env.SCHEMAS_DIR = settings;
  edge = await startEdgeStack();
  await edge.waitLive();
});
afterAll(async () => {
  await edge?.close();
  delete process.env.SCHEMAS_DIR;
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

/** A page the origin lets the edge keep for one second. */
const PAGE = '/headers?Cache-Control=max-age%3D1&X-Page=worked-example';

test('without the setting, an expired page with the origin down is an error; with it, the stale copy answers', async () => {
  // cached, then expired
  expect((await edge.request('www.demo-example.com', PAGE)).status).toBe(200);
  expect((await edge.request('static.demo-example.com', PAGE)).status).toBe(200);
  await edge.saveLive('demo-www', 'always_online', { enable: true, max_stale: 86400, include_5xx: false });
  // max-age=1 in nginx's whole seconds: stale for certain only after two (1.5 s left it fresh now and then)
  await new Promise((r) => setTimeout(r, 2500));
  // the origin goes down: both services now point at a port where nothing listens (written as the demo
  // seed writes origins; closing the demo origin instead let another test's origin take its port)
  const down = JSON.stringify({ protocol: 'http', host: '', servers: [{ address: '127.0.0.1', port: 9, weight: 10, backup: false }], failover: { enable: false, timeout: 2, max_fails: 1 } });
  await edge.server.db
    .updateTable('service_settings')
    .set({ value: down })
    .where('setting_id', '=', 'origin')
    .where('bucket_id', 'in', edge.server.db.selectFrom('buckets').select('id').where('name', 'in', ['demo-www', 'demo-static']))
    .execute();
  await edge.waitLive();

  const on = await edge.request('www.demo-example.com', PAGE);
  expect(on.status).toBe(200);
  expect(on.headers['x-page']).toBe('worked-example');
  expect(on.headers['x-cache']).toBe('HIT');

  const off = await edge.request('static.demo-example.com', PAGE);
  expect(off.status).toBeGreaterThanOrEqual(500);
});

test('what this edge cannot do is said on the setting: 未能生效 with the reason', async () => {
  const status = JSON.parse((await edge.client.get('/api/buckets/edge/?bucket_name=demo-www')).body).data;
  expect(status.settings.always_online).toEqual({ state: 'failed', message: expect.stringContaining('本边缘节点不能限定过期内容的有效期') });
  await edge.saveLive('demo-www', 'always_online', { enable: true, max_stale: 2592000, include_5xx: false });
  const after = JSON.parse((await edge.client.get('/api/buckets/edge/?bucket_name=demo-www')).body).data;
  expect(after.settings.always_online).toEqual({ state: 'applied' });
});
