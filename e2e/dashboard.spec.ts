import type { Page } from '@playwright/test';
import { API, expect, test, unique, USERS } from './fixtures';

/**
 * The dashboard (docs/product/billing.md §6): the office opens it from the header and reads its figures, the
 * chart of completed work per week and the tables; crews have no link to it; on a phone it
 * does not scroll sideways. Other journeys change the shared database at the same time, so the
 * company totals are read for their form and our own job's row for its exact figures.
 */
const PHONE = { width: 390, height: 844 };
/** Two days back: before "today" in every time zone, so the ticket is overdue wherever the server is. */
const pastDay = () => new Date(Date.now() - 86_400_000 * 2).toISOString().slice(0, 10);

async function noSidewaysScroll(page: Page) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.scrollingElement!.scrollWidth, innerWidth: window.innerWidth }));
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
}

test.describe('dashboard', () => {
  test.describe.configure({ timeout: 120_000 });

  test('the office opens the dashboard from the header and sees the figures, the weekly chart and its job', async ({ page, request, loginAs, seededJob }) => {
    const [late, open, done] = [unique('DL').slice(-9), unique('DO').slice(-9), unique('DD').slice(-9)];
    const job = await seededJob([
      { pole: { pole_name: late, line_name: '1' }, due_date: pastDay(), tasks: [{ code: 'P40-2', init_qty: 1 }] },
      { pole: { pole_name: open, line_name: '1' }, due_date: '2099-01-01' },
      { pole: { pole_name: done, line_name: '1' }, tasks: [{ code: 'XA8', init_qty: 2 }] },
    ]);
    const auth = { Authorization: `Bearer ${job.token}` };
    const rows = (await (await request.get(`${API}/jobs/${job.id}`, { headers: auth })).json()) as { tickets: { id: number; version: number; pole_name: string }[] };
    const finished = rows.tickets.find((t) => t.pole_name === done)!;
    expect((await request.put(`${API}/tickets/`, { headers: auth, data: { ticket: { id: finished.id, version: finished.version, status: 'Complete' } } })).ok()).toBeTruthy();

    await loginAs(USERS.office);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible({ timeout: 60_000 });

    // The four figures: counts, and money as money.
    for (const label of ['Open tickets', 'Overdue', 'Completed this week']) {
      await expect(page.getByRole('group', { name: label })).toContainText(/\d+/);
    }
    await expect(page.getByRole('group', { name: 'Unbilled completed' })).toContainText(/\$[\d,]+\.\d\d/);

    // The chart is drawn, and its figures are there in words for a screen reader.
    const chart = page.getByRole('region', { name: 'Completed amount per week' });
    await expect(chart.locator('svg.recharts-surface')).toBeVisible();
    await expect(chart.locator('.recharts-bar-rectangle, .recharts-rectangle').first()).toBeAttached();
    const weeks = page.getByRole('table', { name: 'Completed amount per week, last 12 weeks' });
    await expect(weeks.getByRole('row')).toHaveCount(13);
    await expect(weeks.getByRole('row').nth(12)).toContainText(/\$[\d,]+\.\d\d/);

    // Our job: two open, one of them overdue, one done this week, 0 % of no priced work yet.
    const byJob = page.getByRole('table', { name: 'By job' });
    const ours = byJob.getByRole('row').filter({ has: page.getByRole('link', { name: job.number, exact: true }) });
    await expect(ours.getByRole('cell')).toHaveText([job.number, 'No foreman', '2', '1', '1', '$0.00', /%$/]);
    await expect(page.getByRole('table', { name: 'By foreman' }).getByRole('row', { name: /No foreman/ })).toBeVisible();

    // A column header sorts the table and says how.
    const header = byJob.getByRole('columnheader', { name: 'Job' });
    await header.getByRole('button').click();
    await expect(header).toHaveAttribute('aria-sort', 'ascending');

    await ours.getByRole('link', { name: job.number }).click();
    await expect(page).toHaveURL(new RegExp(`/job\\?id=${job.id}$`));
  });

  test('a lineman has no dashboard link, and the address tells him it is not for him', async ({ page, loginAs }) => {
    await loginAs(USERS.lineman);
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'My Work' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Dashboard' })).toHaveCount(0);
    await page.goto('/dashboard');
    await expect(page.getByRole('status').filter({ hasText: 'The dashboard is for the office and foremen' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'My Work' }).last()).toBeVisible();
  });

  test('on a phone the dashboard does not scroll sideways', async ({ page, loginAs, seededJob }) => {
    const job = await seededJob([{ pole: { pole_name: unique('DP').slice(-9), line_name: '1' }, due_date: pastDay() }]);
    await page.setViewportSize(PHONE);
    await loginAs(USERS.foreman);
    await page.getByRole('button', { name: 'Toggle navigation' }).click();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible({ timeout: 60_000 });
    await expect(page.getByRole('region', { name: 'Completed amount per week' }).locator('svg.recharts-surface')).toBeVisible();
    // On a phone each job is a card.
    await expect(page.getByRole('link', { name: `Job ${job.number}` })).toBeVisible();
    await noSidewaysScroll(page);
  });
});
