#!/usr/bin/env node
/**
 * `npm start`: builds the console when dist/ is missing or older than its sources, then starts
 * the server (which migrates the database and seeds the demo on first start).
 */
import { spawnSync, spawn } from 'node:child_process';
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

const server = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'src/server/main.ts')], { cwd: root, stdio: 'inherit' });
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => server.kill(sig));
server.on('exit', (code) => process.exit(code ?? 0));
