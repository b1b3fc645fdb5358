/**
 * Settings API throughput on the embedded database (PGlite, in memory), one process, requests in
 * sequence: reads and writes of 智能压缩 (a small value) and reads of 缓存规则 (a list), per request and
 * per second. Prints, asserts nothing. `npx tsx tests/bench/settings.ts` runs it alone.
 */
// first: stops at once on another Node.js than package.json engines.node (scripts/require-node.cjs)
import '../../scripts/require-node.cjs';
import { openDatabase } from '../../src/server/db';
import { buildApp } from '../../src/server/app';
import { configFromEnv } from '../../src/server/config';
import { seedDemo } from '../../src/server/seed/demo';
import { loadRegistry } from '../../schemas/load';
import { ok } from '../../src/server/http/envelope';
import { settingSerializers } from '../../src/server/settings/answer';

export async function settingsBench(n = 300): Promise<void> {
  const db = await openDatabase({ dataDir: 'memory://' });
  await seedDemo(db);
  const app = await buildApp({ db, config: { ...configFromEnv({}), distDir: '/nonexistent', logSms: false }, registry: loadRegistry(), logger: false });
  const signin = await app.inject({ method: 'POST', url: '/accounts/signin/', payload: { username: 'demo', password: 'demo123456' } });
  const cookie = String(signin.headers['set-cookie']).split(';')[0];
  const time = async (label: string, one: (i: number) => Promise<unknown>) => {
    for (let i = 0; i < 20; i++) await one(i); // warm up
    const t = performance.now();
    for (let i = 0; i < n; i++) await one(i);
    const ms = (performance.now() - t) / n;
    console.log(`  ${label.padEnd(42)} ${ms.toFixed(2)} ms/次  ≈ ${(1000 / ms).toFixed(0)} 次/秒`);
  };
  console.log('\n== 设置接口（PGlite 内存库，单进程顺序请求） ==');
  await time('读取 GET  /api/settings/compression/', () => app.inject({ method: 'GET', url: '/api/settings/compression/?bucket_name=demo-www', headers: { cookie } }));
  await time('保存 POST /api/settings/compression/', (i) =>
    app.inject({
      method: 'POST',
      url: '/api/settings/compression/',
      headers: { cookie },
      payload: { bucket_name: 'demo-www', status: 'enable', gzip: { disable: false, level: 1 + (i % 9) }, br: { disable: i % 2 === 0, level: 1 } },
    }),
  );
  await time('读取 GET  /api/settings/cache_rules/', () => app.inject({ method: 'GET', url: '/api/settings/cache_rules/?bucket_name=demo-www', headers: { cookie } }));
  await app.close();
  await db.destroy();
  serializeBench();
}

/** The answer's serialisation alone: JSON.stringify against the declaration's compiled serialiser (fast-json-stringify). */
function serializeBench(n = 20000): void {
  const registry = loadRegistry();
  const serializers = settingSerializers();
  console.log('\n== 设置接口的响应序列化（单次，微秒） ==');
  for (const id of ['compression', 'cache_rules', 'origin']) {
    const d = registry.get(id)!;
    const answer = ok(registry.defaults(id), { summary: '已开启', summary_intent: 'success', fixed: false });
    const fast = serializers.read(d);
    const time = (f: () => string) => {
      for (let i = 0; i < 1000; i++) f();
      const t = performance.now();
      for (let i = 0; i < n; i++) f();
      return ((performance.now() - t) * 1000) / n;
    };
    const plain = time(() => JSON.stringify(answer));
    const compiled = time(() => fast(answer));
    console.log(`  ${id.padEnd(14)} JSON.stringify ${plain.toFixed(2)} µs   按模式序列化 ${compiled.toFixed(2)} µs`);
  }
}

if (require.main === module) settingsBench().catch((e) => { console.error(e); process.exit(1); });
