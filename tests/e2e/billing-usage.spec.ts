/**
 * The usage the external products report, in the browser (docs/billing.md "Usage reported by the
 * external products"): demo's SMS package of 1,000 条 and the 9 daily SMS reports of the seed
 * (src/server/seed/billing.ts seedDemoReports) on /billing/sms/, the rest on yesterday's day bill, and
 * the free-certificate renewal package's empty usage records. Days are CST (UTC+8) days.
 */
import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc';
import { test, expect, signIn } from './helpers';

dayjs.extend(utc);

/** The seed's SMS reports, oldest first: one a day on the 9 days before today. */
const SMS = [96, 130, 88, 152, 120, 104, 140, 117, 163];
const PACKAGE = 1000;
/** The CST day n days before today, as the app's dayOf (src/shared/stats/time.ts) gives it. */
const cstDay = (n: number) => dayjs().utcOffset(8 * 60).subtract(n, 'day').format('YYYY-MM-DD');

/** Per seeded day, newest first: what was sent, what the package covered, what went to the day bill. */
function expectedDays() {
  let left = PACKAGE;
  const days = SMS.map((quantity, i) => {
    const covered = Math.min(left, quantity);
    left -= covered;
    return { day: cstDay(SMS.length - i), quantity, covered, charged: quantity - covered };
  });
  return days.reverse();
}

test('the SMS package page lists the reported usage per day, newest first', async ({ page }) => {
  const days = expectedDays();
  await signIn(page);
  await page.goto('/billing/sms/');
  await expect(page.getByTestId('resource-remain')).toHaveText('0 条');
  const section = page.getByRole('region', { name: '用量记录' });
  await expect(section.getByRole('heading', { name: '用量记录', exact: true })).toBeVisible();
  await expect(section.getByLabel('时间范围')).toHaveValue('30');
  const rows = section.locator('table[aria-label="用量记录"] tbody tr');
  await expect(rows).toHaveCount(SMS.length);
  for (let i = 0; i < days.length; i++) {
    const d = days[i]!;
    await expect(rows.nth(i).locator('td')).toHaveText([d.day, `${d.quantity} 条`, `${d.covered} 条`, `${d.charged} 条`]);
  }
  // the newest day ran the package out: 947 before it, so 53 covered and 110 on the bill
  expect(days[0]).toEqual({ day: cstDay(1), quantity: 163, covered: 53, charged: 110 });
  await expect(section.locator('thead th')).toHaveText(['日期', '短信发送量', '资源包抵扣', '计入日账单']);
  // 最近 7 天 is today and the 6 days before it: the seeded days among them
  await section.getByLabel('时间范围').selectOption({ label: '最近 7 天' });
  await expect(rows).toHaveCount(days.filter((d) => d.day >= cstDay(6)).length);
  await expect(rows.first().locator('td').first()).toHaveText(cstDay(1));
  await expect(rows.last().locator('td').first()).toHaveText(cstDay(6));
});

test("yesterday's day bill carries the SMS beyond the package under 其他服务", async ({ page }) => {
  const yesterday = cstDay(1);
  await signIn(page);
  await page.goto('/billing/bills/');
  await page.getByLabel('账单类型').selectOption('DAY_BILL');
  const row = page.locator('table[aria-label="账单列表"] tbody tr', { hasText: yesterday });
  await expect(row).toHaveCount(1);
  await row.getByRole('link', { name: '查看详情' }).click();
  await expect(page).toHaveURL(new RegExp(`/billing/bills/${yesterday.replace(/-/g, '')}D\\d+/$`));
  await expect(page.getByRole('heading', { name: `日账单 ${yesterday}` })).toBeVisible();
  const group = page.locator('.bill-group', { has: page.getByRole('heading', { name: '其他服务', exact: true }) });
  await expect(group).toBeVisible();
  const sms = group.getByTestId('bill-service-sms');
  await expect(sms.locator('.bill-service-head')).toContainText('短信服务');
  // 163 sent, 53 from the package at report time, 110 × 0.05 元
  await expect(sms.locator('.bill-line-head')).toContainText('短信发送量：163.000 条（资源包抵扣 53.000 条）');
  await expect(sms.locator('.bill-line-head')).toContainText('5.500 元');
  await expect(sms).toContainText('资源包已抵扣 53 条（上报时扣减）');
  // yesterday also had a one-click-login report (no package): all of it billed
  await expect(group.getByTestId('bill-service-oneclicklogin')).toContainText('一键登录');
});

test('the free-certificate renewal package page has empty usage records', async ({ page }) => {
  await signIn(page);
  await page.goto('/billing/sslpack/');
  const section = page.getByRole('region', { name: '用量记录' });
  await expect(section.getByRole('heading', { name: '用量记录', exact: true })).toBeVisible();
  await expect(section.getByText('暂无用量记录', { exact: true })).toBeVisible();
  await expect(section.locator('table')).toHaveCount(0);
});

test('其他服务 sums this month per product and binds a donation address through its declaration', async ({ page }) => {
  const month = cstDay(0).slice(0, 7);
  const inMonth = expectedDays().filter((d) => d.day.startsWith(month));
  const sum = (k: 'quantity' | 'covered' | 'charged') => inMonth.reduce((a, d) => a + d[k], 0);
  await signIn(page);
  await page.goto('/billing/bills/');
  await page.getByRole('link', { name: '其他服务', exact: true }).click();
  await expect(page).toHaveURL(/\/billing\/other\/$/);
  const sms = page.locator('table[aria-label="其他服务"] tbody tr[data-product="sms"] td');
  const n = (v: number) => `${v.toLocaleString('en-US')} 条`;
  // every seeded day up to yesterday is billed (the demo's bills are made at start): 0.05 yuan per 条 beyond the package
  await expect(sms).toHaveText(['短信服务', n(sum('quantity')), n(sum('covered')), n(sum('charged')), (sum('charged') * 0.05).toFixed(3), '0 条', '用量记录 | 购买短信包']);

  const card = page.getByLabel('数字货币捐赠地址');
  await card.getByText('以太坊（ETH）', { exact: true }).click();
  await expect(card.getByRole('radio', { name: '以太坊（ETH）' })).toBeChecked();
  await card.getByLabel('收款地址').fill('1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2');
  await expect(card.getByText('请填写正确的以太坊地址（0x 加 40 位十六进制）')).toBeVisible();
  await card.getByLabel('收款地址').fill('0x52908400098527886E0F7030069857D2E4169EE7');
  await card.getByRole('button', { name: '绑定' }).click();
  const bound = card.locator('table[aria-label="已绑定的捐赠地址"] tbody tr');
  await expect(bound).toHaveCount(1);
  await expect(bound.locator('td').nth(0)).toHaveText('以太坊（ETH）');
  await expect(bound.locator('td').nth(1)).toHaveText('0x52908400098527886E0F7030069857D2E4169EE7');
  await bound.getByRole('button', { name: '解绑' }).click();
  await expect(bound).toHaveCount(0);
});
