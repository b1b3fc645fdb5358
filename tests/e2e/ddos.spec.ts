import { test, expect, signIn } from './helpers';

test('open DDoS from the menu, create a website (L7) rule with the declaration messages, see it listed', async ({ page }) => {
  await signIn(page);
  await page.getByRole('link', { name: 'DDoS 高防 IP' }).click();
  await expect(page).toHaveURL(/\/services\/ddos\/instance\/$/);
  await expect(page.getByRole('cell', { name: '华东-杭州 BGP' })).toBeVisible();
  await page.getByRole('tab', { name: '网站业务', exact: true }).click();
  await expect(page).toHaveURL(/\/services\/ddos\/website\/$/);
  await expect(page.getByTestId('ddos-website-rules')).toContainText('www.demo-example.com');
  await page.getByRole('button', { name: '添加网站' }).click();
  const dialog = page.getByRole('dialog', { name: '添加网站业务规则' });
  const domain = `e2e-${Date.now().toString(36)}.demo-example.com`;
  await dialog.locator('#root_domain').fill('http://bad');
  await expect(dialog.getByText('请填写正确的域名，如 www.example.com，支持 *.example.com')).toBeVisible();
  await dialog.locator('#root_domain').fill(domain);
  await dialog.locator('#root_origins').fill('198.51.100.77');
  await dialog.getByText('HTTPS', { exact: true }).click();
  await dialog.getByRole('button', { name: '确定' }).click();
  await expect(page.getByText('配置成功')).toBeVisible();
  await expect(dialog).toBeHidden();
  const row = page.getByTestId('ddos-website-rules').locator('tr', { hasText: domain });
  await expect(row).toContainText('HTTP / HTTPS');
  await expect(row).toContainText('198.51.100.77');
  // the same domain again is refused by the server with its code's text
  await page.getByRole('button', { name: '添加网站' }).click();
  await dialog.locator('#root_domain').fill(domain);
  await dialog.locator('#root_origins').fill('198.51.100.78');
  await dialog.getByRole('button', { name: '确定' }).click();
  await expect(dialog.locator('.setting-failure')).toContainText('该域名已添加到此高防实例');
  await expect(dialog.locator('#root_domain__error')).toContainText(`${domain} 已添加到此高防实例`);
  await dialog.getByRole('button', { name: '取消' }).click();
  // delete it again (DELETE /api/ddos/l7 with its id), after the confirmation
  await row.getByRole('button', { name: '删除' }).click();
  const confirm = page.getByRole('dialog', { name: '删除确认' });
  await expect(confirm).toContainText(`确认删除 ${domain} 的防护规则吗？`);
  await confirm.getByRole('button', { name: '删除' }).click();
  await expect(page.getByText('删除成功')).toBeVisible();
  await expect(row).toHaveCount(0);
});

test('the protection log shows the attack statistics, the four flow series and the attacks', async ({ page }) => {
  await signIn(page);
  await page.goto('/services/ddos/protectlog/');
  await page.getByRole('button', { name: '近 7 天' }).click();
  await expect(page.getByTestId('ddos-peak')).toContainText('Gbps');
  for (const type of [1, 3, 4, 5]) await expect(page.getByTestId(`ddos-flow-${type}`).getByRole('img', { name: /流量|包速率/ })).toBeVisible();
  await expect(page.getByText('攻击中').first()).toBeVisible();
});

test('ordering beyond the balance shows the amount to top up and the link to recharge', async ({ page }) => {
  await signIn(page);
  await page.goto('/services/ddos/order/');
  await page.getByTestId('ddos-package-enterprise').getByRole('button', { name: '立即购买' }).click();
  await expect(page).toHaveURL(/\/services\/create\/ddos\/\?package=enterprise$/);
  for (const node of ['华南-广州 BGP', '华北-北京 BGP', '西南-成都 电信']) await page.getByText(node, { exact: true }).click();
  await page.getByText('12 个月（付 10 个月）').click();
  await expect(page.getByTestId('ddos-price')).toContainText('¥512,000.00');
  await page.getByRole('button', { name: '提交订单' }).click();
  await expect(page).toHaveURL(/\/services\/create\/ddos\/pay\?package=enterprise&order=\d+&nodesId2Name=/);
  await expect(page.getByTestId('ddos-pay-price')).toHaveText('¥512,000.00');
  await page.getByRole('button', { name: '使用余额支付' }).click();
  const short = page.locator('.ddos-short');
  await expect(short).toContainText('账户余额不足，请先充值');
  await expect(short).toContainText('还需充值');
  await expect(short.locator('a', { hasText: '去充值' })).toHaveAttribute('href', '/billing/charge/');
});

test('a sub-account does not see DDoS and is sent back from its pages', async ({ page }) => {
  await signIn(page, 'demo_ops');
  await expect(page.getByRole('link', { name: 'DDoS 高防 IP' })).toHaveCount(0);
  await page.goto('/services/ddos/instance/');
  await expect(page).not.toHaveURL(/\/services\/ddos\//);
});
