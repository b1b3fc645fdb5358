import { test, expect, signIn } from './helpers';

test('create an alarm task from the declaration, see it on the monitor page, hide it, delete it', async ({ page }) => {
  const name = `e2e 带宽告警 ${Date.now() % 100000}`;
  await signIn(page);
  await page.goto('/toolbox/alarm/');
  await page.getByRole('button', { name: '新建告警任务' }).click();
  const dialog = page.locator('.alarm-dialog');
  await expect(dialog).toBeVisible();
  // the declaration's rules, live: both notifications off
  await dialog.locator('#root_name').fill(name);
  await dialog.locator('#root_threshold').fill('-1');
  await expect(dialog.getByText('阈值不能小于 0')).toBeVisible();
  await dialog.locator('#root_threshold').fill('100');
  await dialog.getByRole('button', { name: '选择服务' }).click();
  await page.locator('.bucket-list-panel').getByRole('textbox').fill('demo-www');
  await page.locator('.bucket-list-options').getByText('demo-www', { exact: true }).click();
  await page.getByRole('button', { name: '完成' }).click();
  await expect(dialog.locator('.bucket-list-tag', { hasText: 'demo-www' })).toBeVisible();
  await dialog.getByRole('button', { name: '确定' }).click();
  await expect(dialog).toHaveCount(0);

  const row = page.locator('.alarm-table tbody tr', { hasText: name });
  await expect(row).toContainText('demo-www');
  await expect(row).toContainText('5 分钟内带宽峰值大于 100 Mbps');
  await expect(row).toContainText('站内消息');

  await page.goto('/monitor/');
  await expect(page.locator('.monitor-card', { hasText: name })).toBeVisible();

  await page.goto('/toolbox/alarm/');
  await page.locator('.alarm-table tbody tr', { hasText: name }).locator('label.bp6-switch').click();
  await expect(page.getByText('已在云监控中隐藏')).toBeVisible();
  await page.goto('/monitor/');
  await expect(page.locator('.monitor-page')).toBeVisible();
  await expect(page.locator('.monitor-card', { hasText: name })).toHaveCount(0);

  await page.goto('/toolbox/alarm/');
  await page.locator('.alarm-table tbody tr', { hasText: name }).getByRole('button', { name: '删除' }).click();
  await page.locator('.bp6-alert').getByRole('button', { name: '删除', exact: true }).click();
  await expect(page.locator('.alarm-table tbody tr', { hasText: name })).toHaveCount(0);
});

test('log analysis shows the demo\'s day of access logs and its hourly archives', async ({ page }) => {
  await signIn(page);
  await page.goto('/log/log_analy/');
  await page.locator('tr', { hasText: 'demo-www' }).getByRole('link', { name: '日志分析' }).click();
  await expect(page).toHaveURL(/\/log\/log_analy\/demo-www\/$/);
  await expect(page.locator('.log-summary')).toContainText('次请求');
  await expect(page.locator('.log-top', { hasText: '热门 URL' }).locator('tbody tr').first()).toBeVisible();
  await expect(page.getByRole('img', { name: '状态码分布' })).toBeVisible();
  await page.getByRole('tab', { name: '日志下载' }).click();
  await expect(page.locator('.log-archives tbody tr').first().getByRole('link', { name: '下载（gzip）' })).toBeVisible();
});

test('a backup configuration: created from the declaration, its secret shown masked, disabled, deleted', async ({ page }) => {
  const name = `e2e 备份 ${Date.now() % 100000}`;
  await signIn(page);
  // the menu's 跨平台存储 entry opens the backup page
  await page.getByRole('navigation', { name: '产品菜单' }).getByRole('link', { name: '跨平台存储', exact: true }).click();
  await expect(page).toHaveURL(/\/toolbox\/cross_platform_disaster_recovery\/$/);
  await page.getByRole('button', { name: '新建备份配置' }).click();
  const dialog = page.locator('.backup-dialog');
  await dialog.locator('#root_name').fill(name);
  // (in a full run the click once did not hold — the option shown unselected afterwards: click until it is
  // selected; noted for the next session as a possible race in the picker)
  const option = dialog.locator('.bucket-picker').getByRole('option', { name: 'demo-assets', exact: true });
  await expect(async () => {
    if ((await option.getAttribute('aria-selected')) !== 'true') await option.click();
    await expect(option).toHaveAttribute('aria-selected', 'true', { timeout: 1000 });
  }).toPass({ timeout: 15_000 });
  await dialog.locator('#root_region').fill('cn-hangzhou');
  await dialog.locator('#root_target_bucket').fill(`e2e-${Date.now() % 100000}`);
  await dialog.locator('#root_access_key_id').fill('LTAI5tE2E');
  await dialog.locator('#root_access_key_secret').fill('E2eSecret-12345678');
  await dialog.getByRole('button', { name: '确定' }).click();
  const row = page.locator('.backup-table tbody tr', { hasText: name });
  await expect(row).toContainText('****5678');
  await expect(page.locator('.backup-page')).not.toContainText('E2eSecret-12345678');
  await row.locator('label.bp6-switch').click();
  await expect(page.getByText('已停用')).toBeVisible();
  await row.getByRole('button', { name: '删除' }).click();
  await page.locator('.bp6-alert').getByRole('button', { name: '删除', exact: true }).click();
  await expect(page.locator('.backup-table tbody tr', { hasText: name })).toHaveCount(0);
});
