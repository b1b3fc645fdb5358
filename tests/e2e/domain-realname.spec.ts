/**
 * Real-name verification before binding a domain (docs/security.md "Domain ownership"): the unverified
 * demonew creates a CDN service with the domains field disabled under 绑定域名前请先完成实名认证 and a way
 * to the profile's real-name verification; on the new service's domains tab 添加域名 opens the real-name
 * prompt instead of the form, whose 立即前往 leads to /account/profile/?realname; the server refuses a
 * binding sent anyway with 22005.
 */
import { test, expect, signIn } from './helpers';

test('an unverified account is sent to real-name verification before it can bind a domain', async ({ page }) => {
  await signIn(page, 'demonew');
  await page.goto('/services/cdn/');
  await page.getByRole('button', { name: '创建服务' }).click();
  const dialog = page.getByRole('dialog', { name: '创建CDN服务' });
  await expect(dialog.locator('.realname-bind')).toContainText('绑定域名前请先完成实名认证');
  await expect(dialog.locator('#root_domains')).toBeDisabled();
  await expect(dialog.getByText('完成实名认证后才能绑定域名；可以先创建服务，认证后在“域名管理”中添加域名')).toBeVisible();
  // a service without domains is created
  await dialog.locator('#root_bucket_name').fill('e2e-realname');
  await dialog.getByRole('button', { name: '确定' }).click();
  await expect(page.getByText('创建成功')).toBeVisible();
  await expect(page).toHaveURL(/\/services\/e2e-realname\/domainsCdn\/$/);

  // 添加域名: the real-name prompt, not the form
  await page.locator('[data-panel="domains"]').getByRole('button', { name: '添加域名' }).click();
  const prompt = page.getByRole('dialog', { name: '实名认证' });
  await expect(prompt).toContainText('根据相关规定，您需要先完成个人或企业实名认证，才能绑定域名。');
  await expect(page.getByRole('dialog', { name: '添加加速域名' })).toHaveCount(0);

  // the server refuses a binding sent anyway
  const res = await page.request.post('/api/account/domains/', { data: { bucket_name: 'e2e-realname', domain: 'www.e2e-realname-example.com' } });
  expect(res.status()).toBe(403);
  expect(await res.json()).toMatchObject({ error_code: 22005, message: '请先完成实名认证', errors: [{ path: '/domain', message: '绑定域名前请先完成实名认证' }] });

  await prompt.getByRole('button', { name: '立即前往' }).click();
  await expect(page).toHaveURL(/\/account\/profile\/\?realname$/);

  // the create dialog's way there too
  await page.goto('/services/cdn/');
  await page.getByRole('button', { name: '创建服务' }).click();
  await page.getByRole('dialog', { name: '创建CDN服务' }).locator('.realname-bind').getByRole('button', { name: '立即前往' }).click();
  await expect(page).toHaveURL(/\/account\/profile\/\?realname$/);
});
