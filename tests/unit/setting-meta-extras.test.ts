/**
 * The declaration extras added for the spec 002 audit: field aliases, a tidy step before the schema,
 * networkFailure and checkBeforeConfirm in setting.json, and their checks.
 */
import { loadDeclarations } from '../../schemas/load';
import { SettingRegistry } from '../../schemas/registry';
import { badMeta, badReferences } from '../../schemas/check';
import type { Declaration } from '../../schemas/types';

const declarations = loadDeclarations();
const registry = new SettingRegistry(declarations);
const decl = (id: string) => registry.get(id)!;

test('http3 renames http3_enable to enable, unless enable is given too', () => {
  expect(registry.unalias('http3', { http3_enable: true })).toEqual({ enable: true });
  expect(registry.unalias('http3', { enable: false, http3_enable: true })).toEqual({ enable: false, http3_enable: true });
  expect(registry.unalias('tls13', { http3_enable: true })).toEqual({ http3_enable: true });
  expect(registry.unalias('http3', null)).toBeNull();
});

test('mirror removes repeated paths before the 50-path limit, and takes mirror_bucket as optional', async () => {
  const unique = Array.from({ length: 50 }, (_, i) => `/p${i}/*`);
  const ok = await registry.validate('mirror', { mirror: 'paused', url_patterns: [...unique, '/p0/*', ' /p1/* '], mirror_bucket: 'x' });
  expect(ok).toEqual({ ok: true, value: { mirror: 'paused', url_patterns: unique, mirror_bucket: 'x' } });
  const tooMany = await registry.validate('mirror', { mirror: 'paused', url_patterns: [...unique, '/p50/*'], mirror_bucket: 'x' });
  expect(tooMany).toEqual({ ok: false, errors: [{ path: '/url_patterns', message: '个数超出限制' }] });
  expect(await registry.validate('mirror', { mirror: 'disable', url_patterns: [] })).toEqual({ ok: true, value: { mirror: 'disable', url_patterns: [], mirror_bucket: '' } });
  // what tidy does not understand reaches the schema unchanged
  expect((await registry.validate('mirror', { mirror: 'disable', url_patterns: [1] })).ok).toBe(false);
});

test('compression stores an omitted status as enable', async () => {
  const codecs = { gzip: { disable: false, level: 1 }, br: { disable: true, level: 1 } };
  expect(await registry.validate('compression', codecs)).toEqual({ ok: true, value: { status: 'enable', ...codecs } });
  expect(decl('compression').meta.networkFailure).toBe('发生了未知错误');
  expect(decl('tls13').meta.checkBeforeConfirm).toBe(true);
});

test('the checks refuse a bad networkFailure, checkBeforeConfirm on a dialog, and aliases of unknown fields', () => {
  const c = decl('compression');
  const broken: Declaration = { ...c, meta: { ...c.meta, networkFailure: 'oops', checkBeforeConfirm: true, fieldAliases: { level: 'nope', gzip: 'br' } } };
  const problems = [...badMeta(broken, 'compression'), ...badReferences(registry, broken)].map((p) => p.path);
  expect(problems).toEqual(expect.arrayContaining(['/networkFailure', '/checkBeforeConfirm', '/fieldAliases/level', '/fieldAliases/gzip']));
  expect([...badMeta(decl('http3'), 'http3'), ...badReferences(registry, decl('http3'))]).toEqual([]);
});

test('Server Push is a part of the HTTP/2 dialog: no panel of its own, and the references are checked', () => {
  // spec 002 §2: one HTTP/2 panel whose dialog holds the push options
  expect(registry.forTab('cdn', 'https').map((d) => d.meta.id)).toContain('http2');
  expect(registry.forTab('cdn', 'https').map((d) => d.meta.id)).not.toContain('server_push');
  expect(registry.partsOf('http2', 'cdn').map((d) => d.meta.id)).toEqual(['server_push']);
  // overseas services have no push (kinds), and HTTP/2 there is fixed
  expect(registry.partsOf('http2', 'overseas')).toEqual([]);
  expect(badReferences(registry, decl('server_push'))).toEqual([]);
  const push = decl('server_push');
  const orphan: Declaration = { ...push, meta: { ...push.meta, partOf: { setting: 'nope' } } };
  expect(badReferences(registry, orphan).map((p) => p.path)).toEqual(['/partOf/setting']);
  const intoSwitch: Declaration = { ...push, meta: { ...push.meta, partOf: { setting: 'tls13' } } };
  expect(badReferences(registry, intoSwitch).map((p) => p.problem)).toEqual(['设置 tls13 没有对话框，不能包含其他设置']);
  const badHidden: Declaration = { ...push, meta: { ...push.meta, partOf: { setting: 'http2', whenHidden: { server_push_enable: 'no' } } } };
  expect(badReferences(registry, badHidden).map((p) => p.path)).toEqual(['/partOf/whenHidden/server_push_enable']);
});

test('a summary label limited to kinds: a file service without an origin reads only its storage, the others have none', () => {
  const empty = { ...(registry.defaults('origin') as object), servers: [] };
  expect(registry.summary('origin', empty, {}, 'file')).toEqual({ when: expect.anything(), kinds: ['file'], label: '仅从云存储读取', intent: 'none' });
  expect(registry.summary('origin', empty, {}, 'cdn')?.label).toBe('未配置源站');
  // the kind not known (the console before the server's answer): the rules for all kinds
  expect(registry.summary('origin', empty)?.label).toBe('未配置源站');
});

test('the checks refuse summary kinds the setting does not serve, and a fallback limited to kinds', () => {
  const o = decl('origin');
  const withSummary = (summary: unknown[]): Declaration => ({ ...o, meta: { ...o.meta, summary } as Declaration['meta'] });
  expect(badMeta(o)).toEqual([]);
  expect(badMeta(withSummary([{ kinds: ['live'], label: '直播', when: {} }, { label: '兜底' }])).map((f) => f.path)).toEqual(['/summary/0/kinds']);
  expect(badMeta(withSummary([{ label: '兜底', kinds: ['file'] }])).map((f) => f.problem)).toContain('最后一条摘要标签须不带条件（兜底）');
});
