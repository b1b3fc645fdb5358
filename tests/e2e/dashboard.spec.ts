/**
 * The dashboard of a main account (GET /api/dashboard/): balance with the recharge link, the last 24
 * hours of traffic drawn with visx, unread messages, certificates and resource packages; the blog block is hidden on a
 * server without a feed.
 */
import { test, expect, signIn } from './helpers';

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

test('an unverified account: the §2.9 real-name modal pops up once, the icon opens it again, each 立即前往 records its event', async ({ page }) => {
  const posted: number[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith('/accounts/verify/statistics') && r.method() === 'POST') posted.push(r.postDataJSON().type);
  });
  await signIn(page, 'demonew');
  // the popup (dashboard_popup, 13) → the profile with the verification-type chooser open
  const modal = page.getByRole('dialog', { name: '实名认证' });
  await expect(modal).toContainText('根据相关规定，您需要先完成个人或企业实名认证');
  await modal.getByRole('button', { name: '立即前往' }).click();
  await expect(page).toHaveURL(/\/account\/profile\/\?realname$/);
  await expect.poll(() => posted).toContain(13);
  // back on the dashboard it does not pop up again in this session; the welcome card's icon opens it (dashboard_icon, 1)
  await page.goto('/dashboard/');
  await expect(page.getByRole('heading', { name: '您尚未完成实名认证' })).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await page.getByRole('button', { name: '去实名认证' }).click();
  await page.getByRole('dialog', { name: '实名认证' }).getByRole('button', { name: '立即前往' }).click();
  await expect(page).toHaveURL(/\/account\/profile\/\?realname$/);
  await expect.poll(() => posted).toContain(1);
  // the callout's button (dashboard_button, 2)
  await page.goto('/dashboard/');
  await page.locator('.realname-prompt').getByRole('button', { name: '立即前往' }).click();
  await expect(page).toHaveURL(/\/account\/profile\/\?realname$/);
  await expect.poll(() => posted).toContain(2);
  expect(posted.slice().sort((a, b) => a - b)).toEqual([1, 2, 13]);
});
