/**
 * A CPU profile of the server under settings reads (docs/performance.md): the load server on a scratch
 * PostgreSQL database runs with `node --cpu-prof`, autocannon reads GET /api/settings/compression/ at 100
 * connections for PROFILE_SECONDS (default 10), and the profile's heaviest functions and files during the load are printed
 * (self time). The .cpuprofile stays in PROFILE_DIR (default /tmp/cdn-console-profile) for a flame graph
 * (Chrome DevTools, speedscope). `npx tsx tests/bench/profile-read.ts`; PROFILE_URL profiles another path,
 * PROFILE_SAVE=1 settings saves (POST) spread over the demo's services; PROFILE_PGLITE=1 the embedded database
 * (PGlite in memory) with requests one at a time, as the bench's part d.
 */
import fs from 'node:fs';
import path from 'node:path';
import { startLoadServer, signIn, load, line, scratchPostgres, saveSpread } from './server-load';

interface Node { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }

/** Self time per function and per package over the samples of the load window (from `from` µs, profile clock). */
function summarise(file: string, from: number, to: number, top = 25): void {
  const p = JSON.parse(fs.readFileSync(file, 'utf8')) as { nodes: Node[]; samples: number[]; timeDeltas: number[]; startTime: number };
  const self = new Map<number, number>();
  let t = p.startTime;
  p.samples.forEach((id, i) => {
    t += p.timeDeltas[i] ?? 0;
    if (t >= from && t <= to) self.set(id, (self.get(id) ?? 0) + (p.timeDeltas[i] ?? 0));
  });
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const byFn = new Map<string, number>();
  const byFile = new Map<string, number>();
  for (const n of p.nodes) {
    const t = self.get(n.id) ?? 0;
    if (!t) continue;
    const url = n.callFrame.url.replace(/^file:\/\//, '').replace(/.*\/node_modules\//, 'node_modules/').replace(/.*\/work\/main\//, '');
    const fn = `${n.callFrame.functionName || '(anonymous)'} ${url ? `${url}:${n.callFrame.lineNumber + 1}` : ''}`;
    byFn.set(fn, (byFn.get(fn) ?? 0) + t);
    const where = url.startsWith('node_modules/') ? url.split('/').slice(0, url.split('/')[1].startsWith('@') ? 3 : 2).join('/') : url.startsWith('node:') ? 'node: (Node core)' : url || `(${n.callFrame.functionName})`;
    byFile.set(where, (byFile.get(where) ?? 0) + t);
  }
  const pct = (t: number) => `${((100 * t) / total).toFixed(1).padStart(5)} %`;
  console.log(`\n  按包/文件（自身时间，共 ${(total / 1e6).toFixed(1)} s）`);
  for (const [k, t] of [...byFile].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`   ${pct(t)}  ${k}`);
  console.log('\n  最重的函数（自身时间）');
  for (const [k, t] of [...byFn].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`   ${pct(t)}  ${k}`);
}

(async () => {
  const dir = process.env.PROFILE_DIR ?? '/tmp/cdn-console-profile';
  fs.mkdirSync(dir, { recursive: true });
  const before = new Set(fs.readdirSync(dir));
  const lite = process.env.PROFILE_PGLITE === '1';
  const pg = lite ? null : await scratchPostgres(process.env.BENCH_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/postgres');
  const window = { from: 0, to: 0 };
  let server: Awaited<ReturnType<typeof startLoadServer>> | null = null;
  try {
    server = await startLoadServer({ MODE: 'app', ...(pg ? { DATABASE_URL: pg.url } : {}) }, ['--cpu-prof', `--cpu-prof-dir=${dir}`]);
    const cookie = await signIn(server.url);
    // PROFILE_SAVE=1: settings saves (POST, spread over the demo's services with compression) instead of reads
    const save = process.env.PROFILE_SAVE === '1';
    const url = server.url + (process.env.PROFILE_URL ?? (save ? '/api/settings/compression/' : '/api/settings/compression/?bucket_name=demo-www'));
    const how = { ...(save ? { method: 'POST' as const, bodies: saveSpread } : {}), ...(lite ? { connections: 1 } : {}) };
    await load({ url, cookie, duration: 2, ...how }); // warm up
    // the profile's clock is the server's hrtime in µs (the same monotonic clock as this process's)
    window.from = Number(process.hrtime.bigint() / 1000n);
    line('profiled', await load({ url, cookie, duration: Number(process.env.PROFILE_SECONDS ?? 10), ...how }));
    window.to = Number(process.hrtime.bigint() / 1000n);
  } finally {
    await server?.stop();
    await pg?.drop();
  }
  const file = fs.readdirSync(dir).find((f) => f.endsWith('.cpuprofile') && !before.has(f));
  if (!file) throw new Error('no profile written');
  console.log(`  profile: ${path.join(dir, file)}`);
  summarise(path.join(dir, file), window.from, window.to);
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
