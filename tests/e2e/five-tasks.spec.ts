/**
 * Five everyday tasks walked by clicking, as a person new to the console would (issue 20 "Done means"):
 * create a CDN service, turn on TLS 1.3, add an error page, add two edge rules and drag the second
 * above the first, look at last week's bandwidth with the 95 line, purge a URL. A screenshot of each
 * step is attached to the test's report and kept in its output folder (test-results/).
 */
import type { Page, TestInfo } from '@playwright/test';
import { test, expect, signIn } from './helpers';

const SERVICE = 'e2e-walk';

async function shot(page: Page, info: TestInfo, name: string) {
  const path = info.outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage: false });
  await info.attach(name, { path, contentType: 'image/png' });
}

const menu = (page: Page) => page.getByRole('navigation', { name: '产品菜单' });

test('the five tasks of a new user, by clicking', async ({ page }, info) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page);
  await expect(page.getByTestId('dashboard-chart').getByRole('img', { name: '带宽、流量' })).toBeVisible();
  // the dashboard's chart says which line is which
  await expect(page.getByTestId('dashboard-chart').locator('.legend-item')).toHaveText(['带宽', '流量']);
  await expect(page.getByTestId('dashboard-chart').locator('.legend-item i').first()).toHaveCSS('width', '10px');
  // the side menu: the products and the cost centre; the schema gallery is not a customer's page
  await expect(menu(page).getByRole('link', { name: '费用中心' })).toBeVisible();
  await expect(menu(page).getByRole('link', { name: '设置样例库' })).toHaveCount(0);
  await shot(page, info, '00-dashboard');

  await test.step('create a CDN service from the side menu', async () => {
    await menu(page).getByRole('link', { name: 'CDN', exact: true }).click();
    await expect(page).toHaveURL(/\/services\/cdn\/$/);
    await page.getByRole('button', { name: '创建服务' }).click();
    const dialog = page.getByRole('dialog', { name: '创建CDN服务' });
    await dialog.locator('#root_bucket_name').fill(SERVICE);
    await dialog.locator('#root_domains').fill('walk.demo-example.com');
    await dialog.getByRole('button', { name: '确定' }).click();
    await expect(page.getByText('创建成功')).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/services/${SERVICE}/domainsCdn/$`));
    await shot(page, info, '01-service-created');
  });

  await test.step('turn on TLS 1.3', async () => {
    await page.getByRole('tab', { name: 'HTTPS', exact: true }).click();
    const panel = page.locator('[data-setting=tls13]');
    await expect(panel.locator('.setting-summary')).toHaveText('未开启');
    await panel.locator('.setting-switch').click();
    await expect(page.getByText('确定开启该服务的 TLS 1.3 功能吗？')).toBeVisible();
    await shot(page, info, '02-tls13-confirm');
    await page.getByRole('button', { name: '确定' }).click();
    await expect(page.getByText('配置成功').last()).toBeVisible();
    await expect(panel.locator('.setting-summary')).toHaveText('已开启');
    await shot(page, info, '03-tls13-on');
  });

  await test.step('add an error page', async () => {
    await page.getByRole('tab', { name: '性能优化', exact: true }).click();
    const panel = page.locator('[data-setting=error_pages]');
    await expect(panel.locator('.setting-summary')).toHaveText('未开启');
    await panel.getByRole('button', { name: '管理' }).click();
    const dialog = page.getByRole('dialog', { name: '自定义错误页面配置' });
    await dialog.getByRole('button', { name: '添加规则' }).click();
    await dialog.getByText('404', { exact: true }).click();
    await dialog.getByRole('textbox').fill('/404.html');
    await shot(page, info, '04-error-page-dialog');
    await dialog.getByRole('button', { name: '确定' }).click();
    await expect(page.getByText('配置成功').last()).toBeVisible();
    await expect(panel.locator('.setting-summary')).toHaveText('已开启');
    await shot(page, info, '05-error-page-on');
  });

  await test.step('add two edge rules and drag the second above the first', async () => {
    await page.getByRole('tab', { name: '边缘规则', exact: true }).click();
    for (const [name, uri] of [
      ['旧版页面跳转', '/old'],
      ['图片防盗链', '/img'],
    ]) {
      await page.getByRole('button', { name: '添加规则' }).first().click();
      await expect(page.getByRole('heading', { name: '添加边缘规则' })).toBeVisible();
      await page.locator('#edge-describe').fill(name);
      await page.getByTestId('condition-0').getByRole('textbox', { name: '匹配值' }).fill(uri);
      await page.getByRole('textbox', { name: 'Header 域名' }).fill('X-Walk');
      await page.getByRole('textbox', { name: 'Header 域值' }).fill(name === '图片防盗链' ? '2' : '1');
      await page.getByText('开启', { exact: true }).click();
      if (name === '图片防盗链') await shot(page, info, '06-edge-rule-form');
      await page.getByRole('button', { name: '确定' }).click();
      await expect(page.getByText('保存成功').first()).toBeVisible();
      await expect(page).toHaveURL(new RegExp(`/services/${SERVICE}/edgeCalcCdn/$`));
    }
    const rows = page.locator('tr.edge-row');
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(0)).toHaveAttribute('data-rule', '旧版页面跳转');
    const from = await rows.nth(1).locator('.edge-handle').boundingBox();
    const to = await rows.nth(0).boundingBox();
    const header = await page.locator('table:has(tr.edge-row) thead').boundingBox();
    await page.mouse.move(from!.x + from!.width / 2, from!.y + from!.height / 2);
    await page.mouse.down();
    await page.mouse.move(from!.x + 5, from!.y - 10, { steps: 5 });
    await page.mouse.move(to!.x + 20, to!.y + to!.height / 4, { steps: 15 });
    await shot(page, info, '07-edge-rule-dragging');
    // the dragged row stays below the table's header (issue 20 item 11)
    const dragged = await page.locator('tr.edge-row[data-rule="图片防盗链"]').boundingBox();
    expect(dragged!.y).toBeGreaterThanOrEqual(header!.y + header!.height - 1);
    await page.mouse.up();
    await expect(page.getByText('优先级调整成功')).toBeVisible();
    await expect(rows.nth(0)).toHaveAttribute('data-rule', '图片防盗链');
    await shot(page, info, '08-edge-rules-reordered');
  });

  await test.step("last week's bandwidth with the 95 line", async () => {
    await menu(page).getByRole('link', { name: '统计分析', exact: true }).click();
    await expect(page).toHaveURL(/\/stats\/$/);
    await expect(page.getByTestId('chart-bandwidth')).toBeVisible({ timeout: 20_000 });
    await page.getByRole('button', { name: '近 7 天' }).click();
    await expect(page.getByTestId('line-95')).toBeVisible();
    await expect(page.getByTestId('legend-95')).toHaveText('95 带宽峰值');
    // once the week is drawn: one label per day on the axis, each a date, none repeated
    const ticks = page.getByTestId('chart-bandwidth').locator('.visx-axis-bottom .visx-axis-tick');
    const labels = async () => (await ticks.allTextContents()).map((l) => l.trim());
    await expect.poll(async () => (await labels()).every((l) => /^\d{2}-\d{2}$/.test(l))).toBe(true);
    expect((await labels()).length).toBeGreaterThanOrEqual(6);
    expect(new Set(await labels()).size).toBe((await labels()).length);
    await shot(page, info, '09-stats-week-95');
  });

  await test.step('purge a URL', async () => {
    await menu(page).getByRole('link', { name: '刷新预热', exact: true }).click();
    await expect(page).toHaveURL(/\/purge\/purge_url\/$/);
    await page.locator('#root_urls').fill('https://www.demo-example.com/walk.html');
    await shot(page, info, '10-purge-form');
    await page.getByRole('button', { name: '提交' }).click();
    // one domain: the notice names it without 等
    await expect(page.getByText('已提交 1 条任务（www.demo-example.com），处理进度见下表，记录保留 3 天。')).toBeVisible();
    await expect(page.locator('.purge-table tbody tr', { hasText: 'https://www.demo-example.com/walk.html' })).toBeVisible();
    await shot(page, info, '11-purge-log');
  });
});
