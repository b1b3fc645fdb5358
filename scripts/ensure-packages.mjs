#!/usr/bin/env node
/**
 * The Debian programs the tests and the server use, installed with apt when missing and we are root:
 * Chromium (browser tests; Playwright cannot download its own browser here) with CJK fonts, ffmpeg
 * (media processing) and pebble (the ACME test server the certificate tests obtain certificates from).
 * Otherwise says how to install them.
 */
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const wanted = [
  { file: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', packages: ['chromium', 'fonts-noto-cjk'] },
  { file: '/usr/bin/ffmpeg', packages: ['ffmpeg'] },
  { file: '/usr/bin/pebble', packages: ['pebble'] },
];
const missing = wanted.filter((w) => !existsSync(w.file));
if (missing.length === 0) process.exit(0);
const packages = missing.flatMap((m) => m.packages);
if (process.getuid?.() === 0) {
  console.log(`正在通过 apt 安装缺少的程序：${packages.join(' ')}……`);
  const update = spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
  const install = update.status === 0 && spawnSync('apt-get', ['install', '-y', '-qq', ...packages], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  if (install && install.status === 0 && missing.every((m) => existsSync(m.file))) process.exit(0);
}
console.error(`缺少程序：${missing.map((m) => m.file).join('、')}。请先运行：sudo apt-get install -y ${packages.join(' ')}`);
process.exit(1);
