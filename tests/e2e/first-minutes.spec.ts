/**
 * What a new user meets first (issue 20): the address README names, `/`, takes a visitor to sign in and a
 * signed-in user to the dashboard (spec 000 §2.1).
 */
import { test, expect } from '@playwright/test';
import { signIn } from './helpers';

test('/ takes a visitor to the login page and a signed-in user to the dashboard', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/login\/$/);
  await expect(page.getByRole('heading', { name: '登录云控制台' })).toBeVisible();
  await signIn(page);
  await page.goto('/');
  await expect(page).toHaveURL(/\/dashboard\/$/);
});
