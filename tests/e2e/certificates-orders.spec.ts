/**
 * Free and paid certificates in the browser. The e2e server has no ACME directory configured, so a free
 * application stays 申请中 (the pebble test in tests/server/certificates-free.test.ts issues for real);
 * the paid order is walked to issuance by the sandbox CA's job, which the server runs every 3 s.
 */
import type { Page } from '@playwright/test';
import { test, expect, signIn } from './helpers';

async function lastPayCode(page: Page): Promise<string> {
  const res = await page.request.get('/api/dev/sms_outbox/?mobile=13800138000');
  const row = (await res.json()).data.find((r: { purpose: string }) => r.purpose === 'pay');
  return /(\d{6})/.exec(row.text)![1]!;
}

test('apply for free certificates: Let\'s Encrypt, and Racent after its pre-domain-check', async ({ page }) => {
  await signIn(page);
  await page.goto('/toolbox/ssl/');
  await page.getByRole('tab', { name: '证书申请' }).click();
  await expect(page).toHaveURL(/active=apply/);
  const form = page.locator('.free-apply-form');
  // a wildcard is refused by the declaration
  await form.locator('#root_domains').fill('*.demo-example.com');
  await expect(form.getByText('免费证书不支持泛域名')).toBeVisible();
  await expect(form.getByRole('button', { name: '申请' })).toBeDisabled();
  await form.locator('#root_domains').fill('act9.demo-example.com');
  await form.getByRole('button', { name: '申请' }).click();
  const row = page.locator('.apply-table tbody tr', { hasText: 'act9.demo-example.com' });
  await expect(row).toContainText("Let's Encrypt");
  await expect(row.locator('.apply-status')).toHaveText('申请中');
  // a domain of no service of the account
  await form.locator('#root_domains').fill('www.not-mine-example.com');
  await form.getByRole('button', { name: '申请' }).click();
  await expect(form.getByRole('alert')).toHaveText('免费证书只能为您服务中已添加的域名申请');
  // racent: predcv, then apply with the apply_id
  await form.getByText('Racent（单域名，先预验证）').click();
  await form.locator('#root_domains').fill('act8.demo-example.com');
  await form.getByRole('button', { name: '申请' }).click();
  await expect(form.locator('.free-apply-predcv')).toContainText('预验证已通过');
  const racent = page.locator('.apply-table tbody tr', { hasText: 'act8.demo-example.com' });
  await expect(racent.locator('.apply-status')).toHaveText('待验证');
  await form.getByRole('button', { name: '提交申请' }).click();
  await expect(racent.locator('.apply-status')).toHaveText('申请中');
});

test('walk a paid order to issuance in the sandbox: buy, pay, CA message, verify, deploy, re-issue', async ({ page }) => {
  test.setTimeout(240_000);
  await signIn(page);
  await page.goto('/toolbox/ssl/?active=apply');
  await page.getByRole('button', { name: '购买证书' }).click();
  await expect(page).toHaveURL(/\/toolbox\/createCertificate\//);
  await page.locator('#cert-brand').selectOption('trustasia');
  await page.locator('#cert-level').selectOption('DV');
  await page.locator('#cert-kind').selectOption('single');
  await expect(page.locator('.order-price')).toContainText('199.00 元');
  await page.getByRole('button', { name: '立即购买' }).click();

  // pay with the balance and the SMS code
  await expect(page).toHaveURL(/\/toolbox\/certificatePay\/\?order_id=\d+/);
  await expect(page.locator('.order-summary')).toContainText('待支付');
  await page.getByRole('button', { name: /余额支付 199.00 元/ }).click();
  const pay = page.getByRole('dialog', { name: '支付确认' });
  const send = pay.getByRole('button', { name: '获取验证码' });
  await expect(send).toBeEnabled({ timeout: 75_000 }); // another spec may have sent demo a code within the minute
  await send.click();
  await expect(pay.getByRole('button', { name: /秒后重新获取/ })).toBeVisible();
  await pay.getByLabel('短信验证码').fill(await lastPayCode(page));
  await pay.getByRole('button', { name: '确认支付' }).click();

  // the CA message: the rules of the declaration, then the CA
  await expect(page).toHaveURL(/\/toolbox\/caMessageCheck\/\?order_id=\d+/);
  const domains = page.locator('#root_domains');
  await domains.fill('a_b.demo-example.com');
  await expect(page.getByText('域名不能包含下划线等特殊符号')).toBeVisible();
  await domains.fill('www.demo-example.com\nstatic.demo-example.com');
  await expect(page.getByText('个数超出限制')).toBeVisible();
  // a domain no other spec uses: deploying binds it
  await domains.fill('act7.demo-example.com');
  await page.getByRole('button', { name: '提交', exact: true }).click();

  // verify message, then the sandbox issues
  await expect(page).toHaveURL(/\/toolbox\/certificateDetail\/\?order_id=\d+/);
  await expect(page.locator('.dcv-table')).toContainText('_dnsauth.act7.demo-example.com');
  await expect(async () => {
    await page.locator('.order-refresh').click();
    await expect(page.locator('.order-summary .order-status')).toHaveText('已签发', { timeout: 2_000 });
  }).toPass({ timeout: 60_000 });
  await page.getByRole('button', { name: '部署到 CDN' }).click();
  await expect(page.getByText('部署成功')).toBeVisible();

  // re-issue: the line-count limit, then a new order
  await page.getByRole('button', { name: '重新签发' }).click();
  await expect(page).toHaveURL(/\/toolbox\/reIssued\/\?order_id=\d+/);
  const lines = page.locator('#root_domains');
  await lines.fill('static.demo-example.com\nwww.demo-example.com');
  await expect(page.getByText('个数超出限制')).toBeVisible();
  await lines.fill('*.demo-example.com');
  await expect(page.getByText('该订单不支持泛域名')).toBeVisible();
  await page.getByRole('button', { name: '查看 CA 资料' }).click();
  await expect(page.getByRole('dialog', { name: 'CA 资料' })).toContainText('act7.demo-example.com');
  await page.getByRole('dialog', { name: 'CA 资料' }).getByRole('button', { name: '关闭' }).last().click(); // the footer's, not the title bar's ×
  await lines.fill('act6.demo-example.com');
  await page.getByRole('button', { name: '提交', exact: true }).click();
  await expect(page.locator('.reissue-done')).toContainText('act6.demo-example.com');
  await page.getByRole('button', { name: '返回证书申请' }).click();
  await expect(page).toHaveURL(/active=apply&children=applyResult/);
  await expect(page.locator('.apply-result')).toContainText('重新签发已提交');
  await expect(page.locator('.order-table')).toContainText('act6.demo-example.com');
});

test('the default-domain HTTPS page: forcing turns HTTPS on, HTTPS off clears forcing', async ({ page }) => {
  await signIn(page);
  await page.goto('/toolbox/ssl/');
  await page.getByRole('button', { name: '默认域名 HTTPS' }).click();
  await expect(page).toHaveURL(/\/toolbox\/ssl\/manage_default\//);
  const row = page.locator('.default-domain-table tr[data-bucket="demo-cdn-07"]');
  await expect(row).toContainText('demo-cdn-07.');
  const https = row.getByRole('checkbox', { name: /HTTPS$/ }).first();
  const force = row.getByRole('checkbox', { name: /强制 HTTPS$/ });
  await row.locator('label.bp6-switch').nth(1).click();
  await expect(page.getByText('配置成功')).toBeVisible();
  await expect(https).toBeChecked();
  await expect(force).toBeChecked();
  await row.locator('label.bp6-switch').nth(0).click();
  await expect(force).not.toBeChecked();
  await expect(https).not.toBeChecked();
  await page.reload();
  await expect(row.getByRole('checkbox', { name: /强制 HTTPS$/ })).not.toBeChecked();
  await expect(row.getByRole('checkbox', { name: /HTTPS$/ }).first()).not.toBeChecked();
});
