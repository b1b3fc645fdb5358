import { test, expect, signIn } from './helpers';

test('create a CDN service from its list, with the form engine checking names and domains', async ({ page }) => {
  await signIn(page);
  await page.goto('/services/cdn/');
  await page.getByRole('button', { name: '创建服务' }).click();
  const dialog = page.getByRole('dialog', { name: '创建CDN服务' });
  await dialog.locator('#root_bucket_name').fill('1bad');
  await expect(dialog.getByText('服务名称为 5 - 40 位小写英文、数字或中划线，以小写英文开头')).toBeVisible();
  await dialog.locator('#root_bucket_name').fill('e2e-created');
  await dialog.locator('#root_domains').fill('www.e2e-example.com\nhttp://bad');
  await expect(dialog.getByText('第 2 行：请填写正确的域名，如 www.example.com')).toBeVisible();
  await dialog.locator('#root_domains').fill('www.e2e-example.com');
  await dialog.getByRole('button', { name: '确定' }).click();
  await expect(page.getByText('创建成功')).toBeVisible();
  await expect(page).toHaveURL(/\/services\/e2e-created\/domainsCdn\/$/);
  await page.goto('/services/cdn/');
  await page.getByPlaceholder('请输入服务名称').fill('e2e-created');
  await expect(page.locator('.service-table tbody tr')).toHaveCount(1);
  await expect(page.locator('.service-table')).toContainText('www.e2e-example.com');
});

test('a taken name is refused by the server and the dialog says so', async ({ page }) => {
  await signIn(page);
  await page.goto('/services/file/');
  await page.getByRole('button', { name: '创建服务' }).click();
  const dialog = page.getByRole('dialog', { name: '创建云存储服务' });
  await dialog.locator('#root_bucket_name').fill('demo-assets');
  await dialog.getByRole('button', { name: '确定' }).click();
  await expect(dialog.getByRole('alert').first()).toContainText('服务名称已存在，请换一个名称');
});

test('a key customer cannot create CDN services', async ({ page }) => {
  await signIn(page, 'demokey');
  await page.goto('/services/cdn/');
  await page.getByRole('button', { name: '创建服务' }).click();
  await expect(page.getByText('因贵司属于重要客户，为防止误操作，已对相关配置进行锁定保护，如需修改请联系我们。')).toBeVisible();
  await expect(page.getByRole('dialog', { name: /创建.*服务/ })).toHaveCount(0);
  await page.getByRole('button', { name: '知道了' }).click();
  await expect(page.getByText('因贵司属于重要客户，为防止误操作，已对相关配置进行锁定保护，如需修改请联系我们。')).toBeHidden();
});

test('an overseas service needs a balance of 399: the creation-forbidden dialog leads to recharge', async ({ page }) => {
  await signIn(page, 'demonew');
  await page.goto('/services/overseas/');
  await page.getByRole('button', { name: '创建服务' }).click();
  const dialog = page.getByRole('dialog', { name: '暂不能创建海外加速服务' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: '去充值' }).click();
  await expect(page).toHaveURL(/\/billing\/charge\/$/);
});
