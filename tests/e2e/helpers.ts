import { expect, type Page } from '@playwright/test';

export const PASSWORD = 'demo123456';

export async function signIn(page: Page, username = 'demo') {
  await page.goto('/login/');
  await page.locator('#login-username').fill(username);
  await page.locator('#login-password').fill(PASSWORD);
  await page.getByRole('button', { name: '登录' }).click();
  await expect(page).toHaveURL(/\/dashboard\/$/);
}
