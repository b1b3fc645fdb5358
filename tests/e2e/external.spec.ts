/**
 * External products (docs/external-products.md): the SMS menu entry opens the partner's address (the
 * test server's EXTERNAL_SMS_URL, answered here by a route) in a new tab with a one-time token that the
 * partner redeems once; an unverified account (demonew) gets the real-name prompt instead; a product
 * without an address opens its in-console landing page; the partner sign-in and the static texts.
 */
import { test, expect, signIn } from './helpers';

/** A partner's page as the test's route answers it: a whole document (a title, a language), as a real site's is. */
const partnerPage = (heading: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${heading}</title></head><body><main><h1>${heading}</h1></main></body></html>`;

test('the SMS entry opens the partner console with a one-time token', async ({ page, context }) => {
  await context.route('https://sms.partner.example/**', (route) => route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: partnerPage('partner sms console') }));
  await signIn(page, 'demo');
  const menu = page.getByRole('navigation', { name: '产品菜单' });
  const [popup] = await Promise.all([context.waitForEvent('page'), menu.getByRole('link', { name: '短信服务' }).click()]);
  await popup.waitForLoadState();
  const url = new URL(popup.url());
  expect(url.origin + url.pathname).toBe('https://sms.partner.example/console/');
  const token = url.searchParams.get('token')!;
  expect(token.length).toBeGreaterThan(20);
  await expect(popup.getByRole('heading', { name: 'partner sms console' })).toBeVisible();
  // the partner redeems it, once
  const first = await page.request.post('/accounts/app/', { data: { token, product: 'sms' } });
  expect((await first.json()).data).toMatchObject({ product: 'sms', username: 'demo', verify_status: 'yes' });
  const again = await page.request.post('/accounts/app/', { data: { token, product: 'sms' } });
  expect((await again.json()).error_code).toBe(27601);
  // the console page stays where it was
  await expect(page).toHaveURL(/\/dashboard\/$/);
});

test('an unverified account gets the real-name prompt: one action, 立即前往, to the profile, with the product\'s event', async ({ page }) => {
  await signIn(page, 'demonew');
  const menu = page.getByRole('navigation', { name: '产品菜单' });
  // the dashboard's own real-name modal pops up once a browser session (spec 000 §2.9): closed first
  const popup = page.getByRole('dialog', { name: '实名认证' });
  await expect(popup).toContainText('根据相关规定，您需要先完成个人或企业实名认证');
  await page.keyboard.press('Escape');
  await expect(popup).toHaveCount(0);
  // one-click login: the prompt's single action leads to the profile
  await menu.getByRole('link', { name: '一键登录' }).click();
  let dialog = page.getByRole('dialog', { name: '实名认证' });
  await expect(dialog).toContainText('您需要先完成个人或企业实名认证，才能使用一键登录');
  await expect(dialog.locator('.bp6-dialog-footer-actions').getByRole('button')).toHaveCount(1);
  await dialog.getByRole('button', { name: '立即前往' }).click();
  await expect(page).toHaveURL(/\/account\/profile\/\?realname$/);
  await expect(dialog).toHaveCount(0);
  // SMS: the same prompt, and 立即前往 records sms_guide (real-name event 14)
  await page.goto('/dashboard/');
  await menu.getByRole('link', { name: '短信服务' }).click();
  dialog = page.getByRole('dialog', { name: '实名认证' });
  await expect(dialog).toContainText('您需要先完成个人或企业实名认证，才能使用短信服务');
  const posted = page.waitForRequest((r) => r.url().endsWith('/accounts/verify/statistics') && r.method() === 'POST' && r.postDataJSON()?.type === 14);
  await dialog.getByRole('button', { name: '立即前往' }).click();
  expect((await posted).postDataJSON()).toEqual({ type: 14 });
  await expect(dialog).toHaveCount(0);
  await expect(page).toHaveURL(/\/account\/profile\/\?realname$/);
});

test('a product without an address opens its landing page', async ({ page }) => {
  await signIn(page, 'demo');
  await page.getByRole('navigation', { name: '产品菜单' }).getByRole('link', { name: '流量营销' }).click();
  await expect(page).toHaveURL(/\/toolbox\/oncdp\/$/);
  await expect(page.getByRole('heading', { name: '流量营销（CDP）' })).toBeVisible();
  await page.getByRole('button', { name: '进入控制台' }).click();
  await expect(page.getByText('该产品的控制台暂未开放，请提交工单联系我们开通。')).toBeVisible();
  await page.goto('/toolbox/sms/');
  await expect(page.getByRole('heading', { name: '短信服务' })).toBeVisible();
  await page.getByRole('button', { name: '购买资源包' }).click();
  await expect(page).toHaveURL(/\/billing\/sms\/buy\//);
  await page.getByRole('navigation', { name: '产品菜单' }).getByRole('link', { name: '云处理' }).click();
  await expect(page).toHaveURL(/\/services\/process\/$/);
  await expect(page.getByRole('heading', { name: '云处理' })).toBeVisible();
});

test('partner sign-in: an unknown application is named as such; the texts are public', async ({ page }) => {
  await page.goto('/authorizationlogin?app_id=nobody&redirect_uri=https%3A%2F%2Fa.example%2Fcb');
  await expect(page.getByText('合作应用不存在')).toBeVisible();
  await page.goto('/authorizationProtocol/');
  await expect(page.getByRole('heading', { name: '授权登录服务协议' })).toBeVisible();
  await page.goto('/lets-disclaimer/');
  await expect(page.getByRole('heading', { name: "Let's Encrypt 免费证书免责声明" })).toBeVisible();
});

test('content audit: the menu entry without an audit account opens the in-console page; a record is reviewed', async ({ page }) => {
  await signIn(page, 'demo');
  await page.getByRole('navigation', { name: '产品菜单' }).getByRole('link', { name: '内容审核' }).click();
  await expect(page).toHaveURL(/\/toolbox\/audit\/$/);
  await expect(page.getByRole('heading', { name: '内容审核', exact: true })).toBeVisible();
  await expect(page.locator('.audit-services tbody tr', { hasText: 'demo-assets' }).locator('input[type=checkbox]')).toBeChecked();
  await page.getByRole('combobox', { name: '复审状态' }).selectOption('pending');
  const row = page.locator('.audit-record-table tbody tr', { hasText: '/ugc/comment-8812.txt' });
  await row.getByRole('button', { name: '屏蔽' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: '确定' }).click();
  await expect(page.locator('.audit-record-table tbody tr', { hasText: '/ugc/comment-8812.txt' })).toHaveCount(0);
  await page.getByRole('combobox', { name: '复审状态' }).selectOption('blocked');
  await expect(page.locator('.audit-record-table tbody tr', { hasText: '/ugc/comment-8812.txt' })).toContainText('已屏蔽');
});

test('partner sign-in: a visitor is sent to sign in; a signed-in user agrees and the partner receives a token', async ({ page, context }) => {
  await context.route('https://partner.example/**', (route) => route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: partnerPage('partner callback') }));
  const address = `/authorizationlogin?app_id=demo_partner&redirect_uri=${encodeURIComponent('https://partner.example/oauth/cb?state=s1')}`;
  await page.goto(address);
  await expect(page.locator('.partner-name')).toHaveText('演示合作伙伴');
  await page.getByRole('button', { name: '登录后授权' }).click();
  await expect(page).toHaveURL(/\/login\/\?from=%2Fauthorizationlogin%3Fapp_id%3Ddemo_partner/);
  await signIn(page, 'demo');
  await page.goto(address);
  const agree = page.getByRole('button', { name: '同意授权' });
  await expect(agree).toBeDisabled();
  await expect(page.getByRole('link', { name: '《授权登录服务协议》' })).toHaveAttribute('href', '/authorizationProtocol/');
  await page.locator('.authorization-card label.bp6-control').click({ position: { x: 8, y: 8 } });
  await expect(page.getByRole('checkbox', { name: /我已阅读并同意/ })).toBeChecked();
  await agree.click();
  await expect(page).toHaveURL(/^https:\/\/partner\.example\/oauth\/cb\?state=s1&token=/);
  const token = new URL(page.url()).searchParams.get('token')!;
  const redeemed = await page.request.post(`http://127.0.0.1:${process.env.E2E_PORT ?? '8181'}/accounts/app/`, { data: { token, app_id: 'demo_partner' } });
  expect((await redeemed.json()).data).toMatchObject({ product: 'oauth', app_id: 'demo_partner', username: 'demo' });
});
