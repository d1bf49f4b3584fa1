import { readFileSync } from 'node:fs';
import type { APIRequestContext } from '@playwright/test';
import { scan, WCAG_AND_BEST_PRACTICE } from './axe';
import { API, DEMO_PASSWORD, expect, fixture, login, test, unique, USERS } from './fixtures';
import { expectFocusRing, focused, shot, SIZES, tabUntil } from './keyboard';
import { ticketWindow } from './ticketJobs';

/**
 * docs/product/platform.md §4 and decision 042: the lists as they are with real amounts of work (several pages, "Show more"),
 * scanned by axe with its best-practice rules too, and one Tab stop per ticket row. Desktop and
 * phone (390 × 844). Headings, focus ring, skip link, map points: e2e/a11y-keyboard.spec.ts.
 */

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

test.describe('accessibility with real amounts of work', () => {
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

});
