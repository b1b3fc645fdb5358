/**
 * Edge rules in the browser (spec 002 §2, §4, §5, §8): add in general mode, edit in programming
 * mode (Monaco), reorder by drag (mouse and keyboard), change the status, delete, and the tester.
 * Each test works on its own service, so they can run side by side.
 */
import type { Page, Locator } from '@playwright/test';
import { test, expect, signIn } from './helpers';

const listUrl = (bucket: string) => `/services/${bucket}/edgeCalcCdn/`;

async function createRule(page: Page, bucket: string, rule: Record<string, unknown>) {
  const res = await page.request.put('/api/buckets/rewrite/', { data: { bucket_name: bucket, type: 'general', break: false, status: 'ON', ...rule } });
  expect(res.ok()).toBe(true);
  return (await res.json()).data;
}

/** Removes a service's rules, so a test (or a retry) starts from an empty list. */
async function reset(page: Page, bucket: string) {
  for (;;) {
    const res = await page.request.get(`/api/buckets/rewrite/?bucket_name=${bucket}&perPage=100`);
    const rows = (await res.json()).data.rewrite as { rewrite_id: number }[];
    if (!rows.length) return;
    for (const r of rows) await page.request.delete(`/api/buckets/rewrite/?rewrite_id=${r.rewrite_id}`);
  }
}

const deny = (describe: string, priority: number, uri = `/${describe}`) => ({
  describe,
  priority,
  content: { conditions: [{ lvalue: { type: 'variable', value: 'http_uri' }, rvalue: { type: 'literal', value: uri }, operator: 'equal', case_sensitive: true }], actions: [{ type: 'access_control', code: 403 }] },
});

/** Names of the rows in order, as "priority:name". */
async function order(page: Page): Promise<string[]> {
  const rows = page.locator('tr.edge-row');
  const n = await rows.count();
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(`${(await rows.nth(i).locator('.edge-priority').innerText()).trim()}:${await rows.nth(i).getAttribute('data-rule')}`);
  return out;
}

const row = (page: Page, name: string) => page.locator(`tr.edge-row[data-rule="${name}"]`);

/** Types into Monaco without its auto-closing of brackets and quotes. */
async function typeProgram(page: Page, editor: Locator, text: string) {
  await editor.locator('.view-lines').click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
}

test('add a general rule: defaults, every error on confirm, feature and variable changes, DEBUG for my address', async ({ page }) => {
  await signIn(page);
  await reset(page, 'demo-cdn-01');
  await page.goto(listUrl('demo-cdn-01'));
  await expect(page.getByRole('heading', { name: '边缘规则', exact: true })).toBeVisible();
  await expect(page.getByText('暂无可查看的边缘规则')).toBeVisible();
  await page.getByRole('button', { name: '添加规则' }).first().click();
  await expect(page).toHaveURL(/\/services\/demo-cdn-01\/edgeCalcCdn\/manage\/$/);
  await expect(page.getByRole('heading', { name: '添加边缘规则' })).toBeVisible();
  // a new rule is DEBUG for the caller's address, priority rules + 1
  await expect(page.getByRole('radio', { name: '调试' })).toBeChecked();
  await expect(page.locator('#edge-ip')).toHaveValue('127.0.0.1');
  await expect(page.locator('#edge-priority')).toHaveValue('1');
  // confirm marks the form dirty: every error shows
  await page.getByRole('button', { name: '确定' }).click();
  await expect(page.getByText('请填写规则名称')).toBeVisible();
  await expect(page.getByText('请填写匹配值')).toBeVisible();
  await expect(page.getByText('请填写 Header 域名')).toBeVisible();
  await expect(page.getByText('请填写 Header 域值')).toBeVisible();
  await expect(page).toHaveURL(/manage\/$/);

  await page.locator('#edge-describe').fill('静态资源跨域');
  const cond = page.getByTestId('condition-0');
  // another variable: its default value, equal, and only equal / not equal
  await cond.getByRole('combobox', { name: '变量' }).selectOption({ label: '请求方法' });
  await expect(cond.getByRole('combobox', { name: '匹配值' })).toHaveValue('GET');
  await expect(cond.getByRole('combobox', { name: '匹配方式' }).locator('option')).toHaveText(['等于', '不等于']);
  await cond.getByRole('combobox', { name: '变量' }).selectOption({ label: '请求头' });
  await cond.getByRole('textbox', { name: '请求头名称' }).fill('Origin');
  await cond.getByRole('textbox', { name: '匹配值' }).fill('https://www.example.com');
  // a second condition with a bad regular expression
  await page.getByRole('button', { name: '添加条件' }).click();
  const second = page.getByTestId('condition-1');
  await second.getByRole('combobox', { name: '匹配方式' }).selectOption({ label: '正则匹配' });
  await second.getByRole('textbox', { name: '匹配值' }).fill('([a-z');
  await expect(page.getByText('请填写正则表达式')).toBeVisible();
  await second.getByRole('textbox', { name: '匹配值' }).fill('\\.(css|js)$');
  await expect(page.getByText('请填写正则表达式')).toBeHidden();

  const name = page.getByRole('textbox', { name: 'Header 域名' });
  await name.fill('Server');
  await expect(page.getByText('Header 域名不符合规范')).toBeVisible();
  // changing the feature clears the header name and offers the feature's codes
  await page.getByRole('combobox', { name: '功能' }).selectOption({ label: '访问控制' });
  await expect(page.getByRole('combobox', { name: '状态码' }).locator('option')).toHaveText(['403', '404']);
  await page.getByRole('combobox', { name: '功能' }).selectOption({ label: '添加 Header' });
  await expect(name).toHaveValue('');
  await name.fill('Access-Control-Allow-Origin');
  await page.getByRole('textbox', { name: 'Header 域值' }).fill('*');
  await page.getByText('覆盖同名 Header').click();

  // another status clears the IP; DEBUG fetches my address again
  await page.getByText('开启', { exact: true }).click();
  await expect(page.locator('#edge-ip')).toBeHidden();
  await page.getByText('调试', { exact: true }).click();
  await expect(page.locator('#edge-ip')).toHaveValue('127.0.0.1');
  await page.locator('#edge-ip').fill('10.0.0.300');
  await expect(page.getByText('请填写合法的 IP')).toBeVisible();
  await page.getByText('开启', { exact: true }).click();
  await page.getByText('匹配后不再执行后续规则').click();

  await page.getByRole('button', { name: '确定' }).click();
  await expect(page.getByText('保存成功')).toBeVisible();
  await expect(page).toHaveURL(/\/services\/demo-cdn-01\/edgeCalcCdn\/$/);
  const r = row(page, '静态资源跨域');
  await expect(r.locator('.edge-priority')).toHaveText('1');
  await expect(r.getByRole('combobox')).toHaveValue('ON');
  await expect(r.getByLabel('匹配后中断')).toBeVisible();
  await r.getByRole('button', { name: '静态资源跨域', exact: true }).click();
  await expect(page.locator('.edge-detail')).toContainText('请求头 Origin 等于 “https://www.example.com”（区分大小写） 且 请求 URI 正则匹配 “\\.(css|js)$”（区分大小写）');
  await expect(page.locator('.edge-detail')).toContainText('添加响应头 Access-Control-Allow-Origin: *（覆盖同名 Header）');
});

test('edit a rule in programming mode: highlighting, markers, the check, saving', async ({ page }) => {
  await signIn(page);
  await reset(page, 'demo-cdn-02');
  await createRule(page, 'demo-cdn-02', deny('旧规则', 1));
  await page.goto(listUrl('demo-cdn-02'));
  await row(page, '旧规则').getByRole('button', { name: '编辑' }).click();
  await expect(page.getByRole('heading', { name: '编辑边缘规则' })).toBeVisible();
  await expect(page.locator('#edge-describe')).toHaveValue('旧规则');
  await expect(page.getByTestId('condition-0').getByRole('textbox', { name: '匹配值' })).toHaveValue('/旧规则');
  await page.getByText('编程模式').click();
  const editor = page.getByTestId('rule-editor');
  await expect(editor.locator('.monaco-editor')).toBeVisible({ timeout: 30_000 });
  // confirm without a program
  await page.getByRole('button', { name: '确定' }).click();
  await expect(page.getByText('规则编辑器不能为空！')).toBeVisible();
  // a syntax error: a marker in the editor and its place under it
  await typeProgram(page, editor, "$WHEN($MATCH($_URI, '\\.m3u8$'), $NOT($_GET_sign))\n$EXIT(403");
  await expect(editor.locator('.squiggly-error')).toHaveCount(1, { timeout: 10_000 });
  await expect(page.getByText('第 2 行第 1 列：函数 $EXIT 缺少右括号 )')).toBeVisible();
  // the language is highlighted
  await expect(editor.locator('.view-lines .mtkb', { hasText: '$WHEN' }).first()).toBeVisible();
  await page.getByRole('button', { name: '校验' }).click();
  await expect(page.locator('.edge-check-result')).toHaveText('元数据校验未通过：第 2 行第 1 列：函数 $EXIT 缺少右括号 )');
  await typeProgram(page, editor, "$WHEN($MATCH($_URI, '\\.m3u8$'), $NOT($_GET_sign))\n$EXIT(403)");
  await expect(editor.locator('.squiggly-error')).toHaveCount(0, { timeout: 10_000 });
  await page.getByRole('button', { name: '校验' }).click();
  await expect(page.locator('.edge-check-result')).toHaveText('元数据校验成功');
  // completion lists the functions with their Chinese description
  await editor.locator('.view-lines').click();
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  await page.keyboard.type('$RED');
  // typing opens the list; on a loaded machine it can open before the provider answers and stay empty,
  // so ask for it again (Ctrl+Space) until it lists the function
  await expect(async () => {
    if (!((await page.locator('.suggest-widget').textContent()) ?? '').includes('$REDIRECT')) await page.keyboard.press('Control+Space');
    await expect(page.locator('.suggest-widget')).toContainText('$REDIRECT', { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await expect(page.locator('.suggest-widget')).toContainText('以 301 或 302 重定向到 url，并结束整个规则集');
  await page.keyboard.press('Escape');
  await page.keyboard.press('Backspace');
  await page.keyboard.press('Backspace');
  await page.keyboard.press('Backspace');
  await page.keyboard.press('Backspace');
  await page.getByRole('button', { name: '确定' }).click();
  await expect(page.getByText('保存成功')).toBeVisible();
  const r = row(page, '旧规则');
  await expect(r.getByText('编程模式')).toBeVisible();
  await r.getByRole('button', { name: '旧规则', exact: true }).click();
  await expect(page.locator('.edge-rule-text')).toHaveText("$WHEN($MATCH($_URI, '\\.m3u8$'), $NOT($_GET_sign))\n$EXIT(403)");
});

test('edit a general rule in general mode: its values load split, the changes and the new priority are saved', async ({ page }) => {
  await signIn(page);
  await reset(page, 'demo-cdn-09');
  await createRule(page, 'demo-cdn-09', deny('第一条', 1));
  await createRule(page, 'demo-cdn-09', {
    describe: '限速规则',
    priority: 2,
    content: { conditions: [{ lvalue: { type: 'variable', value: 'http_cookie_vip-level' }, rvalue: { type: 'literal', value: '0' }, operator: 'equal', case_sensitive: true }], actions: [{ type: 'limit_rate', rate: '512KB', after: '2MB' }] },
  });
  await page.goto(listUrl('demo-cdn-09'));
  await row(page, '限速规则').getByRole('button', { name: '编辑' }).click();
  const cond = page.getByTestId('condition-0');
  // the prefixed variable comes back split from its parameter, the rate from its unit
  await expect(cond.getByRole('combobox', { name: '变量' })).toHaveValue('http_cookie_');
  await expect(cond.getByRole('textbox', { name: 'Cookie 名称' })).toHaveValue('vip-level');
  await expect(page.getByRole('textbox', { name: '限速值', exact: true })).toHaveValue('512');
  await expect(page.getByRole('combobox', { name: '限速策略单位' })).toHaveValue('MB');
  await page.getByRole('textbox', { name: '限速值', exact: true }).fill('0');
  await page.getByRole('button', { name: '确定' }).click();
  await expect(page.getByText('不符合限速值的填写规范')).toBeVisible();
  await page.getByRole('textbox', { name: '限速值', exact: true }).fill('1');
  await page.getByRole('combobox', { name: '限速值单位' }).selectOption('MB');
  await page.locator('#edge-describe').fill('VIP 以外限速');
  await page.locator('#edge-priority').fill('1');
  await page.getByRole('button', { name: '确定' }).click();
  await expect(page.getByText('保存成功')).toBeVisible();
  await expect.poll(() => order(page)).toEqual(['1:VIP 以外限速', '2:第一条']);
  await row(page, 'VIP 以外限速').getByRole('button', { name: 'VIP 以外限速', exact: true }).click();
  await expect(page.locator('.edge-detail')).toContainText('Cookie vip-level 等于 “0”（区分大小写）');
  await expect(page.locator('.edge-detail')).toContainText('限速 1MB/s，先不限速传输 2MB');
});

test('reorder rules by drag with the mouse and with the keyboard; the order is saved', async ({ page }) => {
  await signIn(page);
  await reset(page, 'demo-cdn-03');
  for (const [i, n] of ['甲', '乙', '丙'].entries()) await createRule(page, 'demo-cdn-03', deny(n, i + 1));
  await page.goto(listUrl('demo-cdn-03'));
  await expect.poll(() => order(page)).toEqual(['1:甲', '2:乙', '3:丙']);
  // mouse: drag 丙 onto 甲
  const from = await row(page, '丙').locator('.edge-handle').boundingBox();
  const to = await row(page, '甲').boundingBox();
  await page.mouse.move(from!.x + from!.width / 2, from!.y + from!.height / 2);
  await page.mouse.down();
  await page.mouse.move(from!.x + 5, from!.y - 10, { steps: 5 });
  await page.mouse.move(to!.x + 20, to!.y + to!.height / 4, { steps: 15 });
  await page.mouse.up();
  await expect(page.getByText('优先级调整成功')).toBeVisible();
  await expect.poll(() => order(page)).toEqual(['1:丙', '2:甲', '3:乙']);
  // keyboard: pick 丙 up with space, move it down one, drop it
  await row(page, '丙').locator('.edge-handle').focus();
  await page.keyboard.press('Space');
  await page.waitForTimeout(200);
  await page.keyboard.press('ArrowDown');
  await page.waitForTimeout(200);
  await page.keyboard.press('Space');
  await expect.poll(() => order(page)).toEqual(['1:甲', '2:丙', '3:乙']);
  await page.reload();
  await expect.poll(() => order(page)).toEqual(['1:甲', '2:丙', '3:乙']);
});

test('change the status from the list, and delete a rule after the confirmation', async ({ page }) => {
  await signIn(page);
  await reset(page, 'demo-cdn-04');
  await createRule(page, 'demo-cdn-04', deny('待删除', 1));
  await page.goto(listUrl('demo-cdn-04'));
  const status = row(page, '待删除').getByRole('combobox');
  await status.selectOption({ label: '关闭' });
  await expect(page.getByText('状态修改成功')).toBeVisible();
  await page.reload();
  await expect(status).toHaveValue('OFF');
  await status.selectOption({ label: '调试' });
  await expect(row(page, '待删除').locator('.edge-ip')).toHaveText('127.0.0.1');

  await row(page, '待删除').getByRole('button', { name: '删除', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: '规则删除' });
  await expect(dialog).toContainText('确定删除这条规则吗？');
  await dialog.getByRole('button', { name: '取消' }).click();
  await expect(row(page, '待删除')).toBeVisible();
  await row(page, '待删除').getByRole('button', { name: '删除', exact: true }).click();
  await dialog.getByRole('button', { name: '确定' }).click();
  await expect(page.getByText('删除成功')).toBeVisible();
  await expect(page.getByText('暂无可查看的边缘规则')).toBeVisible();
});

test('the tester shows what the stored rules, and the rule being edited, would do', async ({ page }) => {
  await signIn(page);
  await reset(page, 'demo-cdn-07');
  await createRule(page, 'demo-cdn-07', { describe: 'm3u8 防盗链', priority: 1, type: 'custom', pattern: '', rule: "$WHEN($MATCH($_URI, '\\.m3u8$'), $NOT($_GET_sign))$EXIT(403)" });
  await createRule(page, 'demo-cdn-07', { describe: '加响应头', priority: 2, type: 'custom', pattern: '', rule: '$ADD_RSP_HEADER(X-Served-By, edge, 1)' });
  await page.goto(listUrl('demo-cdn-07'));
  await page.getByRole('button', { name: '规则测试' }).click();
  const drawer = page.getByTestId('rule-tester');
  await drawer.locator('#tester-uri').fill('/live/a.m3u8');
  await drawer.getByRole('button', { name: '运行测试' }).click();
  const result = page.getByTestId('test-result');
  await expect(result).toContainText('直接响应 403');
  await expect(result.locator('.edge-trace-table')).toContainText('m3u8 防盗链命中');
  await expect(result.locator('.edge-trace-table')).toContainText('未执行（规则集已结束）');
  await drawer.locator('#tester-uri').fill('/live/a.m3u8?sign=abc');
  await drawer.getByRole('button', { name: '运行测试' }).click();
  await expect(result).toContainText('请求继续处理');
  await expect(result).toContainText('X-Served-By');
  await drawer.locator('#tester-uri').fill('no-slash');
  await expect(drawer.getByText('请填写以 / 开头的 URI')).toBeVisible();
  await expect(drawer.getByRole('button', { name: '运行测试' })).toBeDisabled();
  await page.locator('.bp6-drawer-header button').click();

  // beside the editor: the rule being edited, merged into the stored ones
  await page.getByRole('button', { name: '添加规则' }).first().click();
  await page.locator('#edge-describe').fill('旧路径跳转');
  await page.getByRole('combobox', { name: '功能' }).selectOption({ label: '边缘重定向' });
  await page.getByTestId('condition-0').getByRole('combobox', { name: '匹配方式' }).selectOption({ label: '正则匹配' });
  await page.getByTestId('condition-0').getByRole('textbox', { name: '匹配值' }).fill('^/old/');
  await page.getByRole('textbox', { name: 'URI 字符串提取' }).fill('^/old/(.*)$');
  await page.getByRole('textbox', { name: '重定向地址' }).fill('https://new.example.com/$1');
  await page.locator('#edge-priority').fill('1');
  const tester = page.getByTestId('rule-tester');
  await tester.locator('#tester-uri').fill('/old/a.html');
  await tester.getByRole('button', { name: '运行测试' }).click();
  const res = tester.getByTestId('test-result');
  await expect(res).toContainText('重定向 301');
  await expect(res).toContainText('https://new.example.com/a.html');
  await expect(res.locator('.edge-trace-table')).toContainText('旧路径跳转命中');
  // nothing was saved
  await page.getByRole('button', { name: '取消' }).click();
  await expect.poll(() => order(page)).toEqual(['1:m3u8 防盗链', '2:加响应头']);
});

test('the editor without a priority returns to the list; key customers cannot change rules', async ({ page }) => {
  await signIn(page);
  await page.goto('/services/demo-cdn-08/edgeCalcCdn/manage/');
  await expect(page).toHaveURL(/\/services\/demo-cdn-08\/edgeCalcCdn\/$/);
  await expect(page.getByText('暂无可查看的边缘规则')).toBeVisible();
  await page.context().clearCookies();
  await signIn(page, 'demokey');
  await page.goto(listUrl('key-www'));
  await page.getByRole('button', { name: '添加规则' }).first().click();
  await expect(page.getByText('因贵司属于重要客户，为防止误操作，已对相关配置进行锁定保护，如需修改请联系我们。')).toBeVisible();
  await expect(page).toHaveURL(/\/services\/key-www\/edgeCalcCdn\/$/);
});
