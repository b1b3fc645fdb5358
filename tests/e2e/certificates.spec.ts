import fs from 'node:fs';
import path from 'node:path';
import { test, expect, signIn } from './helpers';

const pem = (f: string) => fs.readFileSync(path.join(__dirname, '../fixtures/certs', f), 'utf8');

test('upload a certificate: the form checks the PEM rules, the server parses it, the list shows it', async ({ page }) => {
  await signIn(page);
  await page.goto('/toolbox/ssl/');
  await expect(page.locator('.certificate-table')).toContainText('*.demo-example.com');
  await page.getByRole('button', { name: '上传证书' }).click();
  const dialog = page.getByRole('dialog', { name: '上传证书' });
  // a key pasted into the certificate field
  await dialog.locator('#root_certificate').fill(pem('ec.key'));
  await expect(dialog.getByText('证书内容中包含私钥，请将私钥填写到私钥栏')).toBeVisible();
  await expect(dialog.getByRole('button', { name: '提交' })).toBeDisabled();
  await dialog.locator('#root_certificate').fill(pem('ec.crt'));
  await expect(dialog.getByText('只检测到一个证书，可能缺少中间证书')).toBeVisible();
  // a key of another certificate: refused by the server with status 4
  await dialog.locator('#root_private_key').fill(pem('other.key'));
  await dialog.getByRole('button', { name: '提交' }).click();
  await expect(dialog.getByText('证书与私钥不匹配').first()).toBeVisible();
  await dialog.getByRole('button', { name: '返回修改' }).click();
  await dialog.locator('#root_private_key').fill(pem('ec.key'));
  await dialog.getByRole('button', { name: '提交' }).click();
  await expect(dialog.getByText('证书解析成功')).toBeVisible();
  await expect(dialog).toContainText('www.secure-example.com');
  await dialog.getByRole('button', { name: '完成' }).click();
  const row = page.locator('.certificate-table tbody tr', { hasText: 'www.secure-example.com' });
  await expect(row).toBeVisible();
  await row.getByRole('button', { name: '查看' }).click();
  await expect(page.getByRole('dialog', { name: '查看证书' })).toContainText('SHA-256 指纹');
});

test('HTTPS and force HTTPS for a domain, with the certificate chosen in the dialog', async ({ page }) => {
  await signIn(page);
  await page.goto('/services/demo-static/httpsCdn/');
  const row = page.locator('.domain-https-table tr[data-domain="static.demo-example.com"]');
  await expect(row).toContainText('未配置');
  // HTTPS without a certificate is refused and the switch goes back
  await row.locator('.https-switch').click();
  await expect(page.getByText('开启 HTTPS 前请先选择证书')).toBeVisible();
  await expect(row.getByRole('switch', { name: 'static.demo-example.com HTTPS' }).or(row.locator('.https-switch input'))).not.toBeChecked();
  await row.getByRole('button', { name: '配置' }).click();
  const dialog = page.getByRole('dialog', { name: 'HTTPS 配置：static.demo-example.com' });
  await expect(dialog.locator('#https-certificate')).toContainText('*.demo-example.com');
  await dialog.getByText('强制 HTTPS（HTTP 请求跳转到 HTTPS）').click();
  await dialog.getByRole('button', { name: '确定' }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toContainText('*.demo-example.com');
  await expect(row.locator('.https-switch input')).toBeChecked();
  await expect(row.locator('.force-switch input')).toBeChecked();
  // HTTPS off clears forcing
  await row.locator('.https-switch').click();
  await expect(row.locator('.force-switch input')).not.toBeChecked();
  await page.reload();
  await expect(row.locator('.https-switch input')).not.toBeChecked();
  await expect(row.locator('.force-switch input')).not.toBeChecked();
});

test('turning HTTPS on from the list with a GM certificate asks first (spec 002 §4)', async ({ page }) => {
  // the list and the save are answered here, so the shared server's bindings stay as they are
  let https = false;
  const posts: Array<{ https: boolean }> = [];
  const row = () => ({
    domain: 'www.demo-example.com',
    cname: 'www.demo-example.com.cdn.example.net',
    https,
    force_https: false,
    certificate_id: 1,
    certificate: { common_name: '*.demo-example.com', valid_to: '2125-01-01T00:00:00.000Z', days_left: 36000, gm: true },
  });
  await page.route('**/api/https/services/manager?*', (route) => route.fulfill({ json: { result: true, error_code: 0, data: [row()] } }));
  await page.route('**/api/https/certificate/manager', async (route) => {
    const body = route.request().postDataJSON() as { https: boolean };
    posts.push(body);
    https = body.https;
    await route.fulfill({ json: { result: true, error_code: 0, data: row() } });
  });
  await signIn(page);
  await page.goto('/services/demo-www/httpsCdn/');
  const tr = page.locator('.domain-https-table tr[data-domain="www.demo-example.com"]');
  await expect(tr).toContainText('*.demo-example.com');
  const confirm = page.locator('.gm-confirm');
  // cancelling sends nothing and leaves HTTPS off
  await tr.locator('.https-switch').click();
  await expect(confirm).toContainText('确定开启国密 HTTPS 吗？');
  await confirm.getByRole('button', { name: '取消' }).click();
  await expect(confirm).toBeHidden();
  await expect(tr.locator('.https-switch input')).not.toBeChecked();
  expect(posts).toHaveLength(0);
  // confirming turns it on
  await tr.locator('.https-switch').click();
  await confirm.getByRole('button', { name: '确定' }).click();
  await expect(page.getByText('配置成功')).toBeVisible();
  await expect(tr.locator('.https-switch input')).toBeChecked();
  await expect.poll(() => posts).toMatchObject([{ https: true }]);
  // turning it off does not ask
  await tr.locator('.https-switch').click();
  await expect(tr.locator('.https-switch input')).not.toBeChecked();
  await expect(confirm).toBeHidden();
  await expect.poll(() => posts).toMatchObject([{ https: true }, { https: false }]);
});
