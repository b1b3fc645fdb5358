#!/usr/bin/env node
/**
 * Browser tests use Debian's Chromium (Playwright cannot download its own browser here).
 * Installs it with apt when it is missing and we are root; otherwise says how.
 */
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (existsSync(chromium)) process.exit(0);
if (process.getuid?.() === 0) {
  console.log('未找到 Chromium，正在通过 apt 安装 chromium 与 fonts-noto-cjk……');
  const update = spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
  const install = update.status === 0 && spawnSync('apt-get', ['install', '-y', '-qq', 'chromium', 'fonts-noto-cjk'], { stdio: 'inherit' });
  if (install && install.status === 0 && existsSync(chromium)) process.exit(0);
}
console.error(`未找到 Chromium（${chromium}）。请先运行：sudo apt-get install -y chromium fonts-noto-cjk，或用 CHROMIUM_PATH 指定浏览器。`);
process.exit(1);
