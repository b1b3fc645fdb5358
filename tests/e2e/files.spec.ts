import { test, expect, signIn } from './helpers';

const unique = () => `e2e-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

test('file manage: make a folder, upload a file with its progress bar, see it listed, download it, delete it', async ({ page }) => {
  await signIn(page);
  await page.goto('/services/demo-assets/fileManageFile/');
  await expect(page.getByRole('tab', { name: '文件管理' })).toHaveAttribute('aria-selected', 'true');
  // the demo's files
  await expect(page.locator('.file-table tbody tr', { hasText: 'index.html' })).toBeVisible();

  const folder = unique();
  await page.getByRole('button', { name: '新建目录' }).click();
  await page.locator('#new-folder-name').fill('..');
  await page.getByRole('button', { name: '确定' }).click();
  await expect(page.getByText('名称不能为空，不能包含 / \\ 或控制字符，不能为 . 或 ..，且不超过 255 个字符')).toBeVisible();
  await page.locator('#new-folder-name').fill(folder);
  await page.getByRole('button', { name: '确定' }).click();
  await page.locator('.file-table tbody tr', { hasText: folder }).locator('a', { hasText: folder }).click();
  await expect(page.locator('.file-manager-bar')).toContainText(folder);
  await expect(page.getByText('该目录下还没有文件')).toBeVisible();

  // hold the upload until the progress bar has been seen
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  await page.route('**/folder/**', async (route) => {
    if (route.request().method() === 'PUT') await held;
    await route.continue();
  });
  await page.getByTestId('file-input').setInputFiles({ name: '报告.txt', mimeType: 'text/plain', buffer: Buffer.from('x'.repeat(200_000)) });
  const progress = page.locator('.file-upload-progress');
  await expect(progress).toContainText('正在上传：报告.txt');
  await expect(progress.getByRole('progressbar')).toBeVisible();
  release();
  const row = page.locator('.file-table tbody tr', { hasText: '报告.txt' });
  await expect(row).toBeVisible();
  await expect(row).toContainText('195.313 KB');
  await expect(progress).toHaveCount(0);

  const download = page.waitForEvent('download');
  await row.getByRole('button', { name: '下载' }).click();
  expect((await download).suggestedFilename()).toBe('报告.txt');

  await row.getByRole('button', { name: '删除' }).click();
  await expect(page.getByText('确定删除 报告.txt 吗？删除后无法恢复。')).toBeVisible();
  await page.locator('.bp6-alert').getByRole('button', { name: '删除' }).click();
  await expect(row).toHaveCount(0);
  await expect(page.getByText('该目录下还没有文件')).toBeVisible();
});

test('media: submit a transcode task and see it finish', async ({ page }) => {
  await signIn(page);
  await page.goto('/services/demo-assets/mediaFile/');
  await expect(page.getByRole('tab', { name: '媒体处理' })).toHaveAttribute('aria-selected', 'true');
  const out = `e2e-media/${unique()}-360p.mp4`;
  await page.locator('#root_source').fill('../videos/sample.mp4');
  await expect(page.getByText('请填写服务内的文件路径，如 videos/a.mp4，不能以 / 开头或结尾，不能包含 .. 或反斜杠')).toBeVisible();
  await page.locator('#root_source').fill('videos/sample.mp4');
  await page.locator('#root_save_as').fill(out);
  await page.locator('#root_preset').selectOption({ label: '360P（640×360）' });
  await page.getByRole('button', { name: '提交任务' }).click();
  const row = page.locator('.media-task-table tbody tr', { hasText: 'videos/sample.mp4' }).filter({ hasText: '视频转码' }).first();
  await expect(row).toBeVisible();
  await expect(row).toContainText('已完成', { timeout: 60_000 });
  await expect(row).toContainText(out);
  await expect(row).toContainText('640×360');
});

test('file manage is blocked by a modal while the account is locked (demolocked, account_status LOCKED)', async ({ page }) => {
  // the real account: its account_status is LOCKED (npm run platform -- account-status), and the server
  // refuses its file management with 27108 (tests/server/account-standing.test.ts)
  await signIn(page, 'demolocked');
  const refused = page.waitForResponse((r) => r.url().includes('/folder/locked-files/'), { timeout: 3000 }).catch(() => null);
  await page.goto('/services/locked-files/fileManageFile/');
  const modal = page.getByRole('dialog', { name: '无法使用文件管理' });
  await expect(modal).toContainText('您的账号当前处于禁用、冻结或锁定状态，暂时无法管理文件。如需帮助，请联系客服。');
  await expect(page.locator('.file-table')).toHaveCount(0);
  // the page does not even ask for the listing
  expect(await refused).toBeNull();
  // by keyboard: the modal's one action has the focus path, Enter follows it
  await modal.getByRole('button', { name: '返回服务列表' }).focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/services\/file\/$/);
});
