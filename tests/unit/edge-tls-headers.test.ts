/**
 * The TLS, HTTP/2 and header settings' edge compilers (schemas/settings/<id>/edge.ts) as pure functions:
 * JSON in, data out, no nginx (tests/edge/tls.test.ts and headers.test.ts send real requests).
 */
import type { EdgeCompiler, EdgeContext } from '../../schemas/edge';
import { loadEdgeCompilers } from '../../schemas/edge';
import { PUSH_MAX_ASSETS } from '../../schemas/settings/server_push/edge';
import pushSchema from '../../schemas/settings/server_push/schema.json';
import { compileService, type CompileOptions } from '../../src/edge/compile/service';
import { compileNode, PUSH_SLOTS, type NodeOptions } from '../../src/edge/compile/main';
import { EDGE_TEXTS, type EdgeService } from '../../src/shared/edge';

const compilers = loadEdgeCompilers();
const c = (id: string) => compilers.get(id)!.compile as EdgeCompiler;
const ctx = (settings: Record<string, unknown> = {}): EdgeContext => ({
  service: { id: 9, name: 'svc', kind: 'cdn', domains: ['a.example.com'] },
  setting: (id) => settings[id],
  ports: { http: 80, https: 443 },
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

test('server_push: the match paths and assets as data, Link values with preload; nothing when off or without assets', () => {
  const push = (o: object) => c('server_push')({ server_push_enable: true, server_push_options: { url_patterns: ['/', '/a.html', '/'], assets: ['/x.css'], preload: false, ...o } }, ctx());
  expect(push({})).toEqual({ data: { paths: ['/', '/a.html'], assets: ['/x.css'] } });
  expect(push({ assets: ['/x.css', '/a b.js', '/i.PNG', '/d.txt'], preload: true })).toEqual({
    data: {
      paths: ['/', '/a.html'],
      assets: ['/x.css', '/a b.js', '/i.PNG', '/d.txt'],
      links: ['</x.css>; rel=preload; as=style', '</a%20b.js>; rel=preload; as=script', '</i.PNG>; rel=preload; as=image', '</d.txt>; rel=preload'],
    },
  });
  expect((push({ assets: ['/f.woff2'], preload: true })?.data as { links: string[] }).links).toEqual(['</f.woff2>; rel=preload; as=font']);
  expect(c('server_push')({ server_push_enable: false, server_push_options: { url_patterns: ['/'], assets: ['/x.css'], preload: true } }, ctx())).toBeNull();
  expect(c('server_push')({ server_push_enable: true, server_push_options: { url_patterns: ['/'], assets: [], preload: true } }, ctx())).toBeNull();
  // more assets than the node has slots: the service is refused, not a request broken
  expect(() => push({ assets: Array.from({ length: PUSH_MAX_ASSETS + 1 }, (_, i) => `/${i}.css`) })).toThrow(`推送资源最多 ${PUSH_MAX_ASSETS} 个`);
});

test('server_push: the fixed nginx.conf has a push slot for every asset the schema allows', () => {
  expect(PUSH_MAX_ASSETS).toBe(pushSchema.properties.server_push_options.properties.assets.maxItems);
  expect(PUSH_SLOTS).toBe(PUSH_MAX_ASSETS);
  const o = { prefix: '/n', ports: { http: 80, https: 443 }, listen: '127.0.0.1', runDir: '/n/run', logsDir: '/n/logs', cacheDir: '/n/cache', tmpDir: '/n/tmp', luaDir: '/l', schemasDir: '/s', pagesDir: '/p', controlUrl: 'http://127.0.0.1:1', workers: 1, nodeKey: 'k', cacheMaxSize: '1g', fallbackCert: '/c', fallbackKey: '/k' } as NodeOptions;
  const conf = compileNode(o);
  for (let i = 1; i <= PUSH_MAX_ASSETS; i++) {
    expect(conf).toContain(`http2_push $edge_push${i};`);
    expect(conf).toContain(`set $edge_push${i} "";`);
  }
  expect(conf).not.toContain(`$edge_push${PUSH_MAX_ASSETS + 1}`);
});

test('hsts: the header value as data; nothing when off', () => {
  expect(c('hsts')({ enable: true, max_age: 31536000, include_subdomains: true, preload: true }, ctx())).toEqual({ data: 'max-age=31536000; includeSubDomains; preload' });
  expect(c('hsts')({ enable: true, max_age: 600, include_subdomains: false, preload: false }, ctx())).toEqual({ data: 'max-age=600' });
  expect(c('hsts')({ enable: false, max_age: 1, include_subdomains: false, preload: false }, ctx())).toBeNull();
});

const CORS = { enable: true, allow_origins: ['*'], allow_methods: ['GET', 'POST'], allow_headers: [], expose_headers: [], max_age: 0, allow_credentials: false };

test('cors: every origin, listed and wildcard origins lower case, the headers ready to send; nothing when off', () => {
  expect(c('cors')(CORS, ctx())).toEqual({ data: { any: true, methods: 'GET, POST', max_age: '0' } });
  expect(
    c('cors')(
      {
        ...CORS,
        allow_origins: ['https://App.Example.com', 'http://localhost:3000', 'https://*.Partner.example.org:8443'],
        allow_methods: ['GET', 'PUT'],
        allow_headers: ['X-Token', 'Content-Type'],
        expose_headers: ['X-Cache'],
        max_age: 1200,
        allow_credentials: true,
      },
      ctx(),
    ),
  ).toEqual({
    data: {
      exact: ['https://app.example.com', 'http://localhost:3000'],
      wild: [['https://', '.partner.example.org:8443']],
      credentials: true,
      methods: 'GET, PUT',
      headers: 'X-Token, Content-Type',
      expose: 'X-Cache',
      max_age: '1200',
    },
  });
  expect(c('cors')({ ...CORS, allow_origins: ['https://*.a.com'] }, ctx())).toEqual({ data: { wild: [['https://', '.a.com']], methods: 'GET, POST', max_age: '0' } });
  expect(c('cors')({ ...CORS, enable: false }, ctx())).toBeNull();
});

test('browser_cache: the rules as expressions of the path in their order, with the statuses; nothing without rules', () => {
  expect(
    c('browser_cache')(
      {
        rules: [
          { type: 'suffix', value: 'jpg,png', ttl: 0, follow_origin: false },
          { type: 'directory', value: '/static', ttl: 600, follow_origin: true },
        ],
      },
      ctx(),
    ),
  ).toEqual({
    data: {
      statuses: [200, 206, 304],
      rules: [
        { re: '\\.(jpg|png)$', caseless: true, ttl: 0, follow: false },
        { re: '^/static/', caseless: false, ttl: 600, follow: true },
      ],
    },
  });
  expect(c('browser_cache')({ rules: [] }, ctx())).toBeNull();
});

test('the profile of a service: the settings together, the SNI socket by HTTP/2 and security level', () => {
  const opts: CompileOptions = { ports: { http: 80, https: 443 }, controlUrl: 'http://127.0.0.1:1' };
  const svc = (settings: Record<string, unknown>, force = false): EdgeService => ({
    id: 9, name: 'svc', kind: 'cdn', status: 'NORMAL', version: 1, paused: false,
    domains: [
      { name: 'A.example.com', https: true, force_https: force, certificate_id: 1 },
      { name: 'b.example.com', https: false, force_https: false, certificate_id: null },
    ],
    certificates: [{ id: 1, fingerprint: 'f', certificate: 'C', private_key: 'K' }],
    settings, setting_versions: {}, rules: [],
  } as unknown as EdgeService);
  const low = compileService(svc({ tls_min_version: { version: 'TLSv1.1' }, tls13: { tls: true }, http2: { status: 'enable' } }), compilers, opts);
  expect(low.data.tls).toEqual({ min: 'TLSv1.1', tls13: true, http2: true, hosts: { 'a.example.com': 1 } });
  // HTTP/2 and TLSv1.1 (OpenSSL's security level 0): the h2l socket; the name without HTTPS has none
  expect(low.sni).toEqual({ 'a.example.com': 'h2l' });
  expect(low.certs).toEqual({ 1: JSON.stringify({ crt: 'C\n', key: 'K\n', fp: 'f' }) });
  expect(low.data.force).toEqual([]);
  const high = compileService(svc({ tls_min_version: { version: 'TLSv1.2' }, tls13: { tls: false }, http2: { status: 'disable' }, http3: { enable: true } }, true), compilers, opts);
  expect(high.data.tls).toEqual({ min: 'TLSv1.2', tls13: false, http2: false, hosts: { 'a.example.com': 1 } });
  expect(high.sni).toEqual({ 'a.example.com': 'h1' });
  expect(high.notes).toEqual({ http3: EDGE_TEXTS.http3Unsupported });
  expect(high.data.settings.http3).toBeUndefined();
  // force_https: the domain's plain-HTTP requests are redirected by the runtime
  expect(high.data.force).toEqual(['a.example.com']);
  // a minimum of TLSv1.3 keeps TLS 1.3 on whatever tls13 says
  const only13 = compileService(svc({ tls_min_version: { version: 'TLSv1.3' }, tls13: { tls: false }, http2: { status: 'enable' } }), compilers, opts);
  expect(only13.data.tls).toMatchObject({ min: 'TLSv1.3', tls13: true });
  expect(only13.sni).toEqual({ 'a.example.com': 'h2' });
  // the settings with a module carry their data; the TLS settings carry none
  const cors = compileService(svc({ cors: CORS, hsts: { enable: true, max_age: 5, include_subdomains: false, preload: false }, tls13: { tls: true } }), compilers, opts);
  expect(cors.data.settings).toEqual({ cors: { any: true, methods: 'GET, POST', max_age: '0' }, hsts: 'max-age=5' });
});
