/**
 * Sub-accounts in the browser (spec 000 §2.3, §2.5, §4–§6): creating one with services, editing,
 * disabling, deleting; signing in as it and landing where the spec says; the form's rules as a
 * person meets them; the real-name prompt; the operation log.
 */
import type { Page, Locator } from '@playwright/test';
import { test, expect, PASSWORD, signIn } from './helpers';

async function signInAs(page: Page, username: string, password = PASSWORD) {
  await page.goto('/login/');
  await page.locator('#login-username').fill(username);
  await page.locator('#login-password').fill(password);
  await page.getByRole('button', { name: '登录' }).click();
}

async function openSubaccounts(page: Page) {
  await signIn(page);
  await page.goto('/account/subaccount/');
  await expect(page.getByRole('heading', { name: '子账号管理' })).toBeVisible();
}

/** Ticks services in the picker of one kind. */
async function pickBuckets(dialog: Locator, page: Page, kind: 'cdn' | 'file' | 'live', names: string[]) {
  await dialog.locator(`.bucket-list[data-kind=${kind}] .bucket-list-open`).click();
  const panel = page.locator(`.bucket-list-panel[data-kind=${kind}]`);
  for (const n of names) {
    await panel.getByPlaceholder('请输入服务名称').fill(n);
    // the list is searched after a pause: wait until it shows the one service
    await expect(panel.getByRole('checkbox')).toHaveCount(1);
    // Blueprint draws its own box over the input: click the label, as a person does
    await panel.locator('label', { hasText: n }).click();
    await expect(panel.getByRole('checkbox', { name: n, exact: true })).toBeChecked();
  }
  await panel.getByRole('button', { name: '完成' }).click();
  await expect(panel).toBeHidden();
}

const row = (page: Page, name: string) => page.locator(`tr[data-child="${name}"]`);

test('create a sub-account with services, edit it, sign in as it, disable and delete it', async ({ page, browser }) => {
  await openSubaccounts(page);
  await page.getByRole('button', { name: '创建子账号' }).click();
  const dialog = page.getByRole('dialog', { name: '创建子账号' });
  const confirm = dialog.getByRole('button', { name: '确定' });
  await expect(confirm).toBeDisabled();

  await dialog.locator('#root_child_name').fill('e2e_ops');
  await dialog.locator('#root_password').fill('e2e-pass-1');
  await dialog.locator('#root_nickname').fill('端到端测试');
  await pickBuckets(dialog, page, 'cdn', ['demo-static', 'demo-cdn-03']);
  await pickBuckets(dialog, page, 'file', ['demo-assets']);
  await expect(dialog.locator('.bucket-list[data-kind=cdn] .bucket-list-count')).toHaveText('已选 2 / 100');
  // only the authorized services, with statistics and log download
  await dialog.getByText('仅已授权的服务').click();
  await dialog.getByText('统计分析', { exact: true }).click();
  await dialog.getByText('日志下载', { exact: true }).click();
  await dialog.getByText('创建 CDN 服务').click();
  await dialog.getByText('创建云存储服务').click();
  await dialog.getByText('创建直播服务').click();
  await expect(confirm).toBeEnabled();
  await confirm.click();
  await expect(page.getByText('创建子账号成功')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(row(page, 'e2e_ops')).toContainText('端到端测试');
  await expect(row(page, 'e2e_ops')).toContainText('正常');

  // edit: the name is read-only, the password may stay blank; remove one service, change the remark
  await row(page, 'e2e_ops').getByRole('button', { name: '编辑' }).click();
  const edit = page.getByRole('dialog', { name: '编辑子账号' });
  await expect(edit.locator('#root_child_name')).toHaveValue('e2e_ops');
  await expect(edit.locator('#root_child_name')).toHaveAttribute('readonly', '');
  await expect(edit.locator('#root_password')).toHaveValue('');
  await expect(edit.locator('.bucket-list[data-kind=cdn] .bucket-list-tag')).toHaveText(['demo-static', 'demo-cdn-03']);
  await edit.locator('.bucket-list[data-kind=cdn] .bucket-list-tag', { hasText: 'demo-cdn-03' }).getByRole('button').click();
  await edit.locator('#root_nickname').fill('端到端测试改');
  await expect(edit.getByRole('button', { name: '确定' })).toBeEnabled();
  await edit.getByRole('button', { name: '确定' }).click();
  await expect(page.getByText('更新子账号成功')).toBeVisible();
  await expect(row(page, 'e2e_ops')).toContainText('端到端测试改');
  await row(page, 'e2e_ops').getByRole('button', { name: '编辑' }).click();
  await expect(edit.locator('.bucket-list[data-kind=cdn] .bucket-list-tag')).toHaveText(['demo-static']);
  await expect(edit.locator('.bucket-list[data-kind=file] .bucket-list-tag')).toHaveText(['demo-assets']);
  await edit.getByRole('button', { name: '取消' }).click();

  // sign in as the sub-account: it lands on the first page it may use (CDN) and sees its services only
  const ctx = await browser.newContext();
  const sub = await ctx.newPage();
  await signInAs(sub, 'e2e_ops', 'e2e-pass-1');
  await expect(sub).toHaveURL(/\/services\/cdn\/$/);
  const rows = sub.locator('.service-table tbody tr');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('demo-static');
  const menu = sub.getByRole('navigation', { name: '产品菜单' });
  await expect(menu.getByRole('link', { name: 'CDN', exact: true })).toBeVisible();
  await expect(menu.getByRole('link', { name: '云存储' })).toBeVisible();
  await expect(menu.getByText('直播云')).toHaveCount(0);
  await expect(menu.getByText('SCDN')).toHaveCount(0);
  await expect(menu.getByText('短信服务')).toHaveCount(0);
  // the cost centre is the main account's (parent_only + bill)
  await expect(menu.getByText('费用中心')).toHaveCount(0);
  // a page it may not use sends it to the dashboard, which sends it on to CDN
  await sub.goto('/account/subaccount/');
  await expect(sub).toHaveURL(/\/services\/cdn\/$/);
  await sub.goto('/services/live/');
  await expect(sub).toHaveURL(/\/services\/cdn\/$/);
  await sub.goto('/services/file/');
  await expect(sub.locator('.service-table tbody tr')).toHaveCount(1);
  await expect(sub.locator('.service-table tbody tr').first()).toContainText('demo-assets');

  // disable: the sub-account is signed out and cannot sign in again
  await row(page, 'e2e_ops').getByRole('button', { name: '禁用' }).click();
  await expect(page.getByText('更新子账号成功').first()).toBeVisible();
  await expect(row(page, 'e2e_ops')).toContainText('已禁用');
  await signInAs(sub, 'e2e_ops', 'e2e-pass-1');
  await expect(sub.getByRole('alert')).toHaveText('该子账号已被禁用，请联系主账号');
  await row(page, 'e2e_ops').getByRole('button', { name: '启用' }).click();
  await expect(row(page, 'e2e_ops')).toContainText('正常');

  // delete, after a confirmation
  await row(page, 'e2e_ops').getByRole('button', { name: '删除' }).click();
  await expect(page.getByText('确定删除子账号 e2e_ops 吗？')).toBeVisible();
  await page.locator('.bp6-alert').getByRole('button', { name: '删除', exact: true }).click();
  await expect(page.getByText('删除子账号成功')).toBeVisible();
  await expect(row(page, 'e2e_ops')).toHaveCount(0);
  await signInAs(sub, 'e2e_ops', 'e2e-pass-1');
  await expect(sub.getByRole('alert')).toHaveText('账号或密码错误');
  await ctx.close();

  // every step is in the operation log
  await page.goto('/account/log/');
  const log = page.locator('.log-table tbody');
  for (const text of ['创建子账号', '更新子账号', '授权空间', '取消授权空间', '禁用子账号', '启用子账号', '删除子账号']) {
    await expect(log.getByText(text, { exact: true }).first()).toBeVisible();
  }
});

test('the seeded sub-account demo_ops lands on CDN and sees its one granted service', async ({ page }) => {
  await signInAs(page, 'demo_ops');
  await expect(page).toHaveURL(/\/services\/cdn\/$/);
  await expect(page.locator('.service-table tbody tr')).toHaveCount(1);
  await expect(page.locator('.service-table tbody tr').first()).toContainText('demo-www');
  // no service search, no 创建服务 without create_cdn, and no account menu entries for a sub-account
  await expect(page.getByPlaceholder('搜索服务名称')).toHaveCount(0);
  await expect(page.getByRole('button', { name: '创建服务' })).toHaveCount(0);
  await page.locator('.account-menu').click();
  await expect(page.getByRole('menuitem', { name: '子账号管理' })).toHaveCount(0);
  await page.keyboard.press('Escape');
  // a service it was not granted is refused like one that does not exist
  await page.goto('/services/demo-static/domainsCdn/');
  await expect(page.getByText('服务不存在或无权访问')).toBeVisible();
});

test('a sub-account with statistics only lands on the statistics page', async ({ page, browser }) => {
  await openSubaccounts(page);
  await page.getByRole('button', { name: '创建子账号' }).click();
  const dialog = page.getByRole('dialog', { name: '创建子账号' });
  await dialog.locator('#root_child_name').fill('e2e_stats');
  await dialog.locator('#root_password').fill('e2e-pass-2');
  for (const label of ['创建 CDN 服务', '创建云存储服务', '创建直播服务', '云监控', '缓存刷新', '日志下载']) await dialog.getByText(label, { exact: true }).click();
  await expect(dialog.getByRole('button', { name: '确定' })).toBeEnabled();
  await dialog.getByRole('button', { name: '确定' }).click();
  await expect(page.getByText('创建子账号成功')).toBeVisible();

  const ctx = await browser.newContext();
  const sub = await ctx.newPage();
  await signInAs(sub, 'e2e_stats', 'e2e-pass-2');
  await expect(sub).toHaveURL(/\/stats\/$/);
  // its menu has no product: it holds none
  await expect(sub.getByRole('navigation', { name: '产品菜单' }).getByRole('link', { name: 'CDN', exact: true })).toHaveCount(0);
  await sub.goto('/services/cdn/');
  await expect(sub).toHaveURL(/\/stats\/$/);
  await ctx.close();
});

test('the form keeps its rules: names, scope, live-only, SSL, at least one permission', async ({ page }) => {
  await openSubaccounts(page);
  await page.getByRole('button', { name: '创建子账号' }).click();
  const dialog = page.getByRole('dialog', { name: '创建子账号' });
  const confirm = dialog.getByRole('button', { name: '确定' });
  const name = dialog.locator('#root_child_name');
  // a field shows its most important kind of error first (spec 001 §5: … minlength before pattern)
  await name.fill('Ops');
  await expect(dialog.getByText('子账号长度限定 5 - 20 位字符')).toBeVisible();
  await expect(dialog.getByText('小写英文开头，小写英文、数字、下划线和中划线组合')).toBeHidden();
  await name.fill('Opsxx');
  await expect(dialog.getByText('小写英文开头，小写英文、数字、下划线和中划线组合')).toBeVisible();
  await expect(dialog.getByText('子账号长度限定 5 - 20 位字符')).toBeHidden();
  await name.fill('demo_ops');
  await expect(dialog.getByText('该账号已存在，请重新输入')).toBeVisible();
  await name.fill('e2e_rules');
  await expect(dialog.getByText('该账号已存在，请重新输入')).toBeHidden();
  const password = dialog.locator('#root_password');
  await password.fill('12345678');
  await expect(dialog.getByText('为了账号安全，不允许使用全数字密码')).toBeVisible();
  await password.fill('abc');
  await expect(dialog.getByText('密码长度仅限 8~20 位')).toBeVisible();
  await password.fill('abc12345');
  await dialog.locator('#root_nickname').fill('含 空格');
  await expect(dialog.getByText('仅限中文，大小写英文，数字，下划线和中划线')).toBeVisible();
  await dialog.locator('#root_nickname').fill('');

  // authorization needs a chosen service
  const authorization = dialog.getByRole('radio', { name: '仅已授权的服务' });
  await expect(authorization).toBeDisabled();
  await pickBuckets(dialog, page, 'live', ['demo-live']);
  await expect(authorization).toBeEnabled();
  // only live services: monitor and cache are cleared and disabled
  await expect(dialog.getByRole('checkbox', { name: '云监控' })).toBeDisabled();
  await expect(dialog.getByRole('checkbox', { name: '云监控' })).not.toBeChecked();
  await expect(dialog.getByRole('checkbox', { name: '缓存刷新' })).toBeDisabled();
  await expect(dialog.getByRole('checkbox', { name: '统计分析' })).toBeChecked();
  // changing the radio clears the data permissions
  await dialog.getByText('仅已授权的服务').click();
  await expect(authorization).toBeChecked();
  await expect(dialog.getByRole('checkbox', { name: '统计分析' })).not.toBeChecked();
  await expect(dialog.getByRole('checkbox', { name: '日志下载' })).not.toBeChecked();
  // removing the last service falls back to none
  await dialog.locator('.bucket-list[data-kind=live] .bucket-list-tag').getByRole('button').click();
  await expect(dialog.getByRole('radio', { name: '不授权' })).toBeChecked();
  await expect(authorization).toBeDisabled();
  await expect(dialog.getByRole('checkbox', { name: '统计分析' })).toBeDisabled();
  // forbid-download only with SSL; cloud_audit is never offered on create
  const noDownload = dialog.getByRole('checkbox', { name: '禁止下载证书' });
  await expect(noDownload).toBeDisabled();
  await dialog.getByText('SSL 证书', { exact: true }).click();
  await expect(noDownload).toBeEnabled();
  await dialog.getByText('禁止下载证书').click();
  await expect(noDownload).toBeChecked();
  await dialog.getByText('SSL 证书', { exact: true }).click();
  await expect(noDownload).not.toBeChecked();
  await expect(dialog.getByText('内容识别')).toHaveCount(0);
  // nothing ticked: 确定 stays disabled, with the reason
  for (const label of ['创建 CDN 服务', '创建云存储服务', '创建直播服务']) await dialog.getByText(label, { exact: true }).click();
  await expect(dialog.getByText('请至少选择一项权限')).toBeVisible();
  await expect(confirm).toBeDisabled();
  await dialog.getByText('监控告警', { exact: true }).click();
  await expect(confirm).toBeEnabled();
  await dialog.getByRole('button', { name: '取消' }).click();
});

test('an account without real-name verification sees the real-name prompt instead of the form', async ({ page }) => {
  await signInAs(page, 'demonew');
  await expect(page).toHaveURL(/\/dashboard\/$/);
  await page.goto('/account/subaccount/');
  await page.getByRole('button', { name: '创建子账号' }).click();
  const prompt = page.getByRole('dialog', { name: '实名认证' });
  await expect(prompt).toContainText('个人或企业实名认证');
  await expect(page.getByRole('dialog', { name: '创建子账号' })).toHaveCount(0);
  // the shared prompt (spec 000 §2.9): 立即前往 goes to the profile and records the real-name event child (17)
  const posted = page.waitForRequest((r) => r.url().endsWith('/accounts/verify/statistics') && r.method() === 'POST' && r.postDataJSON()?.type === 17);
  await prompt.getByRole('button', { name: '立即前往' }).click();
  expect((await posted).postDataJSON()).toEqual({ type: 17 });
  await expect(page).toHaveURL(/\/account\/profile\/\?realname$/);
  await expect(prompt).toHaveCount(0);
});

test('the account menu leads to the account pages, with their sub-navigation', async ({ page }) => {
  await signIn(page);
  await page.locator('.account-menu').click();
  await page.getByRole('menuitem', { name: '子账号管理' }).click();
  await expect(page).toHaveURL(/\/account\/subaccount\/$/);
  const nav = page.getByRole('navigation', { name: '账号管理' });
  for (const [label, path] of [['安全设置', '/account/security/'], ['账号信息', '/account/profile/'], ['操作员管理', '/account/operators/']]) {
    await nav.getByRole('link', { name: label }).click();
    await expect(page).toHaveURL(new RegExp(`${path}$`));
    await expect(page.getByRole('heading', { name: label })).toBeVisible();
  }
  await nav.getByRole('link', { name: '操作日志' }).click();
  await expect(page.getByRole('heading', { name: '操作日志' })).toBeVisible();
});
