/**
 * The dashboard of a main account (GET /api/dashboard/): balance with the recharge link, the last 24
 * hours of traffic drawn with visx, unread messages, certificates and resource packages; the blog block is hidden on a
 * server without a feed.
 */
import { expect, test } from '@playwright/test';
import { signIn } from './helpers';

test('the dashboard shows the balance, the last 24 hours, messages and certificates', async ({ page }) => {
  await signIn(page);
  await expect(page.getByRole('link', { name: '充值' })).toHaveAttribute('href', '/billing/charge/');
  const traffic = page.getByTestId('dashboard-traffic');
  await expect(traffic).toBeVisible({ timeout: 20_000 });
  await expect(traffic).toContainText('流量合计');
  await expect(traffic).toContainText('带宽峰值');
  await expect(page.getByTestId('dashboard-chart').locator('svg .series-line').first()).toBeVisible();
  await expect(page.getByRole('heading', { name: /未读消息/ })).toBeVisible();
  await expect(page.getByRole('heading', { name: '即将过期的证书' })).toBeVisible();
  await expect(page.getByTestId('dashboard-packages').getByRole('link', { name: '管理资源包' })).toHaveAttribute('href', '/billing/resources/');
  // no feed configured on the test server: no blog block
  await expect(page.getByTestId('dashboard-blog')).toHaveCount(0);
  // an unread message opens at /{cat}/message/{id}/ (spec 000 §2.8), not on the dashboard again
  await expect(page.locator('.dashboard-messages').getByRole('link', { name: '全部消息' })).toHaveAttribute('href', '/account/message/');
  const first = page.locator('.dashboard-messages ul a').first();
  const href = await first.getAttribute('href');
  expect(href).toMatch(/^\/account\/message\/\d+\/$/);
  await first.click();
  await expect(page).toHaveURL(new RegExp(`${href}$`));
  await expect(page.locator('.message-body')).toBeVisible();
});

test('an unverified account sees the real-name prompt, and 立即前往 leads to the profile', async ({ page }) => {
  await signIn(page, 'demonew');
  const posted = page.waitForRequest((r) => r.url().endsWith('/accounts/verify/statistics') && r.method() === 'POST');
  await page.getByRole('button', { name: '立即前往' }).click();
  expect((await posted).postDataJSON()).toEqual({ type: 2 });
  await expect(page).toHaveURL(/\/account\/profile\/$/);
});
