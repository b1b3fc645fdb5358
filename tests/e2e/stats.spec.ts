/**
 * The statistics pages in the browser (spec 001 §2, §4, §5): switching flow types and the resets,
 * the multi-selector with its tabs, search and paging, the date limits, the 95 line appearing and
 * disappearing under its conditions, a slice's detail dialog, the full ranking, and downloading a
 * workbook that opens with the right rows.
 */
import fs from 'node:fs';
import ExcelJS from 'exceljs';
import type { Page } from '@playwright/test';
import { test, expect, signIn, allowConsoleError } from './helpers';
import { addDays, dayOf, MAX_DAYS_BACK } from '../../src/shared/stats';

const today = () => dayOf(Math.floor(Date.now() / 1000));

async function openStats(page: Page, query = '') {
  await signIn(page);
  await page.goto(`/stats/${query}`);
  await expect(page.getByTestId('chart-bandwidth')).toBeVisible({ timeout: 20_000 });
}

test('the menu entry opens the statistics page with the account’s flow types', async ({ page }) => {
  await signIn(page);
  await page.getByRole('link', { name: '统计分析', exact: true }).click();
  await expect(page).toHaveURL(/\/stats\/$/);
  for (const t of ['CDN', '直播', 'SCDN', 'WebSocket', '海外加速', 'PCDN', '明眸 CDN/PCDN']) await expect(page.getByRole('tab', { name: t, exact: true })).toBeVisible();
  await expect(page.getByTestId('chart-bandwidth').locator('svg .series-line').first()).toBeVisible();
  await expect(page.getByTestId('chart-traffic')).toBeVisible();
  await expect(page.getByTestId('pie-isp').locator('.pie-slice').first()).toBeVisible();
});

test('每日用量: one row a day, newest first, with the bytes before compression and what compression saved; left out with a region filter', async ({ page }) => {
  await openStats(page);
  const table = page.getByTestId('usage-history');
  await expect(table.getByRole('columnheader', { name: '压缩前流量' })).toBeVisible({ timeout: 20_000 });
  await expect(table.getByRole('columnheader', { name: '压缩节省' })).toBeVisible();
  const first = table.locator('tbody tr').first();
  await expect(first.getByRole('rowheader')).toHaveText(today());
  // the demo's CDN services compress their pages: a saving with its share
  await expect(first.locator('td').nth(2)).toHaveText(/\d.*（\d+\.\d%）/);
  await page.getByRole('button', { name: '近 7 天' }).click();
  // the browser tests' server seeds 4 days of traffic
  await expect(table.locator('tbody tr')).toHaveCount(4);
  await page.getByLabel('地区').selectOption('guangdong');
  await expect(table).toHaveCount(0);
});

test('switching flow types resets the filters and shows each type’s selector', async ({ page }) => {
  await openStats(page);
  await page.getByLabel('地区').selectOption('guangdong');
  await expect(page.getByLabel('地区')).toHaveValue('guangdong');
  await page.getByRole('tab', { name: '直播', exact: true }).click();
  await expect(page.getByTestId('live-search')).toBeVisible();
  await expect(page.getByLabel('地区')).toHaveValue('');
  // a live flow type selects a single service: the first is chosen, then 上行 / 下行
  await expect(page.getByTestId('single-selector-button')).toHaveText(/demo-/);
  await expect(page.getByTestId('chart-bandwidth')).toBeVisible();
  await page.getByRole('tab', { name: 'SCDN', exact: true }).click();
  await expect(page.getByTestId('single-selector-button')).toHaveText(/demo-shop|demo-pay/);
  await expect(page.getByTestId('chart-attack')).toBeVisible({ timeout: 20_000 });
  await page.getByRole('tab', { name: 'CDN', exact: true }).click();
  await expect(page.getByTestId('multi-selector-button')).toHaveText('全部');
});

test('the multi-selector: services with paging, domains with search, clear and confirm', async ({ page }) => {
  await openStats(page);
  await page.getByTestId('multi-selector-button').click();
  const box = page.getByTestId('multi-selector');
  await expect(box.locator('li')).toHaveCount(10);
  await expect(box.getByRole('button', { name: '上一页' })).toBeDisabled();
  await box.getByRole('button', { name: '下一页' }).click();
  await expect(box.locator('li').first()).not.toHaveText(/demo-assets/);
  await expect(box.getByRole('button', { name: '上一页' })).toBeEnabled();
  await expect(box.getByRole('button', { name: '下一页' })).toBeDisabled();
  const second = await box.locator('li').allInnerTexts();
  expect(second.length).toBeGreaterThan(0);
  expect(second.length).toBeLessThan(10);
  await box.getByRole('button', { name: '上一页' }).click();
  const pick = (name: RegExp) => box.locator('li label').filter({ hasText: name }).click();
  await pick(/^demo-www /);
  await pick(/^demo-static /);
  await expect(page.getByTestId('selector-picked')).toContainText('已选 2 项');
  const request = page.waitForRequest((r) => r.url().includes('/api/flow/statistic/') && decodeURIComponent(r.url()).includes('query_value=demo-www,demo-static'));
  await box.getByRole('button', { name: '确定' }).click();
  await expect(page.getByTestId('multi-selector-button')).toHaveText('已选 2 个服务');
  await request;
  // the domain tab: switching clears the selection; search settles after 500 ms
  await page.getByTestId('multi-selector-button').click();
  await box.getByRole('tab', { name: '加速域名' }).click();
  await expect(page.getByTestId('selector-picked')).toContainText('已选 0 项');
  await box.getByLabel('搜索').fill('act1');
  await expect(box.locator('li')).toHaveCount(2); // act1 and act10
  await box.getByLabel('搜索').fill('no-such-domain');
  await expect(box.getByText('未找到匹配项')).toBeVisible();
  await box.getByLabel('搜索').fill('www');
  const www = box.getByRole('checkbox', { name: /^www\.demo-example\.com / });
  await pick(/^www\.demo-example\.com /);
  await expect(page.getByTestId('selector-picked')).toContainText('已选 1 项');
  await box.getByRole('button', { name: '清空' }).click();
  await expect(page.getByTestId('selector-picked')).toContainText('已选 0 项');
  await expect(www).not.toBeChecked();
  await pick(/^www\.demo-example\.com /);
  await box.getByRole('button', { name: '确定' }).click();
  await expect(page.getByTestId('multi-selector-button')).toHaveText('已选 1 个域名');
});

test('the date range: 182 days back, today at most, a span above 31 days starts 30 days before the end', async ({ page }) => {
  await openStats(page);
  const start = page.getByLabel('开始日期');
  const end = page.getByLabel('结束日期');
  await expect(start).toHaveAttribute('min', addDays(today(), -MAX_DAYS_BACK));
  await expect(end).toHaveAttribute('max', today());
  await start.fill(addDays(today(), -60));
  await expect(start).toHaveValue(addDays(today(), -30));
  await expect(end).toHaveValue(today());
  await page.getByRole('button', { name: '近 7 天' }).click();
  await expect(start).toHaveValue(addDays(today(), -6));
  await expect(page.getByText('1 小时粒度')).toBeVisible();
});

test('the 95 line shows for monthly-95 billing on the edge CDN traffic only, and can be switched off', async ({ page }) => {
  await openStats(page);
  await expect(page.getByTestId('line-95')).toBeVisible();
  await expect(page.getByTestId('legend-95')).toHaveText('95 带宽峰值');
  await page.getByText('95 带宽线', { exact: true }).click();
  await expect(page.getByTestId('line-95')).toHaveCount(0);
  await page.getByText('95 带宽线', { exact: true }).click();
  await expect(page.getByTestId('line-95')).toBeVisible();
  // a region hides it
  await page.getByLabel('地区').selectOption('guangdong');
  await expect(page.getByTestId('line-95')).toHaveCount(0);
  await expect(page.getByTestId('switch-95')).toHaveCount(0);
  await page.getByLabel('地区').selectOption('');
  await expect(page.getByTestId('line-95')).toBeVisible();
  // another flow source hides it
  await page.getByRole('radio', { name: '回源' }).click();
  await expect(page.getByTestId('line-95')).toHaveCount(0);
  // another flow type hides it
  await page.getByRole('tab', { name: 'WebSocket', exact: true }).click();
  await expect(page.getByTestId('chart-bandwidth')).toBeVisible();
  await expect(page.getByTestId('line-95')).toHaveCount(0);
});

test('a slice opens its detail dialog with flow-type tabs; 查看全部 opens the full ranking', async ({ page }) => {
  await openStats(page);
  await page.getByTestId('pie-region').locator('.pie-slice').first().click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('详情');
  await expect(dialog.getByRole('tab', { name: 'CDN', exact: true })).toBeVisible();
  await expect(dialog.getByTestId('detail-body')).toContainText('电信');
  await dialog.getByRole('tab', { name: '直播', exact: true }).click();
  await expect(dialog.getByTestId('detail-body')).toBeVisible();
  await dialog.getByRole('button', { name: '关闭' }).last().click();
  await page.getByTestId('view-all').click();
  const ranking = page.getByRole('dialog');
  await expect(ranking.getByTestId('ranking-table').locator('tbody tr')).toHaveCount(10);
  await ranking.getByRole('button', { name: '全部' }).click();
  expect(await ranking.getByTestId('ranking-table').locator('tbody tr').count()).toBeGreaterThan(10);
});

test('the tooltip shows the exact value and time', async ({ page }) => {
  await openStats(page, '?flow_type=cdn');
  await page.getByRole('button', { name: '近 7 天' }).click();
  await expect(page.getByText('1 小时粒度')).toBeVisible();
  const overlay = page.getByTestId('chart-bandwidth-overlay');
  const box = (await overlay.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  const tip = page.getByRole('tooltip');
  await expect(tip).toContainText(/\d{4}-\d{2}-\d{2} \d{2}:00:00/);
  await expect(tip).toContainText(/带宽：[\d.]+ [KMG]bps/);
});

test('downloading the workbook of yesterday gives 288 five-minute rows per sheet', async ({ page }) => {
  await openStats(page);
  await page.getByRole('button', { name: '昨天' }).click();
  await expect(page.getByText('5 分钟粒度')).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-excel').click()]);
  expect(download.suggestedFilename()).toMatch(/\.xlsx$/);
  const file = await download.path();
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(fs.readFileSync(file!) as any);
  expect(wb.worksheets.map((w) => w.name)).toEqual(['带宽', '流量', '请求数']);
  const sheet = wb.getWorksheet('流量')!;
  expect(sheet.rowCount).toBe(3 + 288);
  const y = addDays(today(), -1);
  expect(sheet.getRow(4).getCell(1).value).toBe(`${y} 00:00:00`);
  expect(sheet.getRow(291).getCell(1).value).toBe(`${y} 23:55:00`);
  expect(Number(sheet.getRow(100).getCell(2).value)).toBeGreaterThan(0);
});

test('flow top and access analysis', async ({ page }) => {
  await signIn(page);
  await page.goto('/stats/flowTop/');
  await expect(page.getByTestId('top-domains').locator('tbody tr').first()).toBeVisible({ timeout: 20_000 });
  await page.getByRole('link', { name: '访问分析' }).click();
  await expect(page.getByTestId('chart-status')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId('chart-health')).toBeVisible();
});

test('an authorized-service sub-account has no flow top and is sent back to the statistics page', async ({ page }) => {
  await signIn(page, 'demo_ops');
  await page.goto('/stats/');
  await expect(page.getByRole('link', { name: '服务统计' })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('link', { name: '流量排行' })).toHaveCount(0);
  await page.goto('/stats/flowTop/');
  await expect(page).toHaveURL(/\/stats\/$/);
});

test('an authorized-service sub-account with nothing chosen sees its granted services', async ({ page }) => {
  await signIn(page, 'demo_ops');
  const first = page.waitForRequest((r) => r.url().includes('/api/flow/statistic/'));
  await page.goto('/stats/');
  const url = new URL((await first).url());
  // the granted non-live binds are the query, not the whole account
  expect(url.searchParams.get('query_type')).toBe('bucket');
  expect(url.searchParams.getAll('query_value').join(',')).toBe('demo-www');
});

test('the China map shades the provinces with traffic; hovering shows the value, a click opens the detail', async ({ page }) => {
  await openStats(page);
  const map = page.getByTestId('china-map');
  const guangdong = map.locator('path[data-region=guangdong]');
  await expect(guangdong).toBeVisible({ timeout: 20_000 });
  // the demo's largest province is drawn darker than one without traffic
  expect(await guangdong.getAttribute('fill')).not.toBe('#f5f8fa');
  await guangdong.hover();
  await expect(page.getByTestId('map-tooltip')).toContainText('广东');
  await expect(page.getByTestId('map-tooltip')).toContainText('%');
  await guangdong.click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('广东');
  await expect(dialog.getByTestId('detail-body')).toContainText('电信');
});

test('live statistics start from a domain: it selects its service and itself (spec 001 §2.4)', async ({ page }) => {
  await openStats(page);
  await page.getByRole('tab', { name: '直播', exact: true }).click();
  await expect(page.getByTestId('single-selector-button')).toHaveText(/demo-/);
  await page.getByTestId('single-selector-button').click();
  const list = page.getByTestId('single-selector');
  await list.getByRole('tab', { name: '加速域名' }).click();
  const first = list.locator('li button').first();
  await expect(first).toBeVisible();
  const [domain, service] = (await first.innerText()).match(/^(.+)（(.+)）$/)!.slice(1);
  await first.click();
  await expect(page.getByTestId('single-selector-button')).toHaveText(service);
  await expect(page.getByLabel('直播域名')).toHaveValue(domain);
});

test('the top regions by carrier open as a modal with the figures by carrier', async ({ page }) => {
  await openStats(page);
  await page.getByTestId('view-region-isp').click();
  const dialog = page.getByRole('dialog', { name: '地区运营商分布' });
  await expect(dialog.getByTestId('region-isp-table').locator('tbody tr').first()).toBeVisible();
  await expect(dialog.getByRole('columnheader', { name: '电信' })).toBeVisible();
  await dialog.getByRole('button', { name: '关闭' }).first().click();
  await expect(dialog).toHaveCount(0);
});

test('a statistics error is an error toast, not a box on the page (spec 001 §8)', async ({ page }) => {
  await signIn(page);
  // the server failing is simulated for this one route: the real answer's shape for an internal error
  allowConsoleError(page, /status of 500/);
  await page.route('**/api/flow/statistic/**', (route) =>
    route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ error_code: 21000, message: '网络似乎不稳定，刷新试试' }) }),
  );
  await page.goto('/stats/');
  await expect(page.locator('.bp6-toast.bp6-intent-danger')).toContainText('网络似乎不稳定，刷新试试', { timeout: 20_000 });
  await expect(page.locator('.stats-failure')).toContainText('暂无数据');
  await expect(page.locator('.bp6-callout.bp6-intent-danger')).toHaveCount(0);
});
