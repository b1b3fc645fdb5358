/**
 * Edge rules on the real edge (issue 18; docs/edge-rules.md "On the edge"): requests per second through
 * the edge for a cached object with the 50 rules of tests/bench/edgerules.ts (30 general, 20 custom) saved
 * on the service, against the same edge with none, in one run (wrk, 2 threads, 50 connections, 8 s each).
 * Prints the ratio (goal ≥ 0.5); asserts nothing. `npx tsx tests/bench/edge-rules-live.ts`
 */
// first: stops at once on another Node.js than package.json engines.node (scripts/require-node.cjs)
import '../../scripts/require-node.cjs';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { startEdgeStack } from '../edge/harness';
import { NGINX_BIN } from '../../src/edge/nginx';
import { ruleSet } from './edgerules';

function wrk(url: string, host: string, seconds = 8): number {
  const out = execFileSync('wrk', ['-t2', '-c50', `-d${seconds}s`, '-H', `Host: ${host}`, url], { encoding: 'utf8' });
  return Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0);
}

export async function edgeRulesLiveBench(): Promise<void> {
  if (!fs.existsSync(NGINX_BIN) || spawnSync('which', ['wrk']).status !== 0) {
    console.log('\n== 边缘规则（真实边缘） ==\n  跳过：需要 nginx 与 wrk');
    return;
  }
  const edge = await startEdgeStack();
  try {
    await edge.waitLive();
    const host = 'www.demo-example.com';
    const url = `http://127.0.0.1:${edge.ports.http}/css/site.css`;
    await edge.request(host, '/css/site.css');
    wrk(url, host, 2);
    const none = wrk(url, host);
    const rules = ruleSet();
    for (const [i, r] of rules.entries()) {
      const { rewrite_id: _id, ...rest } = r;
      const res = await edge.client.put('/api/buckets/rewrite/', { ...rest, bucket_name: 'demo-www', priority: i + 1 });
      if (res.statusCode !== 200) throw new Error(`规则 ${i + 1} 保存失败：${res.body}`);
    }
    await edge.waitLive(30_000);
    const check = await edge.request(host, '/css/site.css');
    wrk(url, host, 2);
    const fifty = wrk(url, host);
    console.log('\n== 边缘规则：真实边缘上的吞吐（缓存命中，wrk 2 线程 50 连接，各 8 秒） ==');
    console.log(`  没有规则：${none.toFixed(0)} 次/秒`);
    console.log(`  50 条规则（30 条常规、20 条自定义）：${fifty.toFixed(0)} 次/秒（状态 ${check.status}，X-Cache ${check.headers['x-cache']}）`);
    console.log(`  比值：${(fifty / none).toFixed(2)}（目标 ≥ 0.5）`);
  } finally {
    await edge.close();
  }
}

if (require.main === module) {
  edgeRulesLiveBench().then(
    () => process.exit(0),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
}
