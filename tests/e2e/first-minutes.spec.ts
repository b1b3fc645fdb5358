/**
 * What a new user meets first (issue 20): the address README names, `/`, takes a visitor to sign in and a
 * signed-in user to the dashboard (spec 000 §2.1); every time on the page is China Standard Time and the
 * chart's axis ticks on whole hours, whatever the browser's time zone.
 */
import { test, expect, signIn } from './helpers';

test('/ takes a visitor to the login page and a signed-in user to the dashboard', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/login\/$/);
  await expect(page.getByRole('heading', { name: '登录云控制台' })).toBeVisible();
  await signIn(page);
  await page.goto('/');
  await expect(page).toHaveURL(/\/dashboard\/$/);
});

/** 'YYYY-MM-DD HH:mm:ss' in UTC+8, worked out here without the console's helper. */
const cst = (epochMs: number) => new Date(epochMs + 8 * 3600_000).toISOString().replace('T', ' ').slice(0, 19);

test.describe('in a browser half an hour off any Chinese clock (Asia/Kolkata, UTC+5:30)', () => {
  test.use({ timezoneId: 'Asia/Kolkata' });

  test('lists, the message centre and the dashboard chart show China Standard Time', async ({ page }) => {
    await signIn(page);
    // the browser really is in another zone
    expect(await page.evaluate(() => new Date(Date.UTC(2026, 0, 1, 0, 0)).getMinutes())).toBe(30);

    // the dashboard's 24-hour chart: ticks on whole hours (a browser-zone axis would read hh:30)
    const ticks = page.getByTestId('dashboard-chart').locator('.visx-axis-bottom .visx-axis-tick');
    await expect(ticks.first()).toBeVisible();
    const labels = await ticks.allTextContents();
    expect(labels.length).toBeGreaterThan(2);
    for (const l of labels) expect(l.trim()).toMatch(/^(\d{2}:00|\d{2}-\d{2})$/);

    // a service list: the creation time of its first row
    const list = (await (await page.request.get('/api/buckets/?business_type=cdn&limit=10')).json()).data as { bucket_name: string; created_at: string }[];
    await page.goto('/services/cdn/');
    const first = page.locator('.service-table tbody tr').first();
    await expect(first).toContainText(list[0].bucket_name);
    await expect(first).toContainText(cst(Date.parse(list[0].created_at)));

    // the message centre
    const messages = (await (await page.request.get('/api/messages/?page=1&limit=10')).json()).data as { create_at: number }[];
    expect(messages.length).toBeGreaterThan(0);
    await page.goto('/account/message/');
    await expect(page.locator('.log-time').first()).toHaveText(cst(messages[0].create_at * 1000).slice(0, 16));
  });
});
