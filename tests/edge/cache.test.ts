/**
 * The cache settings on the edge (docs/edge.md "Compression, error pages and cache"): 缓存规则
 * (cache_rules), 浏览器缓存 (browser_cache) and URL 参数缓存 (query_string), saved through the API and
 * shown by real requests through nginx: X-Cache, the origin's hit counter, Cache-Control and Expires,
 * and the cache file a purge would compute for a URL.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { startEdgeStack, type EdgeStack } from './harness';
import { edgeCacheKey } from '../../schemas/edge-cache-key';

let edge: EdgeStack;
const WWW = 'www.demo-example.com';
const STATIC = 'static.demo-example.com';
const ACT = 'act1.demo-example.com';

beforeAll(async () => {
  edge = await startEdgeStack();
  await edge.waitLive();
});
afterAll(async () => {
  await edge?.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const get = (host: string, p: string) => edge.request(host, p);
const hits = (uri: string) => edge.origin.hits.get(uri) ?? 0;

describe('X-Cache', () => {
  test('every answer says HIT or MISS: cached, uncacheable, the origin\'s errors', async () => {
    const answers = [await get(ACT, '/about.html'), await get(ACT, '/about.html'), await get(ACT, '/echo/x'), await get(ACT, '/status/500'), await get(ACT, '/nothing-here')];
    expect(answers.map((a) => a.headers['x-cache'])).toEqual(['MISS', 'HIT', 'MISS', 'MISS', 'MISS']);
  });

  test('the edge\'s own answers too: a refusal is a MISS', async () => {
    await edge.saveLive('demo-cdn-10', 'ip_antileech', { mode: 'blacklist', ips: ['127.0.0.4'] });
    const refused = await edge.request('act10.demo-example.com', '/about.html', { localAddress: '127.0.0.4' });
    expect(refused.status).toBe(403);
    expect(refused.headers['x-cache']).toBe('MISS');
  });
});

describe('缓存规则 (cache_rules)', () => {
  test('the rule\'s time overrides the origin\'s no-store, and expires after it', async () => {
    await edge.saveLive('demo-www', 'cache_rules', { rules: [{ type: 'path', value: '/headers', ttl: 5, ignore_query: false }] });
    const uri = '/headers?Cache-Control=no-store&n=1';
    expect((await get(WWW, uri)).headers['x-cache']).toBe('MISS');
    const second = await get(WWW, uri);
    expect(second.headers['x-cache']).toBe('HIT');
    // the client still sees the origin's header (browser caching is browser_cache's)
    expect(second.headers['cache-control']).toBe('no-store');
    expect(hits(uri)).toBe(1);
    await sleep(6000);
    expect((await get(WWW, uri)).headers['x-cache']).toBe('MISS');
    expect(hits(uri)).toBe(2);
    // an answer that sets a cookie is never cached, rule or not
    const cookie = '/headers?Set-Cookie=s%3D1';
    await get(WWW, cookie);
    expect((await get(WWW, cookie)).headers['x-cache']).toBe('MISS');
    expect(hits(cookie)).toBe(2);
    // without the rule the same origin answer is never cached
    const other = '/headers?Cache-Control=no-store&n=2';
    await get(STATIC, other);
    expect((await get(STATIC, other)).headers['x-cache']).toBe('MISS');
    expect(hits(other)).toBe(2);
  });

  test('the rule\'s time overrides the origin\'s max-age=3600 (suffix, any case)', async () => {
    await edge.saveLive('demo-www', 'cache_rules', { rules: [{ type: 'suffix', value: 'CSS,js', ttl: 5, ignore_query: false }] });
    const uri = '/css/site.css?r=1';
    await get(WWW, uri);
    expect((await get(WWW, uri)).headers['x-cache']).toBe('HIT');
    await sleep(6000);
    expect((await get(WWW, uri)).headers['x-cache']).toBe('MISS');
    expect(hits(uri)).toBe(2);
    // an image no rule names keeps the origin's hour
    await get(WWW, '/img/logo.png?r=1');
    await sleep(100);
    expect((await get(WWW, '/img/logo.png?r=1')).headers['x-cache']).toBe('HIT');
  });

  test('ignore_query: a directory rule that ignores the query shares one object across queries', async () => {
    await edge.saveLive('demo-www', 'cache_rules', { rules: [{ type: 'directory', value: '/img/', ttl: 600, ignore_query: true }] });
    const a = await get(WWW, '/img/logo.png?q=a');
    const b = await get(WWW, '/img/logo.png?q=b');
    expect([a.headers['x-cache'], b.headers['x-cache']]).toEqual(['MISS', 'HIT']);
    expect(hits('/img/logo.png?q=a')).toBe(1);
    expect(hits('/img/logo.png?q=b')).toBe(0);
    // the query still reaches the origin on a miss
    expect(a.headers['x-origin-uri']).toBe('/img/logo.png?q=a');
    // outside the directory the query counts
    await get(WWW, '/js/app.js?q=a');
    expect((await get(WWW, '/js/app.js?q=b')).headers['x-cache']).toBe('MISS');
  });

  test('rules are matched top-down: the first matching rule wins', async () => {
    await edge.saveLive('demo-www', 'cache_rules', {
      rules: [
        { type: 'path', value: '/about.html', ttl: 600, ignore_query: false },
        { type: 'suffix', value: 'html', ttl: 600, ignore_query: true },
      ],
    });
    await get(WWW, '/about.html?t=1');
    expect((await get(WWW, '/about.html?t=2')).headers['x-cache']).toBe('MISS'); // the path rule keeps the query
    await get(WWW, '/index.html?t=1');
    expect((await get(WWW, '/index.html?t=2')).headers['x-cache']).toBe('HIT'); // the suffix rule ignores it
  });
});

describe('浏览器缓存 (browser_cache)', () => {
  beforeAll(async () => {
    await edge.saveLive('demo-static', 'browser_cache', {
      rules: [
        { type: 'suffix', value: 'css', ttl: 600, follow_origin: false },
        { type: 'directory', value: '/js/', ttl: 0, follow_origin: false },
        { type: 'path', value: '/headers', ttl: 300, follow_origin: true },
        { type: 'path', value: '/status/*', ttl: 100, follow_origin: false },
      ],
    });
  });

  test('a matching file gets Cache-Control: max-age=<ttl> and Expires, on a miss and on a hit', async () => {
    for (const expected of ['MISS', 'HIT']) {
      const before = Date.now();
      const res = await get(STATIC, '/css/site.css');
      expect(res.headers['x-cache']).toBe(expected);
      expect(res.headers['cache-control']).toBe('max-age=600'); // the origin says public, max-age=3600
      const expires = Date.parse(String(res.headers.expires));
      expect(Math.abs(expires - (before + 600_000))).toBeLessThan(3000);
    }
  });

  test('a 304 to a conditional request carries the rule\'s headers too', async () => {
    const full = await get(STATIC, '/css/site.css');
    const res = await edge.request(STATIC, '/css/site.css', { headers: { 'if-modified-since': String(full.headers['last-modified']) } });
    expect(res.status).toBe(304);
    expect(res.headers['cache-control']).toBe('max-age=600');
  });

  test('ttl 0: Cache-Control: no-cache', async () => {
    const res = await get(STATIC, '/js/app.js');
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  test('follow_origin: the origin\'s Cache-Control or Expires wins; without them the rule\'s time', async () => {
    const cc = await get(STATIC, '/headers?Cache-Control=max-age%3D42');
    expect(cc.headers['cache-control']).toBe('max-age=42');
    const exp = await get(STATIC, '/headers?Expires=Thu,%2001%20Jan%202037%2000:00:00%20GMT');
    expect(exp.headers.expires).toBe('Thu, 01 Jan 2037 00:00:00 GMT');
    expect(exp.headers['cache-control']).toBeUndefined();
    const none = await get(STATIC, '/headers?x=1');
    expect(none.headers['cache-control']).toBe('max-age=300');
  });

  test('no rule: the origin\'s headers; an error answer is never made cacheable', async () => {
    expect((await get(STATIC, '/img/logo.png')).headers['cache-control']).toBe('public, max-age=3600');
    const err = await get(STATIC, '/status/404');
    expect(err.status).toBe(404);
    expect(err.headers['cache-control']).toBeUndefined();
    const ok = await get(STATIC, '/status/200');
    expect(ok.headers['cache-control']).toBe('max-age=100');
  });

  test('patterns match literally but for *: dots, pluses and brackets in paths; suffixes in any case', async () => {
    await edge.saveLive('demo-cdn-09', 'browser_cache', {
      rules: [
        { type: 'path', value: '/echo/a.b', ttl: 11, follow_origin: false },
        { type: 'path', value: '/echo/x*/y', ttl: 22, follow_origin: false },
        { type: 'directory', value: '/echo/d+(1)', ttl: 33, follow_origin: false },
        { type: 'suffix', value: 'Js,css', ttl: 44, follow_origin: false },
      ],
    });
    const cc = async (p: string) => (await get('act9.demo-example.com', p)).headers['cache-control'];
    expect(await cc('/echo/a.b')).toBe('max-age=11');
    expect(await cc('/echo/aXb')).toBe('no-store'); // the origin's
    expect(await cc('/echo/x1/2/y')).toBe('max-age=22');
    expect(await cc('/echo/x/y')).toBe('max-age=22');
    expect(await cc('/echo/x/y/z')).toBe('no-store');
    expect(await cc('/echo/d+(1)/f')).toBe('max-age=33');
    expect(await cc('/echo/dd(1)/f')).toBe('no-store');
    expect(await cc('/echo/z.JS')).toBe('max-age=44');
    expect(await cc('/echo/z.css?x=.js')).toBe('max-age=44');
    expect(await cc('/echo/zjs')).toBe('no-store');
  });

  test('the edge\'s own cache is not affected', async () => {
    await get(STATIC, '/js/app.js?own=1');
    expect((await get(STATIC, '/js/app.js?own=1')).headers['x-cache']).toBe('HIT');
  });
});

describe('URL 参数缓存 (query_string)', () => {
  /** Two URLs: does the second share the first's cached object? (origin hits of the second) */
  const shared = async (host: string, a: string, b: string) => {
    const first = await get(host, a);
    expect(first.headers['x-origin-uri']).toBe(a); // the origin gets the whole query
    const second = await get(host, b);
    return second.headers['x-cache'] === 'HIT' && hits(b) === 0;
  };

  test('keep_all (default): any parameter makes another object', async () => {
    expect(await shared(ACT, '/js/app.js?k=1', '/js/app.js?k=2')).toBe(false);
    expect(await shared(ACT, '/js/app.js?k=3&l=1', '/js/app.js?l=1&k=3')).toBe(false); // the order counts too
  });

  test('ignore_all: URLs differing only in parameters share one object', async () => {
    await edge.saveLive('demo-cdn-02', 'query_string', { mode: 'ignore_all', params: [] });
    expect(await shared('act2.demo-example.com', '/js/app.js?a=1', '/js/app.js?b=2&c=3')).toBe(true);
  });

  test('ignore_some: an ignored parameter shares, a kept one does not', async () => {
    await edge.saveLive('demo-cdn-03', 'query_string', { mode: 'ignore_some', params: ['utm_source', 'ts'] });
    const h = 'act3.demo-example.com';
    expect(await shared(h, '/js/app.js?id=1&utm_source=a', '/js/app.js?id=1&utm_source=b&ts=9')).toBe(true);
    expect(await shared(h, '/css/site.css?id=1&utm_source=a', '/css/site.css?id=2&utm_source=a')).toBe(false);
  });

  test('keep_some: only the listed parameters count', async () => {
    await edge.saveLive('demo-cdn-04', 'query_string', { mode: 'keep_some', params: ['v', 'items[]'] });
    const h = 'act4.demo-example.com';
    expect(await shared(h, '/js/app.js?v=1&t=1', '/js/app.js?t=2&v=1')).toBe(true);
    expect(await shared(h, '/css/site.css?v=1&t=1', '/css/site.css?v=2&t=1')).toBe(false);
    // a listed name percent-encoded by the client is the same name
    expect(await shared(h, '/about.html?items%5B%5D=1&x=1', '/about.html?items%5B%5D=2&x=1')).toBe(false);
    expect(await shared(h, '/index.html?items%5B%5D=1&x=1', '/index.html?items%5B%5D=1&x=2')).toBe(true);
  });

  test('a purge computes the key a URL was cached under (edgeCacheKey): the cache file exists', async () => {
    await edge.saveLive('demo-cdn-05', 'cache_rules', { rules: [{ type: 'suffix', value: 'png', ttl: 600, ignore_query: true }] });
    await edge.saveLive('demo-cdn-05', 'query_string', { mode: 'ignore_some', params: ['sign'] });
    const settings = {
      query_string: { mode: 'ignore_some' as const, params: ['sign'] },
      cache_rules: { rules: [{ type: 'suffix' as const, value: 'png', ttl: 600, ignore_query: true }] },
    };
    const host = 'act5.demo-example.com';
    const svc = edge.agent.serviceOfHost(host)!; // the cache key's service (s<id>/…)
    for (const [p, args] of [['/css/site.css', 'a=1&sign=x&b=2'], ['/img/logo.png', 'a=1'], ['/js/app.js', '']] as const) {
      await get(host, args ? `${p}?${args}` : p);
      const key = edgeCacheKey(svc, host, p, args, settings);
      const md5 = createHash('md5').update(key).digest('hex');
      const file = path.join(edge.dir, 'cache', md5.slice(-1), md5.slice(-3, -1), md5);
      for (let i = 0; i < 50 && !fs.existsSync(file); i++) await sleep(20);
      expect({ key, exists: fs.existsSync(file) }).toEqual({ key, exists: true });
      expect(fs.readFileSync(file).includes(Buffer.from(`\nKEY: ${key}\n`))).toBe(true);
    }
    expect(edgeCacheKey(svc, host, '/css/site.css', 'a=1&sign=x&b=2', settings)).toBe(`s${svc}/${host}/css/site.css?a=1&b=2`);
    expect(edgeCacheKey(svc, host, '/img/logo.png', 'a=1', settings)).toBe(`s${svc}/${host}/img/logo.png?`);
  });
});

describe('odd but valid values', () => {
  test('quotes, semicolons, braces, dollars and backslashes in patterns and pages: nginx takes them, and they match literally', async () => {
    const odd = '/echo/q"s;{b}$d\\e';
    await edge.save('demo-cdn-09', 'cache_rules', { rules: [{ type: 'path', value: odd, ttl: 60, ignore_query: true }] });
    await edge.save('demo-cdn-09', 'browser_cache', { rules: [{ type: 'path', value: `${odd}*`, ttl: 55, follow_origin: false }] });
    await edge.save('demo-cdn-09', 'error_pages', { options: [{ code: [404], url: '/errors/404.html?x="]]${y};' }] });
    await edge.saveLive('demo-cdn-09', 'query_string', { mode: 'keep_some', params: ['a]]', 'b[c]'] });
    const status = JSON.parse((await edge.client.get('/api/buckets/edge/?bucket_name=demo-cdn-09')).body).data;
    expect(status.state).toBe('applied');
    const host = 'act9.demo-example.com';
    const encoded = '/echo/q%22s;%7Bb%7D$d%5Ce';
    const first = await get(host, `${encoded}?a]]=1`);
    expect(first.status).toBe(200);
    expect(JSON.parse(first.text).path).toBe(encoded);
    expect(first.headers['cache-control']).toBe('max-age=55');
    expect((await get(host, `${encoded}?a]]=2`)).headers['x-cache']).toBe('HIT'); // the rule ignores the query
    const missing = await get(host, '/no-such-page');
    expect(missing.status).toBe(404);
    expect(missing.text).toContain('自定义 404 页面');
    expect(hits('/errors/404.html?x="]]${y};')).toBe(1);
  });
});
