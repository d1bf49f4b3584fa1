import { expect, login, test, USERS } from './fixtures';

// The fixtures fail any journey whose page breaks the policy; this one checks the policy is there.
test('the app is served with a strict Content-Security-Policy and works under it', async ({ page }) => {
  const response = await page.goto('/login');
  const headers = response!.headers();
  expect(headers['content-security-policy']).toContain("script-src 'self'");
  expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(headers['referrer-policy']).toBe('no-referrer');
  expect(headers['x-content-type-options']).toBe('nosniff');
  // The page ran its scripts (React rendered the form) and signs in.
  await login(page, USERS.office);
  await expect(page.getByRole('heading', { name: 'Job View' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create Job' })).toBeVisible();
});

test('an injected inline script does not run', async ({ browser }) => {
  // A page of its own: its refusal is the expected violation, not a broken journey.
  const page = await browser.newPage();
  await page.goto('/login');
  const ran = await page.evaluate(async () => {
    const s = document.createElement('script');
    s.textContent = 'window.__injected = true';
    document.body.append(s);
    await new Promise((r) => setTimeout(r, 50));
    return Boolean((window as unknown as { __injected?: boolean }).__injected);
  });
  expect(ran).toBe(false);
  await page.close();
});
