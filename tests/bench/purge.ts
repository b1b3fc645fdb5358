/**
 * Purge on the real cache (docs/operations-tools.md "Purge and preheat"), printed, never asserted:
 *  - from submission (POST /api/purge/) to the object's cache file gone, median of 21 URL purges
 *    (goal ≤ 1 s), and to the purge log saying 成功;
 *  - 10,000 cached objects: filling them through the edge, a URL purge among them right after (unless the
 *    node refreshed its index while idle, its look reads every new file's key) and once more (it only
 *    lists the folders), and one rule purge removing all 10,000.
 * Runs a whole edge (tests/edge/harness.ts): a server on PGlite, the demo origin, an agent with nginx.
 */
import fs from 'node:fs';
import path from 'node:path';
import http from 'node:http';
import { nginxInstalled, startEdgeStack, type EdgeStack } from '../edge/harness';
import { cacheFileOf, CacheIndex } from '../../src/edge/purge/cache';

const HOST = 'www.demo-example.com';
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x: number) => `${x.toFixed(1)} ms`;

async function until(test: () => boolean | Promise<boolean>, timeoutMs = 60_000, everyMs = 2): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await test())) {
    if (Date.now() > end) throw new Error('超时');
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

async function submitted(edge: EdgeStack, url: string, body: unknown): Promise<number> {
  const res = await edge.client.post(url, body);
  if (res.statusCode !== 200) throw new Error(res.body);
  return res.json().data.task_ids[0];
}

const taskDone = (edge: EdgeStack, id: number) => async () => {
  const t = await edge.server.db.selectFrom('purge_tasks').select('status').where('id', '=', id).executeTakeFirstOrThrow();
  return t.status !== 'waiting';
};

/** Many requests through the edge, `parallel` at a time, on kept-alive connections. */
async function fill(edge: EdgeStack, paths: string[], parallel = 32): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: parallel });
  let next = 0;
  const one = (p: string) =>
    new Promise<void>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port: edge.ports.http, path: p, headers: { host: HOST }, agent }, (res) => {
        res.resume();
        res.on('end', () => resolve());
      });
      req.on('error', reject);
      req.end();
    });
  await Promise.all(Array.from({ length: parallel }, async () => {
    while (next < paths.length) await one(paths[next++]);
  }));
  agent.destroy();
}

export async function purgeBench(): Promise<void> {
  console.log('\n== 刷新：真实缓存（nginx proxy_cache，演示源站） ==');
  if (!nginxInstalled) {
    console.log('  未安装 nginx，跳过');
    return;
  }
  const edge = await startEdgeStack();
  try {
    await edge.waitLive();
    const cacheDir = path.join(edge.dir, 'cache');

    // 1. submission → file gone, one URL at a time
    const gone: number[] = [];
    const logged: number[] = [];
    for (let i = 0; i < 21; i++) {
      const p = `/css/site.css?bench=${i}`;
      await edge.request(HOST, p);
      const file = cacheFileOf(cacheDir, `s${edge.agent.serviceOfHost(HOST)}/${HOST}${p}`);
      await until(() => fs.existsSync(file));
      const t0 = performance.now();
      const id = await submitted(edge, '/api/purge/', { urls: [`https://${HOST}${p}`] });
      await until(() => !fs.existsSync(file), 10_000, 1);
      gone.push(performance.now() - t0);
      await until(taskDone(edge, id), 10_000, 5);
      logged.push(performance.now() - t0);
    }
    console.log(`  URL 刷新，提交到缓存文件删除：中位数 ${ms(median(gone))}，最慢 ${ms(Math.max(...gone))}（21 次；目标 ≤ 1 s）`);
    console.log(`  URL 刷新，提交到操作记录显示成功：中位数 ${ms(median(logged))}`);

    // 2. 10,000 cached objects
    const n = 10_000;
    const paths = Array.from({ length: n }, (_, i) => `/headers?Cache-Control=public,max-age=3600&n=${i}`);
    let t = performance.now();
    await fill(edge, paths);
    const index = new CacheIndex(cacheDir);
    await until(async () => (await index.refresh()).files >= n, 30_000, 100);
    console.log(`  经边缘缓存 ${n.toLocaleString('zh-CN')} 个对象：${ms(performance.now() - t)}（并发 32）`);

    for (const label of ['刚缓存完这些对象', '再一次']) {
      const p = `/css/site.css?bench-big=${label.length}`;
      await edge.request(HOST, p);
      const file = cacheFileOf(cacheDir, `s${edge.agent.serviceOfHost(HOST)}/${HOST}${p}`);
      await until(() => fs.existsSync(file));
      t = performance.now();
      const id = await submitted(edge, '/api/purge/', { urls: [`https://${HOST}${p}`] });
      await until(() => !fs.existsSync(file), 30_000, 1);
      const g = performance.now() - t;
      await until(taskDone(edge, id), 30_000, 5);
      const run = edge.agent.purge!.runs.at(-1)!;
      console.log(`  缓存中有 ${n.toLocaleString('zh-CN')} 个对象时的 URL 刷新（${label}）：提交到文件删除 ${ms(g)}；节点上查看缓存 ${ms(run.timings.index)}，删除 ${ms(run.timings.purge)}`);
    }

    t = performance.now();
    const id = await submitted(edge, '/api/buckets/purge/', { rules: [`https://${HOST}/headers`] });
    await until(taskDone(edge, id), 120_000, 50); // a slower look: PGlite runs in this process, beside the node's removals
    const total = performance.now() - t;
    const task = await edge.server.db.selectFrom('purge_tasks').select(['status', 'removed']).where('id', '=', id).executeTakeFirstOrThrow();
    const run = edge.agent.purge!.runs.at(-1)!;
    const left = new CacheIndex(cacheDir);
    await left.refresh();
    const remaining = left.keys().filter((k) => k.startsWith(`s${edge.agent.serviceOfHost(HOST)}/${HOST}/headers?`)).length;
    console.log(
      `  规则刷新 https://${HOST}/headers（${task.status}，删除 ${Number(task.removed).toLocaleString('zh-CN')} 个，剩余 ${remaining}）：提交到操作记录显示成功 ${ms(total)}；节点上查看缓存 ${ms(run.timings.index)}，匹配并删除 ${ms(run.timings.purge)}`,
    );
  } finally {
    await edge.close();
  }
}
