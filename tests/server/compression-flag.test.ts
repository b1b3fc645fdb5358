/**
 * Smart compression is behind the account's business flag (spec 002 §2, issue 19 item 18): demo has it
 * (seeded), its sub-accounts share it; an account without it gets 21216 on reading and writing the
 * setting, stores nothing, and the current user says so (the console hides the panel by it).
 */
import { Client, startTestServer, type TestServer } from './helpers';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
}, 60_000);
afterAll(async () => {
  await s?.close();
});

const OFF = { status: 'disable', gzip: { disable: true, level: 1 }, br: { disable: true, level: 1 } };

it('demo (flag seeded on) and its sub-account read and write compression; the current user carries the flag', async () => {
  const demo = await new Client(s.app).signIn('demo');
  expect((await demo.get('/api/accounts/v2/usage/')).json().user).toMatchObject({ username: 'demo', smart_compression: true });
  expect((await demo.get('/api/settings/compression/?bucket_name=demo-www')).statusCode).toBe(200);
  const ops = await new Client(s.app).signIn('demo_ops');
  expect((await ops.get('/api/accounts/v2/usage/')).json().user.smart_compression).toBe(true);
  expect((await ops.get('/api/settings/compression/?bucket_name=demo-www')).statusCode).toBe(200);
});

it('an account without the flag is refused with 21216 and nothing is stored; other settings are not affected', async () => {
  const c = await new Client(s.app).signIn('demonew');
  expect((await c.get('/api/accounts/v2/usage/')).json().user.smart_compression).toBe(false);
  const bucket = await s.db.selectFrom('buckets as b').innerJoin('users as u', 'u.id', 'b.owner_id').select(['b.name', 'b.id']).where('u.username', '=', 'demonew').where('b.kind', '=', 'cdn').executeTakeFirst();
  const name = bucket?.name ?? (await s.db.insertInto('buckets').values({ name: 'flag-cdn', owner_id: (await s.db.selectFrom('users').select('id').where('username', '=', 'demonew').executeTakeFirstOrThrow()).id, kind: 'cdn' }).returning('name').executeTakeFirstOrThrow()).name;
  let res = await c.get(`/api/settings/compression/?bucket_name=${name}`);
  expect(res.statusCode).toBe(403);
  expect(res.json()).toMatchObject({ error_code: 21216, message: '该功能暂未对您的账号开通，如需使用请联系我们' });
  res = await c.post('/api/settings/compression/', { bucket_name: name, ...OFF });
  expect(res.json()).toMatchObject({ error_code: 21216 });
  const stored = await s.db.selectFrom('service_settings as ss').innerJoin('buckets as b', 'b.id', 'ss.bucket_id').select('ss.setting_id').where('b.name', '=', name).where('ss.setting_id', '=', 'compression').execute();
  expect(stored).toEqual([]);
  expect((await c.get(`/api/settings/browser_cache/?bucket_name=${name}`)).statusCode).toBe(200);
  // turned on by the operator: allowed at once
  await s.db.updateTable('users').set({ smart_compression: true }).where('username', '=', 'demonew').execute();
  expect((await c.post('/api/settings/compression/', { bucket_name: name, ...OFF })).statusCode).toBe(200);
});
