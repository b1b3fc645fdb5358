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
import { q } from '../../src/edge/compile/service';
import type { EdgeContext } from '../../schemas/edge';

const ctx: EdgeContext = { service: { id: 7, name: 'x', kind: 'cdn', domains: ['a.example.com'] }, prefix: 's7', setting: () => undefined, ports: { http: 80, https: 443 }, q };

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

test('off values: compression off turns both filters off; no error rules, nothing; keep_all, nothing', () => {
  const off = compression({ status: 'disable', gzip: { disable: false, level: 1 }, br: { disable: false, level: 1 } }, ctx)!;
  expect(off.server).toEqual(['gzip off;', 'brotli off;']);
  expect(errorPages({ options: [], status: 'disable' }, ctx)).toBeNull();
  expect(queryString({ mode: 'keep_all', params: [] }, ctx)).toBeNull();
  expect(queryString({ mode: 'ignore_all', params: [] }, ctx)!.server).toEqual(['set $edge_key_args "";']);
});

test('error pages: refusal codes add their status; 40310006 alone only acts while paused', () => {
  const out = errorPages({ options: [{ code: [404], url: '/e.html' }, { code: [40310002, 40110003], url: '/r.html' }], status: 'enable' }, ctx)!;
  expect(out.server).toEqual(['error_page 401 403 404 @s7_error_page;', 'proxy_intercept_errors on;']);
  const refusalsOnly = errorPages({ options: [{ code: [40310002], url: '/r.html' }], status: 'enable' }, ctx)!;
  expect(refusalsOnly.server).toEqual(['error_page 403 @s7_error_page;']); // the origin's 403s are not intercepted
  const closed = errorPages({ options: [{ code: [40310006], url: '/c.html' }], status: 'enable' }, ctx)!;
  expect(closed.server).toEqual([]);
  expect(closed.locations).toEqual([]);
  expect(closed.closed?.server).toEqual(['error_page 403 @s7_closed_page;']);
});
