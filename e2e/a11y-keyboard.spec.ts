import { scan, WCAG_AND_BEST_PRACTICE } from './axe';
import { API, expect, login, test, unique, USERS } from './fixtures';
import { expectFocusRing, focused, shot, SIZES, tabUntil, type Focused } from './keyboard';
import { ticketWindow } from './ticketJobs';

/**
 * docs/product/platform.md §4 and decision 042, by keyboard: one <h1> per page; a focus ring one can see; a skip link; single
 * poles on the map reached and opened by keyboard; the pages that do not page scanned with axe's
 * best-practice rules too. Desktop and phone (390 × 844). Lists over several pages and the ticket
 * row's one Tab stop: e2e/a11y-paged-lists.spec.ts.
 */

test.describe('accessibility by keyboard', () => {
  // Each test signs in and reads the seeded data, or makes its own job: they run on both workers.
  test.describe.configure({ mode: 'parallel', timeout: 300_000 });

  for (const size of SIZES) {
    test.describe(`on a ${size.name}`, () => {
      test.use({ viewport: { width: size.width, height: size.height } });

      test('the crew, the unit library and the user page have no WCAG A/AA or best-practice violation', async ({ page }) => {
        // Neither the crew nor the unit library pages (nor the invoices): scanned whole, with the good-practice rules.
        const found: string[] = [];
        await login(page, USERS.admin);
        await page.goto('/crew');
        await expect(page.getByRole('heading', { name: 'Crew' })).toBeVisible();
        await expect(page.getByText('foreman@example.com').first()).toBeVisible();
        await scan(page, 'crew', found, WCAG_AND_BEST_PRACTICE);
        await page.goto('/units');
        await expect(page.getByRole('textbox', { name: /^Price of / }).first()).toBeVisible({ timeout: 30_000 });
        await scan(page, 'unit library', found, WCAG_AND_BEST_PRACTICE);
        await page.goto('/user');
        await expect(page.getByRole('button', { name: /Save/ }).first()).toBeVisible();
        await scan(page, 'user', found, WCAG_AND_BEST_PRACTICE);
        expect(found, found.join('\n')).toEqual([]);
      });

      test('every page has one <h1> that names it', async ({ page }) => {
        const h1 = page.getByRole('heading', { level: 1 });
        const expectOne = async (where: string, name: string | RegExp) => {
          await expect(h1, where).toHaveText(name, { timeout: 45_000 });
          await expect(h1, `${where}: one h1`).toHaveCount(1);
        };
        await page.goto('/login');
        await expectOne('login', 'Linecrew');
        await page.goto('/resetPassword?resetToken=not-a-real-token-123&userId=1');
        await expectOne('reset password', 'Set your password');
        await login(page, USERS.admin);
        await expectOne('jobs', 'Job View');
        await page.getByRole('link', { name: 'J-1001' }).first().click();
        await expectOne('job', 'Job J-1001');
        for (const [path, name] of [
          ['/crew', 'Crew'],
          ['/units', 'Unit Library'],
          ['/user', 'User Account'],
          ['/work', 'My Work'],
          ['/no-such-page', '404'],
        ] as const) {
          await page.goto(path);
          await expectOne(path, name);
        }
      });

      test('"Skip to main content" is the first Tab stop, shows when focused and moves focus into main', async ({ page }) => {
        await login(page, USERS.admin);
        for (const [path, title] of [
          ['/jobs', 'Job View'],
          ['/work', 'My Work'],
        ]) {
          await page.goto(path);
          // Freshly loaded: Tab starts at the top of the document.
          await expect(page.getByRole('heading', { name: title })).toBeVisible({ timeout: 30_000 });
          await page.keyboard.press('Tab');
          const skip = page.getByRole('link', { name: 'Skip to main content' });
          await expect(skip, path).toBeFocused();
          await expect(skip).toBeInViewport();
          const box = (await skip.boundingBox())!;
          expect(box.width * box.height, 'the skip link is visible when focused, not a 1 px box').toBeGreaterThan(200);
          await expectFocusRing(page, 'skip link');
          if (path === '/jobs') await shot(page, `skip-link-${size.name}`);
          await page.keyboard.press('Enter');
          await expect(page.getByRole('main')).toBeFocused();
          // The address is the page's own (no #main added to it).
          expect(new URL(page.url()).hash).toBe('');
          await page.keyboard.press('Tab');
          expect((await focused(page)).inMain, `${path}: the next Tab stop is in main`).toBe(true);
        }
      });

      test('a focused field, button and row show a ring of at least 2 px', async ({ page }) => {
        await page.goto('/login');
        await tabUntil(page, (f) => f.name === 'Email', 'Email');
        await expect(page.getByRole('textbox', { name: 'Email' })).toBeFocused();
        await shot(page, `focus-email-${size.name}`);
        await expectFocusRing(page, 'Email field');
        await page.keyboard.press('Tab');
        await expect(page.getByRole('textbox', { name: 'Password' })).toBeFocused();
        await expectFocusRing(page, 'Password field');
        await tabUntil(page, (f) => f.text === 'Log In', 'Log In');
        await expectFocusRing(page, 'Log In button');

        await login(page, USERS.admin);
        await tabUntil(page, (f) => f.label === 'Search jobs', 'Search jobs');
        await expectFocusRing(page, 'Search jobs');
        await page.goto('/units');
        await tabUntil(page, (f) => f.name === 'Utility', 'Utility');
        await expectFocusRing(page, 'Utility select');
      });
    });
  }

  for (const size of SIZES) {
    test(`on a ${size.name} a single pole on the map is reached with Tab, named, and opened with Enter or Space`, async ({ page, request, seededJob }) => {
      await page.setViewportSize({ width: size.width, height: size.height });
      // Three poles a few kilometres apart: at the fitted zoom each is a single point, not a cluster.
      const [a, b, c] = [unique('KA').slice(-9), unique('KB').slice(-9), unique('KC').slice(-9)];
      const job = await seededJob([
        { pole: { pole_name: a, line_name: '1' }, geo_lat: 42.2, geo_lon: -72.6 },
        { pole: { pole_name: b, line_name: '1' }, geo_lat: 42.23, geo_lon: -72.66 },
        { pole: { pole_name: c, line_name: '1' }, geo_lat: 42.26, geo_lon: -72.6 },
      ]);
      const tickets = ((await (await request.get(`${API}/jobs/${job.id}`, { headers: { Authorization: `Bearer ${job.token}` } })).json()) as { tickets: { id: number; pole_name: string }[] }).tickets;
      const idOf = (pole: string) => String(tickets.find((t) => t.pole_name === pole)!.id);

      await login(page, USERS.admin);
      await page.goto(`/job?id=${job.id}`);
      await page.getByRole('group', { name: 'Show the tickets as' }).getByRole('button', { name: 'Map', exact: true }).click();
      await expect(page.getByTestId('map-count')).toHaveText('3 of 3 poles on the map', { timeout: 30_000 });
      await page.getByRole('button', { name: 'Fit to job' }).focus();
      const pole = (name: string) => (f: Focused) => f.role === 'button' && (f.label ?? '').startsWith(`Pole ${name} · Line 1`);
      await tabUntil(page, pole(b), `pole ${b} on the map`);
      expect((await focused(page)).label).toBe(`Pole ${b} · Line 1 · Pending`);
      await expectFocusRing(page, 'map point');
      await shot(page, `map-point-focused-${size.name}`);
      await page.keyboard.press('Enter');
      await expect(ticketWindow(page)).toBeVisible();
      expect(new URL(page.url()).searchParams.get('ticket')).toBe(idOf(b));
      await page.keyboard.press('Escape');
      await expect(ticketWindow(page)).toBeHidden();

      await page.getByRole('button', { name: 'Fit to job' }).focus();
      await tabUntil(page, pole(c), `pole ${c} on the map`);
      await page.keyboard.press('Space');
      await expect(ticketWindow(page)).toBeVisible();
      expect(new URL(page.url()).searchParams.get('ticket')).toBe(idOf(c));
      await page.keyboard.press('Escape');
      // Closing goes Back in the history (the ticket has an address): let that finish, or the next
      // page load races it and is aborted.
      await expect(ticketWindow(page)).toBeHidden();
      await expect.poll(() => new URL(page.url()).searchParams.get('ticket')).toBeNull();

      // My Work's map: Enter opens the ticket's page, as a tap does.
      await page.goto('/work');
      await page.getByRole('group', { name: 'Show my tickets as' }).getByRole('button', { name: 'Map' }).click();
      await expect(page.getByTestId('map-count')).toBeVisible({ timeout: 30_000 });
      await page.getByRole('searchbox', { name: 'Search my tickets' }).fill(a);
      await expect(page.getByTestId('map-count')).toHaveText('1 of 1 pole on the map');
      await page.getByRole('button', { name: 'Fit to my tickets' }).click();
      await tabUntil(page, pole(a), `pole ${a} on My Work's map`);
      await page.keyboard.press('Enter');
      await expect(page).toHaveURL(new RegExp(`/work/${idOf(a)}$`));
    });
  }
});
