/**
 * The statistics events the console sends where docs/events.md says (spec 000 §3, §7; spec 001 §2):
 * the usage type of a section entered, the DDoS / SCDN funnel steps, the statistics page's real-name prompt.
 */
import type { Page } from '@playwright/test';
import { test, expect, signIn } from './helpers';

function collect(page: Page) {
  const sent: string[] = [];
  page.on('request', (r) => {
    if (r.method() !== 'POST') return;
    const url = new URL(r.url());
    if (url.pathname === '/accounts/usage/statistics') sent.push(`usage ${r.postDataJSON().type}`);
    if (url.pathname === '/api/buried') sent.push(`buried ${r.postDataJSON().event}`);
    if (url.pathname === '/accounts/verify/statistics') sent.push(`verify ${r.postDataJSON().type}`);
  });
  return sent;
}

test('entering a section sends its usage type; the DDoS and SCDN pages send their funnel steps', async ({ page }) => {
  const sent = collect(page);
  await signIn(page);
  await page.goto('/services/cdn/');
  await expect.poll(() => sent).toContain('usage 1'); // cdn
  await page.goto('/services/scdn/');
  await expect.poll(() => sent).toContain('usage 11'); // scdn
  await expect.poll(() => sent).toContain('buried 9'); // scdn_menu
  await page.goto('/toolbox/ssl/');
  await expect.poll(() => sent).toContain('usage 5'); // ssl
  await page.goto('/services/ddos/instance/');
  await expect.poll(() => sent).toContain('usage 8'); // ddos
  await expect.poll(() => sent).toContain('buried 1'); // ddos_menu
  await page.goto('/services/ddos/order/');
  await expect.poll(() => sent).toContain('buried 3'); // ddos_order_open
  await page.goto('/toolbox/sms/');
  await expect.poll(() => sent).toContain('usage 6'); // sms
  // the server counted them (public calls; the counts are the platform's: npm run platform -- events)
  const res = await page.request.post('/accounts/usage/statistics', { data: { type: 13 } });
  expect((await res.json()).error_code).toBe(20001);
});

test('the SCDN funnel after scdn_menu: the create dialog, an edge rule opened, the statistics (docs/events.md)', async ({ page }) => {
  const sent = collect(page);
  await signIn(page);
  await page.goto('/services/scdn/');
  await expect.poll(() => sent).toContain('buried 9'); // scdn_menu
  await page.getByRole('button', { name: '创建服务' }).click();
  await expect.poll(() => sent).toContain('buried 11'); // scdn_create_open
  await page.getByRole('button', { name: '取消' }).click();
  await page.goto('/services/demo-shop/edgeCalcCdn/');
  await page.getByRole('button', { name: '添加规则' }).first().click();
  await expect(page.getByRole('heading', { name: '添加边缘规则' })).toBeVisible();
  await expect.poll(() => sent).toContain('buried 14'); // scdn_rule_open
  await page.goto('/stats/?flow_type=scdn');
  await expect.poll(() => sent).toContain('buried 16'); // scdn_stats_open
  // a CDN service's edge rule sends no SCDN step
  const before = sent.filter((e) => e === 'buried 14').length;
  await page.goto('/services/demo-www/edgeCalcCdn/');
  await page.getByRole('button', { name: '添加规则' }).first().click();
  await expect(page.getByRole('heading', { name: '添加边缘规则' })).toBeVisible();
  expect(sent.filter((e) => e === 'buried 14').length).toBe(before);
});

test("the statistics page's real-name prompt sends mobile_stats and opens the profile's chooser", async ({ page }) => {
  const sent = collect(page);
  await signIn(page, 'demonew');
  await page.goto('/stats/');
  const prompt = page.getByRole('dialog', { name: '实名认证提示' });
  await prompt.getByRole('button', { name: '立即前往' }).click();
  await expect(page).toHaveURL(/\/account\/profile\/\?realname$/);
  await expect.poll(() => sent).toContain('verify 16');
});
