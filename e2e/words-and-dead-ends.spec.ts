import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { MSG } from '../src/shared/messages';
import { API, expect, login, test, unique, USERS } from './fixtures';

// The offline app: the service worker serves it without a network (playwright.config.ts blocks it elsewhere).
test.use({ serviceWorkers: 'allow' });

/** Words a person can act on, and no dead ends. */

const outbox = path.resolve(`.tmp/e2e-data-${process.env.E2E_PORT ?? '3210'}/outbox`);
async function linkMailedTo(to: string): Promise<string> {
  let link = '';
  await expect
    .poll(() => {
      for (const f of readdirSync(outbox).filter((n) => n.endsWith('.eml'))) {
        const text = readFileSync(path.join(outbox, f), 'utf8').replace(/=\r?\n/g, '').replace(/=3D/g, '=');
        const m = text.includes(`To: ${to}`) && /(\/resetPassword\?resetToken=[A-Za-z0-9_-]+&userId=\d+)/.exec(text);
        if (m) link = m[1];
      }
      return link;
    })
    .not.toBe('');
  return link;
}

test.describe('reset and invitation links', () => {
  test('a malformed link says it cannot be used, never validation text, and sends a new one', async ({ page }) => {
    await page.goto('/resetPassword?resetToken=abc&userId=2');
    await expect(page).toHaveTitle('Set your password · Linecrew');
    await expect(page.getByRole('alert').filter({ hasText: MSG.resetInvalid })).toBeVisible();
    await expect(page.getByText(/Too small|expected string|resetToken/)).toHaveCount(0);
    await expect(page.getByLabel('New Password')).toHaveCount(0);
    await page.getByLabel('Email').fill(USERS.apprentice);
    await page.getByRole('button', { name: 'Send me a new link' }).click();
    await expect(page.getByRole('status').filter({ hasText: MSG.forgotSent })).toBeVisible();
  });

  test('a well-formed link the server no longer knows (used or expired) turns into the same offer', async ({ page }) => {
    await page.goto(`/resetPassword?resetToken=${'x'.repeat(43)}&userId=2`);
    await page.getByLabel('New Password').fill('secret1');
    await page.getByLabel('Confirm Password').fill('secret1');
    await page.getByRole('button', { name: 'Save Password' }).click();
    await expect(page.getByRole('alert').filter({ hasText: MSG.resetInvalid })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Send me a new link' })).toBeVisible();
  });
});

test('the login error clears when Forgot Password has sent a link', async ({ page }) => {
  await page.goto('/login');
  await expect(page).toHaveTitle('Log In · Linecrew');
  await page.getByLabel('Email').fill(USERS.foreman);
  await page.getByLabel('Password', { exact: true }).fill('wrong-password');
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page.getByRole('alert').filter({ hasText: MSG.loginWrong })).toBeVisible();
  await page.getByRole('button', { name: 'Forgot Password?' }).click();
  await page.getByRole('button', { name: 'Send My Password' }).click();
  await expect(page.getByRole('status').filter({ hasText: MSG.forgotSent })).toBeVisible();
  await expect(page.getByText(MSG.loginWrong)).toHaveCount(0);
});

test('a lineman opening /crew is told the page is for office roles, with a way back', async ({ page }) => {
  await login(page, USERS.lineman);
  await page.goto('/crew');
  await expect(page.getByText('The crew roster is for the office')).toBeVisible();
  await page.getByRole('link', { name: 'Back to the job list' }).click();
  await expect(page).toHaveURL(/\/jobs$/);
  await expect(page).toHaveTitle('Jobs · Linecrew');
});

test.describe('without the service worker', () => {
  // Its precache would answer the page's code before page.route sees the request (Playwright does
  // not route what a service worker serves): whether the abort took effect depended on how soon
  // the worker took control after sign-in. This is the browser with no installed app.
  test.use({ serviceWorkers: 'block' });

  test('a page whose code cannot be loaded says so and offers a reload, never a blank screen', async ({ page }) => {
    await login(page, USERS.admin);
    // A release replaced the app's files, or the phone lost its signal before this page's code came.
    const crewCode = /\/assets\/CrewPage-[^/]*\.js$/;
    await page.route(crewCode, (route) => route.abort('internetdisconnected'));
    await page.getByRole('link', { name: 'Crew', exact: true }).click();
    await expect(page.getByRole('alert').filter({ hasText: MSG.generic })).toBeVisible();
    await expect(page).toHaveTitle('Something went wrong · Linecrew');
    // Back leaves the error behind: the page before it shows again.
    await page.goBack();
    await expect(page).toHaveURL(/\/jobs$/);
    await expect(page).toHaveTitle('Jobs · Linecrew');
    await expect(page.getByRole('alert').filter({ hasText: MSG.generic })).toHaveCount(0);
    await page.getByRole('link', { name: 'Crew', exact: true }).click();
    await expect(page.getByRole('alert').filter({ hasText: MSG.generic })).toBeVisible();
    await page.unroute(crewCode);
    await page.getByRole('button', { name: 'Reload Linecrew' }).click();
    await expect(page).toHaveURL(/\/jobs$/);
    await page.getByRole('link', { name: 'Crew', exact: true }).click();
    await expect(page.getByRole('heading', { name: /Crew/ }).first()).toBeVisible();
  });
});

test('a new company\'s empty jobs list offers Create Job', async ({ page, request }) => {
  const email = `${unique('founder')}@example.org`;
  const res = await request.post(`${API}/crew/sign-up`, { data: { name: 'Fran Founder', email, password: 'secret', companyName: unique('Empty Co') } });
  expect(res.ok()).toBeTruthy();
  await page.goto(await linkMailedTo(email));
  await page.getByLabel('New Password').fill('secret1');
  await page.getByLabel('Confirm Password').fill('secret1');
  await page.getByRole('button', { name: 'Save Password' }).click();
  await expect(page).toHaveURL(/\/login/);
  await login(page, email, 'secret1');
  const empty = page.getByTestId('no-jobs');
  await expect(empty).toContainText('No jobs yet.');
  await empty.getByRole('button', { name: 'Create Job' }).click();
  await expect(page.getByRole('dialog', { name: /Create Job/ })).toBeVisible();
});

test('a job with no tickets says so; Delete Job names the job and what goes with it; a missing job offers a way back', async ({ page, seededJob }) => {
  const job = await seededJob([]);
  await login(page, USERS.admin);
  await page.goto(`/job?id=${job.id}`);
  await expect(page).toHaveTitle(`Job ${job.number} · Linecrew`);
  await expect(page.getByTestId('no-tickets')).toContainText('This job has no tickets yet.');
  await expect(page.getByText('No tickets match these filters.')).toHaveCount(0);

  const withTickets = await seededJob([
    { pole: { pole_name: 'D1', line_name: 'L1' } },
    { pole: { pole_name: 'D2', line_name: 'L1' } },
  ]);
  await page.goto(`/job?id=${withTickets.id}`);
  await page.getByRole('button', { name: 'Delete Job' }).click();
  const confirm = page.getByRole('dialog', { name: `Delete Job ${withTickets.number}` });
  await expect(confirm).toContainText(MSG.confirmDeleteJob);
  await expect(confirm).toContainText(`Job ${withTickets.number} goes with its 2 tickets, 0 photos and 1 document`);
  await confirm.getByRole('button', { name: 'Cancel' }).click();

  await page.goto('/job?id=99999999');
  await expect(page.getByText('Job not found')).toBeVisible();
  await expect(page.getByText('Could not load the tickets')).toHaveCount(0);
  await page.getByRole('link', { name: 'Back to the job list' }).click();
  await expect(page).toHaveURL(/\/jobs$/);
});

test('each page sets the browser tab title', async ({ page }) => {
  await login(page, USERS.admin);
  await expect(page).toHaveTitle('Jobs · Linecrew');
  await page.goto('/crew');
  await expect(page).toHaveTitle('Crew · Linecrew');
  await page.goto('/user');
  await expect(page).toHaveTitle('My Account · Linecrew');
  await page.goto('/no-such-page');
  await expect(page).toHaveTitle('Page not found · Linecrew');
});
