/** Cross-platform backup: configurations created, changed, enabled/disabled, deleted; the secret encrypted and masked; logs. */
import { startTestServer, Client, type TestServer } from './helpers';
import { decryptSecret, encryptSecret } from '../../src/server/backup/crypto';

let s: TestServer;
let c: Client;
beforeAll(async () => {
  s = await startTestServer();
  c = await new Client(s.app).signIn('demo');
});
afterAll(async () => {
  await s.close();
});

const SECRET = 'ExampleSecret123456';
const conf = (extra: object = {}) => ({ name: '素材备份', bucket_name: 'demo-assets', platform: 'aliyun_oss', region: 'cn-hangzhou', target_bucket: 'demo-backup', prefix: 'assets/', access_key_id: 'LTAI5tExampleKeyId', access_key_secret: SECRET, ...extra });
const req = (method: 'PUT' | 'DELETE', payload: object) => c.request({ method, url: '/api/third_backup/configure/', payload });

it('creates a configuration, stores the secret encrypted and never answers it in full', async () => {
  const res = await c.post('/api/third_backup/', conf());
  expect(res.statusCode).toBe(200);
  const d = res.json().data;
  expect(d).toMatchObject({ name: '素材备份', bucket_name: 'demo-assets', platform: 'aliyun_oss', target_bucket: 'demo-backup', enabled: true, secret_masked: '****3456' });
  expect(JSON.stringify(d)).not.toContain(SECRET);
  const row = await s.db.selectFrom('third_backup_configs').select('secret_enc').where('id', '=', d.id).executeTakeFirstOrThrow();
  expect(row.secret_enc).not.toContain(SECRET);
  expect(decryptSecret(row.secret_enc)).toBe(SECRET);
  for (const url of ['/api/third_backup/list/', `/api/third_backup/configure/?id=${d.id}`]) {
    const body = (await c.get(url)).body;
    expect(body).toContain('****3456');
    expect(body).not.toContain(SECRET);
  }
});

it('encrypts with AES-GCM: a fresh IV each time, tampering detected', () => {
  const a = encryptSecret('x-secret-1');
  expect(encryptSecret('x-secret-1')).not.toBe(a);
  const buf = Buffer.from(a, 'base64');
  buf[buf.length - 1] ^= 1;
  expect(() => decryptSecret(buf.toString('base64'))).toThrow();
});

it('changes a configuration, keeping the secret when none is given, then disables, enables and deletes it, logging each step', async () => {
  const id = (await c.post('/api/third_backup/', conf({ name: '日志备份', target_bucket: 'demo-logs-backup' }))).json().data.id;
  const changed = await c.post('/api/third_backup/configure/', { ...conf({ name: '日志备份 2', target_bucket: 'demo-logs-backup', platform: 'tencent_cos', region: 'ap-guangzhou' }), access_key_secret: '', id });
  expect(changed.json().data).toMatchObject({ name: '日志备份 2', platform: 'tencent_cos', secret_masked: '****3456' });
  const rotated = await c.post('/api/third_backup/configure/', { ...conf({ name: '日志备份 2', target_bucket: 'demo-logs-backup', platform: 'tencent_cos', region: 'ap-guangzhou' }), access_key_secret: 'NewSecret-987654', id });
  expect(rotated.json().data.secret_masked).toBe('****7654');
  expect((await req('PUT', { id, enabled: false })).json().data.enabled).toBe(false);
  expect((await req('PUT', { id, enabled: true })).json().data.enabled).toBe(true);
  expect((await req('DELETE', { id })).json().data).toEqual({ id });
  expect((await c.get(`/api/third_backup/configure/?id=${id}`)).json()).toMatchObject({ error_code: 26401, message: '备份配置不存在或已被删除' });
  const logs = (await c.get(`/api/third_backup/logs/?id=${id}`)).json().data;
  expect(logs.map((l: { action: string }) => l.action)).toEqual(['delete', 'enable', 'disable', 'change', 'change', 'create']);
  expect(logs[1].detail).toBe('启用');
  expect(logs[3].detail).toBe('已更新 AccessKey Secret');
});

it('refuses the declaration\'s errors, a missing secret on create, duplicates, a non-storage or foreign service', async () => {
  const bad = await c.post('/api/third_backup/', conf({ platform: 'dropbox', target_bucket: 'Bad_Bucket', access_key_secret: 'short' }));
  expect(bad.json().errors).toEqual(expect.arrayContaining([
    { path: '/platform', message: '请选择目标平台' },
    { path: '/target_bucket', message: '存储桶名称只能包含小写字母、数字、. 和 -，且以字母或数字开头和结尾' },
    { path: '/access_key_secret', message: 'AccessKey Secret 至少 8 个字符，且不能包含空白字符' },
  ]));
  const { access_key_secret: _s, ...noSecret } = conf({ target_bucket: 'other-target' });
  expect((await c.post('/api/third_backup/', noSecret)).json()).toMatchObject({ error_code: 20001, errors: [{ path: '/access_key_secret', message: '请填写 AccessKey Secret' }] });
  expect((await c.post('/api/third_backup/', conf())).json()).toMatchObject({ error_code: 26403, message: '该服务已存在相同目标的备份配置' });
  expect((await c.post('/api/third_backup/', conf({ bucket_name: 'demo-www', target_bucket: 'x-target' }))).json()).toMatchObject({ error_code: 20001, errors: [{ path: '/bucket_name' }] });
  expect((await c.post('/api/third_backup/', conf({ bucket_name: 'secure-www', target_bucket: 'y-target' }))).json().error_code).toBe(21905);
});

it('refuses the 21st configuration (26402)', async () => {
  const demo = await s.db.selectFrom('users').select('id').where('username', '=', 'demo').executeTakeFirstOrThrow();
  const bucket = await s.db.selectFrom('buckets').select('id').where('name', '=', 'demo-assets').executeTakeFirstOrThrow();
  const have = (await c.get('/api/third_backup/list/')).json().data.length;
  await s.db.insertInto('third_backup_configs').values(Array.from({ length: 20 - have }, (_, i) => ({ account_id: demo.id, bucket_id: bucket.id, name: `填充 ${i}`, platform: 'aws_s3', region: 'us-east-1', target_bucket: `fill-${i}`, access_key_id: 'k', secret_enc: encryptSecret('secret-123') }))).execute();
  expect((await c.post('/api/third_backup/', conf({ target_bucket: 'one-more' }))).json().error_code).toBe(26402);
  await s.db.deleteFrom('third_backup_configs').where('name', 'like', '填充 %').execute();
});

it('keeps configurations to their account', async () => {
  const id = (await c.get('/api/third_backup/list/')).json().data[0].id;
  const other = await new Client(s.app).signIn('demokey');
  expect((await other.get('/api/third_backup/list/')).json().data).toEqual([]);
  expect((await other.get(`/api/third_backup/configure/?id=${id}`)).json().error_code).toBe(26401);
  expect((await other.request({ method: 'DELETE', url: '/api/third_backup/configure/', payload: { id } })).json().error_code).toBe(26401);
  expect((await other.get(`/api/third_backup/logs/?id=${id}`)).json().data).toEqual([]);
});
