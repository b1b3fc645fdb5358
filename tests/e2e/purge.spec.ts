import { test, expect, signIn } from './helpers';

test('submit a URL purge, land on the log with the notice, see the task finish', async ({ page }) => {
  await signIn(page);
  await page.goto('/purge/');
  await expect(page).toHaveURL(/\/purge\/purge_url\/$/);
  await expect(page.locator('.purge-quota')).toContainText('今日剩余');
  const box = page.locator('#root_urls');
  await box.fill('www.demo-example.com/no-scheme.html');
  await expect(page.getByText('第 1 行：请填写以 http:// 或 https:// 开头的完整 URL')).toBeVisible();
  await box.fill('https://www.secure-example.com/not-mine.html');
  await page.getByRole('button', { name: '提交' }).click();
  await expect(page.getByRole('alert').first()).toContainText('只能刷新或预热本账号服务下的域名');
  await box.fill('https://www.demo-example.com/e2e-1.html\nhttps://static.demo-example.com/e2e-2.js');
  await page.getByRole('button', { name: '提交' }).click();
  await expect(page).toHaveURL(/\/purge\/purge_log\/\?urlNumber=2&code=0&firstDomain=www\.demo-example\.com/);
  await expect(page.getByText('已提交 2 条任务（www.demo-example.com 等）')).toBeVisible();
  const row = page.locator('.purge-table tbody tr', { hasText: 'https://www.demo-example.com/e2e-1.html' });
  await expect(row).toBeVisible();
  // the browser tests' server runs without an edge node: the worker (every 5 s) fails the task with the
  // reason, and the log follows it (with an edge the state is the node's report: tests/edge/purge.test.ts)
  await expect(row).toContainText('失败', { timeout: 20_000 });
  await expect(row.locator('.purge-outcome')).toHaveText('没有在线的边缘节点，任务未执行');
});

test('a rule purge shows its own limits', async ({ page }) => {
  await signIn(page);
  await page.goto('/purge/purge_rule/');
  await page.locator('#root_rules').fill(Array.from({ length: 11 }, (_, i) => `https://www.demo-example.com/r${i}/*`).join('\n'));
  await expect(page.getByText('个数超出限制')).toBeVisible();
});
