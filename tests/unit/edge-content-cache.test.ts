/**
 * The compression, error-page and cache compilers as pure functions (schemas/settings/<id>/edge.ts): the
 * parts that tests/edge/{content,cache}.test.ts cannot reach cheaply — escaping, the purge's key, the
 * shapes for off values.
 */
import compression from '../../schemas/settings/compression/edge';
import errorPages from '../../schemas/settings/error_pages/edge';
import queryString, { keyArgs } from '../../schemas/settings/query_string/edge';
import { luaString, nginxQuoted, ruleRegex } from '../../schemas/edge-match';
import { edgeCacheKey } from '../../schemas/edge-cache-key';
import cacheRules from '../../schemas/settings/cache_rules/edge';
import type { EdgeContext } from '../../schemas/edge';

const ctx: EdgeContext = { service: { id: 7, name: 'x', kind: 'cdn', domains: ['a.example.com'] }, setting: () => undefined, ports: { http: 80, https: 443 } };

test('ruleRegex: literal but for *, suffixes any case, a directory gets its final /', () => {
  const m = (t: 'suffix' | 'directory' | 'path', v: string, p: string) => {
    const { re, caseless } = ruleRegex(t, v);
    return new RegExp(re, caseless ? 'i' : '').test(p);
  };
  expect(m('suffix', 'jpg, PNG', '/a/b.png')).toBe(true);
  expect(m('suffix', 'jpg', '/a/bjpg')).toBe(false);
  expect(m('directory', '/static', '/static/a.css')).toBe(true);
  expect(m('directory', '/static', '/staticx/a.css')).toBe(false);
  expect(m('path', '/img/*.png', '/img/a/b.png')).toBe(true);
  expect(m('path', '/a.b', '/aXb')).toBe(false);
  expect(m('path', '/a(1)+[2]', '/a(1)+[2]')).toBe(true);
  expect(m('path', '/a{1}\\b$', '/a{1}\\b$')).toBe(true);
  expect(m('path', '/a{1}', '/a')).toBe(false);
});

test('nginxQuoted and luaString cannot be closed by the text', () => {
  expect(nginxQuoted('a\\.b"c')).toBe('"a\\\\.b\\"c"');
  expect(luaString('/a]]b')).toBe('[=[/a]]b]=]');
  expect(luaString('/a]')).toBe('[=[/a]]=]');
  expect(luaString('/a]=]b]]')).toBe('[==[/a]=]b]]]==]');
});

test('keyArgs: the four modes, percent-decoded names, order kept', () => {
  const args = 'b=2&utm_source=x&a=1&items%5B%5D=3&&c';
  expect(keyArgs({ mode: 'keep_all', params: [] }, args)).toBe(args);
  expect(keyArgs({ mode: 'ignore_all', params: [] }, args)).toBe('');
  expect(keyArgs({ mode: 'keep_some', params: ['a', 'items[]', 'c'] }, args)).toBe('a=1&items%5B%5D=3&c');
  expect(keyArgs({ mode: 'ignore_some', params: ['utm_source'] }, args)).toBe('b=2&a=1&items%5B%5D=3&c');
  expect(keyArgs({ mode: 'keep_some', params: ['a'] }, '')).toBe('');
});

test('edgeCacheKey: the service first; a cache rule ignoring the query wins over query_string; host lower case without port', () => {
  const settings = { query_string: { mode: 'keep_some' as const, params: ['v'] }, cache_rules: { rules: [{ type: 'directory' as const, value: '/img/', ignore_query: true }] } };
  expect(edgeCacheKey(12, 'A.Example.com:8081', '/img/x.png', 'v=1', settings)).toBe('s12/a.example.com/img/x.png?');
  expect(edgeCacheKey(12, 'a.example.com', '/js/x.js', 'v=1&t=2', settings)).toBe('s12/a.example.com/js/x.js?v=1');
  expect(edgeCacheKey(12, 'a.example.com', '/js/x.js', 'v=1&t=2', {})).toBe('s12/a.example.com/js/x.js?v=1&t=2');
});

test('compression: the levels of the codecs that are on; off or both off, no data; the origin always plain', () => {
  expect(compression({ gzip: { disable: false, level: 6 }, br: { disable: false, level: 4 } }, ctx)).toEqual({ plainOrigin: true, data: { gzip: 6, br: 4 } });
  expect(compression({ gzip: { disable: true, level: 6 }, br: { disable: false, level: 11 } }, ctx)).toEqual({ plainOrigin: true, data: { br: 11 } });
  expect(compression({ status: 'disable', gzip: { disable: false, level: 1 }, br: { disable: false, level: 1 } }, ctx)).toEqual({ plainOrigin: true });
  expect(compression({ gzip: { disable: true, level: 1 }, br: { disable: true, level: 1 } }, ctx)).toEqual({ plainOrigin: true });
});

test('off values: no error rules, nothing; keep_all, nothing; no cache rules, nothing', () => {
  expect(errorPages({ options: [], status: 'disable' }, ctx)).toBeNull();
  expect(errorPages({ options: [{ code: [404], url: '/e.html' }], status: 'disable' }, ctx)).toBeNull();
  expect(queryString({ mode: 'keep_all', params: [] }, ctx)).toBeNull();
  expect(queryString({ mode: 'ignore_all', params: [] }, ctx)).toEqual({ data: { mode: 'ignore_all', params: [] } });
  expect(cacheRules({ rules: [] }, ctx)).toBeNull();
});

test('cache rules: one expression per rule, in order, with its time and 忽略 URL 参数', () => {
  expect(
    cacheRules({ rules: [{ type: 'suffix', value: 'CSS,js', ttl: 5, ignore_query: false }, { type: 'directory', value: '/img', ttl: 600, ignore_query: true }] }, ctx),
  ).toEqual({ data: [{ re: '\\.(CSS|js)$', caseless: true, ttl: 5, ignore_query: false }, { re: '^/img/', caseless: false, ttl: 600, ignore_query: true }] });
});

test('error pages: each listed code with its page, the first rule naming a code wins; refusal codes and 40310006 as they are', () => {
  const out = errorPages({ options: [{ code: [404], url: '/e.html' }, { code: [40310002, 40110003, 404], url: '/r.html?x="]]${y};' }, { code: [40310006], url: '/c.html' }], status: 'enable' }, ctx)!;
  expect(out).toEqual({ data: { pages: { '404': '/e.html', '40310002': '/r.html?x="]]${y};', '40110003': '/r.html?x="]]${y};', '40310006': '/c.html' } } });
});
