/**
 * The mirror, thumbnail, WebP and page-optimisation compilers as pure functions
 * (schemas/settings/<id>/edge.ts): the data their edge.lua gets, per state, that
 * tests/edge/{files,images}.test.ts see through nginx.
 */
import mirror, { patternRegex } from '../../schemas/settings/mirror/edge';
import thumbs from '../../schemas/settings/thumb_versions/edge';
import webp from '../../schemas/settings/webp/edge';
import minify from '../../schemas/settings/minify/edge';
import { EDGE_FILES_PREFIX, EDGE_OPTIMIZE_TEXTS, MINIFY_MAX_BYTES, MIRROR_CACHE_KEY_SUFFIX, MIRROR_DYNAMIC_EXTENSIONS, MIRROR_MAX_BYTES, MIRROR_MIN_CACHE_SECONDS } from '../../src/shared/edge-files';
import type { EdgeContext } from '../../schemas/edge';

const ctx: EdgeContext = { service: { id: 7, name: 'cdn-x', kind: 'cdn', domains: ['a.example.com'] }, setting: () => undefined, ports: { http: 80, https: 443 }, control: 'http://127.0.0.1:8080' };

test('迁移路径: * is any characters (slashes too), everything else literal, anchored', () => {
  const m = (p: string, path: string) => new RegExp(patternRegex(p)).test(path);
  expect(m('/images/*', '/images/a/b.png')).toBe(true);
  expect(m('/images/*', '/x/images/a.png')).toBe(false);
  expect(m('/static/*.js', '/static/app.js')).toBe(true);
  expect(m('/static/*.js', '/static/app.json')).toBe(false);
  expect(m('/a.b(c)', '/aXb(c)')).toBe(false);
  expect(m('/a.b(c)', '/a.b(c)')).toBe(true);
});

test('mirror: 关闭 gives nothing; 暂停 reads the storage only; 开启 also stores; an old migration uses the service itself', () => {
  expect(mirror({ mirror: 'disable', url_patterns: [], mirror_bucket: 'files' }, ctx)).toBeNull();
  expect(mirror({ mirror: 'paused', url_patterns: ['/img/*'], mirror_bucket: 'files' }, ctx)).toEqual({
    data: {
      bucket: 'files',
      patterns: ['^/img/.*$'],
      dynamic: [...MIRROR_DYNAMIC_EXTENSIONS],
      store: false,
      key_suffix: MIRROR_CACHE_KEY_SUFFIX,
      min_seconds: MIRROR_MIN_CACHE_SECONDS,
      max_bytes: MIRROR_MAX_BYTES,
      files: EDGE_FILES_PREFIX,
      source: '7',
    },
  });
  const on = mirror({ mirror: 'enable', url_patterns: [], mirror_bucket: '' }, ctx)!.data as Record<string, unknown>;
  // no paths: every static resource (no patterns at all, not an empty list)
  expect(on).not.toHaveProperty('patterns');
  expect(on).toMatchObject({ bucket: 'cdn-x', store: true });
  expect(on.dynamic).toContain('php');
  // JSON in, JSON out
  expect(JSON.parse(JSON.stringify(on))).toEqual(on);
  // without a control plane to reach, nothing
  expect(mirror({ mirror: 'enable', url_patterns: [], mirror_bucket: 'files' }, { ...ctx, control: undefined })).toBeNull();
});

test('thumb versions: each version as image_filter takes it (- for a free side); another output format is noted', () => {
  const out = thumbs(
    {
      separator: '_',
      versions: [
        { name: 'sm-1', mode: 'fill', width: 10, height: 20, quality: 50, format: 'original' },
        { name: 'p', mode: 'height', width: 1, height: 30, quality: 90, format: 'png' },
        { name: 'fit', mode: 'fit', width: 64, height: 48, quality: 75, format: 'original' },
        { name: 'w', mode: 'width', width: 120, height: 9, quality: 80, format: 'original' },
      ],
    },
    ctx,
  )!;
  expect(out.data).toEqual({
    sep: '_',
    versions: [
      { name: 'sm-1', op: 'crop', w: '10', h: '20', q: 50 },
      { name: 'p', op: 'resize', w: '-', h: '30', q: 90 },
      { name: 'fit', op: 'resize', w: '64', h: '48', q: 75 },
      { name: 'w', op: 'resize', w: '120', h: '-', q: 80 },
    ],
  });
  expect(out.unsupported).toBe(EDGE_OPTIMIZE_TEXTS.thumbFormat(['p']));
  expect(thumbs({ separator: '!', versions: [] }, ctx)).toBeNull();
});

test('webp is noted when on; minify does HTML/CSS and notes JavaScript', () => {
  expect(webp({ enable: false, quality: 80, suffixes: ['png'], only_when_accept: true }, ctx)).toBeNull();
  expect(webp({ enable: true, quality: 80, suffixes: ['png'], only_when_accept: true }, ctx)).toEqual({ unsupported: EDGE_OPTIMIZE_TEXTS.webp });
  expect(minify({ enable: false, html: true, css: true, js: true }, ctx)).toBeNull();
  expect(minify({ enable: true, html: false, css: false, js: true }, ctx)).toEqual({ unsupported: EDGE_OPTIMIZE_TEXTS.minify });
  expect(minify({ enable: true, html: true, css: false, js: false }, ctx)).toEqual({ data: { html: true, css: false, max: MINIFY_MAX_BYTES } });
  expect(minify({ enable: true, html: true, css: true, js: true }, ctx)).toEqual({ data: { html: true, css: true, max: MINIFY_MAX_BYTES }, unsupported: EDGE_OPTIMIZE_TEXTS.minify });
});
