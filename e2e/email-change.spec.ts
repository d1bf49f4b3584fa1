import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { axeViolations } from './axe';
import { expect, login, test } from './fixtures';
import { MSG } from '../src/shared/messages';

/**
 * docs/product/sessions-and-safety.md §6 "e-mail change" on the User page, on a phone: the current password is asked for
 * only once the e-mail differs, the server's refusals show under their fields, and a change that
 * goes through mails a notice to the old address. Signs in as a member no other spec uses.
 */
const USER = 'wendy@example.com';
const NEW_EMAIL = 'wendy.wire@example.com';

function mailsTo(to: string): string[] {
  const outbox = path.resolve(`.tmp/e2e-data-${process.env.E2E_PORT ?? '3210'}/outbox`);
  let files: string[] = [];
  try {
    files = readdirSync(outbox).filter((f) => f.endsWith('.eml'));
  } catch {
    return [];
  }
  return files.map((f) => readFileSync(path.join(outbox, f), 'utf8')).filter((m) => m.includes(`To: ${to}`));
}

test.use({ viewport: { width: 390, height: 844 } });

test('changing my e-mail asks for my current password and tells my old address', async ({ page }) => {
  await login(page, USER);
  await page.goto('/user');
  const email = page.getByLabel('Email Address');
  await expect(email).toHaveValue(USER);
  const password = page.getByLabel('Current password');
  await expect(password).toHaveCount(0);

  await email.fill(NEW_EMAIL);
  await expect(password).toBeVisible();
  // WCAG A/AA with the new field shown.
  expect((await axeViolations(page)).map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);

  const save = page.getByRole('button', { name: 'Save' });
  await save.click();
  await expect(page.getByText(MSG.emailChangeNeedsPassword)).toBeVisible();

  await password.fill('not-my-password');
  await save.click();
  await expect(page.getByText(MSG.currentPasswordWrong)).toBeVisible();

  await email.fill('admin@other.example.com');
  await password.fill('linecrew');
  await save.click();
  await expect(page.getByText(MSG.emailTaken)).toBeVisible();
  await page.screenshot({ path: '/tmp/sec-email-taken.png' });

  await email.fill(NEW_EMAIL);
  await password.fill('linecrew');
  await save.click();
  await expect(page.getByRole('status').filter({ hasText: MSG.accountSaved })).toBeVisible();
  await expect(password).toHaveCount(0);
  await expect(email).toHaveValue(NEW_EMAIL);
  await page.screenshot({ path: '/tmp/sec-email-saved.png' });
  await expect.poll(() => mailsTo(USER).some((m) => m.includes('Your Linecrew sign-in email was changed'))).toBe(true);

  // The session from before the change still works.
  await page.reload();
  await expect(page.getByLabel('Email Address')).toHaveValue(NEW_EMAIL);
});
