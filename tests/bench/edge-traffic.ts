/**
 * Edge traffic figures (docs/statistics.md "Edge traffic"); prints, asserts nothing.
 *  1. The reporter's reading: access-log lines per second read, placed (GeoIP.dat) and summed.
 *  2. The server's side: one batch (10 domains × 2 slots × a few client places) stored through
 *     storeTraffic on PGlite in memory (the batch id, the sums, ingestSlot's rebuild of each slot).
 * Run with `npx tsx tests/bench/edge-traffic.ts`.
 */
// first: stops at once on another Node.js than package.json engines.node (scripts/require-node.cjs)
import '../../scripts/require-node.cjs';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { LogShipper } from '../../src/edge/logs/shipper';
import { openDatabase } from '../../src/server/db';
import { seedDemo } from '../../src/server/seed/demo';
import { registerNode } from '../../src/server/edge/repo';
import { storeTraffic } from '../../src/server/edge/traffic';
import { EDGE_TRAFFIC_COUNTERS, type EdgeTrafficRecord } from '../../src/shared/edge-traffic';
import { SLOT_S } from '../../src/shared/stats/time';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function reader() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edge-traffic-bench-'));
  fs.mkdirSync(path.join(dir, 'logs'));
  const N = 200_000;
  const now = Date.now() / 1000;
  const ips = Array.from({ length: 5000 }, (_, i) => (i % 10 === 0 ? '127.0.0.1' : `${1 + (i % 222)}.${(i * 7) % 256}.${(i * 13) % 256}.${(i * 31) % 256}`));
  const lines: string[] = [];
  for (let i = 0; i < N; i++) {
    lines.push(JSON.stringify({ t: (now - 1800 + (i * 1800) / N).toFixed(3), host: `act${1 + (i % 10)}.demo-example.com`, svc: String(10 + (i % 10)), ip: ips[i % ips.length], scheme: i % 3 ? 'http' : 'https', proto: 'HTTP/1.1', method: 'GET', uri: `/p/${i}`, status: i % 50 ? 200 : 404, bytes: 500 + (i % 7000), body_bytes: 300, cache: i % 4 ? 'HIT' : 'MISS', ub: i % 4 ? '' : '1200', rt: 0.002, conn: `${i}-1` }));
  }
  fs.writeFileSync(path.join(dir, 'logs', 'access.log'), lines.join('\n') + '\n');
  const size = fs.statSync(path.join(dir, 'logs', 'access.log')).size;
  const s = new LogShipper({ dir, controlUrl: 'http://127.0.0.1:9', nodeKey: 'x', nodeName: 'bench', log: () => undefined });
  const t0 = performance.now();
  let batches = 0;
  let records = 0;
  const internal = s as unknown as { readBatch(): boolean; state: { pending: { records: unknown[]; offsets: Record<string, number> } | null; files: Record<string, { offset: number }> } };
  for (;;) {
    const more = internal.readBatch();
    const p = internal.state.pending;
    if (p) {
      batches++;
      records += p.records.length;
      for (const [ino, off] of Object.entries(p.offsets)) internal.state.files[ino].offset = off;
      internal.state.pending = null;
    }
    if (!more) break;
  }
  const ms = performance.now() - t0;
  console.log(`1. reading the access log: ${N} lines (${(size / 1048576).toFixed(1)} MB) in ${ms.toFixed(0)} ms — ${Math.round(N / (ms / 1000))} lines/s; ${batches} batches, ${records} records`);
  fs.rmSync(dir, { recursive: true, force: true });
}

async function server() {
  const db = await openDatabase({ dataDir: 'memory://' });
  await seedDemo(db);
  const key = await registerNode(db, 'bench');
  const node = (await db.selectFrom('edge_nodes').select('id').where('name', '=', 'bench').executeTakeFirstOrThrow()).id;
  void key;
  const domains = await db.selectFrom('bucket_domains').select(['domain', 'bucket_id']).where('domain', 'like', 'act%').execute();
  const slot = Math.floor(Date.now() / 1000 / SLOT_S) * SLOT_S;
  const batch = (): EdgeTrafficRecord[] =>
    domains.flatMap((d) =>
      [slot - SLOT_S, slot].flatMap((s) =>
        ['other', 'north_america', 'europe', 'hongkong'].map((region) => ({
          host: d.domain, svc: d.bucket_id, slot: s, region, isp: 'other', ip_type: 'ipv4' as const, local: region === 'other',
          ...(Object.fromEntries(EDGE_TRAFFIC_COUNTERS.map((c) => [c, 10])) as Record<(typeof EDGE_TRAFFIC_COUNTERS)[number], number>),
        })),
      ),
    );
  const times: number[] = [];
  for (let i = 0; i < 15; i++) {
    const records = batch();
    const t0 = performance.now();
    await storeTraffic(db, node, { batch: randomUUID(), node: 'bench', lines: 1000, bad: 0, unknown: 0, records });
    times.push(performance.now() - t0);
  }
  console.log(`2. storing a batch (${batch().length} records: 10 domains × 2 slots × 4 places) on PGlite: median ${median(times).toFixed(1)} ms, fastest ${Math.min(...times).toFixed(1)} ms`);
  await db.destroy();
}

export async function edgeTrafficBench(): Promise<void> {
  console.log('\n== 边缘节点：访问日志进入统计 ==');
  console.log(`load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')} on ${os.cpus().length} cores`);
  await reader();
  await server();
}

if (require.main === module) {
  edgeTrafficBench().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
