#!/usr/bin/env node
/**
 * `npm start`: builds the console when dist/ is missing or older than its sources, then starts
 * the server (which migrates the database and seeds the demo on first start), the demo origin and
 * the edge node (docs/edge.md; EDGE=off runs without the edge). The node's key is made once under
 * DATA_DIR and handed to both the server and the node.
 */
import { spawnSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = process.env.DIST_DIR ?? path.join(root, 'dist');
const built = path.join(dist, 'index.html');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const p = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : fs.statSync(p).mtimeMs);
  }
  return newest;
}

const sources = ['src/console', 'src/shared', 'renderers', 'schemas'].map((d) => path.join(root, d));
const stale = !fs.existsSync(built) || Math.max(...sources.map(newestMtime), fs.statSync(path.join(root, 'webpack.config.ts')).mtimeMs) > fs.statSync(built).mtimeMs;
if (stale && !process.env.DIST_DIR) {
  console.log('正在构建控制台……');
  const r = spawnSync('npx', ['webpack', '--mode', 'production'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const edgeOn = !['0', 'false', 'no', 'off'].includes(String(process.env.EDGE ?? 'on').toLowerCase());
const dataDir = path.resolve(process.env.DATA_DIR ?? path.join(root, 'data'));
const env = { ...process.env, DATA_DIR: dataDir };
if (edgeOn && !env.EDGE_NODE_KEY) {
  const keyFile = path.join(dataDir, 'edge-node.key');
  fs.mkdirSync(dataDir, { recursive: true });
  if (!fs.existsSync(keyFile)) fs.writeFileSync(keyFile, randomBytes(24).toString('base64url'), { mode: 0o600 });
  env.EDGE_NODE_KEY = fs.readFileSync(keyFile, 'utf8').trim();
}
const tsx = (file, extra = {}) => spawn(process.execPath, ['--import', 'tsx', path.join(root, file)], { cwd: root, stdio: 'inherit', env: { ...env, ...extra } });

const children = [];
const server = tsx('src/server/main.ts');
children.push(server);
if (edgeOn) {
  children.push(tsx('src/origin/main.ts'));
  const edge = tsx('src/edge/main.ts');
  children.push(edge);
  edge.on('exit', (code) => {
    if (code === 3) console.log('控制台将在没有边缘节点的情况下运行（配置会保存，但不会在边缘生效）。');
  });
}
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => children.forEach((c) => c.exitCode === null && c.kill(sig)));
server.on('exit', (code) => {
  children.forEach((c) => c !== server && c.exitCode === null && c.kill('SIGTERM'));
  setTimeout(() => process.exit(code ?? 0), 300);
});
