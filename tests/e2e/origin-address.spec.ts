/**
 * The origin dialog and local addresses (src/shared/origins.ts): the demo's service, pointed by the
 * operator at the demo origin (DEMO_ORIGIN, 127.0.0.1:8082), saves again unchanged from the console; a
 * customer's loopback or metadata address is refused in the dialog with the catalogue's text (20011),
 * by the same guard the server runs, and nothing is saved. The panel's summary names the address.
 */
import type { Page } from '@playwright/test';
import { test, expect, signIn } from './helpers';

const panel = (page: Page, id: string) => page.locator(`[data-setting=${id}]`);

test('the demo origin saves again; a loopback or metadata origin is refused in the dialog', async ({ page }) => {
  await signIn(page);
  await page.goto('/services/demo-cdn-09/sourceCdn/');
  const p = panel(page, 'origin');
  // the summary says where requests go: the address, and the port as it is not HTTP's 80
  await expect(p.locator('.setting-summary')).toHaveText('回源 127.0.0.1:8082');
  await expect(p.locator('.setting-summary')).toHaveClass(/bp6-intent-success/);
  await p.getByRole('button', { name: '管理' }).click();
  const dialog = page.getByRole('dialog', { name: '回源配置' });
  const address = dialog.locator('#root_servers_0_address');
  await expect(address).toHaveValue('127.0.0.1');
  await expect(dialog.locator('#root_servers_0_port')).toHaveValue('8082');
  await dialog.getByRole('button', { name: '确定' }).click();
  await expect(page.getByText('配置成功')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(p.locator('.setting-summary')).toHaveText('回源 127.0.0.1:8082');

  for (const bad of ['169.254.169.254', '127.0.0.2']) {
    await p.getByRole('button', { name: '管理' }).click();
    await address.fill(bad);
    const saves: string[] = [];
    page.on('request', (r) => r.method() === 'POST' && r.url().includes('/api/settings/origin/') && saves.push(r.url()));
    await dialog.getByRole('button', { name: '确定' }).click();
    await expect(dialog.locator('.setting-failure')).toContainText('源站地址不能是本机、链路本地或元数据地址');
    expect(saves).toEqual([]);
    await dialog.getByRole('button', { name: '取消' }).click();
    await expect(dialog).toBeHidden();
  }
  // what is stored is still the demo origin
  await p.getByRole('button', { name: '管理' }).click();
  await expect(address).toHaveValue('127.0.0.1');
});

test('a DDoS website rule with a metadata origin is refused in the dialog before anything is sent', async ({ page }) => {
  await signIn(page);
  await page.goto('/services/ddos/website/');
  // the instance's IPs are loaded with its rules
  await expect(page.getByTestId('ddos-website-rules')).toContainText('www.demo-example.com');
  await page.getByRole('button', { name: '添加网站' }).click();
  const dialog = page.getByRole('dialog', { name: '添加网站业务规则' });
  await dialog.locator('#root_domain').fill(`local-${Date.now().toString(36)}.demo-example.com`);
  await dialog.locator('#root_origins').fill('198.51.100.77\n169.254.169.254');
  const puts: string[] = [];
  page.on('request', (r) => r.method() === 'PUT' && r.url().includes('/api/ddos/l7') && puts.push(r.url()));
  await dialog.getByRole('button', { name: '确定' }).click();
  await expect(dialog.locator('#root_origins__error')).toHaveText('第 2 行：源站地址不能是本机、链路本地或元数据地址');
  expect(puts).toEqual([]);
  await dialog.locator('#root_origins').fill('198.51.100.77');
  await dialog.getByRole('button', { name: '确定' }).click();
  await expect(page.getByText('配置成功')).toBeVisible();
});
