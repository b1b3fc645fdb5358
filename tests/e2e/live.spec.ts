import { test, expect, signIn } from './helpers';

test('the live tabs follow the transport: stream monitor only for a push (file-type) service', async ({ page }) => {
  await signIn(page);
  await page.goto('/services/demo-live/domainLive/');
  const tabs = page.getByRole('tablist');
  await expect(tabs.getByRole('tab', { name: '流监控' })).toBeVisible();
  await expect(tabs.getByRole('tab', { name: '高级配置' })).toBeVisible();
  await tabs.getByRole('tab', { name: '流监控' }).click();
  await expect(page).toHaveURL(/\/services\/demo-live\/streamMonitorLive\/$/);
  await expect(page.locator('[data-setting=live_stream_monitor] .setting-summary')).toHaveText('未开启');
  await page.goto('/services/demo-class/domainLive/');
  await expect(tabs.getByRole('tab', { name: '基础配置' })).toBeVisible();
  await expect(tabs.getByRole('tab', { name: '流监控' })).toHaveCount(0);
  // opening the hidden tab by its URL goes back to the first tab
  await page.goto('/services/demo-class/streamMonitorLive/');
  await expect(page).toHaveURL(/\/services\/demo-class\/domainLive\/$/);
});

test('change a live setting: refused with its message, saved, kept after a reload', async ({ page }) => {
  await signIn(page);
  await page.goto('/services/demo-live/basicLive/');
  const panel = page.locator('[data-setting=live_apps]');
  await expect(panel.locator('.setting-summary')).toHaveText('默认应用 “live”');
  await panel.getByRole('button', { name: '管理' }).click();
  const dialog = page.getByRole('dialog', { name: '应用管理配置' });
  const box = dialog.locator('#root_apps');
  await box.fill('live\na/b');
  await expect(dialog.getByText('第 2 行：应用名为 1 - 32 位英文字母、数字、下划线或中划线')).toBeVisible();
  await box.fill('live\ne2e_class');
  await dialog.getByRole('button', { name: '确定' }).click();
  await expect(page.getByText('配置成功')).toBeVisible();
  await expect(panel.locator('.setting-summary')).toHaveText('已配置多个应用');
  await page.reload();
  await expect(panel.locator('.setting-summary')).toHaveText('已配置多个应用');
  await panel.getByRole('button', { name: '管理' }).click();
  await expect(dialog.locator('#root_apps')).toHaveValue('live\ne2e_class');
});
