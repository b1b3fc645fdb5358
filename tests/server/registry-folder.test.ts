/**
 * "Adding a fourth setting is one new folder": a copy of schemas/settings plus a `probe_hsts` folder
 * is found by the loader, passes every check, and is served by the API with no code change.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_SETTINGS_DIR, loadDeclarations, loadRegistry } from '../../schemas/load';
import { checkAll } from '../../schemas/check';
import type { SettingRegistry } from '../../schemas/registry';
import { copySettings } from '../fixtures/worked-example';
import { startTestServer, Client, type TestServer } from './helpers';

const MAX_AGE_RANGE = '有效期为 0 - 31536000 秒';
const MAX_AGE_TYPE = '有效期须为整数（秒）';
const MAX_AGE_REQUIRED = '请填写 HSTS 有效期';
const EXTRA = '包含不支持的配置项';

const HSTS = {
  'setting.json': {
    id: 'probe_hsts',
    title: 'HSTS（样例）',
    kinds: ['cdn'],
    tab: 'https',
    order: 999,
    panel: 'dialog',
    dialogTitle: 'HSTS 配置',
    success: '配置成功',
    summary: [
      { when: { properties: { max_age: { const: 0 } } }, label: '未开启', intent: 'none' },
      { label: '已开启', intent: 'success' },
    ],
    help: ['开启 HSTS 后，浏览器在有效期内只通过 HTTPS 访问该域名。'],
  },
  'schema.json': {
    type: 'object',
    title: 'HSTS',
    required: ['max_age'],
    additionalProperties: false,
    properties: {
      max_age: {
        type: 'integer',
        title: '有效期（秒）',
        minimum: 0,
        maximum: 31536000,
        default: 0,
        errorMessage: { type: MAX_AGE_TYPE, minimum: MAX_AGE_RANGE, maximum: MAX_AGE_RANGE },
      },
    },
    errorMessage: { required: { max_age: MAX_AGE_REQUIRED }, additionalProperties: EXTRA },
  },
  'ui.json': {
    'ui:order': ['max_age'],
    max_age: { 'ui:widget': 'number', 'ui:help': '0 表示关闭 HSTS' },
  },
  'fixtures/valid/one-year.json': { description: '一年', payload: { max_age: 31536000 } },
  'fixtures/valid/off.json': { description: '关闭', payload: { max_age: 0 } },
  'fixtures/invalid/too-long.json': {
    description: '超过一年',
    payload: { max_age: 31536001 },
    errors: [{ path: '/max_age', message: MAX_AGE_RANGE }],
  },
  'fixtures/invalid/negative.json': {
    description: '负数',
    payload: { max_age: -1 },
    errors: [{ path: '/max_age', message: MAX_AGE_RANGE }],
  },
  'fixtures/invalid/not-integer.json': {
    description: '非整数',
    payload: { max_age: '3600' },
    errors: [{ path: '/max_age', message: MAX_AGE_TYPE }],
  },
  'fixtures/invalid/missing.json': {
    description: '缺少有效期、多余字段',
    payload: { preload: true },
    errors: [
      { path: '', message: EXTRA },
      { path: '/max_age', message: MAX_AGE_REQUIRED },
    ],
  },
} as const;

let tmpRoot: string;
let settingsDir: string;
let registry: SettingRegistry;
let s: TestServer;

beforeAll(async () => {
  tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'console-settings-'));
  settingsDir = path.join(tmpRoot, 'settings');
  copySettings(path.resolve(__dirname, '../..'), settingsDir);
  for (const [rel, content] of Object.entries(HSTS)) {
    const file = path.join(settingsDir, 'probe_hsts', rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify(content, null, 2) + '\n');
  }
  registry = loadRegistry(settingsDir);
  s = await startTestServer({ registry });
});

afterAll(async () => {
  await s?.close();
  if (tmpRoot) fs.rmSync(tmpRoot, { recursive: true, force: true });
  expect(fs.existsSync(tmpRoot)).toBe(false);
});

describe('a new setting folder', () => {
  it('is found by the loader beside the existing ones', () => {
    const existing = loadDeclarations().map((d) => d.meta.id);
    const ids = loadDeclarations(settingsDir).map((d) => d.meta.id);
    expect(ids).toEqual([...existing, 'probe_hsts'].sort((a, b) => a.localeCompare(b)));
    const d = registry.get('probe_hsts');
    expect(d).toBeDefined();
    expect(d!.meta).toMatchObject({ id: 'probe_hsts', kinds: ['cdn'], tab: 'https', panel: 'dialog', success: '配置成功' });
    expect(d!.dir).toBe(path.join(settingsDir, 'probe_hsts'));
    expect(d!.fixtures!.valid).toHaveLength(2);
    expect(d!.fixtures!.invalid).toHaveLength(4);
    // the real folder is untouched
    expect(loadRegistry().get('probe_hsts')).toBeUndefined();
  });

  it('shows on the HTTPS tab of CDN services only, after TLS 1.3', () => {
    const real = loadRegistry();
    expect(registry.forTab('cdn', 'https').map((d) => d.meta.id)).toEqual([...real.forTab('cdn', 'https').map((d) => d.meta.id), 'probe_hsts']);
    expect(registry.forTab('file', 'https').map((d) => d.meta.id)).toEqual(real.forTab('file', 'https').map((d) => d.meta.id));
  });

  it('passes every check of the schema CLI', () => {
    expect(checkAll(loadDeclarations(settingsDir))).toEqual([]);
  });

  it('would be caught by the checks if a fixture lied', () => {
    const declarations = loadDeclarations(settingsDir);
    const hsts = declarations.find((d) => d.meta.id === 'probe_hsts')!;
    hsts.fixtures!.invalid[0] = { ...hsts.fixtures!.invalid[0], errors: [{ path: '/max_age', message: '错误的提示' }] };
    const failures = checkAll(declarations);
    expect(failures.length).toBeGreaterThan(0);
    expect(failures.every((f) => f.file.startsWith(path.join(settingsDir, 'probe_hsts')))).toBe(true);
  });

  it('validates with its own messages and defaults', () => {
    expect(registry.check('probe_hsts', { max_age: 3600 })).toEqual([]);
    expect(registry.check('probe_hsts', { max_age: 31536001 })).toEqual([{ path: '/max_age', message: MAX_AGE_RANGE }]);
    expect(registry.defaults('probe_hsts')).toEqual({ max_age: 0 });
    expect(registry.summary('probe_hsts', { max_age: 0 })?.label).toBe('未开启');
    expect(registry.summary('probe_hsts', { max_age: 600 })?.label).toBe('已开启');
  });
});

describe('the API serves the new setting with no code change', () => {
  it('lists it among the declarations', async () => {
    const c = await new Client(s.app).signIn('demo');
    const res = await c.get('/api/settings/');
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toContainEqual({ id: 'probe_hsts', title: 'HSTS（样例）', kinds: ['cdn'], tab: 'https' });
  });

  it('reads the defaults before anything is saved', async () => {
    const c = await new Client(s.app).signIn('demo');
    const res = await c.get('/api/settings/probe_hsts/?bucket_name=demo-www');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ result: true, error_code: 0, data: { max_age: 0 }, summary: '未开启', summary_intent: 'none', fixed: false });
  });

  it('accepts a valid payload on a CDN service and stores it', async () => {
    const c = await new Client(s.app).signIn('demo');
    const res = await c.post('/api/settings/probe_hsts/', { bucket_name: 'demo-www', max_age: 31536000 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ result: true, error_code: 0, data: { max_age: 31536000 }, summary: '已开启', summary_intent: 'success' });
    const again = await c.get('/api/settings/probe_hsts/?bucket_name=demo-www');
    expect(again.json().data).toEqual({ max_age: 31536000 });
    const log = await s.db.selectFrom('operation_logs').select(['action', 'target']).where('target', '=', 'demo-www/probe_hsts').execute();
    expect(log).toEqual([{ action: 'setting.update', target: 'demo-www/probe_hsts' }]);
  });

  it('refuses an invalid payload with the Chinese message at its path and keeps the stored value', async () => {
    const c = await new Client(s.app).signIn('demo');
    const res = await c.post('/api/settings/probe_hsts/', { bucket_name: 'demo-www', max_age: 31536001 });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      result: false,
      error_code: 20001,
      message: '提交的数据不符合要求，请检查后重试',
      errors: [{ path: '/max_age', message: MAX_AGE_RANGE }],
    });
    const missing = await c.post('/api/settings/probe_hsts/', { bucket_name: 'demo-www' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors).toEqual([{ path: '/max_age', message: MAX_AGE_REQUIRED }]);
    const text = await c.post('/api/settings/probe_hsts/', { bucket_name: 'demo-www', max_age: '3600' });
    expect(text.statusCode).toBe(400);
    expect(text.json().errors).toEqual([{ path: '/max_age', message: MAX_AGE_TYPE }]);
    expect((await c.get('/api/settings/probe_hsts/?bucket_name=demo-www')).json().data).toEqual({ max_age: 31536000 });
  });

  it('refuses it on a file service with 21201', async () => {
    const c = await new Client(s.app).signIn('demo');
    const write = await c.post('/api/settings/probe_hsts/', { bucket_name: 'demo-assets', max_age: 3600 });
    expect(write.statusCode).toBe(400);
    expect(write.json()).toEqual({ result: false, error_code: 21201, message: '该设置不适用于此类型的服务' });
    const read = await c.get('/api/settings/probe_hsts/?bucket_name=demo-assets');
    expect(read.statusCode).toBe(400);
    expect(read.json().error_code).toBe(21201);
  });

  it('keeps serving the existing settings from the copied folders', async () => {
    const c = await new Client(s.app).signIn('demo');
    const res = await c.post('/api/settings/tls13/', { bucket_name: 'demo-www', tls: true });
    expect(res.statusCode).toBe(200);
    expect(res.json().summary).toBe('已开启');
    const guarded = await c.post('/api/settings/error_pages/', { bucket_name: 'demo-www', options: [{ code: [404], url: '/a.html' }, { code: [404], url: '/b.html' }] });
    expect(guarded.statusCode).toBe(400);
    expect(guarded.json().errors).toEqual([{ path: '/options/1/code', message: '状态码 404 已在第 1 条规则中配置' }]);
  });
});
