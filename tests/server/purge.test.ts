/**
 * Purge and preheat: tasks, their outcome from the edge nodes' reports (the edge API, as a node calls
 * it; the real cache is tests/edge/purge.test.ts), the worker without an edge or node, the owner
 * check, the 10-minute rule, 5 a day, quotas.
 */
import { startTestServer, Client, type TestServer } from './helpers';
import { processDue } from '../../src/server/purge/worker';
import { registerNode } from '../../src/server/edge/repo';

let s: TestServer;
let c: Client;
beforeAll(async () => {
  s = await startTestServer();
  c = await new Client(s.app).signIn('demo');
});
afterAll(async () => {
  await s.close();
});

const list = async (q = '') => (await c.get(`/api/purge/list${q}`)).json();

const node = (key: string) => ({
  tasks: (wait = 0) => s.app.inject({ method: 'GET', url: `/edge/v1/purge?wait=${wait}`, headers: { authorization: `Bearer ${key}` } }),
  report: (results: unknown[]) => s.app.inject({ method: 'POST', url: '/edge/v1/purge/report', headers: { authorization: `Bearer ${key}` }, payload: { results } }),
});

it('turns each URL into a task that waits for the edge; the state is what the node reports (成功 / 失败 with the reason)', async () => {
  const res = await c.post('/api/purge/', { urls: ['https://www.demo-example.com/index.html', 'https://static.demo-example.com/app.js'] });
  expect(res.statusCode).toBe(200);
  expect(res.json()).toMatchObject({ data: { count: 2, first_domain: 'www.demo-example.com' }, quota: { kind: 'url', used: 2, limit: 10000, remaining: 9998 } });
  const ids: number[] = res.json().data.task_ids;
  let log = await list('?kind=url');
  expect(log.data.map((t: { status: string }) => t.status)).toEqual(['waiting', 'waiting']);

  const a = node(await registerNode(s.db, 'node-a'));
  const pulled = (await a.tasks()).json().data.tasks;
  expect(pulled.map((t: { id: number }) => t.id)).toEqual(ids);
  expect(pulled[0]).toMatchObject({ kind: 'url', target: 'https://www.demo-example.com/index.html', host: 'www.demo-example.com', service: { paused: false, settings: { query_string: { mode: 'keep_all', params: [] } } } });
  expect((await a.report([{ id: ids[0], ok: true, removed: 3 }, { id: ids[1], ok: false, message: '清除缓存失败：EACCES' }])).json().data.settled).toBe(2);
  log = await list('?kind=url');
  expect(log.data).toMatchObject([
    { id: ids[1], status: 'failed', message: '清除缓存失败：EACCES' },
    { id: ids[0], status: 'success', removed: 3, message: null },
  ]);
  expect(log.data[0].finished_at).not.toBeNull();
  expect(log.pager).toEqual({ total: 2, page: 1, pages: 1 });
  // a reported task is not handed out again
  expect((await a.tasks()).json().data.tasks).toEqual([]);
  expect((await node('wrong').tasks()).statusCode).toBe(401);
});

it('with two online nodes a task is finished when both have reported; one failure fails it, naming the node', async () => {
  const a = node(await registerNode(s.db, 'node-a'));
  const b = node(await registerNode(s.db, 'node-b'));
  await a.tasks();
  await b.tasks();
  const [id] = (await c.post('/api/purge/', { urls: ['https://www.demo-example.com/two-nodes.html'] })).json().data.task_ids;
  expect((await a.report([{ id, ok: true, removed: 1 }])).json().data.settled).toBe(0);
  expect((await list('?kind=url')).data[0]).toMatchObject({ id, status: 'waiting' });
  expect((await b.tasks()).json().data.tasks.map((t: { id: number }) => t.id)).toEqual([id]);
  expect((await b.report([{ id, ok: false, message: '清除缓存失败：磁盘只读' }])).json().data.settled).toBe(1);
  expect((await list('?kind=url')).data[0]).toMatchObject({ id, status: 'failed', message: 'node-b：清除缓存失败：磁盘只读', removed: 1 });
});

it('without an edge (EDGE=off) a due task fails at once with the reason; with no online node it fails too; an unfinished one times out', async () => {
  const [off] = (await c.post('/api/purge/', { urls: ['https://www.demo-example.com/edge-off.html'] })).json().data.task_ids;
  expect(await processDue(s.db, new Date(), { edge: false })).toBe(1);
  expect((await list('?kind=url')).data[0]).toMatchObject({ id: off, status: 'failed', message: '本环境未运行边缘节点（EDGE=off），任务未执行', removed: null });

  // nodes last seen long ago are not online
  await s.db.updateTable('edge_nodes').set({ last_seen_at: new Date(Date.now() - 3600_000) }).execute();
  const [lonely] = (await c.post('/api/purge/', { urls: ['https://www.demo-example.com/no-node.html'] })).json().data.task_ids;
  expect(await processDue(s.db)).toBe(1);
  expect((await list('?kind=url')).data[0]).toMatchObject({ id: lonely, status: 'failed', message: '没有在线的边缘节点，任务未执行' });

  const a = node(await registerNode(s.db, 'node-a'));
  await a.tasks();
  const [late] = (await c.post('/api/purge/', { urls: ['https://www.demo-example.com/late.html'] })).json().data.task_ids;
  expect(await processDue(s.db)).toBe(0); // an online node has it to do
  await s.db.updateTable('purge_tasks').set({ run_at: new Date(Date.now() - 11 * 60_000) }).where('id', '=', late).execute();
  expect(await processDue(s.db)).toBe(1);
  expect((await list('?kind=url')).data[0]).toMatchObject({ id: late, status: 'failed', message: '边缘节点未在 10 分钟内完成该任务' });
});

it('refuses a URL of a domain that is not the account\'s, storing nothing', async () => {
  const before = (await list()).pager.total;
  const res = await c.post('/api/purge/', { urls: ['https://www.demo-example.com/a', 'https://www.secure-example.com/b'] });
  expect(res.statusCode).toBe(400);
  expect(res.json()).toMatchObject({ error_code: 21224, errors: [{ path: '/urls/1', message: 'www.secure-example.com 不是本账号服务下的域名' }] });
  expect((await list()).pager.total).toBe(before);
});

it('refuses the same URL again within 10 minutes', async () => {
  const res = await c.post('/api/purge/', { urls: ['https://www.demo-example.com/index.html'] });
  expect(res.json()).toMatchObject({ error_code: 21221, message: '同一 URL 或规则 10 分钟内只能刷新一次' });
});

it('refuses a rule a sixth time today', async () => {
  const rule = 'https://www.demo-example.com/images/*';
  for (let i = 0; i < 5; i++) {
    // step the clock past the 10-minute rule by ageing the previous task
    await s.db.updateTable('purge_tasks').set({ created_at: new Date(Date.now() - 11 * 60_000) }).where('target', '=', rule).execute();
    expect((await c.post('/api/buckets/purge/', { rules: [rule] })).statusCode).toBe(200);
  }
  await s.db.updateTable('purge_tasks').set({ created_at: new Date(Date.now() - 11 * 60_000) }).where('target', '=', rule).execute();
  const res = await c.post('/api/buckets/purge/', { rules: [rule] });
  expect(res.json()).toMatchObject({ error_code: 21222, message: '同一规则每天最多刷新 5 次' });
});

it('refuses more than the per-submission maximum with the declaration message', async () => {
  const res = await c.post('/api/buckets/purge/', { rules: Array.from({ length: 11 }, (_, i) => `https://www.demo-example.com/${i}/*`) });
  expect(res.json()).toMatchObject({ error_code: 20001, errors: [{ path: '/rules', message: '个数超出限制' }] });
});

it('accepts the batch call with a delay: the worker waits for it', async () => {
  const res = await c.post('/api/buckets/purge/batch/', { source_url: 'https://img-www.demo-example.com/a.png\n\nhttps://img-www.demo-example.com/b.png', nofi: 0, delay: 600 });
  expect(res.json().data.count).toBe(2);
  await processDue(s.db, new Date(), { edge: false });
  expect((await list('?status=waiting')).data.map((t: { target: string }) => t.target)).toEqual(['https://img-www.demo-example.com/b.png', 'https://img-www.demo-example.com/a.png']);
  await processDue(s.db, new Date(Date.now() + 601_000), { edge: false });
  expect((await list('?status=waiting')).data).toEqual([]);
  const bad = await c.post('/api/buckets/purge/batch/', { source_url: 'ftp://x/y' });
  expect(bad.json().errors).toEqual([{ path: '/urls/0', message: '请填写以 http:// 或 https:// 开头的完整 URL' }]);
});

it('stops at the daily quota', async () => {
  await s.db
    .insertInto('purge_tasks')
    .values(Array.from({ length: 999 }, (_, i) => ({ account_id: 1, user_id: 1, kind: 'preheat', target: `https://www.demo-example.com/p${i}`, domain: 'www.demo-example.com', run_at: new Date() })))
    .execute();
  expect((await c.post('/api/preheat', { urls: ['https://www.demo-example.com/v.mp4'] })).statusCode).toBe(200);
  const res = await c.post('/api/preheat', { urls: ['https://www.demo-example.com/w.mp4'] });
  expect(res.json()).toMatchObject({ error_code: 21225, data: { quota: { kind: 'preheat', remaining: 0 } } });
});

it('keeps another account out of the log and refuses key customers', async () => {
  const key = await new Client(s.app).signIn('demokey');
  expect((await key.get('/api/purge/list')).json().pager.total).toBe(0);
  expect((await key.post('/api/purge/', { urls: ['https://www.key-example.com/a'] })).json().error_code).toBe(21210);
});

it('limits a sub-account with authorized services to the domains of its granted services', async () => {
  const child = await c.put('/api/account/child/', { child_name: 'purge_ops', password: 'secret123', permissions: ['cdn', 'cache', 'authorized_service'] });
  expect(child.statusCode).toBe(200);
  const www = await s.db.selectFrom('buckets').select('id').where('name', '=', 'demo-www').executeTakeFirstOrThrow();
  expect((await c.put('/api/bucket/child/', { child_id: child.json().data.child_id, bucket_id: www.id })).statusCode).toBe(200);
  const sub = await new Client(s.app).signIn('purge_ops', 'secret123');
  expect((await sub.post('/api/purge/', { urls: ['https://www.demo-example.com/sub.html'] })).statusCode).toBe(200);
  const res = await sub.post('/api/purge/', { urls: ['https://static.demo-example.com/sub.html'] });
  expect(res.json()).toMatchObject({ error_code: 21224, errors: [{ path: '/urls/0' }] });
});
