/**
 * The same file-service and migration paths as ./files.test.ts with the storage on S3 (s3rver on
 * loopback, S3_ENDPOINT): the edge does not know or care where the control plane keeps the bytes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { startEdgeStack, type EdgeStack } from './harness';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const S3rver = require('s3rver');

let edge: EdgeStack;
let s3dir = '';
let s3server: any;

beforeAll(async () => {
  s3dir = fs.mkdtempSync(path.join(os.tmpdir(), 's3rver-edge-'));
  s3server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: s3dir });
  const addr: AddressInfo = await s3server.run();
  edge = await startEdgeStack({ config: { storage: { s3Endpoint: `http://127.0.0.1:${addr.port}`, s3Bucket: 'edge-files', s3AccessKey: 'S3RVER', s3SecretKey: 'S3RVER' } } });
  await edge.waitLive();
});
afterAll(async () => {
  await edge?.close();
  await s3server?.close();
  fs.rmSync(s3dir, { recursive: true, force: true });
});

test('on S3: an uploaded file answers through the edge, and a migrated answer lands in the bucket and the file list', async () => {
  expect(edge.server.app.storage.kind).toBe('s3');
  const bytes = Buffer.from('存放在 S3 上的文件\n');
  const boundary = '----edges3';
  const payload = Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="s3.txt"\r\nContent-Type: text/plain\r\n\r\n`), bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]);
  const up = await edge.client.request({ method: 'PUT', url: '/folder/demo-assets/', payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
  expect(up.statusCode).toBe(200);
  const res = await edge.request('assets.demo-example.com', '/s3.txt');
  expect(res.status).toBe(200);
  expect(res.body.equals(bytes)).toBe(true);
  expect(res.headers['content-length']).toBe(String(bytes.length));
  expect((await edge.request('assets.demo-example.com', '/s3.txt')).headers['x-cache']).toBe('HIT');
  expect((await edge.request('assets.demo-example.com', '/not-on-s3.txt')).status).toBe(404);

  // only what the edge caches for more than 24 hours migrates (the demo origin says an hour)
  await edge.saveLive('demo-www', 'cache_rules', { rules: [{ type: 'suffix', value: 'png', ttl: 172800, ignore_query: false }] });
  await edge.saveLive('demo-www', 'mirror', { mirror: 'enable', url_patterns: ['/img/*'], mirror_bucket: 'demo-assets' });
  expect((await edge.request('www.demo-example.com', '/img/logo.png')).status).toBe(200);
  const logo = fs.readFileSync(path.join(__dirname, '../../src/origin/site/img/logo.png'));
  const end = Date.now() + 5000;
  let listed: { name: string; size: number } | undefined;
  while (!listed && Date.now() < end) {
    const list = await edge.client.get('/folder/demo-assets/img/');
    listed = list.statusCode === 200 ? JSON.parse(list.body).data.find((e: { name: string }) => e.name === 'logo.png') : undefined;
    if (!listed) await new Promise((r) => setTimeout(r, 50));
  }
  expect(listed?.size).toBe(logo.length);
  const assetsId = (await edge.server.db.selectFrom('buckets').select('id').where('name', '=', 'demo-assets').executeTakeFirstOrThrow()).id;
  const stored = await edge.server.app.storage.get(`${assetsId}/img/logo.png`);
  const chunks: Buffer[] = [];
  for await (const c of stored!.body) chunks.push(c as Buffer);
  expect(Buffer.concat(chunks).equals(logo)).toBe(true);
});
