/**
 * Summary labels with placeholders (schemas/summary.ts fillLabel, docs/adding-a-setting.md "Summary
 * labels"): `{/pointer}` the value there, `{/pointer#count}` an array's length; a rule whose label
 * cannot be filled does not apply; schemas/check.ts names a placeholder the schema does not have.
 */
import { loadDeclarations } from '../../schemas/load';
import { SettingRegistry } from '../../schemas/registry';
import { badReferences, badSummaryPlaceholders } from '../../schemas/check';
import { fillLabel, placeholdersOf } from '../../schemas/summary';
import type { Declaration } from '../../schemas/types';

const declarations = loadDeclarations();
const registry = new SettingRegistry(declarations);
const decl = (id: string) => registry.get(id)!;

describe('fillLabel', () => {
  const value = { servers: [{ address: 'origin.example.com', port: 8080, backup: false }, { address: '203.0.113.10', port: 80 }], host: '', 'a/b': { '~x': 'escaped' }, $other: { name: '另一项' } };

  it('fills a pointer with the value as stored, a number in decimal, #count with the length', () => {
    expect(fillLabel('回源 {/servers/0/address}:{/servers/0/port} 等 {/servers#count} 个地址', value)).toBe('回源 origin.example.com:8080 等 2 个地址');
    expect(fillLabel('第二个 {/servers/1/address}', value)).toBe('第二个 203.0.113.10');
    expect(fillLabel('{/a~1b/~0x}', value)).toBe('escaped');
    expect(fillLabel('{/$other/name}', value)).toBe('另一项');
  });

  it('leaves a label without placeholders, and braces that are no placeholder, as they are', () => {
    expect(fillLabel('已开启', value)).toBe('已开启');
    expect(fillLabel('{name} 与 {/servers#size}', value)).toBe('{name} 与 {/servers#size}');
  });

  it('cannot fill what is missing, empty, an object, an array or a boolean, nor #count of a non-array', () => {
    for (const label of ['{/servers/2/address}', '{/host}', '{/servers/0}', '{/servers}', '{/servers/0/backup}', '{/host#count}', '{/servers/x/address}', '{/servers/0/address/length}'])
      expect([label, fillLabel(label, value)]).toEqual([label, undefined]);
    expect(fillLabel('{/a}', null)).toBeUndefined();
  });

  it('parses placeholders into unescaped pointer tokens', () => {
    expect(placeholdersOf('{/servers/0/address} {/servers#count} {/a~1b/~0x} {x}')).toEqual([
      { text: '{/servers/0/address}', pointer: ['servers', '0', 'address'], count: false },
      { text: '{/servers#count}', pointer: ['servers'], count: true },
      { text: '{/a~1b/~0x}', pointer: ['a/b', '~x'], count: false },
    ]);
  });
});

describe('the origin summary says where requests go', () => {
  const origin = (protocol: string, ...servers: [string, number][]) => ({ protocol, host: '', servers: servers.map(([address, port]) => ({ address, port, weight: 10, backup: false })), failover: { enable: true, timeout: 10, max_fails: 3 } });
  const label = (v: unknown, kind = 'cdn') => registry.summary('origin', v, {}, kind);

  it('shows the first address, its port only when not the protocol\'s default, and how many there are', () => {
    expect(label(origin('http', ['203.0.113.10', 80]))).toMatchObject({ label: '回源 203.0.113.10', intent: 'success' });
    expect(label(origin('http', ['203.0.113.10', 8080]))?.label).toBe('回源 203.0.113.10:8080');
    expect(label(origin('http', ['203.0.113.10', 443]))?.label).toBe('回源 203.0.113.10:443');
    expect(label(origin('https', ['origin.example.com', 443]))?.label).toBe('回源 origin.example.com');
    expect(label(origin('https', ['origin.example.com', 80]))?.label).toBe('回源 origin.example.com:80');
    expect(label(origin('follow', ['origin.example.com', 80]))?.label).toBe('回源 origin.example.com');
    expect(label(origin('follow', ['origin.example.com', 8443]))?.label).toBe('回源 origin.example.com:8443');
    expect(label(origin('https', ['origin.example.com', 443], ['b.example.com', 443], ['c.example.com', 8443]))?.label).toBe('回源 origin.example.com 等 3 个地址');
    expect(label(origin('http', ['origin.example.com', 8080], ['b.example.com', 80]))?.label).toBe('回源 origin.example.com:8080 等 2 个地址');
    expect(label(origin('http', ['origin.example.com', 80]), 'file')?.label).toBe('回源 origin.example.com');
  });

  it('keeps the labels without an origin', () => {
    expect(label(origin('http'), 'file')).toMatchObject({ label: '仅从云存储读取', intent: 'none' });
    expect(label(origin('https'))).toMatchObject({ label: '未配置源站', intent: 'warning' });
  });

  it('answers a copy: the declaration keeps its placeholders', () => {
    label(origin('http', ['203.0.113.10', 80]));
    expect(decl('origin').meta.summary.at(-1)!.label).toBe('回源 {/servers/0/address}:{/servers/0/port}');
  });
});

describe('the declaration check names placeholders the schema does not have', () => {
  const withLabels = (d: Declaration, ...labels: string[]): Declaration => ({ ...d, meta: { ...d.meta, summary: [...labels.map((label) => ({ label, when: {} })), ...d.meta.summary] } });

  it('passes every declared setting', () => {
    for (const d of declarations) expect([d.meta.id, badSummaryPlaceholders(registry, d)]).toEqual([d.meta.id, []]);
  });

  it('refuses a missing field, a field of the wrong type, #count of a non-array and a setting not in summaryWith', () => {
    const broken = withLabels(decl('origin'), '回源 {/servers/0/adress}', '{/servers/0/backup}', '{/failover}', '{/host#count}', '{/$http2/enable}', '{/servers/0/port} {/servers#count} {/failover/timeout}');
    expect(badReferences(registry, broken).map((p) => `${p.path} ${p.problem}`)).toEqual([
      '/summary/0/label 摘要标签的占位符 {/servers/0/adress} 指向的字段在 schema.json 中不存在',
      '/summary/1/label 摘要标签的占位符 {/servers/0/backup} 须指向字符串或数字字段',
      '/summary/2/label 摘要标签的占位符 {/failover} 须指向字符串或数字字段',
      '/summary/3/label 摘要标签的占位符 {/host#count} 须指向数组字段',
      '/summary/4/label 摘要标签的占位符 {/$http2/enable} 引用的设置 http2 不在 summaryWith 中',
    ]);
  });

  it('follows summaryWith into the other setting\'s schema', () => {
    const http2 = decl('http2');
    expect(http2.meta.summaryWith).toContain('server_push');
    expect(badSummaryPlaceholders(registry, withLabels(http2, '推送 {/$server_push/server_push_options/url_patterns#count} 条路径，首条 {/$server_push/server_push_options/url_patterns/0}'))).toEqual([]);
    expect(badSummaryPlaceholders(registry, withLabels(http2, '{/$server_push/nothing}')).map((p) => p.problem)).toEqual(['摘要标签的占位符 {/$server_push/nothing} 指向的字段在 schema.json 中不存在']);
  });
});
