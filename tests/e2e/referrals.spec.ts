/**
 * Referrals (docs/referrals.md): demo's invite address, a registration through it, and the invitee in
 * demo's referral list (its name masked). Codes and captcha answers come from the dev API.
 */
import type { Page } from '@playwright/test';
import { expect, test, signIn } from './helpers';

const rnd = () => Math.random().toString(36).slice(2, 8).replace(/[^a-z0-9]/g, 'x');

async function solveCaptcha(page: Page) {
  const img = page.locator('img.captcha-image');
  await expect(img).toBeVisible();
  const id = await img.getAttribute('data-captcha-id');
  const answer = (await (await page.request.get(`/api/dev/captcha/?captcha_id=${id}`)).json()).data.answer as string;
  await page.locator('#root_captcha').fill(answer);
}

test('an invited registration shows in the inviter’s referral list', async ({ browser }) => {
  const demo = await browser.newPage();
  await signIn(demo, 'demo');
  await demo.goto('/account/recommendation/introduction/');
  await expect(demo.getByRole('heading', { name: '推荐返利' })).toBeVisible();
  await expect(demo.getByText(/365 天内每笔成功充值金额的 5% 将作为返利/)).toBeVisible();
  const inviteUrl = await demo.getByLabel('邀请链接').inputValue();
  expect(inviteUrl).toMatch(/\/register\/\?invite=[0-9A-Z]+$/);

  const visitor = await browser.newPage();
  const name = `ref${rnd()}`;
  const mobile = `136${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
  const url = new URL(inviteUrl);
  await visitor.goto(url.pathname + url.search);
  await visitor.locator('#root_username').fill(name);
  await visitor.locator('#root_password').fill('regpass123');
  await visitor.locator('#root_email').fill(`${name}@163.com`);
  await visitor.locator('#root_mobile').fill(mobile);
  await solveCaptcha(visitor);
  await visitor.getByRole('button', { name: '获取短信验证码' }).click();
  await expect(visitor.getByText(/秒后重新发送/)).toBeVisible();
  const sms = await (await visitor.request.get(`/api/dev/sms_outbox/?mobile=${mobile}`)).json();
  await visitor.locator('#root_code').fill(/(\d{6})/.exec(sms.data[0].text)![1]);
  await visitor.locator('label.register-agree').click();
  await visitor.getByRole('button', { name: '注册', exact: true }).click();
  await expect(visitor).toHaveURL(/\/register\/success\//);

  await demo.getByRole('button', { name: '查看推荐列表' }).click();
  await expect(demo).toHaveURL(/\/account\/recommendation\/list\/$/);
  const masked = `${name.slice(0, 2)}***${name.slice(-1)}`;
  const row = demo.locator('.recommendation-table tbody tr', { hasText: masked }).first();
  await expect(row).toBeVisible();
  await expect(row).toContainText('未认证');
  await row.getByRole('button', { name: '明细' }).click();
  await expect(demo.getByRole('dialog', { name: '返利明细' })).toContainText('暂无返利记录');
});
