/**
 * Purge (issue 19 item 24): nofi = 1 sends one message when every task of the submission has ended,
 * nofi = 0 none; host names are case-insensitive (WWW.Demo-Example.com is www.demo-example.com, for
 * the owner check, the stored task and the 10-minute rule).
 */
import { startTestServer, Client, type TestServer } from './helpers';
import { processDue } from '../../src/server/purge/worker';
import { registerNode } from '../../src/server/edge/repo';

let s: TestServer;
let c: Client;
let accountId = 0;
beforeAll(async () => {
  s = await startTestServer();
  c = await new Client(s.app).signIn('demo');
  accountId = (await s.db.selectFrom('users').select('id').where('username', '=', 'demo').executeTakeFirstOrThrow()).id;
}, 60_000);
afterAll(async () => {
  await s.close();
});

const messages = () => s.db.selectFrom('messages').select(['title', 'body', 'category', 'link']).where('account_id', '=', accountId).where('title', 'like', '%任务已完成').orderBy('id').execute();

it('nofi = 1: one message once every task has ended, with the counts; nofi = 0: none', async () => {
  const before = (await messages()).length;
  let res = await c.post('/api/buckets/purge/batch/', { source_url: 'https://www.demo-example.com/n1.html\nhttps://static.demo-example.com/n2.js', nofi: 1 });
  expect(res.statusCode).toBe(200);
  const [a, b] = res.json().data.task_ids as number[];
  // one node finishes one task: no message yet
  const key = await registerNode(s.db, 'nofi-node');
  const report = (results: unknown[]) => s.app.inject({ method: 'POST', url: '/edge/v1/purge/report', headers: { authorization: `Bearer ${key}` }, payload: { results } });
  await report([{ id: a, ok: true, removed: 1 }]);
  expect(await messages()).toHaveLength(before);
  await report([{ id: b, ok: false, message: '清除缓存失败：EACCES' }]);
  const got = await messages();
  expect(got).toHaveLength(before + 1);
  expect(got.at(-1)).toMatchObject({ title: 'URL 刷新任务已完成', category: 'service', link: '/purge/purge_log/' });
  expect(got.at(-1)!.body).toMatch(/^您于 \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} 提交的 2 条URL 刷新任务（https:\/\/static\.demo-example\.com\/n2\.js 等）已全部结束：成功 1 条，失败 1 条，失败原因见操作记录。$/);
  // reported again: still one message
  await report([{ id: b, ok: false, message: '清除缓存失败：EACCES' }]);
  expect(await messages()).toHaveLength(before + 1);
  await s.db.deleteFrom('edge_nodes').where('name', '=', 'nofi-node').execute();

  // nofi = 0 (and the console's /api/purge/ with nofi) through the worker without an edge
  res = await c.post('/api/buckets/purge/batch/', { source_url: 'https://www.demo-example.com/n3.html', nofi: 0 });
  expect(res.statusCode).toBe(200);
  res = await c.post('/api/purge/', { urls: ['https://www.demo-example.com/n4.html'], nofi: 1 });
  expect(res.statusCode).toBe(200);
  await processDue(s.db, new Date(), { edge: false });
  const after = await messages();
  expect(after).toHaveLength(before + 2);
  expect(after.at(-1)!.body).toContain('提交的 1 条URL 刷新任务（https://www.demo-example.com/n4.html）已全部结束：成功 0 条，失败 1 条');
  res = await c.post('/api/purge/', { urls: ['https://www.demo-example.com/n5.html'], nofi: 2 });
  expect(res.json()).toMatchObject({ error_code: 20001, errors: [{ path: '/nofi', message: '通知选项只能是 0 或 1' }] });
});

it('reads host names case-insensitively: the owner check, the stored task, the 10-minute rule', async () => {
  let res = await c.post('/api/purge/', { urls: ['https://WWW.Demo-Example.com/Case/A.html'] });
  expect(res.statusCode).toBe(200);
  expect(res.json().data.first_domain).toBe('www.demo-example.com');
  const task = await s.db.selectFrom('purge_tasks').select(['target', 'domain']).where('id', '=', res.json().data.task_ids[0]).executeTakeFirstOrThrow();
  // the host is lower-cased, the path is kept as written
  expect(task).toEqual({ target: 'https://www.demo-example.com/Case/A.html', domain: 'www.demo-example.com' });
  res = await c.post('/api/purge/', { urls: ['https://www.demo-example.com/Case/A.html'] });
  expect(res.json()).toMatchObject({ error_code: 21221 });
  res = await c.post('/api/buckets/purge/', { rules: ['https://STATIC.demo-example.com/Img/*'] });
  expect(res.statusCode).toBe(200);
  res = await c.post('/api/preheat', { urls: ['http://Static.Demo-Example.com/x.js'] });
  expect(res.statusCode).toBe(200);
  res = await c.post('/api/purge/', { urls: ['https://WWW.Secure-Example.com/a'] });
  expect(res.json()).toMatchObject({ error_code: 21224, errors: [{ message: 'www.secure-example.com 不是本账号服务下的域名' }] });
});
