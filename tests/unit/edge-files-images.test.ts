/**
 * The mirror, thumbnail, WebP and page-optimisation compilers as pure functions
 * (schemas/settings/<id>/edge.ts): the shapes per state that tests/edge/{files,images}.test.ts see through nginx.
 */
import mirror, { patternRegex } from '../../schemas/settings/mirror/edge';
import thumbs from '../../schemas/settings/thumb_versions/edge';
import webp from '../../schemas/settings/webp/edge';
import minify from '../../schemas/settings/minify/edge';
import { q } from '../../src/edge/compile/service';
import { EDGE_OPTIMIZE_TEXTS } from '../../src/shared/edge-files';
import type { EdgeContext } from '../../schemas/edge';

const ctx: EdgeContext = { service: { id: 7, name: 'cdn-x', kind: 'cdn', domains: ['a.example.com'] }, prefix: 's7', setting: () => undefined, ports: { http: 80, https: 443 }, q, control: 'http://127.0.0.1:8080' };

test('迁移路径: * is any characters (slashes too), everything else literal, anchored', () => {
  const m = (p: string, path: string) => new RegExp(patternRegex(p)).test(path);
  expect(m('/images/*', '/images/a/b.png')).toBe(true);
  expect(m('/images/*', '/x/images/a.png')).toBe(false);
  expect(m('/static/*.js', '/static/app.js')).toBe(true);
  expect(m('/static/*.js', '/static/app.json')).toBe(false);
  expect(m('/a.b(c)', '/aXb(c)')).toBe(false);
  expect(m('/a.b(c)', '/a.b(c)')).toBe(true);
});

test('mirror: 关闭 adds nothing; 暂停 reads the storage only; 开启 also stores; an old migration uses the service itself', () => {
  expect(mirror({ mirror: 'disable', url_patterns: [], mirror_bucket: 'files' }, ctx)).toBeNull();
  const paused = mirror({ mirror: 'paused', url_patterns: ['/img/*'], mirror_bucket: 'files' }, ctx)!;
  expect(paused.server!.join('\n')).toContain('proxy_pass http://127.0.0.1:8080/edge/v1/files/files/;');
  expect(paused.access_lua![0]).toContain(', false)');
  expect(paused.log_lua).toBeUndefined();
  const on = mirror({ mirror: 'enable', url_patterns: [], mirror_bucket: '' }, ctx)!;
  expect(on.access_lua![0]).toMatch(/^require\("edge_mirror"\)\.access\(nil, /);
  // a key in long brackets needs a space after the table's [ (`[[[php]]` would open a long string)
  expect(on.access_lua![0]).toContain('[ [[php]] ] = true');
  expect(on.log_lua![0]).toContain('[[cdn-x]]');
  expect(on.server!.join('\n')).toContain('/edge/v1/files/cdn-x/;');
  // without a control plane to reach, nothing
  expect(mirror({ mirror: 'enable', url_patterns: [], mirror_bucket: 'files' }, { ...ctx, control: undefined })).toBeNull();
});

test('thumb versions: one location per version; another output format is noted', () => {
  const out = thumbs({ separator: '_', versions: [{ name: 'sm-1', mode: 'fill', width: 10, height: 20, quality: 50, format: 'original' }, { name: 'p', mode: 'height', width: 1, height: 30, quality: 90, format: 'png' }] }, ctx)!;
  expect(out.locations!.map((l) => l.match)).toEqual(['~ ^(.+)_sm-1$', '~ ^(.+)_p$']);
  expect(out.locations![0].directives).toContain('image_filter crop 10 20;');
  expect(out.locations![0].directives).toContain('image_filter_jpeg_quality 50;');
  expect(out.locations![0].directives[0]).toContain('"%_sm%-1"');
  expect(out.locations![1].directives).toContain('image_filter resize - 30;');
  expect(out.unsupported).toBe(EDGE_OPTIMIZE_TEXTS.thumbFormat(['p']));
  expect(thumbs({ separator: '!', versions: [] }, ctx)).toBeNull();
});

test('webp is noted when on; minify does HTML/CSS and notes JavaScript', () => {
  expect(webp({ enable: false, quality: 80, suffixes: ['png'], only_when_accept: true }, ctx)).toBeNull();
  expect(webp({ enable: true, quality: 80, suffixes: ['png'], only_when_accept: true }, ctx)).toEqual({ unsupported: EDGE_OPTIMIZE_TEXTS.webp });
  expect(minify({ enable: false, html: true, css: true, js: true }, ctx)).toBeNull();
  expect(minify({ enable: true, html: false, css: false, js: true }, ctx)).toEqual({ unsupported: EDGE_OPTIMIZE_TEXTS.minify });
  const on = minify({ enable: true, html: true, css: false, js: false }, ctx)!;
  expect(on.unsupported).toBeUndefined();
  expect(on.header_lua).toEqual(['require("edge_minify").header(true, false)']);
});
