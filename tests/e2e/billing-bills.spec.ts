/**
 * The billing centre's bills, vouchers and resource packages in the browser (docs/billing.md). The
 * purchase and the voucher use demokey (its own mobile, so pay codes of other specs do not collide);
 * the bills are demo's, made by the seed from the demo traffic.
 */
import { test, expect, type Page } from '@playwright/test';
import { signIn } from './helpers';

async function lastPayCode(page: Page, mobile: string): Promise<string> {
  const res = await page.request.get(`/api/dev/sms_outbox/?mobile=${mobile}`);
  const row = (await res.json()).data.find((r: { purpose: string }) => r.purpose === 'pay');
  return /(\d{6})/.exec(row.text)![1]!;
}

test('buy a traffic package with the balance: the pay code, the package listed, the header grows', async ({ page }) => {
  await signIn(page, 'demokey');
  await page.goto('/billing/resources/');
  const flow = page.getByTestId('billing-flow');
  await expect(flow).toHaveText(/^\d/);
  await page.getByRole('link', { name: '购买流量包' }).click();
  await expect(page).toHaveURL(/\/billing\/resources\/buy\/$/);
  await page.getByRole('radio', { name: '1 TB' }).click();
  await expect(page).toHaveURL(/\/billing\/resources\/buy\/2$/);
  await page.getByRole('button', { name: '立即购买（270 元）' }).click();
  await expect(page).toHaveURL(/\/billing\/resources\/pay\/\?cat=billing&resource=traffic_1t$/);
  await expect(page.getByText('应付金额')).toBeVisible();
  await page.getByRole('button', { name: '获取验证码' }).click();
  await expect(page.getByRole('button', { name: /秒后重新获取/ })).toBeVisible();
  await page.getByLabel('短信验证码').fill(await lastPayCode(page, '13700137000'));
  await page.getByRole('button', { name: '确认支付' }).click();
  await expect(page.getByText('购买成功')).toBeVisible();
  // 1 TB more: shown in TB once there is at least 1 TB
  await expect(flow).toContainText('TB');
  await page.getByRole('link', { name: '查看流量包' }).click();
  await expect(page.locator('table[aria-label="资源包列表"] tbody tr', { hasText: '1 TB' }).first()).toContainText('生效中');
});

test('activate a voucher: the declaration refuses a bad code, a good one shows in the list and the header', async ({ page }) => {
  await signIn(page, 'demokey');
  await page.goto('/billing/vouchers/');
  const count = page.getByTestId('billing-vouchers');
  await expect(count).toHaveText(/^\d+张$/);
  const before = Number((await count.textContent())!.replace(/\D/g, ''));
  const input = page.locator('#root_ticket_id');
  await input.fill('ab');
  await expect(page.getByText('请输入正确的代金券券号')).toBeVisible();
  await input.fill('DEMO2026VOUCHER02');
  await page.getByRole('button', { name: '激活' }).click();
  await expect(page.getByText('激活成功：20.00 元代金券')).toBeVisible();
  await expect(page.locator('table[aria-label="代金券列表"] tbody tr').first()).toContainText('可使用');
  await expect(count).toHaveText(`${before + 1}张`);
  await input.fill('DEMO2026VOUCHER02');
  await page.getByRole('button', { name: '激活' }).click();
  await expect(page.getByText('该代金券已被激活')).toBeVisible();
});

test('open a month bill, its day bills, and one day bill', async ({ page }) => {
  await signIn(page);
  await page.goto('/billing/');
  await expect(page).toHaveURL(/\/billing\/bills\/$/);
  await page.getByLabel('账单类型').selectOption('MONTH_BILL');
  const first = page.locator('table[aria-label="账单列表"] tbody tr').first();
  await expect(first).toContainText('月账单');
  await first.getByRole('link', { name: '查看详情' }).click();
  await expect(page).toHaveURL(/\/billing\/bills\/\d{6}01M\d+\/$/);
  await expect(page.getByRole('heading', { name: /^月账单 \d{4} 年 \d{1,2} 月$/ })).toBeVisible();
  await expect(page.locator('.bill-summary')).toContainText('应付金额（元）');
  const days = page.locator('table[aria-label="日账单明细"] tbody tr');
  await expect(days.first()).toContainText(/\d{4}-\d{2}-01/);
  expect(await days.count()).toBeGreaterThanOrEqual(28);
  await days.first().getByRole('link', { name: '查看' }).click();
  await expect(page).toHaveURL(/\/billing\/bills\/\d{6}01D\d+\/$/);
  await expect(page.getByRole('heading', { name: /^日账单 \d{4}-\d{2}-01$/ })).toBeVisible();
});
