import { readFileSync } from 'node:fs';
import type { APIRequestContext, Page } from '@playwright/test';
import { scan, WCAG_AND_BEST_PRACTICE } from './axe';
import { API, DEMO_PASSWORD, expect, fixture, login, test, unique, USERS } from './fixtures';
import { ticketWindow } from './ticketJobs';

/**
 * Issue 28 item 12: the lists as they are with real amounts of work (several pages, "Show more"),
 * scanned by axe with its best-practice rules too; one <h1> per page; a focus ring one can see;
 * a skip link; one Tab stop per ticket row; single poles on the map reached and opened by keyboard.
 * Desktop and phone (390 × 844).
 */

const SIZES = [
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;
const SHOTS = process.env.E2E_SHOTS; // a folder: screenshots to look at, as a person would
async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png` });
}

/** Rows per page of the jobs list (JobsPage JOBS_PAGE_SIZE) and cards per "Show more" (TicketCards, My Work). */
const JOBS_PER_PAGE = 50;
const BIG_JOB_TICKETS = 120;

/**
 * The lists of the second seeded company ("Other Line Co", which no other journey lists), filled
 * past one page: 55 more jobs (two pages of the jobs list) and one job of 120 open tickets (the
 * ticket table scrolls, the phone's cards and My Work show "Show more"). Made through the API
 * with one sign-in and one uploaded work packet; deleted afterwards.
 */
interface Filled {
  token: string;
  jobIds: number[];
  big: { id: number; number: string };
}

async function fillOtherCompany(request: APIRequestContext): Promise<Filled> {
  const signIn = await request.post(`${API}/crew/login`, { data: { email: USERS.other, password: DEMO_PASSWORD } });
  expect(signIn.ok(), await signIn.text()).toBeTruthy();
  const { token } = (await signIn.json()) as { token: string };
  const auth = { Authorization: `Bearer ${token}` };

  const pdf = readFileSync(fixture('packet.pdf'));
  const q = new URLSearchParams({ directory: 'work_packet', fileName: 'packet.pdf', fileType: 'application/pdf', fileSize: String(pdf.length) });
  const signed = (await (await request.get(`${API}/doc_upload/sign-s3-pdf?${q}`, { headers: auth })).json()) as { signedRequest: string; url: string; headers: Record<string, string> };
  expect((await request.put(signed.signedRequest, { headers: signed.headers, data: pdf })).ok()).toBeTruthy();
  const utilities = (await (await request.get(`${API}/utilities`, { headers: auth })).json()) as { id: number; code: string }[];
  const utility = utilities.find((u) => u.code === 'OTHERPOWER')!;

  const base = {
    job_type: 0,
    due_date: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10),
    selected_utility_id: utility.id,
    work_packet_url: signed.url,
    work_packet_name: 'packet.pdf',
  };
  const put = async (job: Record<string, unknown>) => {
    const res = await request.put(`${API}/jobs/`, { headers: auth, data: { job: { ...base, ...job } } });
    expect(res.ok(), await res.text()).toBeTruthy();
    return ((await res.json()) as { job: { id: number } }).job.id;
  };
  const prefix = unique('PG');
  const jobIds: number[] = [];
  for (let i = 0; i < JOBS_PER_PAGE + 5; i++) jobIds.push(await put({ job_number: `${prefix}-${String(i).padStart(2, '0')}` }));
  const bigNumber = `${prefix}-BIG`;
  const bigId = await put({
    job_number: bigNumber,
    newTickets: Array.from({ length: BIG_JOB_TICKETS }, (_, i) => ({ pole: { pole_name: `${prefix}-${i + 1}`, line_name: 'A' }, tasks: [{ code: 'OTHER-1', init_qty: 1 }] })),
  });
  jobIds.push(bigId);
  return { token, jobIds, big: { id: bigId, number: bigNumber } };
}

/** What has focus: enough to tell a skip link, a row, a map point or a field apart. */
interface Focused {
  tag: string;
  role: string | null;
  label: string | null;
  /** The aria-label, else the text of the field's <label>. */
  name: string;
  text: string;
  ticketId: string | null;
  inMain: boolean;
}
const focused = (page: Page): Promise<Focused> =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return {
      tag: el?.tagName.toLowerCase() ?? '',
      role: el?.getAttribute('role') ?? null,
      label: el?.getAttribute('aria-label') ?? null,
      name: (el?.getAttribute('aria-label') ?? (el as HTMLInputElement | null)?.labels?.[0]?.textContent ?? '').trim(),
      text: (el?.textContent ?? '').trim().slice(0, 80),
      ticketId: el?.getAttribute('data-ticket-id') ?? null,
      inMain: Boolean(el?.closest('main')),
    };
  });

/** Presses Tab until what has focus matches; returns how many presses it took. */
async function tabUntil(page: Page, matches: (f: Focused) => boolean, what: string, max = 80): Promise<number> {
  for (let i = 1; i <= max; i++) {
    await page.keyboard.press('Tab');
    if (matches(await focused(page))) return i;
  }
  throw new Error(`${what}: not reached in ${max} Tab presses`);
}

/** WCAG 2.4.11/1.4.11: an outline at least 2 px wide whose colour stands 3 : 1 against the page. */
async function focusRingOf(page: Page) {
  return page.evaluate(() => {
    // A field of several parts (a password and its eye button) wears its ring round the whole
    // field (.mantine-Input-input, app.css): measure that, not the inner <input>.
    const active = document.activeElement as HTMLElement;
    const el = (active.closest('.mantine-Input-input') as HTMLElement | null) ?? active;
    const s = getComputedStyle(el);
    const rgb = (c: string) => (c.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
    const lum = (c: string) => {
      const [r, g, b] = rgb(c).map((v) => {
        const x = v / 255;
        return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const page = getComputedStyle(document.body).backgroundColor;
    const [a, b] = [lum(s.outlineColor), lum(page.startsWith('rgba(0, 0, 0, 0)') ? 'rgb(255, 255, 255)' : page)];
    const contrast = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    return { style: s.outlineStyle, width: parseFloat(s.outlineWidth), contrast: Math.round(contrast * 10) / 10 };
  });
}
async function expectFocusRing(page: Page, what: string) {
  const ring = await focusRingOf(page);
  expect(ring.style, `${what}: outline style`).not.toBe('none');
  expect(ring.width, `${what}: outline width (px)`).toBeGreaterThanOrEqual(2);
  expect(ring.contrast, `${what}: outline contrast against the page`).toBeGreaterThanOrEqual(3);
}

test.describe('accessibility with real amounts of work, and by keyboard', () => {
  // One worker runs the file in order (fullyParallel is off): the filled company is made once for it.
  test.describe.configure({ timeout: 300_000 });
  let filled: Filled;

  test.beforeAll(async ({ request }) => {
    test.setTimeout(180_000);
    filled = await fillOtherCompany(request);
  });
  test.afterAll(async ({ request }) => {
    if (!filled) return;
    const auth = { Authorization: `Bearer ${filled.token}` };
    for (const id of filled.jobIds) {
      const res = await request.delete(`${API}/jobs/${id}`, { headers: auth });
      expect([200, 404]).toContain(res.status());
    }
  });

  for (const size of SIZES) {
    test.describe(`on a ${size.name}`, () => {
      test.use({ viewport: { width: size.width, height: size.height } });

      test('the jobs list over two pages has no WCAG A/AA or best-practice violation, and its page buttons are named', async ({ page }) => {
        const found: string[] = [];
        await login(page, USERS.other);
        await expect(page.getByRole('navigation', { name: 'Pages' })).toBeVisible({ timeout: 30_000 });
        await expect(page.getByText(/^Showing 1–50 of \d+ jobs$/)).toBeVisible();
        await shot(page, `jobs-paged-${size.name}`);
        await scan(page, 'jobs, page 1', found, WCAG_AND_BEST_PRACTICE);
        const pages = page.getByRole('navigation', { name: 'Pages' });
        await expect(pages.getByRole('button', { name: 'Next page' }), found.join('\n')).toBeVisible();
        await pages.getByRole('button', { name: 'Next page' }).click();
        await expect(page.getByText(/^Showing 51–\d+ of \d+ jobs$/)).toBeVisible();
        await expect(pages.getByRole('button', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
        await scan(page, 'jobs, page 2', found, WCAG_AND_BEST_PRACTICE);
        await pages.getByRole('button', { name: 'Previous page' }).click();
        await expect(page.getByText(/^Showing 1–50 of/)).toBeVisible();
        expect(found, found.join('\n')).toEqual([]);
      });

      test("a job's 120 tickets (the table scrolled, the cards with Show more) and My Work with Show more have no WCAG A/AA or best-practice violation", async ({ page }) => {
        const found: string[] = [];
        await login(page, USERS.other);
        await page.goto(`/job?id=${filled.big.id}`);
        await expect(page.getByRole('heading', { name: `Job ${filled.big.number}` })).toBeVisible({ timeout: 45_000 });
        if (size.name === 'desktop') {
          await expect(page.getByRole('table', { name: 'Tickets' })).toBeVisible();
          await scan(page, 'job with 120 tickets', found, WCAG_AND_BEST_PRACTICE);
          // Scrolled to the end: the rows rendered there are new ones.
          await page.getByTestId('tickets-scroll').evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
          await expect(page.locator('[data-index="119"]')).toBeVisible();
          await scan(page, 'job with 120 tickets, scrolled to the end', found, WCAG_AND_BEST_PRACTICE);
        } else {
          // Scanned once, with a page added and another still to come (axe over 100 cards is slow).
          await expect(page.getByTestId('ticket-card')).toHaveCount(50);
          await page.getByRole('button', { name: 'Show 50 more of 70' }).click();
          await expect(page.getByTestId('ticket-card')).toHaveCount(100);
          await expect(page.getByRole('button', { name: 'Show 20 more of 20' })).toBeVisible();
          await scan(page, 'job with 120 tickets, 100 cards', found, WCAG_AND_BEST_PRACTICE);
        }
        await page.goto('/work');
        await expect(page.getByRole('heading', { level: 1, name: 'My Work' })).toBeVisible({ timeout: 30_000 });
        await expect(page.getByRole('button', { name: /^Show more \(\d+ more\)$/ })).toBeVisible({ timeout: 30_000 });
        await scan(page, 'my work, first 100 and Show more', found, WCAG_AND_BEST_PRACTICE);
        expect(found, found.join('\n')).toEqual([]);
      });

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

  test('a ticket row is one Tab stop: Space ticks it, Enter opens it', async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await login(page, USERS.other);
    await page.goto(`/job?id=${filled.big.id}`);
    await expect(page.getByRole('table', { name: 'Tickets' })).toBeVisible({ timeout: 45_000 });
    // How far the first ticket is from the top of the page (said in the report).
    const fromTop = await tabUntil(page, (f) => f.ticketId !== null, 'the first ticket row');
    console.log(`Tab stops to the first ticket row: ${fromTop} from the top of the page`);

    const first = await focused(page);
    expect(first.tag).toBe('tr');
    await expectFocusRing(page, 'ticket row');
    await page.keyboard.press('Tab');
    const second = await focused(page);
    expect(second.tag, 'the next Tab stop is the next row').toBe('tr');
    expect(second.ticketId).not.toBe(first.ticketId);
    // Space ticks the focused row, as its checkbox would, and Create Task counts it.
    const box = page.locator(`[data-ticket-id="${second.ticketId}"]`).getByRole('checkbox');
    await expect(box).not.toBeChecked();
    await page.keyboard.press('Space');
    await expect(box).toBeChecked();
    await expect(page.getByRole('button', { name: 'Create Task (1)' })).toBeEnabled();
    await page.keyboard.press('Space');
    await expect(box).not.toBeChecked();
    await page.keyboard.press('Enter');
    await expect(ticketWindow(page)).toBeVisible();
    expect(new URL(page.url()).searchParams.get('ticket')).toBe(second.ticketId);

    // And from main, after Skip to main content.
    await page.goto(`/job?id=${filled.big.id}`);
    await expect(page.getByRole('table', { name: 'Tickets' })).toBeVisible({ timeout: 45_000 });
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('main')).toBeFocused();
    const fromMain = await tabUntil(page, (f) => f.ticketId !== null, 'the first ticket row');
    console.log(`Tab stops to the first ticket row: ${fromMain} after Skip to main content`);
  });

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
      await page.getByRole('radiogroup', { name: 'Show the tickets as' }).getByText('Map', { exact: true }).click();
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
