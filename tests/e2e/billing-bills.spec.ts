/**
 * The billing centre's bills, vouchers and resource packages in the browser (docs/billing.md). The
 * purchase and the voucher use demokey (its own mobile, so pay codes of other specs do not collide);
 * the bills are demo's, made by the seed from the demo traffic.
 */
import type { Page } from '@playwright/test';
import { test, expect, signIn } from './helpers';
import { dayOf, dayStart } from '../../src/shared/stats/time';

const yuan = (text: string | null) => Number((text ?? '').replace(/[^\d.]/g, ''));

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
  await page.getByRole('button', { name: '立即购买（270.00 元）' }).click();
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
  const row = page.locator('table[aria-label="资源包列表"] tbody tr', { hasText: '1 TB' }).first();
  await expect(row).toContainText('生效中');
  // 续费: the pay page names the package it renews and buys the same spec as a new package
  await row.getByRole('link', { name: '续费' }).click();
  await expect(page).toHaveURL(/\/billing\/resources\/pay\/\?cat=billing&resource=traffic_1t&resourceId=\d+$/);
  await expect(page.getByText('续费将购买同规格的新资源包，购买当日生效')).toBeVisible();
  await expect(page.getByTestId('renewed-package')).toContainText('1 TB');
  await expect(page.getByRole('button', { name: '确认支付' })).toBeVisible();
});

test('the purchase pages read their parameters: resource preselects, a bad index or package id is refused', async ({ page }) => {
  await signIn(page, 'demokey');
  await page.goto('/billing/resources/buy/?cat=billing&resource=traffic_2t');
  await expect(page.getByRole('radio', { name: '2 TB' })).toHaveAttribute('aria-checked', 'true');
  await expect(page.getByRole('button', { name: '立即购买（540.00 元）' })).toBeVisible();
  await page.goto('/billing/resources/buy/99');
  await expect(page).toHaveURL(/\/billing\/resources\/buy\/$/);
  await expect(page.getByRole('radio', { name: '100 GB' })).toHaveAttribute('aria-checked', 'true');
  await page.goto('/billing/resources/pay/?cat=billing&resource=traffic_1t&resourceId=999999');
  await expect(page.getByText('资源包不存在或无权访问')).toBeVisible();
  await expect(page.getByRole('button', { name: '确认支付' })).toHaveCount(0);
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

test('the vouchers have a date range, empty by default; the end day is sent plus one day (CST)', async ({ page }) => {
  // demo: the voucher its rebate was converted to, issued by the seed today
  await signIn(page);
  await page.goto('/billing/vouchers/');
  const rows = page.locator('table[aria-label="代金券列表"] tbody tr');
  await expect(rows.first()).toBeVisible();
  await expect(page.getByLabel('开始日期')).toHaveValue('');
  await expect(page.getByLabel('结束日期')).toHaveValue('');
  await page.getByLabel('结束日期').fill('2020-01-01');
  await expect(page.getByText('暂无代金券')).toBeVisible();
  await page.getByRole('button', { name: '清除日期' }).click();
  await expect(rows.first()).toBeVisible();
  const today = dayOf(Math.floor(Date.now() / 1000));
  const asked = page.waitForRequest((r) => r.url().includes('/api/tickets/') && r.url().includes('end_time='));
  await page.getByRole('button', { name: '近 30 天' }).click();
  const url = new URL((await asked).url());
  expect(Number(url.searchParams.get('end_time'))).toBe(dayStart(today)! + 86400);
  await expect(page.getByLabel('结束日期')).toHaveValue(today);
  await expect(rows.first()).toBeVisible();
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

test('recharge through the sandbox Alipay page and see the balance grow', async ({ page, context }) => {
  // demokey's balance moves only in this file, whose tests run one after another (the package bought above)
  await signIn(page, 'demokey');
  await page.goto('/billing/charge/?amount=123.45&referer=/billing/history/');
  const balance = page.getByTestId('charge-balance');
  await expect(balance).toContainText('元');
  const before = yuan(await balance.textContent());
  await expect(page.getByLabel('充值金额')).toHaveValue('123.45');
  // a recharge cannot be paid from the balance: the chooser falls back to Alipay
  await expect(page.getByRole('radio', { name: '支付宝' })).toBeChecked();
  await expect(page.getByRole('radio', { name: /余额支付/ })).toHaveCount(0);
  await page.getByRole('button', { name: '确认充值' }).click();
  const qr = page.getByRole('img', { name: '支付二维码' });
  await expect(qr).toBeVisible();
  await expect(qr).toHaveAttribute('width', '256');
  const payUrl = await page.locator('.charge-pay-link').getAttribute('href');
  expect(await qr.getAttribute('data-value')).toBe(payUrl);

  // the person who scanned the code confirms on the provider's page
  const phone = await context.newPage();
  await phone.goto(payUrl!);
  await expect(phone.getByText('支付宝沙箱').first()).toBeVisible();
  await expect(phone.getByText('￥123.45')).toBeVisible();
  await phone.getByRole('button', { name: '确认付款' }).click();
  await expect(phone.getByText('付款成功')).toBeVisible();
  await phone.close();

  await expect(page.getByText('充值成功')).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText('已充值 123.45 元')).toBeVisible();
  await expect.poll(async () => yuan(await balance.textContent())).toBeCloseTo(before + 123.45, 2);
  // back to where the user came from: the order history lists it
  await page.getByRole('link', { name: '返回' }).click();
  await expect(page).toHaveURL(/\/billing\/history\/$/);
  await expect(page.locator('table tbody tr', { hasText: '123.45' }).first()).toContainText('账户充值');
});
