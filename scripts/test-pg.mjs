#!/usr/bin/env node
/**
 * Runs the server tests a second time on PostgreSQL when one answers at 127.0.0.1:5432
 * (or at TEST_DATABASE_URL); prints why and skips cleanly when none is there.
 */
// first: stops at once on another Node.js than package.json engines.node (scripts/require-node.cjs)
import './require-node.cjs';
import { spawnSync } from 'node:child_process';
import net from 'node:net';
import { fileURLToPath } from 'node:url';

const url = process.env.TEST_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/postgres';
const { hostname, port } = new URL(url);

const reachable = await new Promise((resolve) => {
  const s = net.connect({ host: hostname, port: Number(port || 5432) });
  s.setTimeout(2000);
  s.on('connect', () => (s.destroy(), resolve(true)));
  s.on('error', () => resolve(false));
  s.on('timeout', () => (s.destroy(), resolve(false)));
});

if (!reachable) {
  console.log(`PostgreSQL 不可用（${hostname}:${port || 5432}），跳过服务端测试的 PostgreSQL 轮次。`);
  process.exit(0);
}
console.log(`在 PostgreSQL（${hostname}:${port || 5432}）上再次运行服务端测试……`);
// jest on this process's node (the project's own), not whatever `npx` finds on PATH
const r = spawnSync(process.execPath, [fileURLToPath(new URL('../node_modules/jest/bin/jest.js', import.meta.url)), 'tests/server'], {
  stdio: 'inherit',
  env: { ...process.env, DATABASE_URL: url, NODE_OPTIONS: '--experimental-vm-modules' },
});
process.exit(r.status ?? 1);
