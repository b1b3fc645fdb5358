#!/usr/bin/env node
/**
 * The Debian programs the tests and the server use, installed with apt when missing and we are root:
 * Chromium (browser tests; Playwright cannot download its own browser here) with CJK fonts, ffmpeg
 * (media processing), pebble (the ACME test server the certificate tests obtain certificates from),
 * and the edge: nginx 1.22 with its lua (LuaJIT), brotli, stream (with njs), image-filter and geoip modules, lua-cjson, the
 * country database, luajit2 for the Lua checks (docs/edge.md), and wrk for the edge's figures in the bench. Debian's plain `luajit` package
 * conflicts with the lua module's libluajit2 and is never installed. Otherwise says how to install them.
 */
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const wanted = [
  { file: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', packages: ['chromium'] },
  // the console's Chinese text in screenshots (without a CJK font Chromium draws empty boxes)
  { file: '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc', packages: ['fonts-noto-cjk'] },
  { file: '/usr/bin/ffmpeg', packages: ['ffmpeg'] },
  { file: '/usr/bin/pebble', packages: ['pebble'] },
  { file: '/usr/sbin/nginx', packages: ['nginx'] },
  { file: '/usr/lib/nginx/modules/ngx_http_lua_module.so', packages: ['libnginx-mod-http-lua'] },
  { file: '/usr/lib/nginx/modules/ngx_http_brotli_filter_module.so', packages: ['libnginx-mod-http-brotli-filter'] },
  { file: '/usr/lib/nginx/modules/ngx_stream_module.so', packages: ['libnginx-mod-stream'] },
  // the SNI router of the fixed nginx.conf (njs in the stream module) and the runtime's JSON (docs/edge.md)
  { file: '/usr/lib/nginx/modules/ngx_stream_js_module.so', packages: ['libnginx-mod-stream-js'] },
  { file: '/usr/lib/x86_64-linux-gnu/lua/5.1/cjson.so', packages: ['lua-cjson'] },
  { file: '/usr/lib/nginx/modules/ngx_http_image_filter_module.so', packages: ['libnginx-mod-http-image-filter'] },
  { file: '/usr/lib/nginx/modules/ngx_http_geoip_module.so', packages: ['libnginx-mod-http-geoip'] },
  { file: '/usr/share/GeoIP/GeoIP.dat', packages: ['geoip-database'] },
  { file: '/usr/bin/luajit', packages: ['luajit2'] },
  // the edge's throughput figures of `npm run bench` (tests/bench/edge.ts, edge-rules-live.ts)
  { file: '/usr/bin/wrk', packages: ['wrk'] },
];
const missing = wanted.filter((w) => !existsSync(w.file));
if (missing.length === 0) process.exit(0);
const packages = missing.flatMap((m) => m.packages);
if (process.getuid?.() === 0) {
  console.log(`正在通过 apt 安装缺少的程序：${packages.join(' ')}……`);
  const update = spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
  const install = update.status === 0 && spawnSync('apt-get', ['install', '-y', '-qq', ...packages], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  // Debian starts the nginx it installs (/etc/nginx, port 80) where it can; the edge runs its own
  if (packages.includes('nginx')) spawnSync('sh', ['-c', 'command -v service >/dev/null && service nginx stop >/dev/null 2>&1; true']);
  if (install && install.status === 0 && missing.every((m) => existsSync(m.file))) process.exit(0);
}
console.error(`缺少程序：${missing.map((m) => m.file).join('、')}。请先运行：sudo apt-get install -y ${packages.join(' ')}`);
process.exit(1);
