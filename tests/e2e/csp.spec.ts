/**
 * The console's Content-Security-Policy (issue 21 item 7, src/server/http/csp.ts): the login page, a
 * setting dialog (its form validated by ajv at run time) and the Monaco edge-rule editor in programming
 * mode (with its worker) all work under the policy, and no CSP violation is reported — neither as a
 * `securitypolicyviolation` event nor in the console (the shared page checks of ./helpers fail a test
 * on any console error). Another site cannot frame the console.
 */
import type { Page } from '@playwright/test';
import { test, expect, signIn, allowConsoleError } from './helpers';

/** Records every CSP violation the page reports, from its first script on. */
async function recordViolations(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { __csp: string[] };
    w.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => w.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
  });
}
const violations = (page: Page) => page.evaluate(() => (window as unknown as { __csp: string[] }).__csp);

test('the login page carries the policy and works under it', async ({ page, baseURL }) => {
  await recordViolations(page);
  const res = await page.goto('/login/');
  const csp = res!.headers()['content-security-policy'];
  expect(csp).toContain(`script-src ${baseURL}/app/ 'unsafe-eval'`);
  expect(csp).toContain(`worker-src ${baseURL}/app/`);
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).not.toContain("'unsafe-inline' ;"); // no inline script: 'unsafe-inline' only in style-src
  expect(csp.split('; ').find((d) => d.startsWith('script-src'))).not.toContain('unsafe-inline');
  expect(res!.headers()['x-frame-options']).toBe('DENY');
  // a wrong password is refused in Chinese, the right one signs in
  await page.locator('#login-username').fill('demo');
  await page.locator('#login-password').fill('wrong-password-1');
  await page.getByRole('button', { name: '登录' }).click();
  await expect(page.getByRole('alert')).toHaveText('账号或密码错误');
  await page.locator('#login-password').fill('demo123456');
  await page.getByRole('button', { name: '登录' }).click();
  await expect(page).toHaveURL(/\/dashboard\/$/);
  expect(await violations(page)).toEqual([]);
});

test('a setting dialog validates and saves under the policy', async ({ page }) => {
  await recordViolations(page);
  await signIn(page);
  await page.goto('/services/demo-www/optimizeCdn/');
  const panel = page.locator('[data-setting=compression]');
  await expect(panel.locator('.setting-summary')).toBeVisible();
  await panel.getByRole('button', { name: '管理' }).click();
  const dialog = page.getByRole('dialog', { name: '智能压缩配置' });
  await expect(dialog).toBeVisible();
  // the schema's own Chinese message: ajv compiled the form's validator in the page
  await dialog.locator('#root_gzip_level').fill('99');
  await expect(dialog.getByText('Gzip 压缩级别为 1 - 9').first()).toBeVisible();
  await expect(dialog.getByRole('button', { name: '确定' })).toBeDisabled();
  await dialog.locator('#root_gzip_level').fill('4');
  await dialog.getByRole('button', { name: '确定' }).click();
  await expect(page.getByText('配置成功')).toBeVisible();
  await expect(dialog).toBeHidden();
  expect(await violations(page)).toEqual([]);
});

test('the Monaco edge-rule editor in programming mode works under the policy, its worker from /app/', async ({ page, baseURL }) => {
  await recordViolations(page);
  const workers: string[] = [];
  page.on('worker', (w) => workers.push(w.url()));
  await signIn(page);
  await page.goto('/services/demo-cdn-03/edgeCalcCdn/');
  await page.getByRole('button', { name: '添加规则' }).first().click();
  await expect(page.getByRole('heading', { name: '添加边缘规则' })).toBeVisible();
  await page.getByText('编程模式').click();
  const editor = page.getByTestId('rule-editor');
  await expect(editor.locator('.monaco-editor')).toBeVisible({ timeout: 30_000 });
  // (each program ends with a new line: the cursor's highlighted line holds no keyword, whose blue on
  // that highlight is 4.4:1 — a contrast finding of the editor theme, not of the policy)
  await editor.locator('.view-lines').click();
  await page.keyboard.insertText("$WHEN($MATCH($_URI, '\\.m3u8$'))\n$EXIT(403\n");
  // the language's markers and highlighting
  await expect(editor.locator('.squiggly-error')).toHaveCount(1, { timeout: 10_000 });
  await expect(editor.locator('.view-lines .mtkb', { hasText: '$WHEN' }).first()).toBeVisible();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText("$WHEN($MATCH($_URI, '\\.m3u8$'))\n$EXIT(403)\n");
  await expect(editor.locator('.squiggly-error')).toHaveCount(0, { timeout: 10_000 });
  await page.getByRole('button', { name: '校验' }).click();
  await expect(page.locator('.edge-check-result')).toHaveText('元数据校验成功');
  // Monaco's editor worker, made the way the editor makes it (MonacoEnvironment.getWorker): a chunk of
  // the bundle under /app/, allowed by worker-src (a refused one would be a violation and never start)
  if (!workers.length) await page.evaluate(() => void (self as unknown as { MonacoEnvironment: { getWorker(id: string, label: string): Worker } }).MonacoEnvironment.getWorker('csp', 'editorWorkerService'));
  await expect.poll(() => workers.length, { timeout: 20_000 }).toBeGreaterThan(0);
  for (const w of workers) expect(w.startsWith(`${baseURL}/app/`)).toBe(true);
  expect(await violations(page)).toEqual([]);
});

test('another site cannot frame the console (frame-ancestors none)', async ({ page, baseURL }) => {
  allowConsoleError(page, /frame-ancestors|Refused to frame|Refused to display/);
  await page.goto('about:blank');
  // setContent waits for the load event, the iframe's included
  await page.setContent(`<!doctype html><html lang="zh-CN"><head><title>其他站点</title></head><body><main><iframe id="f" src="${baseURL}/login/" title="控制台"></iframe></main></body></html>`);
  const child = page.frames().find((f) => f !== page.mainFrame());
  expect(child).toBeDefined();
  // the browser refused it: an error page in its place, never the console's document
  expect(child!.url()).not.toBe(`${baseURL}/login/`);
  expect(await child!.locator('#root').count()).toBe(0);
});
