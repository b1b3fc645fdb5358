/** Each panel of spec 002 §2 "Other configuration panels", with its modals and the rules between settings. */
import type { Locator, Page } from '@playwright/test';
import { test, expect, signIn } from './helpers';

const panel = (page: Page, id: string) => page.locator(`[data-setting=${id}]`);
const summary = (page: Page, id: string) => panel(page, id).locator('.setting-summary');
/** Clicks a Blueprint radio by its label (waiting for the dialog's animation), then checks it took. */
async function choose(scope: Locator, label: string) {
  await scope.locator('label.bp6-radio').filter({ hasText: new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`) }).click();
  await expect(scope.getByRole('radio', { name: label, exact: true })).toBeChecked();
}

test('minimum TLS version and TLS 1.3 send the user to each other', async ({ page }) => {
  await signIn(page);
  await page.goto('/services/demo-cdn-05/httpsCdn/');
  await expect(summary(page, 'tls_min_version')).toHaveText('TLSv1.0（默认，支持全部版本）');
  await panel(page, 'tls_min_version').getByRole('button', { name: '管理' }).click();
  const dialog = page.getByRole('dialog', { name: '最低 TLS 版本配置' });
  await choose(dialog, 'TLSv1.3');
  await dialog.getByRole('button', { name: '确定' }).click();
  await expect(dialog.locator('.setting-failure')).toContainText('TLS 1.3 功能未开启，请先开启 TLS 1.3 后再选择 TLSv1.3');
  // the way out: turn TLS 1.3 on
  await dialog.getByRole('button', { name: '开启 TLS 1.3' }).click();
  const confirm = page.getByRole('alertdialog').last();
  await expect(confirm).toContainText('确定开启该服务的 TLS 1.3 功能吗？');
  await confirm.getByRole('button', { name: '确定' }).click();
  await expect(summary(page, 'tls13')).toHaveText('已开启');
  // now TLSv1.3 is accepted, with the spec's success text
  await panel(page, 'tls_min_version').getByRole('button', { name: '管理' }).click();
  await choose(dialog, 'TLSv1.3');
  await dialog.getByRole('button', { name: '确定' }).click();
  await expect(page.getByText('提交成功')).toBeVisible();
  await expect(summary(page, 'tls_min_version')).toHaveText('TLSv1.3');
  // turning TLS 1.3 off is refused straight away, before any confirmation, with a link to the minimum version
  await panel(page, 'tls13').locator('.setting-switch').click();
  await expect(confirm.locator('.setting-failure')).toContainText('当前最低 TLS 版本为 TLSv1.3，请先修改最低 TLS 版本后再关闭 TLS 1.3');
  await expect(confirm).not.toContainText('确定关闭该服务的 TLS 1.3 功能吗？');
  // 知道了 just closes it; the switch stays on
  await confirm.getByRole('button', { name: '知道了' }).click();
  await expect(page.getByRole('alertdialog')).toHaveCount(0);
  await expect(summary(page, 'tls13')).toHaveText('已开启');
  await panel(page, 'tls13').locator('.setting-switch').click();
  await confirm.getByRole('button', { name: '修改最低 TLS 版本' }).click();
  await expect(dialog).toBeVisible();
  await choose(dialog, 'TLSv1.2');
  await dialog.getByRole('button', { name: '确定' }).click();
  await expect(summary(page, 'tls_min_version')).toHaveText('TLSv1.2');
  await page.reload();
  await expect(summary(page, 'tls13')).toHaveText('已开启');
});

test('HTTP/2 and Server Push are one dialog: push shows while HTTP/2 is on, lines are checked, the label follows both', async ({ page }) => {
  await signIn(page);
  await page.goto('/services/demo-cdn-06/httpsCdn/');
  await expect(summary(page, 'http2')).toHaveText('已关闭');
  // spec 002 §2: one panel, the push options inside the HTTP/2 dialog
  await expect(panel(page, 'server_push')).toHaveCount(0);
  await panel(page, 'http2').getByRole('button', { name: '管理' }).click();
  const h2 = page.getByRole('dialog', { name: 'HTTP/2 配置' });
  const push = h2.locator('[data-part="server_push"]');
  await expect(push).toHaveCount(0);
  await h2.getByText('开启 HTTP/2', { exact: true }).click();
  await expect(push.getByRole('heading', { name: 'HTTP/2 Server Push' })).toBeVisible();
  await push.getByText('开启 Server Push').click();
  await expect(push.getByText('请填写匹配路径')).toBeVisible();
  await expect(h2.getByRole('button', { name: '确定' })).toBeDisabled();
  await push.locator('#server_push_server_push_options_url_patterns').fill('/index.html\nno-slash.html\n/img/*');
  await expect(push.getByText('第 2 行：匹配路径须以 / 开头，且不能包含 *')).toBeVisible();
  await expect(push.getByText('第 3 行：匹配路径须以 / 开头，且不能包含 *')).toBeVisible();
  await push.locator('#server_push_server_push_options_url_patterns').fill('/index.html');
  await push.locator('#server_push_server_push_options_assets').fill('/static/app.css');
  await h2.getByRole('button', { name: '确定' }).click();
  await expect(h2).toHaveCount(0);
  await expect(summary(page, 'http2')).toHaveText('HTTP/2 + Server Push 已开启');
  // turning HTTP/2 off turns push off with it (push needs HTTP/2), in the same 确定
  await panel(page, 'http2').getByRole('button', { name: '管理' }).click();
  await expect(push.locator('#server_push_server_push_options_assets')).toHaveValue('/static/app.css');
  await h2.getByText('开启 HTTP/2', { exact: true }).click();
  await expect(push).toHaveCount(0);
  await h2.getByRole('button', { name: '确定' }).click();
  await expect(summary(page, 'http2')).toHaveText('已关闭');
  await panel(page, 'http2').getByRole('button', { name: '管理' }).click();
  await h2.getByText('开启 HTTP/2', { exact: true }).click();
  await expect(push.getByLabel('开启 Server Push')).not.toBeChecked();
  await h2.getByRole('button', { name: '取消' }).click();
});

test('HTTP/3: beta, needs TLS 1.3, names the CNAME when turning on, notes when on', async ({ page }) => {
  await signIn(page);
  await page.goto('/services/demo-cdn-07/httpsCdn/');
  await expect(panel(page, 'http3').getByText('Beta')).toBeVisible();
  await panel(page, 'http3').locator('.setting-switch').click();
  const confirm = page.getByRole('alertdialog').last();
  await expect(confirm).toContainText('请将域名的 CNAME 解析修改为 http3-beta.cdn-cname.example.net');
  await confirm.getByRole('button', { name: '确定' }).click();
  await expect(confirm.locator('.setting-failure')).toContainText('HTTP/3 基于 TLS 1.3，请先开启 TLS 1.3 后再开启 HTTP/3');
  await confirm.getByRole('button', { name: '开启 TLS 1.3' }).click();
  await expect(confirm).toContainText('确定开启该服务的 TLS 1.3 功能吗？');
  await confirm.getByRole('button', { name: '确定' }).click();
  await expect(summary(page, 'tls13')).toHaveText('已开启');
  await expect(panel(page, 'http3').getByRole('button', { name: '使用前必读' })).toHaveCount(0);
  await panel(page, 'http3').locator('.setting-switch').click();
  await confirm.getByRole('button', { name: '确定' }).click();
  await expect(summary(page, 'http3')).toHaveText('已开启');
  await panel(page, 'http3').getByRole('button', { name: '使用前必读' }).click();
  await expect(page.getByRole('dialog', { name: 'HTTP/3 使用须知' })).toContainText('QUIC');
});

test('overseas services always have HTTP/2: no manage button, the overseas help text', async ({ page }) => {
  await signIn(page);
  await page.goto('/services/demo-global/httpsOverseas/');
  await expect(summary(page, 'http2')).toHaveText('已开启');
  await expect(panel(page, 'http2').getByRole('button', { name: '管理' })).toHaveCount(0);
  await panel(page, 'http2').getByRole('button', { name: '查看说明' }).click();
  await expect(panel(page, 'http2')).toContainText('海外加速服务始终开启 HTTP/2，无需配置。');
});

test('mirror migration: destination required, picked from file services, change confirmed', async ({ page }) => {
  await signIn(page);
  await page.goto('/services/demo-cdn-08/sourceCdn/');
  const p = panel(page, 'mirror');
  await expect(summary(page, 'mirror')).toHaveText('未开启');
  await expect(p).toContainText('已使用存储：0 B');
  await p.getByRole('button', { name: '管理' }).click();
  const dialog = page.getByRole('dialog', { name: '源站资源迁移配置' });
  await choose(dialog, '开启');
  await expect(dialog.getByText('请选择云存储空间')).toBeVisible();
  await expect(dialog.getByRole('button', { name: '确定' })).toBeDisabled();
  await dialog.locator('#root_url_patterns').fill('/images/*\n/images/*\n/static/*.js');
  await dialog.getByRole('option', { name: 'demo-assets' }).click();
  await expect(dialog.getByText('已选择：demo-assets')).toBeVisible();
  await dialog.getByRole('button', { name: '确定' }).click();
  await expect(page.getByText('源站资源迁移成功')).toBeVisible();
  await expect(summary(page, 'mirror')).toHaveText('已开启');
  // changing the destination asks first
  await p.getByRole('button', { name: '管理' }).click();
  await expect(dialog.locator('#root_url_patterns')).toHaveValue('/images/*\n/static/*.js');
  await dialog.getByRole('option', { name: 'demo-backup' }).click();
  await dialog.getByRole('button', { name: '确定' }).click();
  const ask = page.getByRole('alertdialog');
  await expect(ask).toContainText('更换目标云存储空间后');
  await ask.getByRole('button', { name: '确定' }).click();
  await expect(dialog).toBeHidden();
  await p.getByRole('button', { name: '管理' }).click();
  await expect(dialog.getByText('已选择：demo-backup')).toBeVisible();
});

test('mirror migration: an old migration warns, and changing from its own bucket asks first; 50 paths count without repeats', async ({ page }) => {
  await signIn(page);
  // an old migration: on, with no destination stored (spec 002 §4: the service's own bucket is used)
  const old = { mirror: 'enable', url_patterns: ['/img/*'], mirror_bucket: '' };
  await page.route(/\/api\/settings\/mirror\/\?/, (r) =>
    r.request().method() === 'GET' ? r.fulfill({ json: { result: true, error_code: 0, data: old, summary: '已开启', summary_intent: 'success', fixed: false } }) : r.continue(),
  );
  await page.goto('/services/demo-cdn-05/sourceCdn/');
  await expect(summary(page, 'mirror')).toHaveText('已开启');
  await panel(page, 'mirror').getByRole('button', { name: '管理' }).click();
  const dialog = page.getByRole('dialog', { name: '源站资源迁移配置' });
  await expect(dialog.locator('.setting-warning')).toContainText('您的服务正在使用旧版迁移');
  await expect(dialog.getByText('已选择：demo-cdn-05')).toBeVisible();
  // 50 different paths and one repeat: accepted (the repeat is removed before counting)
  const unique = Array.from({ length: 50 }, (_, i) => `/p${i}/*`);
  await dialog.locator('#root_url_patterns').fill([...unique, '/p3/*'].join('\n'));
  await expect(dialog.getByText('个数超出限制')).toHaveCount(0);
  await dialog.locator('#root_url_patterns').fill([...unique, '/p50/*'].join('\n'));
  await expect(dialog.getByText('个数超出限制')).toBeVisible();
  await dialog.locator('#root_url_patterns').fill([...unique, '/p3/*'].join('\n'));
  await expect(dialog.getByRole('button', { name: '确定' })).toBeEnabled();
  // changing the destination away from the service's own bucket asks about origin pressure
  await dialog.getByRole('option', { name: 'demo-assets' }).click();
  await dialog.getByRole('button', { name: '确定' }).click();
  const ask = page.getByRole('alertdialog');
  await expect(ask).toContainText('更换目标云存储空间后，回源请求将重新迁移到新的存储空间');
  await ask.getByRole('button', { name: '取消' }).click();
  await expect(ask).toBeHidden();
  await dialog.getByRole('button', { name: '取消' }).click();
  await expect(dialog).toBeHidden();
});

test('a key customer sees the lock message and cannot change anything', async ({ page }) => {
  await signIn(page, 'demokey');
  // without the smart compression business flag (only demo has it) the panel is not shown at all
  await page.goto('/services/key-www/optimizeCdn/');
  await expect(page.locator('[data-setting]').first()).toBeVisible();
  await expect(panel(page, 'compression')).toHaveCount(0);
  await page.goto('/services/key-www/httpsCdn/');
  await panel(page, 'tls_min_version').getByRole('button', { name: '管理' }).click();
  await expect(page.getByText('因贵司属于重要客户，为防止误操作，已对相关配置进行锁定保护，如需修改请联系我们。')).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await panel(page, 'tls13').locator('.setting-switch').click();
  await expect(page.getByRole('alertdialog')).toHaveCount(0);
  await expect(summary(page, 'tls13')).toHaveText('未开启');
});

test('an overseas service still pending goes back to the overseas list', async ({ page }) => {
  await signIn(page);
  await page.goto('/services/demo-sg/domainsOverseas/');
  await expect(page.getByText('服务待验证中')).toBeVisible();
  await expect(page).toHaveURL(/\/services\/overseas\/$/);
  await page.goto('/services/demo-us/domainsOverseas/');
  await expect(page.getByText('服务部署中')).toBeVisible();
});

test('the service search box opens the domains page of the chosen service', async ({ page }) => {
  await signIn(page);
  await page.getByPlaceholder('搜索服务名称').fill('demo-cla');
  await page.getByRole('menuitem', { name: /demo-class/ }).click();
  await expect(page).toHaveURL(/\/services\/demo-class\/domainLive\/$/);
});
