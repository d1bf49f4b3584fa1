import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test, expect, login, USERS } from './fixtures';
import { MSG } from '../src/shared/messages';

/**
 * Logout ends this device's session only (docs/product/sessions-and-safety.md §4; sessions.spec.ts covers the rest); the
 * logout journeys still sign in as a member no other spec uses (a Foreman of the demo company),
 * so nothing they do can touch a parallel spec.
 */
const LOGOUT_USER = 'fiona@example.com';

/** How many mails the e2e server (its data is kept per port, scripts/e2e-server.mjs) has sent to `to`. */
function mailsTo(to: string): number {
  const outbox = path.resolve(`.tmp/e2e-data-${process.env.E2E_PORT ?? '3210'}/outbox`);
  let files: string[] = [];
  try {
    files = readdirSync(outbox).filter((f) => f.endsWith('.eml'));
  } catch {
    return 0; // nothing sent yet
  }
  return files.filter((f) => readFileSync(path.join(outbox, f), 'utf8').includes(`To: ${to}`)).length;
}

test.describe('signing in', () => {
  test('a signed-out visitor is sent to /login and, after signing in, back to the page they asked for', async ({ page }) => {
    await page.goto('/user');
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('navigation')).toHaveCount(0); // no header when signed out
    await page.getByLabel('Email').fill(USERS.office);
    await page.getByLabel('Password', { exact: true }).fill('linecrew');
    await page.getByRole('button', { name: 'Log In' }).click();
    await expect(page).toHaveURL(/\/user$/);
    await expect(page.getByLabel('Company Name')).toHaveValue('Demo Line Co');
  });

  test('a wrong password shows the spec message and keeps the user on /login', async ({ page }) => {
    await page.goto('/login');
    await page.getByLabel('Email').fill(USERS.office);
    await page.getByLabel('Password', { exact: true }).fill('not-the-password');
    await page.getByRole('button', { name: 'Log In' }).click();
    await expect(page.getByRole('alert')).toHaveText(MSG.loginWrong);
    await expect(page).toHaveURL(/\/login$/);
  });

  test('the Forgot Password modal sends a link and says so', async ({ page }) => {
    await page.goto('/login');
    await page.getByRole('button', { name: 'Forgot Password?' }).click();
    const dialog = page.getByRole('dialog', { name: "What's My Password?" });
    await expect(dialog.getByText('If you have forgotten your password you can reset it here.')).toBeVisible();
    await dialog.getByLabel('E-mail Address').fill(USERS.apprentice);
    await dialog.getByRole('button', { name: 'Send My Password' }).click();
    await expect(page.getByRole('status')).toHaveText(MSG.forgotSent);
  });

  test('an unknown address shows the not-found text', async ({ page }) => {
    await page.goto('/no/such/page');
    await expect(page.getByText(MSG.notFound)).toBeVisible();
  });
});

test.describe('navigation by role', () => {
  test('an Admin sees the Crew link', async ({ page }) => {
    await login(page, USERS.admin);
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link', { name: 'Jobs' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Crew', exact: true })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'User' })).toBeVisible();
  });

  test('a Lineman does not see the Crew link', async ({ page }) => {
    await login(page, USERS.lineman);
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link', { name: 'Jobs' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Crew', exact: true })).toHaveCount(0);
  });

  test('on a phone the navigation is a toggle menu that closes after a link is chosen', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await login(page, USERS.admin);
    await expect(page.getByRole('link', { name: 'User' })).toHaveCount(0);
    await page.getByRole('button', { name: 'Toggle navigation' }).click();
    await page.getByRole('link', { name: 'User' }).click();
    await expect(page).toHaveURL(/\/user$/);
    await expect(page.getByRole('link', { name: 'Crew', exact: true })).toHaveCount(0);
  });
});

test.describe('the account page', () => {
  test('saving shows the success banner, which goes away after 5 seconds, and the change is kept', async ({ page }) => {
    await login(page, USERS.wforeman);
    await page.goto('/user');
    await page.getByLabel('Phone').fill('6175551234');
    await page.getByRole('button', { name: 'Save' }).click();
    const banner = page.getByRole('status').filter({ hasText: MSG.accountSaved });
    await expect(banner).toBeVisible();
    await expect(banner).toBeHidden({ timeout: 8000 });
    await page.reload();
    await expect(page.getByLabel('Phone')).toHaveValue('6175551234');
  });

  test('Reset Password opens the What\'s My Password? modal: Cancel sends nothing, Send My Password mails a link', async ({ page }) => {
    await login(page, USERS.apprentice);
    await page.goto('/user');
    await expect(page.getByLabel('Company Name')).toHaveValue('Demo Line Co');
    const before = mailsTo(USERS.apprentice);

    await page.getByRole('button', { name: 'Reset Password' }).click();
    const dialog = page.getByRole('dialog', { name: "What's My Password?" });
    await expect(dialog.getByText('If you have forgotten your password you can reset it here.')).toBeVisible();
    await expect(dialog.getByLabel('E-mail Address')).toHaveValue(USERS.apprentice);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('status')).toHaveCount(0);

    await page.getByRole('button', { name: 'Reset Password' }).click();
    await dialog.getByLabel('E-mail Address').fill('');
    await dialog.getByRole('button', { name: 'Send My Password' }).click();
    await expect(dialog.getByText('Enter your email address.')).toBeVisible(); // docs/product/rules.md §3.5: an e-mail of at least 2 characters
    await dialog.getByLabel('E-mail Address').fill(USERS.apprentice);
    await dialog.getByRole('button', { name: 'Send My Password' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('status')).toHaveText(MSG.forgotSent);
    await expect(page.getByText(MSG.accountSaveError)).toHaveCount(0);
    // The mail leaves after the reply; Cancel sent none, Send My Password one.
    await expect.poll(() => mailsTo(USERS.apprentice)).toBe(before + 1);
  });

  test('the session cookie is out of reach of page scripts, and the page still knows who is signed in', async ({ page, context }) => {
    await login(page, USERS.lineman);
    const cookie = (await context.cookies()).find((c) => c.name === 'linecrew_token');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
    expect(await page.evaluate(() => document.cookie)).not.toContain('linecrew_token');
    await page.reload();
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Jobs' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Crew', exact: true })).toHaveCount(0); // role 5, from /crew/myData
  });

  test('logout clears the session and goes to /login; protected pages then redirect', async ({ page, context }) => {
    await login(page, LOGOUT_USER);
    await page.goto('/user');
    // The User page's own Logout (the menu has one too, decision 039).
    await page.getByRole('main').getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/login$/);
    const cookies = await context.cookies();
    expect(cookies.find((c) => c.name === 'linecrew_token')).toBeUndefined();
    await page.goto('/jobs');
    await expect(page).toHaveURL(/\/login$/);
  });

  test('logout ends the session on the server too: a copy of the old cookie no longer opens anything', async ({ page, context }) => {
    await login(page, LOGOUT_USER);
    const old = (await context.cookies()).find((c) => c.name === 'linecrew_token')!;
    await page.goto('/user');
    // The User page's own Logout (the menu has one too, decision 039).
    await page.getByRole('main').getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await context.addCookies([old]);
    expect((await page.request.get('/api/v1/crew/myData')).status()).toBe(401);
    await page.goto('/jobs');
    await expect(page).toHaveURL(/\/login$/);
  });
});
