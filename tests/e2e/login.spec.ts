import { test, expect, allowConsoleError, PASSWORD, signIn } from './helpers';

test('a signed-out visit to an unknown URL lands on /login/', async ({ page }) => {
  await page.goto('/some/unknown/place');
  await expect(page).toHaveURL(/\/login\/$/);
  await expect(page.getByRole('heading', { name: '登录云控制台' })).toBeVisible();
});

test('the login page asks who is signed in without an error status: the browser logs nothing (issue 20 item 13)', async ({ page }) => {
  const statuses: string[] = [];
  const logged: string[] = [];
  page.on('response', (r) => r.status() >= 400 && statuses.push(`${r.status()} ${new URL(r.url()).pathname}`));
  page.on('console', (m) => m.type() === 'error' && logged.push(m.text()));
  await page.goto('/login/');
  await expect(page.getByRole('heading', { name: '登录云控制台' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(statuses).toEqual([]);
  expect(logged).toEqual([]);
});

test('a signed-out visit to a public path stays there', async ({ page }) => {
  await page.goto('/register/');
  await expect(page).toHaveURL(/\/register\/$/);
});

test('a signed-out visit to an unmatched public path stays there and says the page does not exist', async ({ page }) => {
  for (const path of ['/register/x', '/connect/somewhere/']) {
    await page.goto(path);
    await expect(page).toHaveURL(new RegExp(`${path.replace(/\//g, '\\/')}$`));
    await expect(page.getByRole('heading', { name: '页面不存在' })).toBeVisible();
    await expect(page.getByText('暂未开放')).toHaveCount(0);
  }
  await expect(page.getByRole('link', { name: '登录' })).toHaveAttribute('href', '/login/');
  await page.getByRole('link', { name: '注册' }).click();
  await expect(page).toHaveURL(/\/register\/$/);
  await expect(page.getByRole('heading', { name: '注册云控制台账号' })).toBeVisible();
});

test('empty fields show the login messages', async ({ page }) => {
  await page.goto('/login/');
  await page.getByRole('button', { name: '登录' }).click();
  await expect(page.getByText('请输入账号/邮箱/手机号')).toBeVisible();
  await expect(page.getByText('请输入密码', { exact: true })).toBeVisible();
});

test('a wrong password shows the catalogue message', async ({ page }) => {
  await page.goto('/login/');
  await page.locator('#login-username').fill('demo');
  await page.locator('#login-password').fill('not-the-password');
  await page.getByRole('button', { name: '登录' }).click();
  await expect(page.getByRole('alert')).toHaveText('账号或密码错误');
});

test('sign in as demo, then /login/ and unknown URLs go to the dashboard, sign-out goes back', async ({ page }) => {
  await signIn(page, '  demo ');
  await expect(page.getByText('欢迎回来，demo')).toBeVisible();
  await page.goto('/login/');
  await expect(page).toHaveURL(/\/dashboard\/$/);
  await page.goto('/no/such/page');
  await expect(page).toHaveURL(/\/dashboard\/$/);
  await page.getByRole('button', { name: 'demo' }).click();
  await page.getByText('退出登录').click();
  await expect(page).toHaveURL(/\/login\/$/);
  await page.goto('/dashboard/');
  await expect(page).toHaveURL(/\/login\/$/);
});

test('after sign-in the user returns to the page first asked for', async ({ page }) => {
  await page.goto('/services/cdn/');
  await expect(page).toHaveURL(/\/login\/$/);
  await page.locator('#login-username').fill('demo');
  await page.locator('#login-password').fill(PASSWORD);
  await page.getByRole('button', { name: '登录' }).click();
  await expect(page).toHaveURL(/\/services\/cdn\/$/);
});

test('sign in as demo2fa with the code read from the outbox', async ({ page, request }) => {
  await page.goto('/login/');
  await page.locator('#login-username').fill('demo2fa');
  await page.locator('#login-password').fill(PASSWORD);
  await page.getByRole('button', { name: '登录' }).click();
  await expect(page.getByText('验证码已发送至 139****5678')).toBeVisible();
  await expect(page.getByRole('button', { name: /秒后重新发送/ })).toBeDisabled();
  // a wrong code first
  await page.locator('#login-code').fill('12345');
  await page.getByRole('button', { name: '登录' }).click();
  await expect(page.getByText('请输入 6 位数字验证码')).toBeVisible();
  const code = await readOutboxCode(request);
  await page.locator('#login-code').fill(code);
  await page.getByRole('button', { name: '登录' }).click();
  await expect(page).toHaveURL(/\/dashboard\/$/);
  await expect(page.getByText('欢迎回来，demo2fa')).toBeVisible();
  await expect(page.getByText('登录验证：已开启')).toBeVisible();
});

/** The outbox is the sms_outbox table; the test server exposes it to testers (SMS_OUTBOX_API=1, never in production). */
async function readOutboxCode(request: import('@playwright/test').APIRequestContext): Promise<string> {
  const res = await request.get('/api/dev/sms_outbox/?mobile=13912345678');
  expect(res.ok()).toBeTruthy();
  const body = await res.json();
  const m = /(\d{6})/.exec(body.data[0].text);
  expect(m).not.toBeNull();
  return m![1];
}

test('a section whose chunk fails to load shows a message with a reload action, inside the frame', async ({ page }) => {
  await signIn(page);
  // the section's chunk fails to load on purpose
  allowConsoleError(page, /net::ERR_FAILED \(http:\/\/[^/]+\/app\/service\.[0-9a-f]+\.js\)$/);
  await page.route(/\/app\/service\.[0-9a-f]+\.js$/, (route) => route.abort());
  await page.getByRole('link', { name: 'CDN', exact: true }).click();
  await expect(page.getByText('页面加载失败')).toBeVisible();
  await expect(page.getByRole('button', { name: '重新加载' })).toBeVisible();
  // the frame (menu) is still there
  await expect(page.getByRole('link', { name: '概览' }).first()).toBeVisible();
  await page.unroute(/\/app\/service\.[0-9a-f]+\.js$/);
  await page.getByRole('button', { name: '重新加载' }).click();
  await expect(page.locator('.service-table')).toBeVisible();
});

test('the top bar names the section: a service kind on service pages, the tool elsewhere', async ({ page }) => {
  await signIn(page);
  const title = page.locator('.section-title');
  await expect(title).toHaveText('概览');
  await page.goto('/services/demo-shop/httpsCdn/');
  await expect(title).toHaveText('SCDN');
  await page.goto('/toolbox/ssl/');
  await expect(title).toHaveText('SSL 证书');
  await page.goto('/purge/purge_url/');
  await expect(title).toHaveText('刷新预热');
});

test('the login page: a request that fails shows its own exception text, a 5xx shows 网络似乎不稳定，刷新试试', async ({ page }) => {
  await page.goto('/login/');
  await page.locator('#login-username').fill('demo');
  await page.locator('#login-password').fill('demo123456');
  // the request itself fails (no answer at all), then answers 500: both on purpose
  allowConsoleError(page, /net::ERR_CONNECTION_RESET .*\/accounts\/two_step_verify\/status\//);
  allowConsoleError(page, /status of 500 .*\/accounts\/two_step_verify\/status\//);
  await page.route('**/accounts/two_step_verify/status/**', (route) => route.abort('connectionreset'));
  await page.getByRole('button', { name: '登录' }).click();
  await expect(page.getByRole('alert')).toHaveText('发生了点错误，请稍后再尝试');
  // the server answers 500 with its unknown-error body: the 5xx text, not 系统未知错误
  await page.unroute('**/accounts/two_step_verify/status/**');
  await page.route('**/accounts/two_step_verify/status/**', (route) =>
    route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ result: false, error_code: 21000, message: '系统未知错误' }) }),
  );
  await page.getByRole('button', { name: '登录' }).click();
  await expect(page.getByRole('alert')).toHaveText('网络似乎不稳定，刷新试试');
});

test('?username= in the login address fills the field, and the name typed over it is the one that signs in', async ({ page }) => {
  await page.goto('/login/?username=nobody_at_all');
  await expect(page.locator('#login-username')).toHaveValue('nobody_at_all');
  const posted = page.waitForRequest((r) => r.url().includes('/accounts/signin/') && r.method() === 'POST');
  await page.locator('#login-username').fill('demo');
  await page.locator('#login-password').fill('demo123456');
  await page.getByRole('button', { name: '登录' }).click();
  expect((await posted).postDataJSON().username).toBe('demo');
  await expect(page).toHaveURL(/\/dashboard\/$/);
});

test('a blocked user is signed out and told so once (spec 000 §4: user.status blocked)', async ({ page }) => {
  await page.goto('/login/');
  await page.locator('#login-username').fill('demo');
  await page.locator('#login-password').fill('demo123456');
  await page.getByRole('button', { name: '登录' }).click();
  await expect(page).toHaveURL(/\/dashboard\/$/);
  // the server's answer to a blocked user (tests/server/account-standing.test.ts ends the session for real)
  await page.route('**/api/buckets/?**', (route) =>
    route.fulfill({ status: 403, contentType: 'application/json', body: JSON.stringify({ result: false, error_code: 21104, message: '账号已被冻结，请联系客服', user: { status: 'blocked' } }) }),
  );
  await page.goto('/services/cdn/');
  await expect(page).toHaveURL(/\/login\/$/);
  await expect(page.getByRole('alert')).toHaveText('账号已被冻结，请联系客服');
  // signed out for real: the dashboard asks to sign in again
  await page.goto('/dashboard/');
  await expect(page).toHaveURL(/\/login\/$/);
  // once: the login page does not say it again
  await expect(page.getByRole('alert')).toHaveCount(0);
});
