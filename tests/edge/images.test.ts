/**
 * 缩略图版本, WebP 自适应 and 页面优化 on the edge (docs/edge.md "File services, mirror migration and
 * images"): thumbnails made by nginx's image_filter (sizes read back with ffprobe), HTML and CSS minified
 * in Lua before compression, and what this edge cannot do (WebP, a version's other format, JavaScript)
 * answered unchanged and shown as 未能生效 with the reason.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { execFileSync } from 'node:child_process';
import { startEdgeStack, type EdgeStack } from './harness';
import { EDGE_OPTIMIZE_TEXTS } from '../../src/shared/edge-files';

let edge: EdgeStack;
let tmp: string;

beforeAll(async () => {
  edge = await startEdgeStack();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'edge-images-'));
  await edge.waitLive();
});
afterAll(async () => {
  await edge?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const SITE = path.join(__dirname, '../../src/origin/site');

/** width×height of a picture, by ffprobe. */
function size(bytes: Buffer): string {
  const f = path.join(tmp, `p${Math.random().toString(16).slice(2)}`);
  fs.writeFileSync(f, bytes);
  return execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'stream=width,height', '-of', 'csv=p=0:s=x', f]).toString().trim();
}

async function upload(bucket: string, name: string, type: string, bytes: Buffer) {
  const boundary = '----edgeimages' + Math.random().toString(16).slice(2);
  const payload = Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: ${type}\r\n\r\n`), bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]);
  const res = await edge.client.request({ method: 'PUT', url: `/folder/${bucket}/`, payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
  if (res.statusCode !== 200) throw new Error(`上传失败：${res.body}`);
}

async function edgeState(bucket: string, setting: string) {
  const res = await edge.client.get(`/api/buckets/edge/?bucket_name=${bucket}`);
  return JSON.parse(res.body).data.settings[setting];
}

const version = (name: string, mode: string, width: number, height: number, o: { quality?: number; format?: string } = {}) => ({ name, mode, width, height, quality: o.quality ?? 85, format: o.format ?? 'original' });

describe('缩略图版本 with image_filter', () => {
  test('fit, fill, width and height versions of a PNG from the origin; the original unchanged; MISS then HIT on the picture', async () => {
    await edge.saveLive('demo-www', 'thumb_versions', {
      separator: '!',
      versions: [version('small', 'fit', 32, 32), version('wide', 'fill', 48, 16), version('w20', 'width', 20, 200), version('h40', 'height', 200, 40)],
    });
    const logo = fs.readFileSync(path.join(SITE, 'img/logo.png'));
    const small = await edge.request('www.demo-example.com', '/img/logo.png!small');
    expect(small.status).toBe(200);
    expect(small.headers['content-type']).toBe('image/png');
    expect(small.headers['x-origin-uri']).toBe('/img/logo.png');
    expect(small.headers['x-cache']).toBe('MISS');
    expect(size(small.body)).toBe('32x32');
    expect(size((await edge.request('www.demo-example.com', '/img/logo.png!wide')).body)).toBe('48x16');
    expect(size((await edge.request('www.demo-example.com', '/img/logo.png!w20')).body)).toBe('20x20');
    expect(size((await edge.request('www.demo-example.com', '/img/logo.png!h40')).body)).toBe('40x40');
    // every version is made from the one cached picture
    expect(edge.origin.hits.get('/img/logo.png')).toBe(1);
    const original = await edge.request('www.demo-example.com', '/img/logo.png');
    expect(original.headers['x-cache']).toBe('HIT');
    expect(original.body.equals(logo)).toBe(true);
    // an unknown version is just a path the origin does not have
    expect((await edge.request('www.demo-example.com', '/img/logo.png!nope')).status).toBe(404);
    expect(await edgeState('demo-www', 'thumb_versions')).toEqual({ state: 'applied' });
  });

  test('a JPEG in a file service with separator -, at the version quality; another output format is 未能生效 with the reason', async () => {
    const jpg = path.join(tmp, 'photo.jpg');
    execFileSync('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'testsrc=size=320x240', '-frames:v', '1', '-q:v', '2', '-y', jpg]);
    await upload('demo-assets', 'photo.jpg', 'image/jpeg', fs.readFileSync(jpg));
    await edge.saveLive('demo-assets', 'thumb_versions', {
      separator: '-',
      versions: [version('q10', 'fit', 100, 100, { quality: 10 }), version('q95', 'fit', 100, 100, { quality: 95 }), version('towebp', 'fit', 100, 100, { format: 'webp' })],
    });
    const q10 = await edge.request('assets.demo-example.com', '/photo.jpg-q10');
    const q95 = await edge.request('assets.demo-example.com', '/photo.jpg-q95');
    expect(q10.headers['content-type']).toBe('image/jpeg');
    expect(size(q10.body)).toBe('100x75');
    expect(size(q95.body)).toBe('100x75');
    expect(q10.body.length).toBeLessThan(q95.body.length);
    // the edge cannot change the format: a JPEG, scaled
    const webp = await edge.request('assets.demo-example.com', '/photo.jpg-towebp');
    expect(webp.headers['content-type']).toBe('image/jpeg');
    expect(size(webp.body)).toBe('100x75');
    expect(await edgeState('demo-assets', 'thumb_versions')).toEqual({ state: 'failed', message: EDGE_OPTIMIZE_TEXTS.thumbFormat(['towebp']) });
  });
});

test('WebP 自适应: the original picture, unchanged, and 未能生效 with the reason', async () => {
  await edge.saveLive('demo-static', 'webp', { enable: true, quality: 80, suffixes: ['jpg', 'jpeg', 'png'], only_when_accept: true });
  const res = await edge.request('static.demo-example.com', '/img/logo.png', { headers: { accept: 'image/webp,*/*' } });
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toBe('image/png');
  expect(res.body.equals(fs.readFileSync(path.join(SITE, 'img/logo.png')))).toBe(true);
  expect(await edgeState('demo-static', 'webp')).toEqual({ state: 'failed', message: EDGE_OPTIMIZE_TEXTS.webp });
  await edge.saveLive('demo-static', 'webp', { enable: false, quality: 80, suffixes: ['jpg', 'jpeg', 'png'], only_when_accept: true });
  expect(await edgeState('demo-static', 'webp')).toEqual({ state: 'applied' });
});

describe('页面优化', () => {
  const page = [
    '<!doctype html>',
    '<html>',
    '  <!-- 注释：优化后去掉 -->',
    '  <!--[if IE]><p>旧浏览器</p><![endif]-->',
    '  <head>',
    '    <style>',
    '      /* 样式注释 */',
    '      body {  margin : 0 ;  }',
    '    </style>',
    '  </head>',
    '  <body>',
    '    <p>第一段     文字</p>',
    '    <pre>  保留\n    缩进  </pre>',
    '    <script>var  a = "x  y"; // 脚本原样</script>',
    '  </body>',
    '</html>',
    '',
  ].join('\n');

  test('HTML and CSS minified (also under brotli and gzip); JavaScript as the origin sent it and 未能生效 with the reason', async () => {
    await upload('demo-assets', 'page.html', 'text/html', Buffer.from(page));
    await edge.saveLive('demo-assets', 'minify', { enable: true, html: true, css: true, js: true });
    const html = await edge.request('assets.demo-example.com', '/page.html');
    expect(html.status).toBe(200);
    expect(html.text).toBe(
      '<!doctype html> <html> <!--[if IE]><p>旧浏览器</p><![endif]--> <head> <style>body{margin : 0}</style> </head> <body> <p>第一段 文字</p> <pre>  保留\n    缩进  </pre> <script>var  a = "x  y"; // 脚本原样</script> </body> </html>',
    );
    const br = await edge.request('assets.demo-example.com', '/page.html', { headers: { 'accept-encoding': 'br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(br.body).toString()).toBe(html.text);

    await edge.saveLive('demo-www', 'minify', { enable: true, html: true, css: true, js: true });
    const css = await edge.request('www.demo-example.com', '/css/site.css', { headers: { 'accept-encoding': 'gzip' } });
    expect(css.headers['content-encoding']).toBe('gzip');
    const text = zlib.gunzipSync(css.body).toString();
    expect(text).not.toContain('演示源站的样式');
    expect(text.startsWith('body{font-family: "Noto Sans CJK SC","PingFang SC",sans-serif;margin: 0;color: #1c2127;background: #f6f7f9}header{')).toBe(true);
    expect(text).toContain('box-shadow: 0 1px 2px rgba(0,0,0,0.1)}');
    expect(text.endsWith('a:hover{color: #184a90;text-decoration: underline}img{display: block;margin: 16px 0}')).toBe(true);
    const js = await edge.request('www.demo-example.com', '/js/app.js');
    expect(js.body.equals(fs.readFileSync(path.join(SITE, 'js/app.js')))).toBe(true);
    expect(await edgeState('demo-www', 'minify')).toEqual({ state: 'failed', message: EDGE_OPTIMIZE_TEXTS.minify });

    await edge.saveLive('demo-www', 'minify', { enable: true, html: true, css: false, js: false });
    const plain = await edge.request('www.demo-example.com', '/css/site.css');
    expect(plain.body.equals(fs.readFileSync(path.join(SITE, 'css/site.css')))).toBe(true);
    expect(await edgeState('demo-www', 'minify')).toEqual({ state: 'applied' });
  });
});
