import { expect, type Page } from '@playwright/test';

export const PASSWORD = 'demo123456';

/**
 * Signs in through the login page. A main account lands on the dashboard; a sub-account passes through
 * it to the first page it may use (spec 000 §2.3).
 */
export async function signIn(page: Page, username = 'demo') {
  await page.goto('/login/');
  await page.locator('#login-username').fill(username);
  await page.locator('#login-password').fill(PASSWORD);
  await page.getByRole('button', { name: '登录' }).click();
  await expect(page).toHaveURL(LANDINGS[username] ?? /\/dashboard\/$/);
}

/** Where the demo's sub-accounts land (src/server/seed/demo.ts; demo_ops holds CDN first). */
const LANDINGS: Record<string, RegExp> = { demo_ops: /\/services\/cdn\/$/ };
