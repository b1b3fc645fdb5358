/**
 * The account's own pages in the browser (spec 000 §2.4, §2.6–§2.8, §5; docs/accounts.md): creating,
 * editing and deleting an operator; turning login verification on and signing in with the SMS code
 * (the seed's demosec); identity photos refused for size and type; a message read in the centre.
 */
import { test, expect, signIn, PASSWORD } from './helpers';

const rnd = () => Math.random().toString(36).slice(2, 8).replace(/[^a-z0-9]/g, 'x');

test('operators: add with generated secrets, edit, disable, delete', async ({ page }) => {
  await signIn(page);
  await page.goto('/account/operators/');
  await expect(page.getByRole('heading', { name: '操作员管理' })).toBeVisible();
  const name = `op_${rnd()}`;
  await page.getByRole('button', { name: '添加操作员' }).first().click();
  const dialog = page.getByRole('dialog', { name: '添加操作员' });
  await dialog.locator('#root_operator_name').fill('demo_uploader');
  await expect(dialog.getByText('操作员名称已存在')).toBeVisible();
  await dialog.locator('#root_operator_name').fill(name);
  await expect(dialog.getByText('操作员名称已存在')).toBeHidden();
  await dialog.getByRole('button', { name: '随机生成密码' }).click();
  await dialog.getByRole('button', { name: '随机生成密钥' }).click();
  await expect(dialog.locator('#root_ak')).toHaveValue(/^[A-Za-z0-9]{32}$/);
  // read is on by default; with none ticked the form says so
  await expect(dialog.getByRole('checkbox', { name: '可读取' })).toBeChecked();
  await dialog.getByText('可读取').click();
  await dialog.getByRole('button', { name: '确定' }).click();
  await expect(dialog.getByText('读取、写入、删除权限至少选择一项').first()).toBeVisible();
  await dialog.getByText('可读取').click();
  await dialog.getByText('可写入').click();
  await dialog.getByRole('button', { name: '确定' }).click();
  await expect(page.getByText('创建成功!')).toBeVisible();
  const row = page.locator(`tr[data-operator="${name}"]`);
  await expect(row).toContainText(name); // remark defaults to the name
  await expect(row.locator('td').nth(1)).toHaveText(name);
  await expect(row).toContainText('读取');
  await expect(row).toContainText('写入');

  await row.getByRole('button', { name: '编辑' }).click();
  const edit = page.getByRole('dialog', { name: '编辑操作员' });
  await expect(edit.locator('#root_operator_name')).toHaveAttribute('readonly', '');
  await edit.locator('#root_realname').fill('发布机器人');
  await edit.getByRole('button', { name: '确定' }).click();
  await expect(page.getByText('修改成功!配置将在 5 分钟内生效')).toBeVisible();
  await expect(row.locator('td').nth(1)).toHaveText('发布机器人');

  await expect(row.locator('td').nth(2)).toHaveText('正常');
  await row.getByRole('button', { name: '禁用' }).click();
  await expect(row.locator('td').nth(2)).toHaveText('已禁用');
  await expect(row.getByRole('button', { name: '启用' })).toBeVisible();
  // disabled operators are listed after the enabled ones
  await expect(page.locator('tbody tr').last()).toHaveAttribute('data-operator', name);

  await row.getByRole('button', { name: '删除' }).click();
  await page.locator('.operator-delete-alert').getByRole('button', { name: '删除' }).click();
  await expect(page.getByText('删除成功!')).toBeVisible();
  await expect(row).toHaveCount(0);
});

test('security: turn login verification on, sign in with the SMS code, turn it off', async ({ page, browser }) => {
  await signIn(page, 'demosec');
  await page.goto('/account/security/');
  const panel = page.locator('.two-step-panel');
  await expect(panel.locator('.two-step-state')).toHaveText('未开启');
  await panel.locator('label.two-step-switch').click();
  const confirm = page.getByRole('dialog', { name: '登录验证' });
  await expect(confirm).toContainText('确定开启登录验证吗');
  await confirm.getByRole('button', { name: '确定' }).click();
  await expect(confirm).toBeHidden();
  await expect(panel.locator('.two-step-state')).toHaveText('开启');

  const other = await browser.newPage();
  await other.goto('/login/');
  await other.locator('#login-username').fill('demosec');
  await other.locator('#login-password').fill(PASSWORD);
  await other.getByRole('button', { name: '登录' }).click();
  await expect(other.getByText(/验证码已发送至 137\*\*\*\*7011/)).toBeVisible();
  const sms = await (await other.request.get('/api/dev/sms_outbox/?mobile=13700137011')).json();
  await other.locator('#login-code').fill(/(\d{6})/.exec(sms.data[0].text)![1]);
  await other.getByRole('button', { name: '登录' }).click();
  await expect(other).toHaveURL(/\/dashboard\/$/);
  await other.close();

  await panel.locator('label.two-step-switch').click();
  await expect(confirm).toContainText('确定关闭登录验证吗');
  await confirm.getByRole('button', { name: '确定' }).click();
  await expect(panel.locator('.two-step-state')).toHaveText('未开启');
});

test('real-name photos: a file over 5 MB and a file that is not an image are refused', async ({ page }) => {
  await signIn(page, 'demonew');
  await page.goto('/account/profile/');
  await expect(page.locator('.verify-state')).toHaveText('未认证');
  await page.getByRole('button', { name: '立即认证' }).click();
  await page.getByRole('dialog', { name: '选择认证类型' }).getByRole('button', { name: '个人认证' }).click();
  await expect(page).toHaveURL(/\/account\/verifypersonal\/$/);
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  await page.locator('#photo-front').setInputFiles({ name: 'big.png', mimeType: 'image/png', buffer: Buffer.concat([png, Buffer.alloc(5 * 1024 * 1024)]) });
  await expect(page.locator('[data-photo=front] .verify-photo-error')).toHaveText('照片大小不超过5M');
  await page.locator('#photo-back').setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: Buffer.from('this is text, not a picture') });
  await expect(page.locator('[data-photo=back] .verify-photo-error')).toHaveText('仅支持 .jpg .jpeg .bmp .gif .png 格式');
  await page.locator('#photo-back').setInputFiles({ name: 'ok.png', mimeType: 'image/png', buffer: png });
  await expect(page.locator('[data-photo=back] .verify-photo-error')).toHaveCount(0);
});

test('messages: the bell counts unread, the centre opens one and marks it read', async ({ page }) => {
  await signIn(page);
  const bell = page.locator('.message-bell');
  await expect(bell.locator('.message-badge')).toBeVisible();
  await bell.click();
  await page.locator('.message-menu').getByRole('menuitem', { name: '消息中心', exact: true }).click();
  await expect(page).toHaveURL(/\/account\/message\/$/);
  await page.getByRole('tab', { name: /功能更新/ }).click();
  const row = page.locator('tr[data-message="欢迎使用消息中心"]');
  await expect(row).toContainText('未读');
  await row.getByRole('link', { name: '欢迎使用消息中心' }).click();
  await expect(page.locator('.message-body')).toContainText('打开一条消息即标为已读');
  await page.getByRole('link', { name: /返回消息列表/ }).click();
  // 返回 keeps the list's filter (spec 000 §2.8)
  await expect(page).toHaveURL(/\/account\/message\/\?type=feature_update$/);
  await expect(page.getByRole('tab', { name: /功能更新/ })).toHaveAttribute('aria-selected', 'true');
  await expect(page.locator('tr[data-message="欢迎使用消息中心"]')).toContainText('已读');
});

test('popups take turns: the unread platform notice and the popup announcement never show together', async ({ page }) => {
  // both popups are answered here, so the shared server's messages and announcements stay as they are
  let noticeRead = false;
  let announcementSeen = false;
  const notice = { account_message_id: 990001, type: 'platform_notify', category: 'platform', title: '平台维护通知', body: '今晚 23:00 维护。', link: null, status: 'unread', mode: 'popup', create_at: 1700000000 };
  await page.route('**/api/messages/unread/', (route) =>
    route.fulfill({
      json: { result: true, error_code: 0, data: { total: noticeRead ? 0 : 1, by_type: { platform_notify: noticeRead ? 0 : 1, feature_update: 0, market_activity: 0, service_feedback: 0 }, latest: [], popup: noticeRead ? null : notice } },
    }),
  );
  await page.route('**/api/messages/', (route) => {
    if (route.request().method() !== 'POST') return route.fallback();
    noticeRead = true;
    return route.fulfill({ json: { result: true, error_code: 0 } });
  });
  await page.route('**/api/announcements/popup', (route) => {
    if (route.request().method() === 'POST') {
      announcementSeen = true;
      return route.fulfill({ json: { result: true, error_code: 0 } });
    }
    return route.fulfill({ json: { result: true, error_code: 0, data: announcementSeen ? null : { id: 990002, title: '新功能上线', body: '欢迎试用。', link: null } } });
  });
  await signIn(page);
  // the open dialogs (a closed one may linger in the DOM while it fades out)
  const popups = page.locator('.bp6-overlay.bp6-overlay-open').getByRole('dialog');
  // one popup, then the other once it is closed, never both
  await expect(popups).toHaveCount(1);
  await page.waitForTimeout(500);
  await expect(popups).toHaveCount(1);
  const first = (await popups.getAttribute('class'))!.includes('message-popup') ? '平台维护通知' : '新功能上线';
  const second = first === '平台维护通知' ? '新功能上线' : '平台维护通知';
  await expect(popups).toContainText(first);
  await popups.getByRole('button', { name: '知道了' }).click();
  await expect(popups).toContainText(second);
  await expect(popups).toHaveCount(1);
  await popups.getByRole('button', { name: '知道了' }).click();
  await expect(popups).toHaveCount(0);
  await expect.poll(() => [noticeRead, announcementSeen]).toEqual([true, true]);
});

test('back from real-name verification (?verifiedAccount): the profile is read again and says so once', async ({ page }) => {
  await signIn(page, 'demonew');
  const reads: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'GET' && new URL(r.url()).pathname === '/accounts/profile/') reads.push(r.url());
  });
  await page.goto('/account/profile/?verifiedAccount');
  await expect(page.getByText('提交成功，请等待审核')).toBeVisible();
  await expect(page.locator('.verify-state')).toBeVisible();
  // the state param is spent: a reload does not say it again
  await expect(page).toHaveURL(/\/account\/profile\/$/);
  await expect.poll(() => reads.length).toBeGreaterThanOrEqual(2);
  await page.reload();
  await expect(page.locator('.verify-state')).toBeVisible();
  await expect(page.getByText('提交成功，请等待审核')).toHaveCount(0);
});

test("a page's own action sits at the right of its title, on the sub-account and operator pages alike", async ({ page }) => {
  await signIn(page);
  for (const [path, title, action] of [
    ['/account/subaccount/', '子账号管理', '创建子账号'],
    ['/account/operators/', '操作员管理', '添加操作员'],
    ['/work/', '工单', '提交工单'],
  ]) {
    await page.goto(path);
    const head = page.locator('.page-head').filter({ has: page.getByRole('heading', { name: title, exact: true }) });
    const button = head.getByRole('button', { name: action });
    await expect(button).toBeVisible();
    const [h, b] = [await head.boundingBox(), await button.boundingBox()];
    // the button ends where the head ends, not beside the title
    expect(Math.abs(h!.x + h!.width - (b!.x + b!.width)), path).toBeLessThan(2);
  }
});
