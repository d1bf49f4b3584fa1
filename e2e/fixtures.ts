import { test as base, expect, type Page } from '@playwright/test';

export const DEMO_PASSWORD = 'linecrew';
export const USERS = {
  admin: 'admin@example.com',
  office: 'office@example.com',
  foreman: 'foreman@example.com',
  wforeman: 'wforeman@example.com',
  lineman: 'lineman@example.com',
  apprentice: 'apprentice@example.com',
} as const;

/** Signs in through the login form, as a person would, and waits for the jobs page. */
export async function login(page: Page, email: string, password = DEMO_PASSWORD) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log In' }).click();
  await page.waitForURL((url) => url.pathname !== '/login');
}

/** A unique suffix so that parallel journeys never collide on job numbers or emails. */
export const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

export const test = base.extend<{ loginAs: (email: string) => Promise<void>; cspGuard: void }>({
  loginAs: async ({ page }, use) => {
    await use((email) => login(page, email));
  },
  // Every journey runs under the server's Content-Security-Policy: anything the policy blocks
  // (a script, a style, an image or an upload to the file store) fails the journey.
  cspGuard: [
    async ({ page }, use) => {
      const violations: string[] = [];
      page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
      });
      await use();
      expect(violations, 'the page broke the Content-Security-Policy').toEqual([]);
    },
    { auto: true },
  ],
});
export { expect };
