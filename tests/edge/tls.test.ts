/**
 * TLS and HTTP/2 on the edge (docs/edge.md "TLS, HTTP/2 and headers"): the minimum TLS version and
 * TLS 1.3 per service by SNI, ALPN h2 when HTTP/2 is on, Server Push of the configured assets on the
 * configured paths, and HTTP/3 reported as what nginx 1.22 cannot do. Real handshakes through nginx.
 */
import tls from 'node:tls';
import { startEdgeStack, type EdgeStack } from './harness';
import { EDGE_TEXTS } from '../../src/shared/edge';

type Version = 'TLSv1' | 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3';

// several saves, each waiting for a reload, on a machine others share
jest.setTimeout(180_000);

let edge: EdgeStack;

/** One TLS handshake to the edge with this SNI: the negotiated protocol and ALPN, or the failure. */
function handshake(host: string, o: { min?: Version; max?: Version; alpn?: string[] } = {}): Promise<{ ok: true; protocol: string | null; alpn: string | false | null } | { ok: false; error: string }> {
  return new Promise((resolve) => {
    const sock = tls.connect({
      host: '127.0.0.1',
      port: edge.ports.https,
      servername: host,
      rejectUnauthorized: false,
      minVersion: o.min ?? 'TLSv1',
      maxVersion: o.max ?? 'TLSv1.3',
      // the client must be able to speak TLSv1/1.1 itself (OpenSSL 3 refuses them above level 0)
      ciphers: 'DEFAULT:@SECLEVEL=0',
      ALPNProtocols: o.alpn ?? ['http/1.1'],
    });
    sock.setTimeout(5000, () => sock.destroy(new Error('timeout')));
    sock.once('secureConnect', () => {
      const out = { ok: true as const, protocol: sock.getProtocol(), alpn: sock.alpnProtocol };
      sock.end();
      resolve(out);
    });
    sock.once('error', (e) => resolve({ ok: false, error: e.message }));
  });
}

/** The handshake failed on the protocol version (not a timeout or a refused connection). */
const refused = (r: Awaited<ReturnType<typeof handshake>>) => {
  expect(r.ok).toBe(false);
  expect(r.ok ? '' : r.error).toMatch(/protocol version|unsupported protocol|no protocols available/i);
};

const only = (host: string, v: Version, alpn?: string[]) => handshake(host, { min: v, max: v, alpn });

beforeAll(async () => {
  edge = await startEdgeStack();
  // www has the demo certificate; static gets one of its own: two services, two TLS profiles
  await edge.enableHttps('static.demo-example.com');
  await edge.waitLive();
}, 240_000);
afterAll(async () => {
  await edge?.close();
}, 60_000);

test('by default every version from TLSv1 to TLSv1.2 is accepted and TLS 1.3 is off', async () => {
  for (const v of ['TLSv1', 'TLSv1.1', 'TLSv1.2'] as const) {
    const r = await only('www.demo-example.com', v);
    expect(r).toMatchObject({ ok: true, protocol: v });
  }
  refused(await only('www.demo-example.com', 'TLSv1.3'));
  // a client offering everything gets the highest the service allows
  expect(await handshake('www.demo-example.com')).toMatchObject({ ok: true, protocol: 'TLSv1.2' });
  // and the answer is served over it
  const res = await edge.request('www.demo-example.com', '/echo/tls1', { https: true, minVersion: 'TLSv1', maxVersion: 'TLSv1' });
  expect(res.status).toBe(200);
  expect(res.tls?.protocol).toBe('TLSv1');
});

test('a minimum of TLSv1.2 refuses TLSv1 and TLSv1.1 handshakes on that service only', async () => {
  await edge.saveLive('demo-www', 'tls_min_version', { version: 'TLSv1.2' });
  refused(await only('www.demo-example.com', 'TLSv1'));
  refused(await only('www.demo-example.com', 'TLSv1.1'));
  expect(await only('www.demo-example.com', 'TLSv1.2')).toMatchObject({ ok: true, protocol: 'TLSv1.2' });
  // static (another service, another profile) still takes TLSv1
  expect(await only('static.demo-example.com', 'TLSv1')).toMatchObject({ ok: true, protocol: 'TLSv1' });
  await edge.saveLive('demo-www', 'tls_min_version', { version: 'TLSv1.1' });
  refused(await only('www.demo-example.com', 'TLSv1'));
  expect(await only('www.demo-example.com', 'TLSv1.1')).toMatchObject({ ok: true, protocol: 'TLSv1.1' });
});

test('TLS 1.3 is refused when off and accepted when on, per service by SNI', async () => {
  await edge.saveLive('demo-www', 'tls13', { tls: true });
  expect(await only('www.demo-example.com', 'TLSv1.3')).toMatchObject({ ok: true, protocol: 'TLSv1.3' });
  expect(await handshake('www.demo-example.com')).toMatchObject({ ok: true, protocol: 'TLSv1.3' });
  const res = await edge.request('www.demo-example.com', '/echo/tls13', { https: true });
  expect(res.status).toBe(200);
  expect(res.tls?.protocol).toBe('TLSv1.3');
  // static keeps TLS 1.3 off
  refused(await only('static.demo-example.com', 'TLSv1.3'));
  expect(await handshake('static.demo-example.com')).toMatchObject({ ok: true, protocol: 'TLSv1.2' });

  // a minimum of TLSv1.3: only TLS 1.3 handshakes
  await edge.saveLive('demo-www', 'tls_min_version', { version: 'TLSv1.3' });
  refused(await only('www.demo-example.com', 'TLSv1.2'));
  expect(await only('www.demo-example.com', 'TLSv1.3')).toMatchObject({ ok: true, protocol: 'TLSv1.3' });

  // and off again (after lowering the minimum, as the rules ask)
  await edge.saveLive('demo-www', 'tls_min_version', { version: 'TLSv1.0' });
  await edge.saveLive('demo-www', 'tls13', { tls: false });
  refused(await only('www.demo-example.com', 'TLSv1.3'));
  expect(await only('www.demo-example.com', 'TLSv1')).toMatchObject({ ok: true, protocol: 'TLSv1' });
});

test('HTTP/2: ALPN offers h2 only when it is on, per service', async () => {
  expect(await handshake('www.demo-example.com', { alpn: ['h2', 'http/1.1'] })).toMatchObject({ ok: true, alpn: 'http/1.1' });
  await edge.saveLive('demo-www', 'http2', { status: 'enable' });
  expect(await handshake('www.demo-example.com', { alpn: ['h2', 'http/1.1'] })).toMatchObject({ ok: true, alpn: 'h2' });
  const res = await edge.h2('www.demo-example.com', '/echo/h2');
  expect(res.status).toBe(200);
  expect(res.tls?.alpn).toBe('h2');
  expect(JSON.parse(res.text).uri).toBe('/echo/h2');
  // a client without HTTP/2 still gets HTTP/1.1
  expect((await edge.request('www.demo-example.com', '/echo/h1', { https: true, alpn: ['http/1.1'] })).status).toBe(200);
  // static has HTTP/2 off
  expect(await handshake('static.demo-example.com', { alpn: ['h2', 'http/1.1'] })).toMatchObject({ ok: true, alpn: 'http/1.1' });
});

test('Server Push: the configured assets are pushed on the configured paths only; preload adds Link headers', async () => {
  // HTTP/2 is on for www from the test above (push needs it)
  await edge.saveLive('demo-www', 'server_push', {
    server_push_enable: true,
    server_push_options: { url_patterns: ['/index.html', '/about.html'], assets: ['/css/site.css', '/js/app.js'], preload: false },
  });
  const page = await edge.h2('www.demo-example.com', '/index.html');
  expect(page.status).toBe(200);
  expect(page.pushed.sort()).toEqual(['/css/site.css', '/js/app.js']);
  expect((await edge.h2('www.demo-example.com', '/about.html')).pushed.sort()).toEqual(['/css/site.css', '/js/app.js']);
  // a path that is not a match path, and a longer one that starts with one: nothing pushed
  expect((await edge.h2('www.demo-example.com', '/echo/push')).pushed).toEqual([]);
  expect((await edge.h2('www.demo-example.com', '/index.html.bak')).pushed).toEqual([]);
  // the query string does not matter
  expect((await edge.h2('www.demo-example.com', '/index.html?x=1')).pushed.sort()).toEqual(['/css/site.css', '/js/app.js']);
  // without preload: no Link header
  expect(page.headers.link).toBeUndefined();

  await edge.saveLive('demo-www', 'server_push', {
    server_push_enable: true,
    server_push_options: { url_patterns: ['/about.html'], assets: ['/img/logo.png'], preload: true },
  });
  const about = await edge.h2('www.demo-example.com', '/about.html');
  expect(about.pushed).toEqual(['/img/logo.png']);
  expect(about.headers.link).toBe('</img/logo.png>; rel=preload; as=image');
  expect((await edge.h2('www.demo-example.com', '/index.html')).pushed).toEqual([]);
  // preload's Link reaches HTTP/1.1 clients too, and only on the match paths
  const h1 = await edge.request('www.demo-example.com', '/about.html', { https: true });
  expect(h1.headers.link).toBe('</img/logo.png>; rel=preload; as=image');
  expect((await edge.request('www.demo-example.com', '/index.html', { https: true })).headers.link).toBeUndefined();

  await edge.saveLive('demo-www', 'server_push', { server_push_enable: false, server_push_options: { url_patterns: [], assets: [], preload: false } });
  const off = await edge.h2('www.demo-example.com', '/about.html');
  expect(off.pushed).toEqual([]);
  expect(off.headers.link).toBeUndefined();
});

test('HTTP/3: saved, but the edge status says plainly that nginx 1.22 has no QUIC', async () => {
  await edge.saveLive('demo-static', 'tls13', { tls: true });
  await edge.saveLive('demo-static', 'http3', { enable: true });
  const status = JSON.parse((await edge.client.get('/api/buckets/edge/?bucket_name=demo-static')).body).data;
  expect(status.notes.http3).toBe(EDGE_TEXTS.http3Unsupported);
  expect(status.notes.http3).toBe('本边缘节点（nginx 1.22）不支持 QUIC，HTTP/3 设置已保存，但不会生效');
  expect(status.settings.http3).toEqual({ state: 'failed', message: EDGE_TEXTS.http3Unsupported });
  // the rest of the service is live and serves: TLS 1.3 on, no Alt-Svc announced
  expect(status.settings.tls13.state).toBe('applied');
  const res = await edge.request('static.demo-example.com', '/echo/h3', { https: true });
  expect(res.status).toBe(200);
  expect(res.tls?.protocol).toBe('TLSv1.3');
  expect(res.headers['alt-svc']).toBeUndefined();

  await edge.saveLive('demo-static', 'http3', { enable: false });
  const after = JSON.parse((await edge.client.get('/api/buckets/edge/?bucket_name=demo-static')).body).data;
  expect(after.notes.http3).toBeUndefined();
  expect(after.settings.http3.state).toBe('applied');
});
