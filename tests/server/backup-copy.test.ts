/**
 * Cross-platform backup copies for real (issue 19 item 25): a run copies the service's files to an
 * S3-compatible target (s3rver on loopback), then only what changed; progress and the result on the
 * configuration; the secret never answered; a target that refuses fails the run with the reason; a
 * local endpoint is refused unless allowed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { GetObjectCommand, ListObjectsV2Command, S3Client, CreateBucketCommand } from '@aws-sdk/client-s3';
import { Client, startTestServer, type TestServer } from './helpers';
import { writeFile } from '../../src/server/files/repo';
import { queueDueRuns, runBackups } from '../../src/server/backup/worker';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const S3rver = require('s3rver');

let s: TestServer;
let demo: Client;
let s3server: any;
let s3dir = '';
let endpoint = '';
let target: S3Client;
let bucketId = 0;

// a key pair of s3rver's own account (s3rver checks the key id of a V4 signature, not the signature)
const KEY_ID = 'backup-key-id';
const SECRET = 'backup-secret-2026';
// eslint-disable-next-line @typescript-eslint/no-require-imports
require('s3rver/lib/models/account').DUMMY_ACCOUNT.createKeyPair(KEY_ID, SECRET);
const text = async (key: string) => (await (await target.send(new GetObjectCommand({ Bucket: 'backup-target', Key: key }))).Body!.transformToString());
const keys = async () => ((await target.send(new ListObjectsV2Command({ Bucket: 'backup-target' }))).Contents ?? []).map((o) => o.Key).sort();

beforeAll(async () => {
  s3dir = fs.mkdtempSync(path.join(os.tmpdir(), 's3rver-backup-'));
  s3server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: s3dir });
  const addr: AddressInfo = await s3server.run();
  endpoint = `http://127.0.0.1:${addr.port}`;
  target = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
  await target.send(new CreateBucketCommand({ Bucket: 'backup-target' }));
  s = await startTestServer({ config: { backup: { allowLocalEndpoints: true } } });
  demo = await new Client(s.app).signIn('demo');
  bucketId = (await s.db.selectFrom('buckets').select('id').where('name', '=', 'demo-backup').executeTakeFirstOrThrow()).id;
  await s.db.deleteFrom('file_objects').where('bucket_id', '=', bucketId).execute();
  await writeFile(s.db, s.app.storage, bucketId, 'index.html', Buffer.from('<h1>首页</h1>'), 'text/html', null);
  await writeFile(s.db, s.app.storage, bucketId, 'img/a.txt', Buffer.from('aaa'), 'text/plain', null);
  await writeFile(s.db, s.app.storage, bucketId, 'img/b.txt', Buffer.from('bbbb'), 'text/plain', null);
}, 90_000);

afterAll(async () => {
  target?.destroy();
  await s?.close();
  await s3server?.close();
  fs.rmSync(s3dir, { recursive: true, force: true });
});

const conf = (extra: object = {}) => ({ name: '真实备份', bucket_name: 'demo-backup', platform: 's3_compatible', region: 'us-east-1', endpoint, target_bucket: 'backup-target', prefix: 'site/', access_key_id: KEY_ID, access_key_secret: SECRET, ...extra });

it('copies every file, then only the new and changed ones, with progress and the result on the page', async () => {
  const created = await demo.post('/api/third_backup/', conf());
  expect(created.statusCode).toBe(200);
  const id = created.json().data.id;
  expect(created.json().data).toMatchObject({ endpoint, endpoint_used: endpoint, last_run: null, secret_masked: '****2026' });

  // 立即备份 queues a run; a second click while it waits is refused
  let res = await demo.post('/api/third_backup/run/', { id });
  expect(res.json().data.last_run).toMatchObject({ status: 'queued', status_text: '等待备份', trigger: 'manual' });
  res = await demo.post('/api/third_backup/run/', { id });
  expect(res.json()).toMatchObject({ error_code: 26404, message: '该配置正在备份中，请等待本次备份结束' });

  expect(await runBackups(s.db, s.app.storage, { allowLocalEndpoints: true })).toBe(1);
  expect(await keys()).toEqual(['site/img/a.txt', 'site/img/b.txt', 'site/index.html']);
  expect(await text('site/index.html')).toBe('<h1>首页</h1>');
  let one = (await demo.get(`/api/third_backup/configure/?id=${id}`)).json().data;
  expect(one.last_run).toMatchObject({ status: 'succeeded', status_text: '备份成功', files_total: 3, files_done: 3, files_copied: 3, files_skipped: 0, bytes_copied: Buffer.byteLength('<h1>首页</h1>') + 7, error: null });
  expect(one.last_run.finished_at).toBeTruthy();

  // one file changed, one added: only those two are copied
  await writeFile(s.db, s.app.storage, bucketId, 'img/a.txt', Buffer.from('changed'), 'text/plain', null);
  await writeFile(s.db, s.app.storage, bucketId, 'new/c.txt', Buffer.from('cc'), 'text/plain', null);
  await demo.post('/api/third_backup/run/', { id });
  await runBackups(s.db, s.app.storage, { allowLocalEndpoints: true });
  expect(await text('site/img/a.txt')).toBe('changed');
  expect(await keys()).toEqual(['site/img/a.txt', 'site/img/b.txt', 'site/index.html', 'site/new/c.txt']);
  one = (await demo.get(`/api/third_backup/configure/?id=${id}`)).json().data;
  expect(one.last_run).toMatchObject({ status: 'succeeded', files_total: 4, files_copied: 2, files_skipped: 2, bytes_copied: 9 });

  // the log says what each run did; no answer carries the secret
  const logs = (await demo.get(`/api/third_backup/logs/?id=${id}`)).json().data;
  expect(logs[0]).toMatchObject({ action: 'run', detail: '备份成功：复制 2 个文件（0.00 MB），2 个未变化的文件已跳过' });
  for (const url of ['/api/third_backup/list/', `/api/third_backup/configure/?id=${id}`, `/api/third_backup/logs/?id=${id}`]) {
    const body = (await demo.get(url)).body;
    expect(body).not.toContain(`"${SECRET}"`);
    expect(body).not.toContain('secret_enc');
  }

  // enabled configurations run by themselves once the interval has passed
  expect(await queueDueRuns(s.db, 60)).toBe(0);
  await s.db.updateTable('third_backup_runs').set({ created_at: new Date(Date.now() - 61 * 60_000) }).where('config_id', '=', id).execute();
  expect(await queueDueRuns(s.db, 60)).toBeGreaterThanOrEqual(1);
  await runBackups(s.db, s.app.storage, { allowLocalEndpoints: true });
  one = (await demo.get(`/api/third_backup/configure/?id=${id}`)).json().data;
  expect(one.last_run).toMatchObject({ trigger: 'schedule', status: 'succeeded', files_copied: 0, files_skipped: 4 });

  // another target prefix: every file again
  await demo.post('/api/third_backup/configure/', { ...conf({ prefix: 'v2/' }), access_key_secret: '', id });
  await demo.post('/api/third_backup/run/', { id });
  await runBackups(s.db, s.app.storage, { allowLocalEndpoints: true });
  expect((await keys()).filter((k) => k!.startsWith('v2/'))).toHaveLength(4);

  // disabled: 立即备份 is refused
  await demo.request({ method: 'PUT', url: '/api/third_backup/configure/', payload: { id, enabled: false } });
  res = await demo.post('/api/third_backup/run/', { id });
  expect(res.json()).toMatchObject({ error_code: 26405, message: '备份配置已停用，请先启用' });
  await demo.request({ method: 'DELETE', url: '/api/third_backup/configure/', payload: { id } });
}, 60_000);

it('a target that refuses fails the run with the reason, and the page shows it', async () => {
  for (const [extra, reason] of [
    [{ name: '错误的桶', target_bucket: 'no-such-bucket' }, '目标存储桶不存在（NoSuchBucket）'],
    [{ name: '错误的密钥', prefix: 'wrong/', access_key_id: 'unknown-key-id' }, 'AccessKey ID 不正确（InvalidAccessKeyId）'],
  ] as const) {
    const id = (await demo.post('/api/third_backup/', conf(extra))).json().data.id;
    await demo.post('/api/third_backup/run/', { id });
    await runBackups(s.db, s.app.storage, { allowLocalEndpoints: true });
    const run = (await demo.get(`/api/third_backup/configure/?id=${id}`)).json().data.last_run;
    expect(run).toMatchObject({ status: 'failed', status_text: '备份失败', files_copied: 0 });
    expect(run.error).toBe(`复制 /img/a.txt 失败：${reason}`);
    await demo.request({ method: 'DELETE', url: '/api/third_backup/configure/', payload: { id } });
  }
  expect((await keys()).some((k) => k!.startsWith('wrong/'))).toBe(false);
}, 60_000);

it('refuses an endpoint on this machine unless the operator allows it', async () => {
  const strict = await startTestServer();
  try {
    const c = await new Client(strict.app).signIn('demo');
    for (const e of [endpoint, 'http://localhost:9000', 'http://169.254.169.254']) {
      const res = await c.post('/api/third_backup/', conf({ endpoint: e }));
      expect(res.json()).toMatchObject({ error_code: 26406, errors: [{ path: '/endpoint', message: '目标地址不能是本机、链路本地或云服务器元数据地址' }] });
    }
    expect(await strict.db.selectFrom('third_backup_configs').select('id').execute()).toHaveLength(0);
    // the worker checks again when it connects
    const res = await c.post('/api/third_backup/', conf({ platform: 'aws_s3', endpoint: '', region: 'us-east-1' }));
    expect(res.json().data.endpoint_used).toBe('https://s3.us-east-1.amazonaws.com');
    await strict.db.updateTable('third_backup_configs').set({ endpoint }).execute();
    await c.post('/api/third_backup/run/', { id: res.json().data.id });
    await runBackups(strict.db, strict.app.storage, {});
    const run = (await c.get(`/api/third_backup/configure/?id=${res.json().data.id}`)).json().data.last_run;
    expect(run).toMatchObject({ status: 'failed', error: '目标地址不能是本机、链路本地或云服务器元数据地址' });
  } finally {
    await strict.close();
  }
}, 90_000);
