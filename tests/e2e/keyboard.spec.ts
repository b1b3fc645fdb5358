/**
 * Every task by keyboard alone (issue 24, docs/accessibility.md): after `page.goto` nothing but the
 * keyboard is used — no click, no fill. The page checks of helpers.ts (axe-core and the console) run on
 * every state these walks pass through.
 */
import { test, expect, PASSWORD, signIn } from './helpers';
import type { Locator, Page } from '@playwright/test';

/** Whether focus is on `target` or inside it (Monaco's focus is on an element of its own inside the editor). */
const holdsFocus = (target: Locator) => target.evaluate((el) => el === document.activeElement || el.contains(document.activeElement)).catch(() => false);

/** Presses Tab (or Shift+Tab) until `target` has focus; fails after `max` presses. */
async function tabTo(page: Page, target: Locator, { back = false, max = 80 } = {}) {
  for (let i = 0; i < max; i++) {
    if (await holdsFocus(target)) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`${target} was not reached with ${max} presses of ${back ? 'Shift+Tab' : 'Tab'}`);
}

const focused = (page: Page) => page.locator(':focus');

test('sign in, open a CDN service, switch to HTTPS, change a setting and save, focus back on 管理 — by keyboard alone', async ({ page }) => {
  await page.goto('/login/');
  await tabTo(page, page.locator('#login-username'));
  await page.keyboard.type('demo');
  await page.keyboard.press('Tab');
  await expect(page.locator('#login-password')).toBeFocused();
  await page.keyboard.type(PASSWORD);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/dashboard\/$/);

  // the sign-in form went away with the focused button: focus is on the page, not lost on <body>
  await expect(page.locator('main#main')).toBeFocused();
  // the skip link comes first of all, before the top bar and the side menu, and takes focus to the page
  await tabTo(page, page.getByRole('link', { name: '跳到主要内容' }), { back: true });
  await expect(page.getByRole('link', { name: '跳到主要内容' })).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page.locator('main#main')).toBeFocused();

  // the side menu's CDN entry, then the service through the list's search box
  await tabTo(page, page.locator('.product-menu').getByRole('link', { name: 'CDN', exact: true }), { back: true });
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/services\/cdn\/$/);
  await tabTo(page, page.getByPlaceholder('请输入服务名称'));
  await page.keyboard.type('demo-cdn-02');
  const link = page.locator('.service-table').getByRole('link', { name: 'demo-cdn-02', exact: true });
  await expect(page.locator('.service-table tbody tr')).toHaveCount(1);
  await tabTo(page, link);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/services\/demo-cdn-02\/domainsCdn\/$/);
  // the list went away with the focused link: focus is on the page, not lost on <body>
  await expect(page.locator('main#main')).toBeFocused();

  // the tabs: the selected one takes focus, the arrow keys move, Enter opens
  const selected = page.getByRole('tab', { selected: true });
  await tabTo(page, selected);
  const https = page.getByRole('tab', { name: 'HTTPS' });
  for (let i = 0; i < 10 && !(await https.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('ArrowRight');
  await expect(https).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/services\/demo-cdn-02\/httpsCdn\/$/);
  await expect(https).toHaveAttribute('aria-selected', 'true');

  // 最低 TLS 版本: 管理, a radio moved by the arrow keys, 确定 — and focus is back on 管理
  const panel = page.locator('[data-setting="tls_min_version"]');
  const manage = panel.getByRole('button', { name: '管理' });
  await expect(manage).toBeEnabled({ timeout: 30_000 });
  await tabTo(page, manage);
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: '最低 TLS 版本配置' });
  await expect(dialog).toBeVisible();
  const group = dialog.getByRole('group', { name: '最低版本' });
  await expect(group).toBeVisible();
  const current = group.getByRole('radio', { checked: true });
  await tabTo(page, current);
  const before = await current.evaluate((el) => (el as HTMLInputElement).value);
  await page.keyboard.press('ArrowDown');
  const after = await focused(page).evaluate((el) => (el as HTMLInputElement).value);
  expect(after).not.toBe(before);
  const label = (await focused(page).evaluate((el) => el.closest('label')?.textContent ?? '')).trim();
  await tabTo(page, dialog.getByRole('button', { name: '确定' }));
  await page.keyboard.press('Enter');
  // the save goes to the server first (slow on a loaded CI machine: once it took over 10 s)
  await expect(dialog).toBeHidden({ timeout: 30_000 });
  await expect(page.getByText('提交成功')).toBeVisible();
  await expect(manage).toBeFocused();
  await expect(panel).toContainText(label.replace(/（.*$/, ''));

  // Escape closes the dialog and also gives focus back
  await page.keyboard.press('Enter');
  await expect(dialog).toBeVisible();
  // Blueprint moves focus into the dialog a frame after it shows; Escape is heard there, as a user would find it
  await page.waitForFunction(() => Boolean(document.activeElement?.closest('.bp6-overlay')));
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(manage).toBeFocused();

  // and back to the default, so the service is as the seed made it
  await page.keyboard.press('Enter');
  await tabTo(page, dialog.getByRole('radio', { name: /TLSv1\.0/ }), { max: 20 }).catch(async () => {
    await tabTo(page, group.getByRole('radio', { checked: true }));
    for (let i = 0; i < 4 && !(await dialog.getByRole('radio', { name: /TLSv1\.0/ }).isChecked()); i++) await page.keyboard.press('ArrowUp');
  });
  await page.keyboard.press('Space');
  await tabTo(page, dialog.getByRole('button', { name: '确定' }));
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(manage).toBeFocused();
});

test('programming mode: Tab indents in Monaco, Escape then Tab (or Ctrl+M) leaves it, and 确定 is reached by keyboard', async ({ page }) => {
  await signIn(page);
  await page.goto('/services/demo-cdn-03/edgeCalcCdn/');
  await tabTo(page, page.getByRole('button', { name: '添加规则' }).first());
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: '添加边缘规则' })).toBeVisible();
  await tabTo(page, page.locator('#edge-describe'));
  await page.keyboard.type('键盘规则');
  // 使用方式: the arrow key chooses 编程模式
  await tabTo(page, page.getByRole('radio', { name: '普通模式' }));
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('radio', { name: '编程模式' })).toBeChecked();
  const editor = page.getByTestId('rule-editor');
  await expect(editor.locator('.monaco-editor')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('按 Ctrl+M 切换为用 Tab 键移动焦点，或先按 Esc 再按 Tab 离开编辑器', { exact: false })).toBeVisible();

  await tabTo(page, editor);
  // as typed in one go (keyboard.type would let the completion list take the parentheses)
  await page.keyboard.insertText("$WHEN($MATCH($_URI, '^/keyboard-only$'))$EXIT(403)");
  await expect(editor.locator('.view-lines')).toContainText('keyboard-only');
  // (Escape closes a completion list; End, like any key but Tab, keeps Tab for indenting)
  await page.keyboard.press('Escape');
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  // Tab stays in the editor and indents
  await page.keyboard.press('Tab');
  expect(await holdsFocus(editor)).toBe(true);
  // Escape, then Tab: out of the editor, on the next control
  await page.keyboard.press('Escape');
  await page.keyboard.press('Tab');
  expect(await holdsFocus(editor)).toBe(false);
  // back in with Shift+Tab, then Ctrl+M: Tab moves focus too
  await page.keyboard.press('Shift+Tab');
  expect(await holdsFocus(editor)).toBe(true);
  await page.keyboard.press('Control+m');
  await page.keyboard.press('Tab');
  expect(await holdsFocus(editor)).toBe(false);
  // Ctrl+M again restores Tab for indenting, for whoever types next
  await page.keyboard.press('Shift+Tab');
  expect(await holdsFocus(editor)).toBe(true);
  await page.keyboard.press('Control+m');
  await page.keyboard.press('Escape');
  await tabTo(page, page.getByRole('button', { name: '确定' }));
  await page.keyboard.press('Enter');
  await expect(page.getByText('保存成功')).toBeVisible();
  await expect(page.locator('tr.edge-row[data-rule="键盘规则"]')).toBeVisible();
  // leave the service as it was
  const rows = (await (await page.request.get('/api/buckets/rewrite/?bucket_name=demo-cdn-03&perPage=100')).json()).data.rewrite as { rewrite_id: number; describe: string }[];
  for (const r of rows.filter((x) => x.describe === '键盘规则')) await page.request.delete(`/api/buckets/rewrite/?rewrite_id=${r.rewrite_id}`);
});
