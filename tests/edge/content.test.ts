/**
 * Compression and error pages on the edge (docs/edge.md "Compression, error pages and cache"): what a
 * client sees after saving 智能压缩 and 自定义错误页面 through the API, by real requests through nginx.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { startEdgeStack, type EdgeStack } from './harness';
import { EDGE_TEXTS } from '../../src/shared/edge';

let edge: EdgeStack;
const WWW = 'www.demo-example.com';
const STATIC = 'static.demo-example.com';

beforeAll(async () => {
  edge = await startEdgeStack();
  await edge.waitLive();
});
afterAll(async () => {
  await edge?.close();
});

const get = (host: string, p: string, ae?: string, headers: Record<string, string> = {}) => edge.request(host, p, { headers: { ...(ae === undefined ? {} : { 'accept-encoding': ae }), ...headers } });
const decode = (res: { headers: Record<string, unknown>; body: Buffer }) =>
  res.headers['content-encoding'] === 'br' ? zlib.brotliDecompressSync(res.body) : res.headers['content-encoding'] === 'gzip' ? zlib.gunzipSync(res.body) : res.body;

describe('智能压缩 (compression)', () => {
  test('by default both are on: br when the client accepts it, else gzip, else nothing; the body is the same', async () => {
    const plain = await get(WWW, '/big.txt');
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const br = await get(WWW, '/big.txt', 'gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/Accept-Encoding/i);
    const gz = await get(WWW, '/big.txt', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(decode(br).equals(plain.body)).toBe(true);
    expect(decode(gz).equals(plain.body)).toBe(true);
    expect(br.body.length).toBeLessThan(plain.body.length / 3);
    // a compressed answer served from the cache (the cache holds the plain body)
    expect(br.headers['x-cache']).toBe('HIT');
    // an image is not compressed
    const png = await get(WWW, '/img/logo.png', 'gzip, br');
    expect(png.headers['content-encoding']).toBeUndefined();
  });

  test('the origin is asked for the plain body whatever the client accepts', async () => {
    const res = await get(WWW, '/echo/ae', 'gzip, br');
    expect(JSON.parse(decode(res).toString()).headers['accept-encoding']).toBeUndefined();
  });

  test('Gzip only: a client accepting both gets gzip, one accepting only br gets nothing', async () => {
    await edge.saveLive('demo-www', 'compression', { gzip: { disable: false, level: 6 }, br: { disable: true, level: 1 } });
    expect((await get(WWW, '/big.txt', 'gzip, br')).headers['content-encoding']).toBe('gzip');
    expect((await get(WWW, '/big.txt', 'br')).headers['content-encoding']).toBeUndefined();
    expect((await get(WWW, '/css/site.css', 'br;q=1.0, gzip;q=0.5')).headers['content-encoding']).toBe('gzip');
  });

  test('Brotli only: gzip clients get nothing', async () => {
    await edge.saveLive('demo-www', 'compression', { gzip: { disable: true, level: 1 }, br: { disable: false, level: 4 } });
    expect((await get(WWW, '/big.txt', 'gzip')).headers['content-encoding']).toBeUndefined();
    expect((await get(WWW, '/big.txt', 'gzip, br')).headers['content-encoding']).toBe('br');
  });

  test('the level is the chosen one: level 9 / 11 compresses smaller than level 1', async () => {
    const size = async (gzip: number, br: number, ae: string) => {
      await edge.saveLive('demo-www', 'compression', { gzip: { disable: false, level: gzip }, br: { disable: false, level: br } });
      const res = await get(WWW, '/big.txt', ae);
      expect(res.headers['content-encoding']).toBe(ae);
      return res.body.length;
    };
    const gz1 = await size(1, 1, 'gzip');
    const gz9 = await size(9, 1, 'gzip');
    expect(gz9).toBeLessThan(gz1);
    const br1 = await size(1, 1, 'br');
    const br11 = await size(1, 11, 'br');
    expect(br11).toBeLessThan(br1);
  });

  test('off (status disable): no compression for any client', async () => {
    await edge.saveLive('demo-www', 'compression', { status: 'disable', gzip: { disable: false, level: 1 }, br: { disable: false, level: 1 } });
    for (const ae of ['gzip', 'br', 'gzip, deflate, br']) {
      const res = await get(WWW, '/big.txt', ae);
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBeUndefined();
    }
    // another service keeps its own (default) compression
    expect((await get(STATIC, '/big.txt', 'gzip, br')).headers['content-encoding']).toBe('br');
  });
});

describe('自定义错误页面 (error_pages)', () => {
  const page404 = fs.readFileSync(path.join(__dirname, '../../src/origin/site/errors/404.html'), 'utf8');
  const page50x = fs.readFileSync(path.join(__dirname, '../../src/origin/site/errors/50x.html'), 'utf8');

  test('without rules the origin\'s error answers pass as they are', async () => {
    const res = await get(STATIC, '/status/404');
    expect(res.status).toBe(404);
    expect(res.text).toContain('源站返回 404');
  });

  test('the origin\'s listed codes get the page, with the original status; unlisted codes pass', async () => {
    await edge.saveLive('demo-static', 'error_pages', { options: [{ code: [404], url: '/errors/404.html' }, { code: [500, 502], url: '/errors/50x.html' }] });
    const nf = await get(STATIC, '/status/404');
    expect(nf.status).toBe(404);
    expect(nf.text).toBe(page404);
    const missing = await get(STATIC, '/no/such/file.html?x=1');
    expect(missing.status).toBe(404);
    expect(missing.text).toBe(page404);
    const err = await get(STATIC, '/status/500');
    expect(err.status).toBe(500);
    expect(err.text).toBe(page50x);
    const other = await get(STATIC, '/status/503');
    expect(other.status).toBe(503);
    expect(other.text).toContain('源站返回 503');
    // the page is fetched from the origin once and then served from the cache, whatever the query
    for (let i = 0; i < 3; i++) expect((await get(STATIC, `/status/404?n=${i}`)).text).toBe(page404);
    expect(edge.origin.hits.get('/errors/404.html')).toBe(1);
    // and compressed like any other answer (nginx compresses 200, 403 and 404 answers only)
    const gz = await get(STATIC, '/status/404', 'gzip');
    expect(gz.status).toBe(404);
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.body).toString()).toBe(page404);
    expect(gz.headers['x-cache']).toBe('HIT');
  });

  test('a service without compression gets its pages too (the page\'s fetch leaves @edge_page without a variant)', async () => {
    // the compression tests above leave demo-www with compression off
    await edge.saveLive('demo-www', 'error_pages', { options: [{ code: [404], url: '/errors/404.html' }] });
    const res = await get(WWW, '/status/404', 'gzip, br');
    expect([res.status, res.text, res.headers['content-encoding']]).toEqual([404, page404, undefined]);
    await edge.saveLive('demo-www', 'referer_antileech', { mode: 'blacklist', domains: ['bad.example.org'], allow_empty_referer: true });
    const refused = await get(WWW, '/about.html', 'gzip', { referer: 'http://bad.example.org/' });
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('403 Forbidden');
    await edge.saveLive('demo-www', 'error_pages', { options: [{ code: [403], url: '/errors/404.html' }] });
    const paged = await get(WWW, '/about.html', 'gzip', { referer: 'http://bad.example.org/' });
    expect([paged.status, paged.text, paged.headers['content-encoding']]).toEqual([403, page404, undefined]);
    await edge.save('demo-www', 'referer_antileech', { mode: 'off', domains: [], allow_empty_referer: true });
    await edge.saveLive('demo-www', 'error_pages', { options: [] });
  });

  test('a page the origin does not have: the client gets the original status with the origin\'s answer for the page', async () => {
    await edge.saveLive('demo-static', 'error_pages', { options: [{ code: [500], url: '/errors/missing.html' }] });
    const res = await get(STATIC, '/status/500');
    expect(res.status).toBe(500);
    expect(res.text).toContain('源站：页面不存在');
  });

  describe('the edge\'s own refusals (anti-leech)', () => {
    const ACT = 'act6.demo-example.com';
    const about = fs.readFileSync(path.join(__dirname, '../../src/origin/site/about.html'), 'utf8');
    const index = fs.readFileSync(path.join(__dirname, '../../src/origin/site/index.html'), 'utf8');
    const bad = { referer: 'http://bad.example.org/page' };
    const good = { referer: 'https://good.example.com/' };

    beforeAll(async () => {
      await edge.save('demo-cdn-06', 'referer_antileech', { mode: 'whitelist', domains: ['good.example.com'], allow_empty_referer: true });
      await edge.saveLive('demo-cdn-06', 'ip_antileech', { mode: 'blacklist', ips: ['127.0.0.3'] });
    });

    test('each kind of refusal gets the page of its code (40310002 防盗链, 40310001 IP), with status 403', async () => {
      await edge.saveLive('demo-cdn-06', 'error_pages', {
        options: [
          { code: [40310002], url: '/about.html' },
          { code: [40310001], url: '/index.html' },
          { code: [404], url: '/errors/404.html' },
        ],
      });
      const referer = await get(ACT, '/css/site.css', undefined, bad);
      expect(referer.status).toBe(403);
      expect(referer.text).toBe(about);
      // compressed like any other 403 answer
      const gz = await get(ACT, '/css/site.css', 'gzip', bad);
      expect([gz.status, gz.headers['content-encoding']]).toEqual([403, 'gzip']);
      expect(zlib.gunzipSync(gz.body).toString()).toBe(about);
      const ip = await edge.request(ACT, '/css/site.css', { localAddress: '127.0.0.3', headers: good });
      expect(ip.status).toBe(403);
      expect(ip.text).toBe(index);
      // the page's own fetch is not refused again, and an allowed client is served as usual
      expect((await get(ACT, '/css/site.css', undefined, good)).status).toBe(200);
      expect((await get(ACT, '/status/404', undefined, good)).text).toBe(page404);
      // an origin 403 is not a refusal of the edge: no 403 rule, so the origin's own answer
      const origin403 = await get(ACT, '/status/403', undefined, good);
      expect(origin403.status).toBe(403);
      expect(origin403.text).toContain('源站返回 403');
    });

    test('an edge rule\'s refusal gets the page of 40310005 (边缘规则拦截)', async () => {
      const put = await edge.client.put('/api/buckets/rewrite/', { bucket_name: 'demo-cdn-06', describe: '拒绝 /private/', type: 'custom', priority: 1, break: false, status: 'ON', pattern: '^/private/', rule: '$EXIT(403)' });
      expect(put.statusCode).toBe(200);
      await edge.saveLive('demo-cdn-06', 'error_pages', { options: [{ code: [40310005], url: '/about.html' }, { code: [40310002], url: '/index.html' }] });
      const refused = await get(ACT, '/private/x', undefined, good);
      expect(refused.status).toBe(403);
      expect(refused.text).toBe(about);
      expect((await get(ACT, '/css/site.css', undefined, good)).status).toBe(200);
      const rules = JSON.parse((await edge.client.get('/api/buckets/rewrite/?bucket_name=demo-cdn-06&perPage=100')).body).data.rewrite;
      for (const r of rules) await edge.client.request({ method: 'DELETE', url: `/api/buckets/rewrite/?rewrite_id=${r.rewrite_id}` });
      await edge.waitLive();
    });

    test('a plain 403 rule covers the origin\'s 403 and any refusal whose code has no rule', async () => {
      await edge.saveLive('demo-cdn-06', 'error_pages', { options: [{ code: [403], url: '/errors/404.html' }, { code: [40310001], url: '/index.html' }] });
      const referer = await get(ACT, '/js/app.js', undefined, bad);
      expect([referer.status, referer.text]).toEqual([403, page404]);
      const origin403 = await get(ACT, '/status/403?p=1', undefined, good);
      expect([origin403.status, origin403.text]).toEqual([403, page404]);
      const ip = await edge.request(ACT, '/js/app.js', { localAddress: '127.0.0.3' });
      expect([ip.status, ip.text]).toEqual([403, index]);
    });

    test('a refusal with no rule at all keeps nginx\'s own 403; the origin\'s 403 is not touched', async () => {
      await edge.saveLive('demo-cdn-06', 'error_pages', { options: [{ code: [40310001], url: '/index.html' }] });
      const referer = await get(ACT, '/js/app.js', undefined, bad);
      expect(referer.status).toBe(403);
      expect(referer.text).toContain('403 Forbidden');
      const before = edge.origin.hits.get('/status/403?p=2') ?? 0;
      const origin403 = await get(ACT, '/status/403?p=2', undefined, good);
      expect(origin403.text).toContain('源站返回 403');
      expect(edge.origin.hits.get('/status/403?p=2')).toBe(before + 1);
    });
  });

  describe('服务已关闭 (40310006): a service paused by its bandwidth cap', () => {
    const pause = async (bucket: string) => {
      const b = await edge.server.db.selectFrom('buckets').select('id').where('name', '=', bucket).executeTakeFirstOrThrow();
      await edge.server.db.insertInto('cost_control_state').values({ bucket_id: b.id, paused: true } as any).execute();
      await edge.waitLive();
    };

    test('with a 40310006 rule: its page, status 403; the request itself never reaches the origin', async () => {
      await edge.save('demo-cdn-07', 'error_pages', { options: [{ code: [40310006], url: '/errors/50x.html' }, { code: [403], url: '/errors/404.html' }] });
      await pause('demo-cdn-07');
      const res = await get('act7.demo-example.com', '/echo/while-paused');
      expect(res.status).toBe(403);
      expect(res.text).toBe(page50x);
      expect(edge.origin.hits.get('/echo/while-paused')).toBeUndefined();
    });

    test('a plain 403 rule does not hide the provider\'s page', async () => {
      await edge.save('demo-cdn-08', 'error_pages', { options: [{ code: [403], url: '/errors/404.html' }] });
      await pause('demo-cdn-08');
      const res = await get('act8.demo-example.com', '/css/site.css');
      expect(res.status).toBe(403);
      expect(res.text).toContain(`<title>${EDGE_TEXTS.serviceClosed}</title>`);
    });
  });

  test('turning the rules off (no rules) gives the origin\'s answers back', async () => {
    await edge.saveLive('demo-static', 'error_pages', { options: [] });
    const res = await get(STATIC, '/status/404');
    expect(res.text).toContain('源站返回 404');
  });
});
