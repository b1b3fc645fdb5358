/**
 * Purge and preheat on the edge's real cache (docs/operations-tools.md "Purge and preheat"): a task
 * submitted in the console reaches the agent over the edge API, acts on nginx's cache files, and the
 * purge log shows what the edge reported. Every check is a real request through nginx and the demo
 * origin's hit counter.
 */
import fs from 'node:fs';
import path from 'node:path';
import { startEdgeStack, type EdgeStack } from './harness';
import { cacheFileOf, CacheIndex, globMatcher, ruleMatcher } from '../../src/edge/purge/cache';
import { Client } from '../server/helpers';
import { PURGE_TEXTS, type PurgeTask } from '../../src/shared/purge';

let edge: EdgeStack;
let cacheDir: string;

beforeAll(async () => {
  edge = await startEdgeStack();
  await edge.waitLive();
  cacheDir = path.join(edge.dir, 'cache');
});
afterAll(async () => {
  await edge?.close();
});

/** Submits through the console's API and answers the task ids. */
async function submit(url: '/api/purge/' | '/api/buckets/purge/' | '/api/preheat', body: Record<string, unknown>): Promise<number[]> {
  const res = await edge.client.post(url, body);
  if (res.statusCode !== 200) throw new Error(`提交失败：${res.body}`);
  return res.json().data.task_ids;
}

/** Waits until the tasks are no longer waiting (the agent's report), answers them as the log shows them. */
async function settled(ids: number[], ms = 10_000): Promise<PurgeTask[]> {
  const until = Date.now() + ms;
  for (;;) {
    const log: PurgeTask[] = (await edge.client.get('/api/purge/list?limit=100')).json().data;
    const mine = ids.map((id) => log.find((t) => t.id === id)!);
    if (mine.every((t) => t && t.status !== 'waiting')) return mine;
    if (Date.now() > until) throw new Error(`任务未完成：${JSON.stringify(mine)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const get = (host: string, p: string) => edge.request(host, p);
const hits = (p: string) => edge.origin.hits.get(p) ?? 0;
const keyFile = (key: string) => cacheFileOf(cacheDir, key);
/** The service a host is served under on the node (the cache key's first part). */
const serviceOf = (host: string) => {
  const id = edge.agent.serviceOfHost(host);
  if (id === undefined) throw new Error(`节点上没有域名 ${host}`);
  return id;
};
/** A cache key as the runtime makes it: `s<id>/<host><uri>?<args>` (edge_core.lua M.cache_key, schemas/edge-cache-key.ts). */
const key = (host: string, rest: string) => `s${serviceOf(host)}/${host}${rest}`;

test('a URL purge removes the object: the next request is a MISS that reaches the origin; others stay cached', async () => {
  const p = '/css/site.css?t=url';
  expect((await get('www.demo-example.com', p)).headers['x-cache']).toBe('MISS');
  expect((await get('www.demo-example.com', p)).headers['x-cache']).toBe('HIT');
  await get('www.demo-example.com', '/js/app.js?t=url');
  expect(fs.existsSync(keyFile(key('www.demo-example.com', '/css/site.css?t=url')))).toBe(true);
  expect(hits(p)).toBe(1);

  const [id] = await submit('/api/purge/', { urls: ['https://www.demo-example.com/css/site.css?t=url'] });
  const [task] = await settled([id]);
  expect(task).toMatchObject({ status: 'success', removed: 1, message: null });
  expect(task.finished_at).not.toBeNull();
  expect(fs.existsSync(keyFile(key('www.demo-example.com', '/css/site.css?t=url')))).toBe(false);

  const after = await get('www.demo-example.com', p);
  expect(after.headers['x-cache']).toBe('MISS');
  expect(after.headers['x-origin-hits']).toBe('2');
  expect((await get('www.demo-example.com', p)).headers['x-cache']).toBe('HIT');
  expect((await get('www.demo-example.com', '/js/app.js?t=url')).headers['x-cache']).toBe('HIT');
});

test('a URL purge of something not cached succeeds with nothing removed; the path is matched as nginx decodes it', async () => {
  await get('www.demo-example.com', '/css//site.css?t=dec');
  expect(fs.existsSync(keyFile(key('www.demo-example.com', '/css/site.css?t=dec')))).toBe(true);
  const ids = await submit('/api/purge/', { urls: ['https://www.demo-example.com/nothing-here.css', 'https://www.demo-example.com/%63ss/./site.css?t=dec'] });
  const [none, dec] = await settled(ids);
  expect(none).toMatchObject({ status: 'success', removed: 0 });
  expect(dec).toMatchObject({ status: 'success', removed: 1 });
  expect((await get('www.demo-example.com', '/css/site.css?t=dec')).headers['x-cache']).toBe('MISS');
});

test('a URL purge removes every Vary variant of the URL (files named by the key and the varying headers, one KEY line)', async () => {
  const p = '/headers?Cache-Control=public,max-age=3600&Vary=X-Variant&t=vary';
  for (const v of ['a', 'b']) {
    const res = await edge.request('www.demo-example.com', p, { headers: { 'x-variant': v } });
    expect(res.headers['x-cache']).toBe('MISS');
    expect((await edge.request('www.demo-example.com', p, { headers: { 'x-variant': v } })).headers['x-cache']).toBe('HIT');
  }
  const index = new CacheIndex(cacheDir);
  await index.refresh();
  expect(index.keys().filter((k) => k === key('www.demo-example.com', p)).length).toBeGreaterThanOrEqual(2);
  const [task] = await settled(await submit('/api/purge/', { urls: [`https://www.demo-example.com${p}`] }));
  expect(task.status).toBe('success');
  expect(task.removed).toBeGreaterThanOrEqual(2);
  for (const v of ['a', 'b']) expect((await edge.request('www.demo-example.com', p, { headers: { 'x-variant': v } })).headers['x-cache']).toBe('MISS');
});

test("a URL purge finds the object under the service's key settings: parameters URL 参数缓存 ignores, a cache rule's 忽略 URL 参数", async () => {
  const host = 'act2.demo-example.com';
  await edge.save('demo-cdn-02', 'query_string', { mode: 'ignore_some', params: ['utm'] });
  await edge.saveLive('demo-cdn-02', 'cache_rules', { rules: [{ type: 'suffix', value: 'png', ttl: 600, ignore_query: true }] });
  await get(host, '/css/site.css?v=1&utm=mail');
  expect((await get(host, '/css/site.css?v=1&utm=other')).headers['x-cache']).toBe('HIT'); // one object
  await get(host, '/img/logo.png?x=1');
  expect((await get(host, '/img/logo.png?x=2')).headers['x-cache']).toBe('HIT');
  const ids = await submit('/api/purge/', { urls: [`https://${host}/css/site.css?utm=web&v=1`, `https://${host}/img/logo.png?x=3`] });
  const [css, png] = await settled(ids);
  expect(css).toMatchObject({ status: 'success', removed: 1 });
  expect(png).toMatchObject({ status: 'success', removed: 1 });
  expect((await get(host, '/css/site.css?v=1&utm=mail')).headers['x-cache']).toBe('MISS');
  expect((await get(host, '/img/logo.png?x=1')).headers['x-cache']).toBe('MISS');
});

test('a directory rule removes every cached object under it, of that host only', async () => {
  for (const q of ['?t=dir1', '?t=dir2', '']) await get('www.demo-example.com', `/css/site.css${q}`);
  await get('www.demo-example.com', '/js/app.js?t=dir');
  await get('img-www.demo-example.com', '/css/site.css?t=dir-img');
  const index = new CacheIndex(cacheDir);
  await index.refresh();
  const under = index.keys().filter((k) => k.startsWith(key('www.demo-example.com', '/css/'))).length;
  expect(under).toBeGreaterThanOrEqual(3);

  const [id] = await submit('/api/buckets/purge/', { rules: ['https://www.demo-example.com/css/'] });
  const [task] = await settled([id]);
  expect(task).toMatchObject({ status: 'success', removed: under });
  await index.refresh();
  expect(index.keys().filter((k) => k.startsWith(key('www.demo-example.com', '/css/')))).toEqual([]);

  const before = hits('/css/site.css?t=dir1');
  const again = await get('www.demo-example.com', '/css/site.css?t=dir1');
  expect(again.headers['x-cache']).toBe('MISS');
  expect(hits('/css/site.css?t=dir1')).toBe(before + 1);
  expect((await get('www.demo-example.com', '/js/app.js?t=dir')).headers['x-cache']).toBe('HIT');
  expect((await get('img-www.demo-example.com', '/css/site.css?t=dir-img')).headers['x-cache']).toBe('HIT');
});

test('a pattern rule removes the objects it matches (any depth), and not the others', async () => {
  await get('www.demo-example.com', '/img/logo.png?t=pat');
  await get('www.demo-example.com', '/about.html?t=pat');
  const [id] = await submit('/api/buckets/purge/', { rules: ['https://www.demo-example.com/*.png'] });
  const [task] = await settled([id]);
  expect(task.status).toBe('success');
  expect(task.removed).toBeGreaterThanOrEqual(1);
  expect((await get('www.demo-example.com', '/img/logo.png?t=pat')).headers['x-cache']).toBe('MISS');
  expect((await get('www.demo-example.com', '/about.html?t=pat')).headers['x-cache']).toBe('HIT');
});

test('a preheat fetches through the edge so that the next request is a HIT; what cannot be cached fails with the reason', async () => {
  const p = '/js/app.js?t=preheat';
  const ids = await submit('/api/preheat', {
    urls: ['http://www.demo-example.com/js/app.js?t=preheat', 'http://www.demo-example.com/echo/preheat', 'http://www.demo-example.com/status/404'],
  });
  const [ok, noStore, missing] = await settled(ids);
  expect(ok).toMatchObject({ status: 'success', message: null });
  expect(hits(p)).toBe(1);
  const next = await get('www.demo-example.com', p);
  expect(next.headers['x-cache']).toBe('HIT');
  expect(hits(p)).toBe(1);
  expect(noStore).toMatchObject({ status: 'failed', message: PURGE_TEXTS.preheatNotCacheable('no-store') });
  expect(noStore.message).toBe('源站响应不可缓存（Cache-Control: no-store），未缓存');
  expect(missing).toMatchObject({ status: 'failed', message: '边缘节点返回 HTTP 404，未缓存' });
});

test('a paused service (bandwidth cap): the purge still empties its cache, a preheat is refused with the reason, the resume answers a MISS', async () => {
  const p = '/css/site.css?t=paused';
  await get('static.demo-example.com', p);
  expect((await get('static.demo-example.com', p)).headers['x-cache']).toBe('HIT');
  const db = edge.server.db;
  const bucket = await db.selectFrom('buckets').select('id').where('name', '=', 'demo-static').executeTakeFirstOrThrow();
  // what the cost-control job does when the cap is crossed (src/server/domains/costControl.ts)
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('buckets').set({ status: 'PAUSED' }).where('id', '=', bucket.id).execute();
    await trx
      .insertInto('cost_control_state')
      .values({ bucket_id: bucket.id, paused: true, paused_at: new Date(), paused_mbps: 1000, last_mbps: 1000, updated_at: new Date() } as any)
      .onConflict((oc) => oc.column('bucket_id').doUpdateSet({ paused: true, paused_at: new Date() } as any))
      .execute();
  });
  await edge.waitLive();
  const closed = await get('static.demo-example.com', p);
  expect(closed.status).toBe(403);
  expect(closed.text).toContain('服务已关闭');

  const [purge] = await settled(await submit('/api/purge/', { urls: [`https://static.demo-example.com${p}`] }));
  expect(purge).toMatchObject({ status: 'success', removed: 1 });
  const [preheat] = await settled(await submit('/api/preheat', { urls: ['http://static.demo-example.com/js/app.js?t=paused'] }));
  expect(preheat).toMatchObject({ status: 'failed', message: '服务已因带宽封顶暂停，预热未执行' });
  expect(hits('/js/app.js?t=paused')).toBe(0);

  await db.transaction().execute(async (trx) => {
    await trx.updateTable('buckets').set({ status: 'NORMAL' }).where('id', '=', bucket.id).execute();
    await trx.updateTable('cost_control_state').set({ paused: false, paused_at: null } as any).where('bucket_id', '=', bucket.id).execute();
  });
  await edge.waitLive();
  const back = await get('static.demo-example.com', p);
  expect(back.status).toBe(200);
  expect(back.headers['x-cache']).toBe('MISS');
  expect(hits(p)).toBe(2);
});

test('a domain whose service is gone: a new purge is refused; a task queued before runs on what is still cached, a preheat fails with the reason', async () => {
  const host = 'act1.demo-example.com';
  await get(host, '/css/site.css?t=gone');
  expect((await get(host, '/css/site.css?t=gone')).headers['x-cache']).toBe('HIT');
  const file = keyFile(key(host, '/css/site.css?t=gone'));
  expect(fs.existsSync(file)).toBe(true);
  // queued with a delay (the batch call), then the domain leaves its service
  const batch = await edge.client.post('/api/buckets/purge/batch/', { source_url: `https://${host}/css/site.css?t=gone`, nofi: 0, delay: 600 });
  const purgeId: number = batch.json().data.task_ids[0];
  const pre = await edge.client.post('/api/buckets/purge/batch/', { source_url: `https://${host}/about.html`, nofi: 0, delay: 601 });
  expect(pre.statusCode).toBe(200);
  const db = edge.server.db;
  const preheatId = (await db.insertInto('purge_tasks').values({ account_id: 1, user_id: 1, kind: 'preheat', target: `http://${host}/js/app.js?t=gone`, domain: host, run_at: new Date(Date.now() + 600_000) }).returning('id').executeTakeFirstOrThrow()).id;
  const removed = await edge.client.request({ method: 'DELETE', url: '/api/account/domains/', payload: { bucket_name: 'demo-cdn-01', domain: host } });
  expect(removed.statusCode).toBe(200);
  await edge.waitLive();
  expect((await get(host, '/css/site.css?t=gone')).status).toBe(404); // the edge no longer serves the host

  const refused = await edge.client.post('/api/purge/', { urls: [`https://${host}/js/app.js`] });
  expect(refused.json()).toMatchObject({ error_code: 21224, errors: [{ path: '/urls/0', message: `${host} 不是本账号服务下的域名` }] });

  await db.updateTable('purge_tasks').set({ run_at: new Date() }).where('id', 'in', [purgeId, preheatId]).execute();
  const [purge, preheat] = await settled([purgeId, preheatId]);
  expect(purge).toMatchObject({ status: 'success', removed: 1 });
  expect(fs.existsSync(file)).toBe(false);
  expect(preheat).toMatchObject({ status: 'failed', message: '该域名已不属于任何服务（服务或域名已删除），预热未执行' });
});

test('the log says 处理中 until the edge reports; a task the edge has not taken stays waiting', async () => {
  // a delayed task is not handed to the node before its time
  const res = await edge.client.post('/api/buckets/purge/batch/', { source_url: 'https://www.demo-example.com/later.css', nofi: 0, delay: 3600 });
  const id: number = res.json().data.task_ids[0];
  await new Promise((r) => setTimeout(r, 1500));
  const log: PurgeTask[] = (await edge.client.get('/api/purge/list?limit=100')).json().data;
  expect(log.find((t) => t.id === id)).toMatchObject({ status: 'waiting', finished_at: null, message: null, removed: null });
  const nodes = await edge.server.db.selectFrom('purge_task_nodes').select('task_id').where('task_id', '=', id).execute();
  expect(nodes).toEqual([]);
});

test('rule patterns match without backtracking (issue 34 item 4): ten stars against long keys finish, and globs keep their meaning', async () => {
  // the matcher itself: prefix, suffix, pieces in order, `*` for anything (none included)
  const g = globMatcher('/a*b*c');
  expect([g('/abc'), g('/a-b-c'), g('/a-c-b'), g('/acb'), g('/abcx'), g('/ab')]).toEqual([true, true, false, false, false, false]);
  expect(globMatcher('/x*')('/x')).toBe(true);
  expect(globMatcher('*.png')('/img/a.png')).toBe(true);
  expect(globMatcher('/a*a')('/a')).toBe(false); // the prefix and the suffix do not share characters
  const m = ruleMatcher('https://www.demo-example.com/about.html?*a*a*a*a*a*a*a*a*a*b', [7])!;
  const long = 'a'.repeat(1000); // (the cache's header buffer holds the key and the origin's headers, which echo the URI)
  expect(m(`s7/www.demo-example.com/about.html?${long}`)).toBe(false);
  expect(m(`s7/www.demo-example.com/about.html?${long}b`)).toBe(true);
  expect(m(`s8/www.demo-example.com/about.html?${long}b`)).toBe(false); // another service's object

  // through the node: three cached keys of 1,000 a's, one ending in b
  for (const q of [long, `${long}c`, `${long}b`]) await get('www.demo-example.com', `/about.html?${q}`);
  const [task] = await settled(await submit('/api/buckets/purge/', { rules: ['https://www.demo-example.com/about.html?*a*a*a*a*a*a*a*a*a*b'] }));
  expect(task).toMatchObject({ status: 'success', removed: 1 });
  expect((await get('www.demo-example.com', `/about.html?${long}b`)).headers['x-cache']).toBe('MISS');
  expect((await get('www.demo-example.com', `/about.html?${long}`)).headers['x-cache']).toBe('HIT');
});

test("the cache belongs to a service (issue 33): a domain cached by one account, removed, then added to another account's service answers that service's first request with a MISS from its own origin", async () => {
  const host = 'moved.takeover-example.com';
  const p = '/echo/moved?t=takeover';
  // /echo/ answers what reached the origin (no-store); a cache rule keeps it, so the body names the 回源 Host
  const cacheEcho = { rules: [{ type: 'directory', value: '/echo/', ttl: 600, ignore_query: false }] };
  const origin = (h: string) => ({ protocol: 'http', host: h, servers: [{ address: '127.0.0.1', port: edge.origin.port, weight: 10, backup: false }], failover: { enable: false, timeout: 10, max_fails: 3 } });

  const add = (c: Client, bucket: string) => c.post('/api/account/domains/', { bucket_name: bucket, domain: host });
  expect((await add(edge.client, 'demo-cdn-02')).json()).toMatchObject({ result: true });
  await edge.save('demo-cdn-02', 'origin', origin('first.origin.example'));
  await edge.saveLive('demo-cdn-02', 'cache_rules', cacheEcho);
  const first = await get(host, p);
  expect(first.headers['x-cache']).toBe('MISS');
  expect(JSON.parse(first.text).headers.host).toBe('first.origin.example');
  const cached = await get(host, p);
  expect(cached.headers['x-cache']).toBe('HIT');
  expect(JSON.parse(cached.text).headers.host).toBe('first.origin.example');
  const firstService = serviceOf(host);
  const firstFile = keyFile(key(host, p));
  expect(fs.existsSync(firstFile)).toBe(true);

  const removed = await edge.client.request({ method: 'DELETE', url: '/api/account/domains/', payload: { bucket_name: 'demo-cdn-02', domain: host } });
  expect(removed.statusCode).toBe(200);
  await edge.waitLive();
  expect((await get(host, p)).status).toBe(404);

  // another account (demo2fa, its second step off: not what this is about) adds the domain to its service
  const db = edge.server.db;
  await db.updateTable('users').set({ two_step: false }).where('username', '=', 'demo2fa').execute();
  const other = await new Client(edge.server.app).signIn('demo2fa');
  const owner = await db.selectFrom('users').select('id').where('username', '=', 'demo2fa').executeTakeFirstOrThrow();
  const bucket = (await db.selectFrom('buckets').select('name').where('owner_id', '=', owner.id).where('kind', '=', 'cdn').orderBy('id').executeTakeFirstOrThrow()).name;
  expect((await add(other, bucket)).json()).toMatchObject({ result: true });
  for (const [setting, value] of [['origin', origin('second.origin.example')], ['cache_rules', cacheEcho]] as const) {
    const res = await other.post(`/api/settings/${setting}/`, { bucket_name: bucket, ...value });
    expect(res.statusCode).toBe(200);
  }
  await edge.waitLive();
  expect(serviceOf(host)).not.toBe(firstService);
  expect(fs.existsSync(firstFile)).toBe(true); // the first account's object is still on disk, under its own service

  const hitsBefore = hits(p);
  const taken = await get(host, p);
  expect(taken.status).toBe(200);
  expect(taken.headers['x-cache']).toBe('MISS');
  expect(JSON.parse(taken.text).headers.host).toBe('second.origin.example');
  expect(hits(p)).toBe(hitsBefore + 1);
  expect((await get(host, p)).headers['x-cache']).toBe('HIT');
});
