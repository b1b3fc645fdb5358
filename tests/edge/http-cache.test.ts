/**
 * The edge as a shared HTTP cache (RFC 9111; issue 42; docs/edge.md "The edge as an HTTP cache"): a CDN
 * service with default settings (no cache rules: the edge follows the origin's headers) in front of an
 * origin of this test's own that answers each case's headers. Every check is a real request through nginx,
 * and the origin counts what reached it.
 */
import http from 'node:http';
import net from 'node:net';
import zlib from 'node:zlib';
import fs from 'node:fs';
import path from 'node:path';
import { startEdgeStack, type EdgeStack } from './harness';
import { writeSetting } from '../../src/server/settings/repo';

let edge: EdgeStack;
let origin: http.Server;
const HOST = 'act5.demo-example.com';
const BUCKET = 'demo-cdn-05';

/** What the origin saw: every request, in order. */
const seen: { method: string; url: string; headers: http.IncomingHttpHeaders; status: number }[] = [];
const hits = (url: string) => seen.filter((s) => s.url === url && s.method === 'GET').length;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const text = (n: number, tag = '') => (tag + ' ' + 'body of a case, compressible text. '.repeat(Math.ceil(n / 35))).slice(0, n);

/** Each case: the path's first segment names the headers the origin answers with. */
function answer(req: http.IncomingMessage, res: http.ServerResponse) {
  const url = String(req.url);
  const n = seen.filter((s) => s.url === url && s.method === 'GET').length + (req.method === 'GET' ? 1 : 0);
  const rec = { method: String(req.method), url, headers: req.headers, status: 200 };
  seen.push(rec);
  const send = (status: number, headers: Record<string, string>, body: string | Buffer = '') => {
    rec.status = status;
    // with its length, as a server of files sends it (nginx judges ranges and the compression minimum by it)
    res.writeHead(status, { 'Content-Type': 'text/plain', ...(status === 204 || status === 304 ? {} : { 'Content-Length': String(Buffer.byteLength(body)) }), ...headers });
    res.end(req.method === 'HEAD' ? undefined : body);
  };
  const c = url.split('/')[1]?.split('?')[0];
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    // a change: 204, or 201 with the new resource's Location, or 500 with ?fail
    if (url.includes('fail')) return send(500, { 'Cache-Control': 'no-store' }, 'failed');
    if (url.includes('create')) return send(201, { Location: `http://${HOST}/inv/loc`, 'Content-Location': '/inv/cloc', 'Cache-Control': 'no-store' }, 'created');
    return send(204, { 'Cache-Control': 'no-store' });
  }
  switch (c) {
    case 'plain':
      return send(200, { 'Cache-Control': 'max-age=3600' }, text(2000, `v${n}`));
    case 'public':
      return send(200, { 'Cache-Control': 'public, max-age=3600' }, text(2000, `v${n}`));
    case 'nt':
      return send(200, { 'Cache-Control': 'max-age=3600, no-transform', 'Content-Type': 'text/css' }, text(2000, `v${n}`));
    case 'small':
      return send(200, { 'Cache-Control': 'max-age=3600' }, text(100));
    case 'etag-bad':
      return send(200, { 'Cache-Control': 'max-age=3600', ETag: 'abc123' }, text(2000));
    case 'etag-strong':
      return send(200, { 'Cache-Control': 'max-age=3600', ETag: '"s1"' }, text(2000));
    case 'vary':
      return send(200, { 'Cache-Control': 'max-age=3600', Vary: 'X-Lang' }, text(2000));
    case 'png':
      return send(200, { 'Cache-Control': 'max-age=3600', 'Content-Type': 'image/png' }, Buffer.alloc(2000, 7));
    case 'age-old':
      return send(200, { 'Cache-Control': 'max-age=3600', Age: '7200' }, text(2000, `v${n}`));
    case 'age':
      return send(200, { 'Cache-Control': 'max-age=3600', Age: '100' }, text(2000, `v${n}`));
    case 'reval': {
      const etag = '"r1"';
      if (req.headers['if-none-match'] === etag) return send(304, { 'Cache-Control': 'max-age=1', ETag: etag });
      return send(200, { 'Cache-Control': 'max-age=1', ETag: etag }, text(200_000, `v${n}`));
    }
    case 'reval-lm': {
      const lm = 'Tue, 01 Dec 2026 00:00:00 GMT';
      if (req.headers['if-modified-since'] === lm) return send(304, { 'Cache-Control': 'max-age=1', 'Last-Modified': lm });
      return send(200, { 'Cache-Control': 'max-age=1', 'Last-Modified': lm }, text(2000, `v${n}`));
    }
    case 'swr':
      return send(200, { 'Cache-Control': 'max-age=1, stale-while-revalidate=60' }, text(2000, `v${n}`));
    case 'sie':
      if (n > 1) return send(503, { 'Cache-Control': 'no-store' }, 'down');
      return send(200, { 'Cache-Control': 'max-age=1, stale-if-error=60' }, text(2000, `v${n}`));
    case 'expired-5xx':
      if (n > 1) return send(503, { 'Cache-Control': 'no-store' }, 'down');
      return send(200, { 'Cache-Control': 'max-age=1' }, text(2000, `v${n}`));
    case 'lock':
      setTimeout(() => send(200, { 'Cache-Control': 'max-age=3600' }, text(2000, `v${n}`)), 400);
      return;
    case 'range':
      return send(200, { 'Cache-Control': 'max-age=3600', 'Content-Type': 'video/mp4' }, Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 256)));
    case 'inv':
      return send(200, { 'Cache-Control': 'max-age=3600' }, text(2000, `v${n}`));
    case 'cdn-nostore':
      return send(200, { 'Cache-Control': 'max-age=3600', 'CDN-Cache-Control': 'no-store' }, text(2000, `v${n}`));
    case 'cdn-private':
      return send(200, { 'Cache-Control': 'max-age=3600', 'CDN-Cache-Control': 'private' }, text(2000, `v${n}`));
    case 'cdn-max':
      return send(200, { 'Cache-Control': 'no-cache', 'CDN-Cache-Control': 'max-age=600' }, text(2000, `v${n}`));
    case 'cdn-short':
      return send(200, { 'Cache-Control': 'max-age=3600', 'CDN-Cache-Control': 'max-age=1' }, text(2000, `v${n}`));
    case 'expires-skew': {
      // an origin whose clock is two hours behind: Expires is an hour after its Date
      const date = Date.now() - 7200_000;
      return send(200, { Date: new Date(date).toUTCString(), Expires: new Date(date + 3600_000).toUTCString() }, text(2000, `v${n}`));
    }
    case 'expires-utc':
      return send(200, { Expires: new Date(Date.now() + 3600_000).toUTCString().replace('GMT', 'UTC') }, text(2000, `v${n}`));
    case 'vary-star':
      return send(200, { 'Cache-Control': 'max-age=3600', Vary: 'X-Lang, *' }, text(2000, `v${n}`));
    case 'conn':
      return send(200, { 'Cache-Control': 'max-age=3600', Connection: 'X-Secret', 'X-Secret': 's1', 'X-Kept': 'k1' }, text(2000, `v${n}`));
    case 'nocache':
    case 'big':
    case 'big-noval': {
      const etag = '"n1"';
      const size = c === 'nocache' ? 2000 : 1 << 20;
      if (c !== 'big-noval' && req.headers['if-none-match'] === etag) return send(304, { 'Cache-Control': 'no-cache', ETag: etag });
      return send(200, { 'Cache-Control': 'no-cache', ETag: etag }, text(size, `v${n}`));
    }
    case 'big-lock':
      setTimeout(() => send(200, { 'Cache-Control': 'max-age=3600' }, text(1 << 20, `v${n}`)), 300);
      return;
    default:
      return send(404, {}, 'no such case');
  }
}

beforeAll(async () => {
  origin = http.createServer(answer);
  await new Promise<void>((r) => origin.listen(0, '127.0.0.1', r));
  edge = await startEdgeStack();
  // the test's origin is on this machine: written as the operator writes the demo's origins (origin.test.ts)
  const db = edge.server.db;
  const b = await db.selectFrom('buckets').select(['id']).where('name', '=', BUCKET).executeTakeFirstOrThrow();
  const u = await db.selectFrom('users').select('id').where('username', '=', 'demo').executeTakeFirstOrThrow();
  const port = (origin.address() as net.AddressInfo).port;
  await writeSetting(db, b.id, 'origin', { protocol: 'http', host: '', servers: [{ address: '127.0.0.1', port, weight: 10, backup: false }], failover: { enable: false, timeout: 5, max_fails: 1 } }, u.id);
  await edge.waitLive();
}, 120_000);
afterAll(async () => {
  origin?.closeAllConnections();
  await new Promise((r) => origin?.close(r));
  await edge?.close();
});

const get = (p: string, headers: Record<string, string> = {}) => edge.request(HOST, p, { headers });
const GZ = { 'Accept-Encoding': 'gzip' };
const BR = { 'Accept-Encoding': 'br' };

describe('1. a credentialed answer is never served to another client (RFC 9111 §3.5)', () => {
  test('Authorization + max-age: not stored; the next client without credentials reaches the origin', async () => {
    const a = await get('/plain/auth', { Authorization: 'Bearer alice' });
    expect(a.status).toBe(200);
    expect(a.text).toContain('v1');
    const b = await get('/plain/auth');
    expect(b.headers['x-cache']).toBe('MISS');
    expect(b.text).toContain('v2');
    expect(hits('/plain/auth')).toBe(2);
  });

  test('public (or s-maxage, must-revalidate) allows it: stored and served', async () => {
    await get('/public/auth', { Authorization: 'Bearer alice' });
    const b = await get('/public/auth');
    expect(b.headers['x-cache']).toBe('HIT');
    expect(hits('/public/auth')).toBe(1);
  });

  test('under a cache rule too: the rule never stores a credentialed answer', async () => {
    await edge.saveLive(BUCKET, 'cache_rules', { rules: [{ type: 'directory', value: '/plain/', ttl: 600, ignore_query: false }] });
    try {
      await get('/plain/rule', { Authorization: 'Bearer alice' });
      const b = await get('/plain/rule');
      expect(b.headers['x-cache']).toBe('MISS');
      expect(hits('/plain/rule')).toBe(2);
      // the rule still caches the same path without credentials
      expect((await get('/plain/rule')).headers['x-cache']).toBe('HIT');
    } finally {
      await edge.saveLive(BUCKET, 'cache_rules', { rules: [] });
    }
  });
});

describe('2. no-transform (RFC 9111 §5.2.2.6)', () => {
  test('the answer is sent as the origin sent it to a client accepting gzip or br, on a miss and on a hit', async () => {
    // the same body without no-transform is compressed (the service compresses)
    expect((await get('/plain/nt-control', GZ)).headers['content-encoding']).toBe('gzip');
    for (const [i, h] of [GZ, BR, GZ].entries()) {
      const r = await get('/nt/a', h);
      expect(r.headers['x-cache']).toBe(i === 0 ? 'MISS' : 'HIT');
      expect(r.headers['content-encoding']).toBeUndefined();
      expect(r.text).toBe(text(2000, 'v1'));
    }
  });
});

describe('3. compression: a minimum size, validators, Vary', () => {
  test('a body under the minimum is sent plain, without Vary: Accept-Encoding', async () => {
    const r = await get('/small/a', GZ);
    expect(r.headers['content-encoding']).toBeUndefined();
    expect(r.body.length).toBe(100);
    expect(r.headers.vary).toBeUndefined();
  });

  test('a transformed body\'s strong ETag is weakened; an invalid unquoted one is kept (weak), not dropped', async () => {
    const s = await get('/etag-strong/a', GZ);
    expect(s.headers['content-encoding']).toBe('gzip');
    expect(s.headers.etag).toBe('W/"s1"');
    expect((await get('/etag-strong/a')).headers.etag).toBe('"s1"');
    const bad = await get('/etag-bad/a', GZ);
    expect(bad.headers['content-encoding']).toBe('gzip');
    expect(bad.headers.etag).toBe('W/"abc123"');
    const badBr = await get('/etag-bad/a', BR);
    expect(badBr.headers['content-encoding']).toBe('br');
    expect(badBr.headers.etag).toBe('W/"abc123"');
    // sent plain, the origin's value as it is
    expect((await get('/etag-bad/a')).headers.etag).toBe('abc123');
  });

  test('the origin\'s Vary is kept and Accept-Encoding added to compressed answers only', async () => {
    const v = await get('/vary/a', GZ);
    expect(v.headers['content-encoding']).toBe('gzip');
    expect(String(v.headers.vary).split(/\s*,\s*/).sort()).toEqual(['Accept-Encoding', 'X-Lang']);
    expect(zlib.gunzipSync(v.body).toString()).toBe(text(2000));
    const png = await get('/png/a', GZ);
    expect(png.headers['content-encoding']).toBeUndefined();
    expect(png.headers.vary).toBeUndefined();
  });
});

describe('4. Age (RFC 9111 §4.2.3, §5.1)', () => {
  test('an answer older than its max-age (Age: 7200, max-age=3600) is not served from the cache as fresh', async () => {
    await get('/age-old/a');
    const b = await get('/age-old/a');
    expect(b.headers['x-cache']).toBe('MISS');
    expect(hits('/age-old/a')).toBe(2);
  });

  test('a hit carries its Age: the origin\'s plus the time in the cache', async () => {
    const a = await get('/age/a');
    expect(a.headers.age).toBe('100');
    await get('/plain/age');
    await sleep(2100);
    const b = await get('/age/a');
    expect(b.headers['x-cache']).toBe('HIT');
    expect(Number(b.headers.age)).toBeGreaterThanOrEqual(102);
    expect(Number(b.headers.age)).toBeLessThan(110);
    const c = await get('/plain/age');
    expect(c.headers['x-cache']).toBe('HIT');
    expect(Number(c.headers.age)).toBeGreaterThanOrEqual(2);
    expect(Number(c.headers.age)).toBeLessThan(10);
  });
});

describe('5 and 11. revalidation, stale serving, collapsing, ranges', () => {
  test('a stale entry is revalidated with If-None-Match: the origin answers 304 and sends the body once', async () => {
    const a = await get('/reval/a');
    expect(a.body.length).toBe(200_000);
    await sleep(2100);
    const b = await get('/reval/a');
    expect(b.status).toBe(200);
    expect(b.body.length).toBe(200_000);
    expect(b.text).toContain('v1');
    expect(b.headers['x-cache']).toBe('HIT');
    const last = seen.filter((s) => s.url === '/reval/a');
    expect(last.map((s) => s.status)).toEqual([200, 304]);
    expect(last[1].headers['if-none-match']).toBe('"r1"');
  });

  test('and with If-Modified-Since when the answer has only Last-Modified', async () => {
    await get('/reval-lm/a');
    await sleep(2100);
    const b = await get('/reval-lm/a');
    expect(b.text).toContain('v1');
    const last = seen.filter((s) => s.url === '/reval-lm/a');
    expect(last.map((s) => s.status)).toEqual([200, 304]);
  });

  test('stale-while-revalidate: the stale copy answers at once while one background request refreshes it', async () => {
    await get('/swr/a');
    await sleep(2100);
    const b = await get('/swr/a');
    expect(b.text).toContain('v1');
    expect(b.headers['x-cache']).toBe('HIT');
    await sleep(300);
    expect(hits('/swr/a')).toBe(2);
    expect((await get('/swr/a')).text).toContain('v2');
  });

  test('stale-if-error: the stale copy answers when the origin fails; without it the error passes', async () => {
    await get('/sie/a');
    await get('/expired-5xx/a');
    await sleep(2100);
    const b = await get('/sie/a');
    expect(b.status).toBe(200);
    expect(b.text).toContain('v1');
    const c = await get('/expired-5xx/a');
    expect(c.status).toBe(503);
  });

  test('ten simultaneous misses of one object make one origin request', async () => {
    const all = await Promise.all(Array.from({ length: 10 }, () => get('/lock/a')));
    expect(all.every((r) => r.status === 200 && r.text.includes('v1'))).toBe(true);
    expect(hits('/lock/a')).toBe(1);
  });

  test('ranges are answered from one stored full object', async () => {
    const a = await get('/range/a', { Range: 'bytes=0-9' });
    expect(a.status).toBe(206);
    expect([...a.body]).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const b = await get('/range/a', { Range: 'bytes=500-503' });
    expect(b.status).toBe(206);
    expect(b.headers['content-range']).toBe('bytes 500-503/1000');
    expect([...b.body]).toEqual([244, 245, 246, 247]);
    expect(b.headers['x-cache']).toBe('HIT');
    expect(hits('/range/a')).toBe(1);
    expect(seen.find((s) => s.url === '/range/a')!.headers.range).toBeUndefined();
  });
});

describe('6. invalidation (RFC 9111 §4.4)', () => {
  test('a successful POST, PUT or DELETE removes the stored answer of its URL', async () => {
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const p = `/inv/${method.toLowerCase()}`;
      await get(p);
      expect((await get(p)).headers['x-cache']).toBe('HIT');
      const w = await edge.request(HOST, p, { method, body: 'x' });
      expect(w.status).toBe(204);
      const after = await get(p);
      expect(after.headers['x-cache']).toBe('MISS');
      expect(after.text).toContain('v2');
    }
  });

  test('and of its Location and Content-Location on the same host; a failed one removes nothing', async () => {
    await get('/inv/loc');
    await get('/inv/cloc');
    await get('/inv/kept');
    expect((await edge.request(HOST, '/inv/create', { method: 'POST', body: 'x' })).status).toBe(201);
    expect((await get('/inv/loc')).headers['x-cache']).toBe('MISS');
    expect((await get('/inv/cloc')).headers['x-cache']).toBe('MISS');
    expect((await edge.request(HOST, '/inv/kept?fail', { method: 'POST', body: 'x' })).status).toBe(500);
    expect((await get('/inv/kept')).headers['x-cache']).toBe('HIT');
  });
});

describe('9. CDN-Cache-Control (RFC 9213)', () => {
  test('no-store or private there stops the edge; the browser keeps its Cache-Control', async () => {
    for (const p of ['/cdn-nostore/a', '/cdn-private/a']) {
      const a = await get(p);
      expect(a.headers['cache-control']).toBe('max-age=3600');
      expect((await get(p)).headers['x-cache']).toBe('MISS');
      expect(hits(p)).toBe(2);
    }
  });

  test('a max-age there is the edge\'s time; the browser gets the origin\'s Cache-Control', async () => {
    await get('/cdn-max/a');
    const b = await get('/cdn-max/a');
    expect(b.headers['x-cache']).toBe('HIT');
    expect(b.headers['cache-control']).toBe('no-cache');
    expect(hits('/cdn-max/a')).toBe(1);
    await get('/cdn-short/a');
    await sleep(2100);
    const c = await get('/cdn-short/a');
    expect(c.headers['cache-control']).toBe('max-age=3600');
    expect(hits('/cdn-short/a')).toBe(2);
  });
});

describe('7. Expires against the answer\'s Date, a stored Date on hits', () => {
  test('an origin clock behind the edge: Expires an hour after its Date is an hour of freshness; a hit keeps the stored Date', async () => {
    const a = await get('/expires-skew/a');
    const b = await get('/expires-skew/a');
    expect(b.headers['x-cache']).toBe('HIT');
    expect(hits('/expires-skew/a')).toBe(1);
    expect(b.headers.date).toBe(a.headers.date);
    expect(Date.now() - Date.parse(String(b.headers.date))).toBeGreaterThan(7000_000);
  });

  test('an Expires that is not an HTTP-date (UTC for GMT) counts as already expired', async () => {
    await get('/expires-utc/a');
    expect((await get('/expires-utc/a')).headers['x-cache']).toBe('MISS');
    expect(hits('/expires-utc/a')).toBe(2);
  });
});

describe('8. Vary with *, headers named in Connection', () => {
  test('Vary: X-Lang, * is never reused', async () => {
    await get('/vary-star/a');
    expect((await get('/vary-star/a')).headers['x-cache']).toBe('MISS');
  });

  test('a header the origin named in Connection is neither stored nor passed on', async () => {
    for (const cache of ['MISS', 'HIT']) {
      const r = await get('/conn/a');
      expect(r.headers['x-cache']).toBe(cache);
      expect(r.headers['x-secret']).toBeUndefined();
      expect(r.headers['x-kept']).toBe('k1');
    }
  });
});

describe('11. no-cache stored and revalidated; what revalidation and collapsing save (回源)', () => {
  test('a no-cache answer is stored and revalidated on every request (§5.2.2.4); the browser keeps no-cache', async () => {
    for (let i = 0; i < 3; i++) {
      const r = await get('/nocache/a');
      expect(r.status).toBe(200);
      expect(r.text).toContain('v1');
      expect(r.headers['cache-control']).toBe('no-cache');
      expect(r.headers['x-cache']).toBe(i === 0 ? 'MISS' : 'HIT');
    }
    expect(seen.filter((s) => s.url === '/nocache/a').map((s) => s.status)).toEqual([200, 304, 304]);
  });

  test('bench: a stale 1 MB object served 100 times, the bytes pulled from the origin with and without revalidation; 100 simultaneous misses', async () => {
    for (let i = 0; i < 100; i++) {
      expect((await get('/big/a')).body.length).toBe(1 << 20);
      expect((await get('/big-noval/a')).body.length).toBe(1 << 20);
    }
    const all = await Promise.all(Array.from({ length: 100 }, () => get('/big-lock/a')));
    expect(all.every((r) => r.body.length === 1 << 20)).toBe(true);
    // the statistics' 回源 (flow source backsource) is the access log's upstream bytes (src/edge/logs/shipper.ts)
    await sleep(600);
    const lines = fs.readFileSync(path.join(edge.dir, 'logs', 'access.log'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    const pulled = (uri: string) => lines.filter((l) => l.uri === uri).reduce((a, l) => a + String(l.ub).split(/[,:\s]+/).reduce((b: number, x: string) => b + (Number(x) || 0), 0), 0);
    const withReval = pulled('/big/a');
    const without = pulled('/big-noval/a');
    const collapsed = hits('/big-lock/a');
    console.log(`回源 for 100 requests of a stale 1 MB object: ${without} bytes without revalidation, ${withReval} with (${(without / withReval).toFixed(0)}×); 100 simultaneous misses: ${collapsed} origin request(s), ${pulled('/big-lock/a')} bytes`);
    expect(without).toBeGreaterThan(100 * (1 << 20));
    expect(withReval).toBeLessThan(1.1 * (1 << 20));
    expect(collapsed).toBe(1);
  }, 120_000);
});
