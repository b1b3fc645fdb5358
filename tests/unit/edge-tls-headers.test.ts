/**
 * The TLS, HTTP/2 and header settings' edge compilers (schemas/settings/<id>/edge.ts) as pure functions:
 * JSON in, directives out, no nginx (tests/edge/tls.test.ts and headers.test.ts send real requests).
 */
import type { EdgeCompiler, EdgeContext } from '../../schemas/edge';
import { loadEdgeCompilers } from '../../schemas/edge';
import { compileService, q, type CompileOptions } from '../../src/edge/compile/service';
import { EDGE_TEXTS, type EdgeService } from '../../src/shared/edge';

const compilers = loadEdgeCompilers();
const c = (id: string) => compilers.get(id) as EdgeCompiler;
const ctx = (settings: Record<string, unknown> = {}): EdgeContext => ({
  service: { id: 9, name: 'svc', kind: 'cdn', domains: ['a.example.com'] },
  prefix: 's9',
  setting: (id) => settings[id],
  ports: { http: 80, https: 443 },
  q,
});

test('tls_min_version: the stored names as nginx spells them', () => {
  expect(c('tls_min_version')({ version: 'TLSv1.0' }, ctx())).toEqual({ tls: { min: 'TLSv1' } });
  expect(c('tls_min_version')({ version: 'TLSv1.1' }, ctx())).toEqual({ tls: { min: 'TLSv1.1' } });
  expect(c('tls_min_version')({ version: 'TLSv1.3' }, ctx())).toEqual({ tls: { min: 'TLSv1.3' } });
});

test('tls13: on or off, and kept on under a minimum of TLSv1.3', () => {
  expect(c('tls13')({ tls: true }, ctx())).toEqual({ tls: { tls13: true } });
  expect(c('tls13')({ tls: false }, ctx({ tls_min_version: { version: 'TLSv1.2' } }))).toEqual({ tls: { tls13: false } });
  expect(c('tls13')({ tls: false }, ctx({ tls_min_version: { version: 'TLSv1.3' } }))).toEqual({ tls: { tls13: true } });
});

test('http2 and http3', () => {
  expect(c('http2')({ status: 'enable' }, ctx())).toEqual({ tls: { http2: true } });
  expect(c('http2')({ status: 'disable' }, ctx())).toEqual({ tls: { http2: false } });
  expect(c('http3')({ enable: true }, ctx())).toEqual({ unsupported: EDGE_TEXTS.http3Unsupported });
  expect(c('http3')({ enable: false }, ctx())).toBeNull();
});

test('server_push: one map of $uri per asset, matched exactly; nothing when off or without assets', () => {
  const out = c('server_push')({ server_push_enable: true, server_push_options: { url_patterns: ['/', '/a.html'], assets: ['/x.css'], preload: false } }, ctx());
  expect(out?.http).toEqual(['map $uri $s9_push0 {', '  "/" "/x.css";', '  "/a.html" "/x.css";', '  default "";', '}']);
  expect(out?.server).toEqual(['http2_push $s9_push0;']);
  expect(out?.header_lua).toBeUndefined();
  expect(c('server_push')({ server_push_enable: false, server_push_options: { url_patterns: ['/'], assets: ['/x.css'], preload: true } }, ctx())).toBeNull();
  expect(c('server_push')({ server_push_enable: true, server_push_options: { url_patterns: ['/'], assets: [], preload: true } }, ctx())).toBeNull();
});

test('hsts: the header only over HTTPS; nothing when off', () => {
  expect(c('hsts')({ enable: true, max_age: 31536000, include_subdomains: true, preload: true }, ctx())?.header_lua?.join('\n')).toBe(
    'if ngx.var.https == "on" then\n  ngx.header["Strict-Transport-Security"] = "max-age=31536000; includeSubDomains; preload"\nend',
  );
  expect(c('hsts')({ enable: false, max_age: 1, include_subdomains: false, preload: false }, ctx())).toBeNull();
});

test('the profile of a service: the settings together, TLSv1.x at security level 0 only', () => {
  const opts: CompileOptions = { ports: { http: 80, https: 443 }, listen: '127.0.0.1', runDir: '/run', controlUrl: 'http://127.0.0.1:1', pagesDir: '/p' };
  const svc = (settings: Record<string, unknown>): EdgeService => ({
    id: 9, name: 'svc', kind: 'cdn', status: 'NORMAL', version: 1, paused: false,
    domains: [{ name: 'a.example.com', https: true, force_https: false, certificate_id: 1 }],
    certificates: [{ id: 1, fingerprint: 'f', certificate: 'C', private_key: 'K' }],
    settings, setting_versions: {}, rules: [],
  });
  const low = compileService(svc({ tls_min_version: { version: 'TLSv1.1' }, tls13: { tls: true }, http2: { status: 'enable' } }), compilers, opts);
  expect(low.tls?.profile).toEqual({ min: 'TLSv1.1', tls13: true, http2: true });
  expect(low.text).toContain('ssl_protocols TLSv1.1 TLSv1.2 TLSv1.3;');
  expect(low.text).toContain('ssl_ciphers DEFAULT:@SECLEVEL=0;');
  expect(low.text).toMatch(/listen unix:\/run\/tls-\S+\.sock ssl http2 proxy_protocol;/);
  const high = compileService(svc({ tls_min_version: { version: 'TLSv1.2' }, tls13: { tls: false }, http2: { status: 'disable' }, http3: { enable: true } }), compilers, opts);
  expect(high.text).toContain('ssl_protocols TLSv1.2;');
  expect(high.text).not.toContain('SECLEVEL');
  expect(high.text).toMatch(/listen unix:\/run\/tls-\S+\.sock ssl proxy_protocol;/);
  expect(high.notes).toEqual({ http3: EDGE_TEXTS.http3Unsupported });
});
