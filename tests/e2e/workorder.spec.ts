import { test, expect, allowConsoleError, signIn } from './helpers';

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]);

test('open a work order with an attachment, see it in the list and its detail, reply and close it', async ({ page }) => {
  const title = `e2e 访问变慢 ${Date.now() % 100000}`;
  await signIn(page);
  await page.goto('/work/');
  await page.getByRole('button', { name: '提交工单' }).click();
  const dialog = page.locator('.work-dialog');
  await expect(dialog.getByText('CDN 快速入门')).toBeVisible();
  await dialog.locator('#root_title').fill(title);
  await dialog.locator('#root_content').fill('短');
  await expect(dialog.getByText('问题描述至少 10 个字符')).toBeVisible();
  await dialog.locator('#root_content').fill('www.demo-example.com 从今天上午开始访问变慢，请协助排查');
  // a disguised file is refused by its content (400, on purpose), a real PNG is taken
  allowConsoleError(page, /status of 400 .*\/work_order\/attachment\/\)$/);
  await dialog.getByLabel('上传附件').setInputFiles({ name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('MZ not an image') });
  await expect(dialog.getByRole('alert')).toContainText('附件类型不支持');
  await dialog.getByLabel('上传附件').setInputFiles({ name: '截图.png', mimeType: 'image/png', buffer: PNG });
  await expect(dialog.locator('.work-attachment', { hasText: '截图.png' })).toBeVisible();
  await dialog.getByRole('button', { name: '提交', exact: true }).click();

  const detail = page.locator('.work-detail');
  await expect(detail).toContainText(title);
  await expect(detail.locator('.work-file', { hasText: '截图.png' })).toBeVisible();
  await expect(detail).toContainText('待处理');
  await detail.getByLabel('回复内容').fill('补充：只有晚高峰时变慢');
  await detail.getByRole('button', { name: '回复' }).click();
  await expect(detail.locator('.work-reply-user')).toContainText('补充：只有晚高峰时变慢');
  await detail.getByRole('button', { name: '返回' }).click();

  const row = page.locator('.work-table tbody tr', { hasText: title });
  await expect(row).toContainText('待处理');
  await expect(row).toContainText('1 条');
  // a list of one page says how many it holds, with no arrows (renderers/PagePager.tsx)
  const count = await page.locator('.work-table tbody tr').count();
  expect(count).toBeLessThan(20);
  await expect(page.locator('.pager-text')).toHaveText(`共 ${count} 条`);
  await expect(page.getByRole('button', { name: '下一页' })).toHaveCount(0);
  await row.getByRole('button', { name: title }).click();
  await page.locator('.work-detail').getByRole('button', { name: '关闭工单' }).click();
  await expect(page.locator('.work-detail')).toContainText('已关闭');
});

test('the 工单 menu entry opens the console’s own work orders when no ticket site is configured', async ({ page }) => {
  await signIn(page);
  await page.getByRole('navigation', { name: '产品菜单' }).getByRole('link', { name: '工单', exact: true }).click();
  await expect(page).toHaveURL(/\/work\/$/);
  await expect(page.getByRole('button', { name: '提交工单' })).toBeVisible();
});
