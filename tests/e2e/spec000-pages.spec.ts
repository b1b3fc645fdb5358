/**
 * No tab a customer can open is a placeholder (issue 19 item 2): the live service's 域名管理 lists its
 * domains with their use (推流 / 播放, from the 推流与播放域名 setting), the live HTTPS tab is the
 * per-domain HTTPS; and the named states account.personal / account.company have routes (item 11).
 */
import { test, expect, signIn } from './helpers';

test("the live service's 域名管理 lists its domains with their use; its HTTPS tab is the per-domain HTTPS", async ({ page }) => {
  await signIn(page);
  await page.goto('/services/demo-live/domainLive/');
  const panel = page.locator('[data-panel=domains]');
  await expect(panel.getByRole('heading', { name: '直播域名' })).toBeVisible();
  await expect(panel.getByRole('columnheader', { name: '用途' })).toBeVisible();
  const row = panel.locator('tr[data-domain="live.demo-example.com"]');
  await expect(row).toBeVisible();
  await expect(row.locator('.live-domain-role')).toHaveText(/推流域名|播放域名|未使用/);
  await expect(page.getByText(/即将开放|正在建设中/)).toHaveCount(0);

  await page.goto('/services/demo-live/httpsLive/');
  await expect(page.locator('.tab-content')).toContainText('live.demo-example.com');
  await expect(page.getByText(/即将开放|正在建设中/)).toHaveCount(0);
});

test('account.personal and account.company open the two verifications; a billing address without a page goes to the bills', async ({ page }) => {
  await signIn(page);
  await page.goto('/account/personal/');
  await expect(page).toHaveURL(/\/account\/verifypersonal\/$/);
  await page.goto('/account/company/');
  await expect(page).toHaveURL(/\/account\/verifycompany\/$/);
  await page.goto('/billing/no-such-page/');
  await expect(page).toHaveURL(/\/billing\/bills\/$/);
});
