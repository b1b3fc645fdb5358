/**
 * `npm run bench`: prints figures, asserts nothing.
 *  1. The login page's JavaScript: every script the browser fetches for the first screen, gzipped.
 *  2. Every chunk of the build, gzipped.
 *  3. Settings API throughput on the embedded database (PGlite, in memory): reads and writes per second,
 *     and the answer's serialisation alone, JSON.stringify against the declaration's schema (tests/bench/settings.ts);
 *     the SQL one request sends (tests/bench/queries.ts); the server under load with autocannon — a bare
 *     Fastify route as the ceiling, settings reads and saves on PostgreSQL and PGlite, the lists a console page
 *     opens first (tests/bench/server-load.ts, LOAD_SECONDS per figure). docs/performance.md
 *  4. Edge rules: parse time and evaluator throughput (tests/bench/edge.ts).
 *  5. Statistics: the traffic seed, the 30-day 10-domain query with the 95th percentile on PGlite and
 *     PostgreSQL, the chart's render time (tests/bench/stats.ts).
 *  6. The edge (tests/bench/edge.ts, edge-rules-live.ts, edge-traffic.ts, purge.ts): from 配置成功 to the
 *     edge, 10,000 services compiled and tested, cached throughput against a bare server block, 50 edge
 *     rules against none, the access log into the statistics, purge latency and a 10,000-object purge.
 *     Several nodes on PostgreSQL: commit → three waiting long polls answered, LISTEN/NOTIFY (tests/bench/edge-wake.ts);
 *     three real nodes: 配置成功 → the change on all three (tests/bench/edge-nodes.ts).
 *  6. Purge on the real cache: submission to the object gone, 10,000 objects by rule (tests/bench/purge.ts).
 */
// first: stops at once on another Node.js than package.json engines.node (scripts/require-node.cjs)
import '../../scripts/require-node.cjs';
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { spawn } from 'node:child_process';
import { chromium } from 'playwright';
import { edgeBench } from './edgerules';
import { settingsBench } from './settings';
import { statsBench } from './stats';
import { billingBench } from './billing';
import { purgeBench } from './purge';
import { edgeNodeBench } from './edge';
import { edgeWakeBench } from './edge-wake';
import { edgeNodesBench } from './edge-nodes';
import { edgeRulesLiveBench } from './edge-rules-live';
import { edgeTrafficBench } from './edge-traffic';
import { formsBench } from './forms';
import { serverLoadBench } from './server-load';
import { queriesBench } from './queries';

const root = path.resolve(__dirname, '../..');
const dist = process.env.DIST_DIR ? path.resolve(process.env.DIST_DIR) : path.join(root, 'dist');
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

async function waitFor(url: string, ms = 60_000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`server did not start: ${url}`);
}

async function firstScreen() {
  const port = 8199;
  const server = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), DATA_DIR: 'memory://', LOG_LEVEL: 'warn', SEED_TRAFFIC: '0' },
    stdio: 'ignore',
  });
  try {
    await waitFor(`http://127.0.0.1:${port}/login/`);
    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    const page = await browser.newPage();
    const scripts: { url: string; raw: number; gz: number }[] = [];
    page.on('response', async (res) => {
      if (res.request().resourceType() !== 'script') return;
      const body = await res.body();
      scripts.push({ url: new URL(res.url()).pathname, raw: body.length, gz: gzipSync(body, { level: 9 }).length });
    });
    await page.goto(`http://127.0.0.1:${port}/login/`);
    await page.getByRole('heading', { name: '登录云控制台' }).waitFor();
    await page.waitForLoadState('networkidle');
    await browser.close();
    console.log('\n== 登录页（首屏）加载的脚本 ==');
    for (const s of scripts) console.log(`  ${s.url.padEnd(48)} ${kb(s.raw).padStart(10)}  gzip ${kb(s.gz).padStart(9)}`);
    const total = scripts.reduce((a, s) => a + s.gz, 0);
    console.log(`  合计 gzip ${kb(total)}（预算 200 KB）`);
  } finally {
    server.kill();
  }
}

function chunks() {
  console.log('\n== 构建产物（gzip） ==');
  const files = fs.readdirSync(dist).filter((f) => f.endsWith('.js') || f.endsWith('.css'));
  for (const f of files.sort()) {
    const body = fs.readFileSync(path.join(dist, f));
    console.log(`  ${f.padEnd(56)} ${kb(gzipSync(body, { level: 9 }).length).padStart(10)}`);
  }
}

(async () => {
  if (!fs.existsSync(path.join(dist, 'index.html'))) throw new Error('请先运行 npm run build');
  await firstScreen();
  chunks();
  await formsBench();
  await settingsBench();
  await queriesBench();
  await serverLoadBench();
  edgeBench();
  await statsBench();
  await billingBench();
  await purgeBench();
  await edgeNodeBench();
  await edgeWakeBench();
  await edgeNodesBench();
  await edgeRulesLiveBench();
  await edgeTrafficBench();
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
