/**
 * Headers on the edge (docs/edge.md "TLS, HTTP/2 and headers"): HSTS on HTTPS answers only, CORS for
 * allowed origins and none for refused ones, a CORS preflight answered by the edge, and a domain's
 * force_https redirecting plain HTTP. Real requests through nginx after saving through the API.
 */
import { startEdgeStack, type EdgeAnswer, type EdgeStack } from './harness';

// several saves, each waiting for a reload, on a machine others share
jest.setTimeout(180_000);

let edge: EdgeStack;

/** The answer's Vary tokens, lower case (other settings, compression say, add their own). */
const varies = (r: EdgeAnswer) => String(r.headers.vary ?? '').toLowerCase().split(/\s*,\s*/).filter(Boolean);

const CORS_OFF = { enable: false, allow_origins: ['*'], allow_methods: ['GET', 'POST', 'HEAD'], allow_headers: [], expose_headers: [], max_age: 600, allow_credentials: false };

beforeAll(async () => {
  edge = await startEdgeStack();
  await edge.enableHttps('static.demo-example.com');
  await edge.waitLive();
}, 240_000);
afterAll(async () => {
  await edge?.close();
}, 60_000);

describe('HSTS', () => {
  test('off by default: no Strict-Transport-Security', async () => {
    const res = await edge.request('www.demo-example.com', '/echo/hsts0', { https: true });
    expect(res.status).toBe(200);
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });

  test('on: the header on HTTPS answers (the edge’s own and the origin’s errors too), never over plain HTTP', async () => {
    await edge.saveLive('demo-www', 'hsts', { enable: true, max_age: 86400, include_subdomains: false, preload: false });
    const res = await edge.request('www.demo-example.com', '/echo/hsts1', { https: true });
    expect(res.headers['strict-transport-security']).toBe('max-age=86400');
    expect((await edge.request('www.demo-example.com', '/status/500', { https: true })).headers['strict-transport-security']).toBe('max-age=86400');
    expect((await edge.request('www.demo-example.com', '/no-such-page', { https: true })).headers['strict-transport-security']).toBe('max-age=86400');
    // an answer nginx makes itself (TRACE is refused with 405 before any location)
    const own = await edge.request('www.demo-example.com', '/', { https: true, method: 'TRACE' });
    expect(own.status).toBe(405);
    expect(own.headers['strict-transport-security']).toBe('max-age=86400');
    const plain = await edge.request('www.demo-example.com', '/echo/hsts1');
    expect(plain.status).toBe(200);
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    // another service is untouched
    expect((await edge.request('static.demo-example.com', '/echo/hsts1', { https: true })).headers['strict-transport-security']).toBeUndefined();

    await edge.saveLive('demo-www', 'hsts', { enable: true, max_age: 31536000, include_subdomains: true, preload: true });
    expect((await edge.request('www.demo-example.com', '/echo/hsts2', { https: true })).headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains; preload');
    await edge.saveLive('demo-www', 'hsts', { enable: true, max_age: 600, include_subdomains: true, preload: false });
    expect((await edge.request('www.demo-example.com', '/echo/hsts3', { https: true })).headers['strict-transport-security']).toBe('max-age=600; includeSubDomains');
  });

  test('on, the edge’s header replaces the origin’s; off, the origin’s passes', async () => {
    const path = '/headers?Strict-Transport-Security=max-age%3D5';
    expect((await edge.request('www.demo-example.com', path, { https: true })).headers['strict-transport-security']).toBe('max-age=600; includeSubDomains');
    await edge.saveLive('demo-www', 'hsts', { enable: false, max_age: 600, include_subdomains: true, preload: false });
    expect((await edge.request('www.demo-example.com', path, { https: true })).headers['strict-transport-security']).toBe('max-age=5');
    expect((await edge.request('www.demo-example.com', '/echo/hsts4', { https: true })).headers['strict-transport-security']).toBeUndefined();
  });
});

describe('force_https', () => {
  test('plain HTTP is redirected to HTTPS on the domain that asks for it; HTTPS answers', async () => {
    expect((await edge.request('static.demo-example.com', '/echo/plain?a=1')).status).toBe(200);
    await edge.enableHttps('static.demo-example.com', { forceHttps: true });
    await edge.waitLive();
    const res = await edge.request('static.demo-example.com', '/echo/plain?a=1');
    expect(res.status).toBe(301);
    expect(res.headers.location).toBe(`https://static.demo-example.com:${edge.ports.https}/echo/plain?a=1`);
    expect(edge.origin.hits.get('/echo/plain?a=1')).toBe(1);
    const https = await edge.request('static.demo-example.com', '/echo/plain?a=1', { https: true });
    expect(https.status).toBe(200);
    expect(JSON.parse(https.text).uri).toBe('/echo/plain?a=1');
    // www (force_https off) still answers over plain HTTP
    expect((await edge.request('www.demo-example.com', '/echo/plain')).status).toBe(200);
  });
});

describe('CORS', () => {
  const site = 'www.demo-example.com';

  test('off by default: no CORS headers, and a preflight goes to the origin', async () => {
    const res = await edge.request(site, '/echo/c0', { headers: { origin: 'https://app.example.com' } });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const pre = await edge.request(site, '/echo/c0-pre', { method: 'OPTIONS', headers: { origin: 'https://app.example.com', 'access-control-request-method': 'PUT' } });
    expect(pre.status).toBe(200);
    expect(JSON.parse(pre.text).method).toBe('OPTIONS');
  });

  test('listed origins: the headers for an allowed Origin, none for a refused one', async () => {
    await edge.saveLive('demo-www', 'cors', {
      enable: true,
      allow_origins: ['https://app.example.com', 'http://localhost:3000', 'https://*.partner.example.org'],
      allow_methods: ['GET', 'PUT', 'DELETE'],
      allow_headers: ['X-Token', 'Content-Type'],
      expose_headers: ['X-Cache', 'X-Origin-Hits'],
      max_age: 1200,
      allow_credentials: true,
    });
    const ok = await edge.request(site, '/echo/c1', { headers: { origin: 'https://app.example.com' } });
    expect(ok.status).toBe(200);
    expect(ok.headers['access-control-allow-origin']).toBe('https://app.example.com');
    expect(ok.headers['access-control-allow-credentials']).toBe('true');
    expect(ok.headers['access-control-expose-headers']).toBe('X-Cache, X-Origin-Hits');
    expect(varies(ok)).toContain('origin');
    // preflight-only headers are not on ordinary answers
    expect(ok.headers['access-control-allow-methods']).toBeUndefined();
    expect(ok.headers['access-control-max-age']).toBeUndefined();

    for (const origin of ['http://localhost:3000', 'https://a.partner.example.org', 'https://b.c.partner.example.org', 'HTTPS://APP.EXAMPLE.COM']) {
      const r = await edge.request(site, '/echo/c2', { headers: { origin } });
      expect(r.headers['access-control-allow-origin']).toBe(origin);
    }
    // refused: another host, another scheme, another port, the wildcard's own domain, a look-alike
    for (const origin of ['https://evil.example.com', 'http://app.example.com', 'https://app.example.com:8443', 'http://localhost:3001', 'https://partner.example.org', 'https://evil.com/.partner.example.org', 'https://app.example.com.evil.com', 'null']) {
      const r = await edge.request(site, '/echo/c3', { headers: { origin } });
      expect(r.status).toBe(200);
      expect(r.headers['access-control-allow-origin']).toBeUndefined();
      expect(r.headers['access-control-allow-credentials']).toBeUndefined();
      expect(r.headers['access-control-expose-headers']).toBeUndefined();
      // the answer depends on Origin all the same (issue 34 item 15)
      expect(varies(r)).toContain('origin');
    }
    // no Origin at all: none, with Vary: Origin
    const none = await edge.request(site, '/echo/c4');
    expect(none.headers['access-control-allow-origin']).toBeUndefined();
    expect(varies(none)).toContain('origin');
    // over HTTPS and from the cache alike
    const a = await edge.request(site, '/css/site.css', { https: true, headers: { origin: 'https://app.example.com' } });
    const b = await edge.request(site, '/css/site.css', { https: true, headers: { origin: 'https://app.example.com' } });
    expect(b.headers['x-cache']).toBe('HIT');
    for (const r of [a, b]) expect(r.headers['access-control-allow-origin']).toBe('https://app.example.com');
    expect((await edge.request(site, '/css/site.css', { headers: { origin: 'https://evil.example.com' } })).headers['access-control-allow-origin']).toBeUndefined();
  });

  test('the edge decides: the origin’s own CORS headers are replaced, and removed for a refused Origin; Vary is kept', async () => {
    const path = '/headers?Access-Control-Allow-Origin=*&Access-Control-Allow-Methods=PATCH&Vary=X-Test-Vary';
    const ok = await edge.request(site, path, { headers: { origin: 'https://app.example.com' } });
    expect(ok.headers['access-control-allow-origin']).toBe('https://app.example.com');
    expect(ok.headers['access-control-allow-methods']).toBeUndefined();
    // the origin's Vary is kept, Origin added once
    expect(varies(ok).filter((v) => v === 'x-test-vary')).toHaveLength(1);
    expect(varies(ok).filter((v) => v === 'origin')).toHaveLength(1);
    const bad = await edge.request(site, path, { headers: { origin: 'https://evil.example.com' } });
    expect(bad.headers['access-control-allow-origin']).toBeUndefined();
    expect(bad.headers['access-control-allow-methods']).toBeUndefined();
    expect(varies(bad).filter((v) => v === 'x-test-vary')).toHaveLength(1);
    expect(varies(bad).filter((v) => v === 'origin')).toHaveLength(1);
  });

  test('a preflight is answered by the edge as configured, and never reaches the origin', async () => {
    const pre = await edge.request(site, '/echo/c5', { method: 'OPTIONS', headers: { origin: 'https://a.partner.example.org', 'access-control-request-method': 'PUT', 'access-control-request-headers': 'x-token' } });
    expect(pre.status).toBe(204);
    expect(pre.text).toBe('');
    expect(pre.headers['access-control-allow-origin']).toBe('https://a.partner.example.org');
    expect(pre.headers['access-control-allow-methods']).toBe('GET, PUT, DELETE');
    expect(pre.headers['access-control-allow-headers']).toBe('X-Token, Content-Type');
    expect(pre.headers['access-control-max-age']).toBe('1200');
    expect(pre.headers['access-control-allow-credentials']).toBe('true');
    expect(varies(pre)).toContain('origin');
    expect(pre.headers['access-control-expose-headers']).toBeUndefined();
    expect(edge.origin.hits.get('/echo/c5')).toBeUndefined();

    // a refused Origin's preflight: 403 without CORS headers, not at the origin either
    const bad = await edge.request(site, '/echo/c6', { method: 'OPTIONS', headers: { origin: 'https://evil.example.com', 'access-control-request-method': 'PUT' } });
    expect(bad.status).toBe(403);
    expect(bad.headers['access-control-allow-origin']).toBeUndefined();
    expect(varies(bad)).toContain('origin');
    expect(bad.headers['access-control-allow-methods']).toBeUndefined();
    expect(edge.origin.hits.get('/echo/c6')).toBeUndefined();

    // an OPTIONS that is not a preflight goes to the origin as before
    const plain = await edge.request(site, '/echo/c7', { method: 'OPTIONS', headers: { origin: 'https://app.example.com' } });
    expect(plain.status).toBe(200);
    expect(JSON.parse(plain.text).method).toBe('OPTIONS');
    expect(plain.headers['access-control-allow-origin']).toBe('https://app.example.com');
  });

  test('every origin (*): Allow-Origin * on every answer, without Vary; a preflight with the configured values', async () => {
    await edge.saveLive('demo-www', 'cors', { enable: true, allow_origins: ['*'], allow_methods: ['GET', 'POST'], allow_headers: [], expose_headers: [], max_age: 0, allow_credentials: false });
    for (const headers of [{ origin: 'https://anyone.example.net' }, {}] as Record<string, string>[]) {
      const r = await edge.request(site, '/echo/c8', { headers });
      expect(r.headers['access-control-allow-origin']).toBe('*');
      expect(varies(r)).not.toContain('origin');
      expect(r.headers['access-control-allow-credentials']).toBeUndefined();
      expect(r.headers['access-control-expose-headers']).toBeUndefined();
    }
    const pre = await edge.request(site, '/echo/c9', { method: 'OPTIONS', headers: { origin: 'https://anyone.example.net', 'access-control-request-method': 'POST' } });
    expect(pre.status).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe('*');
    expect(pre.headers['access-control-allow-methods']).toBe('GET, POST');
    expect(pre.headers['access-control-allow-headers']).toBeUndefined();
    expect(pre.headers['access-control-max-age']).toBe('0');
    expect(edge.origin.hits.get('/echo/c9')).toBeUndefined();

    await edge.saveLive('demo-www', 'cors', CORS_OFF);
    expect((await edge.request(site, '/echo/c10', { headers: { origin: 'https://anyone.example.net' } })).headers['access-control-allow-origin']).toBeUndefined();
  });
});
