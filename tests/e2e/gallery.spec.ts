import { test, expect, signIn } from './helpers';

test('the schema gallery renders a setting, loads an invalid fixture and shows the live data', async ({ page }) => {
  await signIn(page);
  // not a customer's page: no entry in the side menu; product owners and testers open it by its address
  await expect(page.getByRole('navigation', { name: '产品菜单' }).getByRole('link', { name: '设置样例库' })).toHaveCount(0);
  await page.goto('/gallery/');
  await expect(page.getByRole('heading', { name: '设置样例库' })).toBeVisible();
  await expect(page.getByText('请在左侧选择一个设置')).toBeVisible();

  await page.locator('.gallery-list [data-setting=error_pages]').click();
  await expect(page).toHaveURL(/\/gallery\/error_pages\/$/);
  const detail = page.locator('.gallery-detail[data-setting=error_pages]');
  await expect(detail.getByRole('heading', { name: '自定义错误页面' })).toBeVisible();
  const json = detail.getByLabel('实时数据');
  await expect(json).toContainText('"options": []');
  await expect(detail.locator('.gallery-summary-label')).toHaveText('未开启');

  await detail.getByRole('button', { name: 'relative-url' }).click();
  await expect(json).toContainText('"url": "404.html"');
  // the message, in the form and in the validation list, and the expectation met
  await expect(detail.locator('.gallery-form').getByText('请填写正确的 URI 地址，以 / 开头')).toBeVisible();
  await expect(detail.locator('.gallery-validation').getByText('请填写正确的 URI 地址，以 / 开头')).toBeVisible();
  await expect(detail.locator('.gallery-expected')).toContainText('/options/0/url');
  await expect(detail.locator('.gallery-verdict')).toHaveText('符合预期');

  // typing in the form changes the live JSON; the fixed value passes, so the expectation is no longer met
  const url = detail.locator('.gallery-form').getByRole('textbox');
  await url.fill('/404.html');
  await expect(json).toContainText('"url": "/404.html"');
  await expect(detail.locator('.gallery-validation').getByText('当前数据通过校验')).toBeVisible();
  await expect(detail.locator('.gallery-verdict')).toHaveText('不符合预期');
  await expect(detail.locator('.gallery-summary-label')).toHaveText('已开启');

  // a valid fixture matches too, and the page can be opened directly
  await page.goto('/gallery/tls13/');
  const tls = page.locator('.gallery-detail[data-setting=tls13]');
  await tls.getByRole('button', { name: 'on', exact: true }).click();
  await expect(tls.getByLabel('实时数据')).toContainText('"tls": true');
  await expect(tls.locator('.gallery-verdict')).toHaveText('符合预期');
});
