/**
 * File services and mirror migration on the edge (docs/edge.md "File services, mirror migration and
 * images"): a file uploaded through the console's API answers on the file service's domain through
 * nginx, from the project's storage behind the edge API; a CDN service's migration stores what the edge
 * fetched from the origin into the chosen file service, where the file list shows it.
 */
import { startEdgeStack, type EdgeStack } from './harness';
import { EDGE_FILES_PREFIX } from '../../src/shared/edge-files';

let edge: EdgeStack;

beforeAll(async () => {
  edge = await startEdgeStack();
  await edge.waitLive();
});
afterAll(async () => {
  await edge?.close();
});

function multipart(files: { name: string; type: string; bytes: Buffer }[]) {
  const boundary = '----edgefiles' + Math.random().toString(16).slice(2);
  const parts: Buffer[] = [];
  for (const f of files) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${f.name}"\r\nContent-Type: ${f.type}\r\n\r\n`), f.bytes, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

async function upload(bucket: string, folder: string, files: { name: string; type: string; bytes: Buffer }[]) {
  const res = await edge.client.request({ method: 'PUT', url: `/folder/${bucket}/${folder}`, ...multipart(files) });
  if (res.statusCode !== 200) throw new Error(`上传失败：${res.body}`);
  return JSON.parse(res.body);
}

/** The file service's entries in a folder, as the console lists them. */
async function list(bucket: string, folder: string): Promise<{ name: string; size: number; content_type: string }[]> {
  const res = await edge.client.get(`/folder/${bucket}/${folder}`);
  if (res.statusCode !== 200) return [];
  return JSON.parse(res.body).data;
}

async function until<T>(what: () => Promise<T | undefined | null | false>, ms = 5000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await what();
    if (v) return v;
    if (Date.now() > end) throw new Error('等待超时');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('a file service answers from the project storage', () => {
  test('an uploaded file through the edge: MISS then HIT, its type, length, Last-Modified and ETag; a missing one 404', async () => {
    const bytes = Buffer.from('边缘节点上的文件服务 ' + Date.now() + '\n');
    await upload('demo-assets', '', [{ name: 'edge-hello.txt', type: 'text/plain', bytes }]);
    const first = await edge.request('assets.demo-example.com', '/edge-hello.txt');
    expect(first.status).toBe(200);
    expect(first.body.equals(bytes)).toBe(true);
    expect(first.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(first.headers['content-length']).toBe(String(bytes.length));
    expect(first.headers['last-modified']).toMatch(/GMT$/);
    expect(first.headers.etag).toMatch(/^"[0-9a-z-]+"$/);
    expect(first.headers['x-cache']).toBe('MISS');
    // the edge's cache time is for the edge only
    expect(first.headers['x-accel-expires']).toBeUndefined();
    const second = await edge.request('assets.demo-example.com', '/edge-hello.txt');
    expect(second.headers['x-cache']).toBe('HIT');
    expect(second.body.equals(bytes)).toBe(true);

    const head = await edge.request('assets.demo-example.com', '/edge-hello.txt', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(String(bytes.length));

    const missing = await edge.request('assets.demo-example.com', '/no-such-file.txt');
    expect(missing.status).toBe(404);
    expect(missing.headers['x-cache']).toBe('MISS');
  });

  test('a name outside ASCII (docs/说明.txt of the seed)', async () => {
    const res = await edge.request('assets.demo-example.com', '/docs/' + encodeURIComponent('说明.txt'));
    expect(res.status).toBe(200);
    expect(res.text).toContain('demo-assets');
    // spaces, reserved characters and a percent sign: the fetch server encodes each segment again for the storage
    const bytes = Buffer.from('特殊字符的文件名\n');
    const name = "a b+c;d(1)!'100%'.txt";
    await upload('demo-assets', '', [{ name, type: 'text/plain', bytes }]);
    const odd = await edge.request('assets.demo-example.com', '/' + encodeURIComponent(name));
    expect(odd.status).toBe(200);
    expect(odd.body.equals(bytes)).toBe(true);
  });

  test('a file in a folder, and the edge API refuses a request without the node key', async () => {
    expect((await edge.client.post('/folder/demo-assets/edge-dir/', {})).statusCode).toBe(200);
    const png = Buffer.from('89504e470d0a1a0a', 'hex');
    await upload('demo-assets', 'edge-dir/', [{ name: 'x.png', type: 'image/png', bytes: png }]);
    const res = await edge.request('assets.demo-example.com', '/edge-dir/x.png');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.body.equals(png)).toBe(true);

    const direct = await fetch(`${edge.url}${EDGE_FILES_PREFIX}/demo-assets/edge-dir/x.png`);
    expect(direct.status).toBe(401);
    const wrong = await fetch(`${edge.url}${EDGE_FILES_PREFIX}/demo-assets/edge-dir/x.png`, { headers: { authorization: 'Bearer nope' } });
    expect(wrong.status).toBe(401);
    const right = await fetch(`${edge.url}${EDGE_FILES_PREFIX}/demo-assets/edge-dir/x.png`, { headers: { authorization: `Bearer ${edge.key}` } });
    expect(right.status).toBe(200);
    const etag = right.headers.get('etag')!;
    const again = await fetch(`${edge.url}${EDGE_FILES_PREFIX}/demo-assets/edge-dir/x.png`, { headers: { authorization: `Bearer ${edge.key}`, 'if-none-match': etag } });
    expect(again.status).toBe(304);
    // a PUT from a node is refused unless a service migrates into that storage now
    const put = await fetch(`${edge.url}${EDGE_FILES_PREFIX}/demo-assets/forged.txt`, { method: 'PUT', body: 'x', headers: { authorization: `Bearer ${edge.key}`, 'x-edge-mirror-source': '1' } });
    expect(put.status).toBe(403);
    expect(await list('demo-assets', '')).not.toContainEqual(expect.objectContaining({ name: 'forged.txt' }));
  });
});


describe('mirror migration (源站资源迁移) fills the chosen file service', () => {
  const logo = () => require('node:fs').readFileSync(require('node:path').join(__dirname, '../../src/origin/site/img/logo.png')) as Buffer;
  const entry = async (folder: string, name: string) => (await list('demo-assets', folder)).find((e) => e.name === name);
  const settle = () => new Promise((r) => setTimeout(r, 700));

  test('开启: a matching miss fetched from the origin is stored into the storage and listed; others are not', async () => {
    // only what the edge caches for more than 24 hours migrates: the demo origin says an hour, a cache rule two days
    await edge.saveLive('demo-www', 'cache_rules', { rules: [{ type: 'suffix', value: 'png,js,html', ttl: 172800, ignore_query: false }] });
    await edge.saveLive('demo-www', 'mirror', { mirror: 'enable', url_patterns: ['/img/*', '/js/*.js', '/headers'], mirror_bucket: 'demo-assets' });
    const res = await edge.request('www.demo-example.com', '/img/logo.png', { headers: { 'accept-encoding': 'gzip, br' } });
    expect(res.status).toBe(200);
    expect(res.headers['x-origin-uri']).toBe('/img/logo.png');
    expect(res.body.equals(logo())).toBe(true);
    const stored = await until(() => entry('img/', 'logo.png'));
    expect(stored.size).toBe(logo().length);
    expect(stored.content_type).toBe('image/png');
    // the file service itself serves it now, from the storage
    const fromAssets = await edge.request('assets.demo-example.com', '/img/logo.png');
    expect(fromAssets.status).toBe(200);
    expect(fromAssets.body.equals(logo())).toBe(true);

    // stored as the origin sent it, although the client took it compressed
    const appJs = require('node:fs').readFileSync(require('node:path').join(__dirname, '../../src/origin/site/js/app.js')) as Buffer;
    const js = await edge.request('www.demo-example.com', '/js/app.js', { headers: { 'accept-encoding': 'br' } });
    expect(js.status).toBe(200);
    expect(js.headers['content-encoding']).toBe('br');
    expect((await until(() => entry('js/', 'app.js'))).size).toBe(appJs.length);
    const jsFromAssets = await edge.request('assets.demo-example.com', '/js/app.js');
    expect(jsFromAssets.body.equals(appJs)).toBe(true);

    // a path outside the patterns goes to the origin and is not migrated
    const css = await edge.request('www.demo-example.com', '/css/site.css');
    expect(css.status).toBe(200);
    await settle();
    expect(await entry('css/', 'site.css')).toBeUndefined();

    // 仅缓存时间超过 24 小时的文件会被迁移: without a rule, the origin's Cache-Control decides
    for (const cc of ['public, max-age=3600', 'no-store, max-age=90000', 'public, max-age=86400']) {
      const short = await edge.request('www.demo-example.com', `/headers?Cache-Control=${encodeURIComponent(cc)}`);
      expect(short.status).toBe(200);
    }
    await settle();
    expect(await entry('', 'headers')).toBeUndefined();
    const long = await edge.request('www.demo-example.com', `/headers?Cache-Control=${encodeURIComponent('public, s-maxage=90000, max-age=60')}`);
    expect(long.status).toBe(200);
    expect((await until(() => entry('', 'headers'))).size).toBe(3);
  });

  test('开启 and 暂停 read the storage first; 暂停 migrates nothing new; 关闭 goes to the origin alone', async () => {
    const only = Buffer.from('只在云存储中的文件 ' + Date.now());
    await edge.client.post('/folder/demo-assets/img/', {});
    await upload('demo-assets', 'img/', [{ name: 'only-in-storage.txt', type: 'text/plain', bytes: only }, { name: 'only-in-storage-2.txt', type: 'text/plain', bytes: only }]);
    const first = await edge.request('www.demo-example.com', '/img/only-in-storage.txt');
    expect(first.status).toBe(200);
    expect(first.body.equals(only)).toBe(true);
    expect(first.headers['x-cache']).toBe('MISS');
    expect(edge.origin.hits.get('/img/only-in-storage.txt')).toBeUndefined();
    const again = await edge.request('www.demo-example.com', '/img/only-in-storage.txt');
    expect(again.headers['x-cache']).toBe('HIT');
    // a URL purge reaches the storage answer cached under the mirror's own key: the next request is a MISS
    const purge = await edge.client.post('/api/purge/', { urls: ['http://www.demo-example.com/img/only-in-storage.txt'] });
    expect(purge.statusCode).toBe(200);
    const [id] = purge.json().data.task_ids as number[];
    const task = await until(async () => {
      const t = ((await edge.client.get('/api/purge/list?limit=100')).json().data as { id: number; status: string; removed: number }[]).find((x) => x.id === id);
      return t && t.status !== 'waiting' ? t : null;
    }, 10_000);
    expect(task).toMatchObject({ status: 'success', removed: 1 });
    expect((await edge.request('www.demo-example.com', '/img/only-in-storage.txt')).headers['x-cache']).toBe('MISS');

    await edge.saveLive('demo-www', 'mirror', { mirror: 'paused', url_patterns: ['/img/*', '/about.html'], mirror_bucket: 'demo-assets' });
    const about = await edge.request('www.demo-example.com', '/about.html');
    expect(about.status).toBe(200);
    expect(edge.origin.hits.get('/about.html')).toBe(1);
    await settle();
    expect(await entry('', 'about.html')).toBeUndefined();
    const paused = await edge.request('www.demo-example.com', '/img/only-in-storage-2.txt?x=1');
    expect(paused.status).toBe(200);
    expect(paused.body.equals(only)).toBe(true);

    await edge.saveLive('demo-www', 'mirror', { mirror: 'disable', url_patterns: ['/img/*'], mirror_bucket: 'demo-assets' });
    const off = await edge.request('www.demo-example.com', '/img/only-in-storage-2.txt');
    expect(off.status).toBe(404);
    expect(off.headers['x-origin-uri']).toBe('/img/only-in-storage-2.txt');
  });

  test('no paths: every static resource is migrated, a page made by a program is not', async () => {
    await edge.saveLive('demo-www', 'mirror', { mirror: 'enable', url_patterns: [], mirror_bucket: 'demo-assets' });
    expect((await edge.request('www.demo-example.com', '/about.html')).status).toBe(200);
    expect((await edge.request('www.demo-example.com', '/echo/page.php')).status).toBe(200);
    await until(() => entry('', 'about.html'));
    await settle();
    expect(await entry('echo/', 'page.php')).toBeUndefined();
  });
});

describe('a file service with 回源 (docs/edge.md "File services and their origin")', () => {
  test('what the storage holds answers from it; a file it does not hold is fetched from the origin; without an origin a miss is 404', async () => {
    const bytes = Buffer.from('存储中的文件 ' + Date.now() + '\n');
    await upload('demo-assets', '', [{ name: 'held-by-storage.txt', type: 'text/plain', bytes }]);
    await edge.saveLive('demo-assets', 'origin', {
      protocol: 'http',
      host: '',
      servers: [{ address: '127.0.0.1', port: edge.origin.port, weight: 10, backup: false }],
      failover: { enable: true, timeout: 1, max_fails: 1 },
    });
    const held = await edge.request('assets.demo-example.com', '/held-by-storage.txt');
    expect(held.status).toBe(200);
    expect(held.body.equals(bytes)).toBe(true);
    expect(edge.origin.hits.get('/held-by-storage.txt')).toBeFalsy();

    const path = `/echo/file-origin/${Date.now()}`;
    const fetched = await edge.request('assets.demo-example.com', path);
    expect(fetched.status).toBe(200);
    const seen = JSON.parse(fetched.body.toString());
    expect(seen.headers.host).toBe('assets.demo-example.com');
    // the node's key, sent to the storage, never reaches the customer's origin
    expect(seen.headers.authorization).toBeUndefined();
    expect(edge.origin.hits.get(path)).toBeTruthy();

    await edge.saveLive('demo-assets', 'origin', { protocol: 'http', host: '', servers: [], failover: { enable: true, timeout: 1, max_fails: 1 } });
    const gone = await edge.request('assets.demo-example.com', `/echo/file-origin/after-${Date.now()}`);
    expect(gone.status).toBe(404);
  });
});
