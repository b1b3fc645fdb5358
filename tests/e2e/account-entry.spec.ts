/**
 * The entry pages in the browser (spec 000 §2.1, §5; docs/accounts.md): registration with the image
 * captcha and the SMS code, the success page, sign-in refused until the e-mail link is opened, the
 * activation page, sign-in after it; lost password by SMS (the seed's demolost, nobody else's account).
 * Codes and captcha answers come from the test server's dev API (SMS_OUTBOX_API=1).
 */
import type { Page } from '@playwright/test';
import { test, expect } from './helpers';

const rnd = () => Math.random().toString(36).slice(2, 8).replace(/[^a-z0-9]/g, 'x');

async function solveCaptcha(page: Page) {
  const img = page.locator('img.captcha-image');
  await expect(img).toBeVisible();
  const id = await img.getAttribute('data-captcha-id');
  const res = await page.request.get(`/api/dev/captcha/?captcha_id=${id}`);
  const answer = (await res.json()).data.answer as string;
  await page.locator('#root_captcha').fill(answer);
}

async function lastSmsCode(page: Page, mobile: string): Promise<string> {
  const res = await page.request.get(`/api/dev/sms_outbox/?mobile=${mobile}`);
  return /(\d{6})/.exec((await res.json()).data[0].text)![1];
}

test('register with captcha and SMS code, activate by the e-mail link, then sign in', async ({ page }) => {
  const name = `reg${rnd()}`;
  const email = `${name}@163.com`;
  const mobile = `135${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
  // the referer query (spec 000 §2.1) goes along with the registration
  await page.goto('/register/?referer=%2Ftoolbox%2Fsms%2F');
  await expect(page.getByRole('heading', { name: '注册云控制台账号' })).toBeVisible();
  await page.locator('#root_username').fill('Bad');
  await page.locator('#root_password').fill('12345678');
  await expect(page.getByText('为了账号安全，不允许使用全数字密码')).toBeVisible();
  await page.locator('#root_username').fill(name);
  await page.locator('#root_password').fill('regpass123');
  await page.locator('#root_email').fill(email);
  await page.locator('#root_mobile').fill(mobile);
  // a wrong captcha first: 验证码错误, and a new image
  const firstId = await page.locator('img.captcha-image').getAttribute('data-captcha-id');
  await page.locator('#root_captcha').fill('abcd');
  await page.getByRole('button', { name: '获取短信验证码' }).click();
  await expect(page.locator('.login-failure')).toHaveText('验证码错误');
  await expect(page.locator('img.captcha-image')).not.toHaveAttribute('data-captcha-id', firstId!);
  await solveCaptcha(page);
  await page.getByRole('button', { name: '获取短信验证码' }).click();
  await expect(page.getByText(/秒后重新发送/)).toBeVisible();
  await page.locator('#root_code').fill(await lastSmsCode(page, mobile));
  await page.locator('label.register-agree').click();
  await expect(page.getByRole('checkbox', { name: /我已阅读并同意/ })).toBeChecked();
  const registered = page.waitForRequest((r) => r.url().endsWith('/accounts/register/') && r.method() === 'POST');
  await page.getByRole('button', { name: '注册', exact: true }).click();
  expect((await registered).postDataJSON()).toMatchObject({ username: name, referer: '/toolbox/sms/' });

  await expect(page).toHaveURL(/\/register\/success\/\?email=/);
  await expect(page.locator('.register-email')).toHaveText(email);
  await expect(page.locator('a', { hasText: '前往邮箱激活' })).toHaveAttribute('href', 'https://mail.163.com');

  // not yet activated
  await page.goto('/login/');
  await page.locator('#login-username').fill(name);
  await page.locator('#login-password').fill('regpass123');
  await page.getByRole('button', { name: '登录' }).click();
  await expect(page.getByRole('alert')).toHaveText('账号尚未激活，请先点击激活邮件中的链接');

  const mails = await (await page.request.get(`/api/dev/email_outbox/?email=${encodeURIComponent(email)}`)).json();
  const link = new URL(/https?:\/\/\S+/.exec(mails.data[0].text)![0]);
  await page.goto(link.pathname + link.search);
  await expect(page.locator('.activate-result')).toContainText('验证成功');
  // the link works once
  await page.reload();
  await expect(page.locator('.activate-result')).toHaveText('激活链接无效或已过期');

  await page.getByRole('link', { name: '去登录' }).click();
  await page.locator('#login-username').fill(`  ${name} `);
  await page.locator('#login-password').fill('regpass123');
  await page.getByRole('button', { name: '登录' }).click();
  await expect(page).toHaveURL(/\/dashboard\/$/);
});

test('lost password: a code by SMS, a new password, sign in with it', async ({ page }) => {
  await page.goto('/login/');
  await page.getByRole('link', { name: '忘记密码' }).click();
  await expect(page).toHaveURL(/\/lostpass\/$/);
  await page.locator('#root_account').fill('demolost');
  await solveCaptcha(page);
  await page.getByRole('button', { name: '获取验证码' }).click();
  await expect(page.getByText('验证码已发送至 137****7010')).toBeVisible();
  const password = `np${rnd()}123`;
  await page.locator('#root_code').fill(await lastSmsCode(page, '13700137010'));
  await page.locator('#root_password').fill(password);
  await page.getByRole('button', { name: '重置密码' }).click();
  await expect(page.locator('.reset-done')).toHaveText('密码重置成功，请使用新密码登录');
  await page.getByRole('link', { name: '返回登录' }).click();
  await page.locator('#login-username').fill('demolost');
  await page.locator('#login-password').fill(password);
  await page.getByRole('button', { name: '登录' }).click();
  await expect(page).toHaveURL(/\/dashboard\/$/);
});
