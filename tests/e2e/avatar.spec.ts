/**
 * 头像 on the profile page (spec 000 §9: the avatar's 30 KB limit): a larger file is refused before it is
 * sent, a picture is shown once uploaded, and 删除头像 takes it away.
 */
import { test, expect, signIn } from './helpers';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201ab8d0f1a0000000049454e44ae426082', 'hex');

test('upload a profile picture of at most 30 KB, see it, delete it', async ({ page }) => {
  // demo: no other test touches its picture (demolost's password is changed by the lost-password tests)
  await signIn(page);
  await page.request.delete('/api/accounts/avatar/');
  await page.goto('/account/profile/');
  const card = page.locator('.avatar-card');
  await expect(card.getByRole('img', { name: '未设置头像' })).toBeVisible();
  const input = card.locator('input[type=file]');
  await input.setInputFiles({ name: 'big.png', mimeType: 'image/png', buffer: Buffer.concat([PNG, Buffer.alloc(30 * 1024)]) });
  await expect(card.getByRole('alert')).toHaveText('头像大小不超过 30 KB');
  await input.setInputFiles({ name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('plain text, not a picture') });
  await expect(card.getByRole('alert')).toHaveText('仅支持 .jpg .jpeg .bmp .gif .png 格式');
  await input.setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: PNG });
  await expect(card.getByRole('img', { name: '当前头像' })).toBeVisible();
  await expect.poll(() => card.getByRole('img', { name: '当前头像' }).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1);
  await card.getByRole('button', { name: '删除头像' }).click();
  await expect(card.getByRole('img', { name: '未设置头像' })).toBeVisible();
});

test('the top bar shows the avatar beside the account name, the user icon without one', async ({ page }) => {
  await signIn(page);
  await page.request.delete('/api/accounts/avatar/');
  await page.goto('/account/profile/');
  const menuButton = page.locator('header').getByRole('button', { name: 'demo' });
  const small = menuButton.locator('img.account-avatar');
  await expect(menuButton.locator('.bp6-icon-user')).toBeVisible();
  await expect(small).toHaveCount(0);
  // uploaded on the profile page: the top bar follows without a reload
  await page.locator('.avatar-card input[type=file]').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: PNG });
  await expect(small).toBeVisible();
  await expect(menuButton.locator('.bp6-icon-user')).toHaveCount(0);
  // on any page after a new load, small and round
  await page.goto('/dashboard/');
  await expect(small).toBeVisible();
  await expect.poll(() => small.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1);
  const look = await small.evaluate((img) => {
    const s = getComputedStyle(img);
    return { width: img.getBoundingClientRect().width, radius: s.borderRadius };
  });
  expect(look).toEqual({ width: 20, radius: '50%' });
  // the menu still opens by keyboard and names the account
  await menuButton.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('menuitem', { name: '退出登录' })).toBeVisible();
  await page.keyboard.press('Escape');
  // deleted: the icon again
  await page.goto('/account/profile/');
  await page.locator('.avatar-card').getByRole('button', { name: '删除头像' }).click();
  await expect(menuButton.locator('.bp6-icon-user')).toBeVisible();
  await expect(small).toHaveCount(0);
});
