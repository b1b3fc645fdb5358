/**
 * Replays the worked example of docs/adding-a-setting.md: its files are taken from the document
 * itself, put in a copy of schemas/settings, and a console built from that copy and a server
 * reading it show, save, validate and refuse the new setting — with no code touched.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadDeclarations } from '../../schemas/load';
import { checkAll } from '../../schemas/check';
import { test, expect, PASSWORD } from './helpers';
import { copySettingsWithExample, exampleFiles } from '../fixtures/worked-example';

const ROOT = path.resolve(__dirname, '../..');
const PORT = Number(process.env.E2E_PORT ?? 8181) + 50;
const BASE = `http://127.0.0.1:${PORT}`;

test.describe.configure({ mode: 'serial' });

let tmp: string;
let server: ChildProcess;

test.beforeAll(async () => {
  // a second build of the console (from the copy of schemas/settings) takes a while on 2 cores
  test.setTimeout(420_000);
  const doc = fs.readFileSync(path.join(ROOT, 'docs/adding-a-setting.md'), 'utf8');
  const files = exampleFiles(doc);
  expect(Object.keys(files).sort()).toEqual(
    ['edge.lua', 'edge.ts', 'fixtures/invalid/missing.json', 'fixtures/invalid/too-long.json', 'fixtures/valid/off.json', 'fixtures/valid/one-day.json', 'rules.ts', 'schema.json', 'setting.json', 'ui.json'],
  );
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'adding-a-setting-'));
  const settings = path.join(tmp, 'settings');
  copySettingsWithExample(ROOT, settings, files);
  // the folder passes every check of `npm run schemas -- check`
  expect(checkAll(loadDeclarations(settings))).toEqual([]);
  const env = { ...process.env, SCHEMAS_DIR: settings, DIST_DIR: path.join(tmp, 'dist') };
  const build = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/webpack/bin/webpack.js'), '--mode', 'development'], { cwd: ROOT, env, encoding: 'utf8' });
  expect(build.status, build.stderr).toBe(0);
  server = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: ROOT,
    env: { ...env, PORT: String(PORT), DATA_DIR: 'memory://', LOG_LEVEL: 'warn', SEED_TRAFFIC_DAYS: '4' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  let exited: number | null = null;
  server.stderr?.on('data', (d) => (stderr = (stderr + String(d)).slice(-4000)));
  server.on('exit', (code) => (exited = code ?? -1));
  // the demo seed takes a while on a loaded machine (the main server of the browser tests starts too)
  for (let i = 0; i < 360 && exited === null; i++) {
    try {
      if ((await fetch(`${BASE}/login/`)).ok) return;
    } catch {
      /* starting */
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`server did not start${exited !== null ? ` (exited with ${exited})` : ''}: ${stderr}`);
});

test.afterAll(() => {
  server?.kill();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

test('the new folder shows on the cache tab, saves, validates in the form and is refused by the server', async ({ page }) => {
  await page.goto(`${BASE}/login/`);
  await page.locator('#login-username').fill('demo');
  await page.locator('#login-password').fill(PASSWORD);
  await page.getByRole('button', { name: '登录' }).click();
  await expect(page).toHaveURL(/\/dashboard\/$/);

  await page.goto(`${BASE}/services/demo-www/cacheCdn/`);
  const panel = page.locator('[data-setting=always_online]');
  await expect(panel.getByRole('heading', { name: '始终在线' })).toBeVisible();
  await expect(panel.locator('.setting-summary')).toHaveText('未开启');
  await panel.getByRole('button', { name: '管理' }).click();
  const dialog = page.getByRole('dialog', { name: '始终在线配置' });
  await expect(dialog.locator('#root_max_stale')).toBeHidden();
  await dialog.getByText('开启始终在线').click();
  await dialog.locator('#root_max_stale').fill('2592001');
  await expect(dialog.getByText('有效期为 60 - 2592000 秒')).toBeVisible();
  await expect(dialog.getByRole('button', { name: '确定' })).toBeDisabled();
  await dialog.locator('#root_max_stale').fill('3600');
  await dialog.getByText('源站返回 5xx 时也返回缓存').click();
  await dialog.getByRole('button', { name: '确定' }).click();
  await expect(page.getByText('配置成功')).toBeVisible();
  await expect(panel.locator('.setting-summary')).toHaveText('已开启（含 5xx）');
  await page.reload();
  await expect(panel.locator('.setting-summary')).toHaveText('已开启（含 5xx）');

  // the server validates with the same declaration and normalises with its rules.ts
  const bad = await page.request.post(`${BASE}/api/settings/always_online/`, { data: { bucket_name: 'demo-www', enable: true, max_stale: 10, include_5xx: false } });
  expect(bad.status()).toBe(400);
  expect((await bad.json()).errors).toEqual([{ path: '/max_stale', message: '有效期为 60 - 2592000 秒' }]);
  const off = await page.request.post(`${BASE}/api/settings/always_online/`, { data: { bucket_name: 'demo-www', enable: false, max_stale: 600, include_5xx: true } });
  expect((await off.json()).data).toEqual({ enable: false, max_stale: 600, include_5xx: false });
  // a kind the folder does not name
  const live = await page.request.get(`${BASE}/api/settings/always_online/?bucket_name=demo-live`);
  expect((await live.json()).error_code).toBe(21201);
});
