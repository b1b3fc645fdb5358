/**
 * The service tabs (docs/service-tabs.md): adding and removing a domain on the domains tab, editing a
 * cache rule, and the service dropdown with the remark. Unique names; what a test adds it removes.
 */
import { test, expect, signIn } from './helpers';

test('add a domain with the form engine checking it, see its CNAME, then remove it', async ({ page }) => {
  const domain = `e2e-${Date.now().toString(36)}.tabs-example.com`;
  await signIn(page);
  await page.goto('/services/demo-static/domainsCdn/');
  const panel = page.locator('[data-panel=domains]');
  await expect(panel.locator('tr[data-domain="static.demo-example.com"]')).toContainText('demo-static.cdn-cname.example.net');
  await expect(panel.getByText(/已绑定 \d+ \/ 10 个域名/)).toBeVisible();
  await panel.getByRole('button', { name: '添加域名' }).click();
  const dialog = page.getByRole('dialog', { name: '添加加速域名' });
  await dialog.locator('#root_domain').fill('http://bad');
  await expect(dialog.getByText('请填写正确的域名，如 www.example.com，不带 http:// 和路径')).toBeVisible();
  await expect(dialog.getByRole('button', { name: '确定' })).toBeDisabled();
  // bound to another account's service: refused by the server, the dialog says so
  await dialog.locator('#root_domain').fill('www.secure-example.com');
  await dialog.getByRole('button', { name: '确定' }).click();
  await expect(dialog.getByRole('alert').first()).toContainText('域名已被其他服务绑定');
  await dialog.locator('#root_domain').fill(domain);
  await dialog.getByRole('button', { name: '确定' }).click();
  await expect(page.getByText('添加成功')).toBeVisible();
  await expect(dialog).toBeHidden();
  const row = panel.locator(`tr[data-domain="${domain}"]`);
  await expect(row).toContainText('demo-static.cdn-cname.example.net');
  await expect(row).toContainText('未检查');
  // a real lookup: whatever DNS answers here, the row shows a state instead of 未检查
  await row.getByRole('button', { name: '检查' }).click();
  await expect(row).toContainText(/已生效|未指向 CNAME|未解析|检查超时|检查失败/);
  await page.reload();
  await row.getByRole('button', { name: '删除' }).click();
  await expect(page.getByText(`确定删除域名 ${domain} 吗？`)).toBeVisible();
  await page.locator('.bp6-alert').getByRole('button', { name: '删除', exact: true }).click();
  await expect(page.getByText('删除成功')).toBeVisible();
  await expect(row).toHaveCount(0);
});

test('edit a cache rule: the cache time is checked, saved, and kept after a reload', async ({ page }) => {
  await signIn(page);
  await page.goto('/services/demo-www/cacheCdn/');
  const panel = page.locator('[data-setting=cache_rules]');
  await panel.getByRole('button', { name: '管理' }).click();
  const dialog = page.getByRole('dialog', { name: '缓存规则配置' });
  const before = await dialog.locator('.bp-rjsf-array-item').count();
  await dialog.getByRole('button', { name: '添加缓存规则' }).click();
  const item = dialog.locator('.bp-rjsf-array-item').nth(before);
  const value = item.locator('input[id$="_value"]');
  const ttl = item.locator('input[id$="_ttl"]');
  await value.fill('e2ejpg');
  await ttl.fill('4');
  await expect(item.getByText('缓存时间为 5 - 31536000 秒')).toBeVisible();
  await expect(dialog.getByRole('button', { name: '确定' })).toBeDisabled();
  await ttl.fill('3600');
  await expect(item.getByText('缓存时间为 5 - 31536000 秒')).toBeHidden();
  await dialog.getByRole('button', { name: '确定' }).click();
  await expect(page.getByText('配置成功')).toBeVisible();
  await expect(panel.locator('.setting-summary')).toHaveText('已配置');
  await page.reload();
  await panel.getByRole('button', { name: '管理' }).click();
  const saved = dialog.locator('.bp-rjsf-array-item').nth(before);
  await expect(saved.locator('input[id$="_value"]')).toHaveValue('e2ejpg');
  await expect(saved.locator('input[id$="_ttl"]')).toHaveValue('3600');
  // edit it, then take it away again
  await saved.locator('input[id$="_ttl"]').fill('7200');
  await dialog.getByRole('button', { name: '确定' }).click();
  await expect(page.getByText('配置成功')).toBeVisible();
  await page.reload();
  await panel.getByRole('button', { name: '管理' }).click();
  await expect(dialog.locator('.bp-rjsf-array-item').nth(before).locator('input[id$="_ttl"]')).toHaveValue('7200');
  await dialog.locator('.bp-rjsf-array-item').nth(before).getByRole('button', { name: '删除' }).click();
  await dialog.getByRole('button', { name: '确定' }).click();
  await expect(page.getByText('配置成功')).toBeVisible();
});

test('the service dropdown searches the services of the kind and opens the same tab of another', async ({ page }) => {
  await signIn(page);
  await page.goto('/services/demo-www/cacheCdn/');
  await page.getByRole('button', { name: '切换服务' }).click();
  const search = page.getByPlaceholder('请输入服务名称');
  await search.fill('no-such-service-e2e');
  await expect(page.getByText('没有找到匹配的服务')).toBeVisible();
  await search.fill('static');
  await page.getByRole('option', { name: 'demo-static' }).click();
  await expect(page).toHaveURL(/\/services\/demo-static\/cacheCdn\/$/);
});

test('a new error-page rule goes to the top of the list', async ({ page }) => {
  await signIn(page);
  await page.goto('/services/demo-backup/optimizeFile/');
  const panel = page.locator('[data-setting=error_pages]');
  await panel.getByRole('button', { name: '管理' }).click();
  const dialog = page.getByRole('dialog', { name: '自定义错误页面配置' });
  const items = dialog.locator('.bp-rjsf-array-item');
  const before = await items.count();
  await dialog.getByRole('button', { name: '添加规则' }).click();
  await items.first().getByRole('textbox').fill('/e2e-first.html');
  await dialog.getByRole('button', { name: '添加规则' }).click();
  await expect(items).toHaveCount(before + 2);
  await expect(items.first().getByRole('textbox')).toHaveValue('');
  await expect(items.nth(1).getByRole('textbox')).toHaveValue('/e2e-first.html');
  // nothing is saved
  await dialog.getByRole('button', { name: '取消' }).click();
});

test('the IP list is imported from a text file of at most 60 KB', async ({ page }) => {
  await signIn(page);
  await page.goto('/services/demo-chat/antileechWs/');
  const panel = page.locator('[data-setting=ip_antileech]');
  await panel.getByRole('button', { name: '管理' }).click();
  const dialog = page.getByRole('dialog', { name: 'IP 黑白名单配置' });
  await dialog.getByText('黑名单', { exact: true }).click();
  const file = dialog.locator('input[type=file]');
  await file.setInputFiles({ name: 'big.txt', mimeType: 'text/plain', buffer: Buffer.alloc(61441, 'a') });
  await expect(dialog.getByText('文件大小不能超过 60 KB')).toBeVisible();
  await file.setInputFiles({ name: 'ips.txt', mimeType: 'text/plain', buffer: Buffer.from('1.2.3.4\r\n\r\n10.0.0.0/8\n') });
  await expect(dialog.getByText('文件大小不能超过 60 KB')).toBeHidden();
  await expect(dialog.locator('textarea')).toHaveValue('1.2.3.4\n10.0.0.0/8');
  await expect(dialog.getByRole('button', { name: '确定' })).toBeEnabled();
  await dialog.getByRole('button', { name: '取消' }).click();
});

test('a file service’s 回源管理 holds its origin: what the storage does not hold is fetched there (issue 19 item 2)', async ({ page }) => {
  await signIn(page);
  await page.goto('/services/demo-assets/sourceFile/');
  const panel = page.locator('[data-setting=origin]');
  await expect(panel.locator('.setting-summary')).toHaveText('仅从云存储读取');
  await expect(page.getByText('没有可配置的项目')).toHaveCount(0);
  await panel.getByRole('button', { name: '查看说明' }).click();
  await expect(panel).toContainText('云存储中不存在的文件（存储返回 404）将回源到以下源站获取');
  await panel.getByRole('button', { name: '管理' }).click();
  await expect(page.getByRole('dialog', { name: '回源配置' })).toBeVisible();
  await page.getByRole('dialog', { name: '回源配置' }).getByRole('button', { name: '取消' }).click();
});
