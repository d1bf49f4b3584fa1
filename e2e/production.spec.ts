import { API, choose, expect, test, unique, USERS } from './fixtures';
import { openJob, row, ticketWindow } from './ticketJobs';

/**
 * Production and unit prices (docs/product/billing.md §2): the office prices a unit in the Unit Library, a
 * ticket is completed, and the job's Production view and the jobs list's % Complete move.
 */
test.describe('production', () => {
  // Several pages and a ticket save in one journey, on a shared 2-core machine.
  test.describe.configure({ timeout: 180_000 });
  test('the office prices a unit, completes a ticket and sees production and % Complete move', async ({ page, request, loginAs, seededJob }) => {
    const a = unique('PA').slice(-9);
    const b = unique('PB').slice(-9);
    // GRD: 2 on A, 1 on B; TT (no price): 3 on B.
    const job = await seededJob([
      { pole: { pole_name: a, line_name: '1' }, tasks: [{ code: 'GRD', init_qty: 2 }] },
      { pole: { pole_name: b, line_name: '1' }, tasks: [{ code: 'GRD', init_qty: 1 }, { code: 'TT', init_qty: 3 }] },
    ]);
    // TT starts without a price whatever an earlier run left.
    const auth = { Authorization: `Bearer ${job.token}` };
    const units = (await (await request.get(`${API}/units?search=TT&limit=50`, { headers: auth })).json()) as { id: number; code: string }[];
    for (const u of units.filter((x) => x.code === 'TT')) expect((await request.put(`${API}/units/${u.id}`, { headers: auth, data: { unit: { unit_price: null } } })).ok()).toBeTruthy();

    await loginAs(USERS.office);
    await page.getByRole('link', { name: 'Unit Library' }).first().click();
    await expect(page.getByRole('heading', { name: 'Unit Library' })).toBeVisible();
    await choose(page, page.locator('main'), 'Utility', 'NGRID');
    await page.getByRole('textbox', { name: 'Search units' }).fill('GRD');
    const price = page.getByRole('textbox', { name: 'Price of GRD' });
    await price.fill('abc');
    await price.press('Enter');
    await expect(page.getByText('Price must be a number of dollars and cents, like 12.50.')).toBeVisible();
    await expect(price).toHaveAttribute('aria-invalid', 'true');
    await price.fill('25');
    await price.press('Enter');
    await expect(page.getByText('Saved')).toBeVisible();
    await expect(price).toHaveValue('25.00');

    await openJob(page, job.id);
    const production = page.getByRole('region', { name: 'Production', exact: true });
    await expect(production.getByTestId('production-percent')).toHaveText('0.0% complete');
    await expect(production.getByTestId('production-bid')).toHaveText('$75.00');
    await expect(production.getByText(/1 unit has no price/)).toBeVisible();
    // An empty bar has no width: present and labelled, not "visible".
    await expect(production.getByRole('progressbar', { name: 'Job 0.0% complete' })).toHaveAttribute('aria-valuenow', '0');

    // Complete A: 2 × $25.00 of 3 × $25.00.
    await row(page, a).click();
    const win = ticketWindow(page);
    await win.getByRole('tab', { name: /Info/ }).click();
    await win.getByRole('button', { name: 'Mark Complete' }).click();
    await expect(page.getByText('Ticket marked complete.')).toBeVisible();
    await win.getByRole('button', { name: 'Close', exact: true }).click();

    await expect(production.getByTestId('production-percent')).toHaveText('66.7% complete');
    await expect(production.getByTestId('production-completed')).toHaveText('$50.00');
    await expect(production.getByTestId('production-remaining')).toHaveText('$25.00');
    await expect(production.getByRole('progressbar', { name: 'Job 66.7% complete' })).toHaveAttribute('aria-valuenow', '66.7');

    await production.getByRole('button', { name: 'Show details' }).click();
    const byUnit = production.getByRole('table', { name: 'Production by unit' });
    await expect(byUnit.getByRole('row').filter({ hasText: 'GRD' })).toContainText('$25.00');
    const tt = byUnit.getByRole('row').filter({ hasText: 'TT' });
    await expect(tt.getByText('No price')).toBeVisible();
    await expect(production.getByRole('table', { name: 'By foreman' }).getByRole('row').filter({ hasText: 'Unassigned' })).toContainText('$50.00');

    // The jobs list's % Complete.
    await page.getByRole('link', { name: 'Jobs', exact: true }).first().click();
    await page.getByRole('textbox', { name: 'Search jobs' }).fill(job.number);
    const jobRow = page.getByRole('row').filter({ hasText: job.number });
    await expect(jobRow).toContainText('66.7%');
    await page.getByRole('button', { name: /% Complete/ }).click();
    await expect(page.getByRole('columnheader', { name: /% Complete/ })).toHaveAttribute('aria-sort', /ascending|descending/);

    // The "No price" link goes to this utility's library.
    await openJob(page, job.id);
    await production.getByRole('button', { name: 'Show details' }).click();
    await tt.getByRole('link').click();
    await expect(page.getByRole('heading', { name: 'Unit Library' })).toBeVisible();
    await expect(page.getByRole('combobox', { name: 'Utility' })).toHaveValue('NGRID');
  });

  test('a foreman reads prices and production but cannot edit a price', async ({ page, loginAs, seededJob }) => {
    const job = await seededJob([{ pole: { pole_name: unique('PF').slice(-9), line_name: '1' }, tasks: [{ code: 'GRD', init_qty: 1 }] }]);
    await loginAs(USERS.foreman);
    await page.goto('/units');
    await expect(page.getByRole('heading', { name: 'Unit Library' })).toBeVisible();
    await expect(page.getByRole('table', { name: 'Units' })).toBeVisible();
    await expect(page.getByRole('textbox', { name: /^Price of/ })).toHaveCount(0);
    await openJob(page, job.id);
    await expect(page.getByRole('region', { name: 'Production', exact: true })).toBeVisible();
  });

  test('a lineman sees no Unit Library and no Production', async ({ page, loginAs, seededJob }) => {
    const job = await seededJob([{ pole: { pole_name: unique('PL').slice(-9), line_name: '1' }, tasks: [{ code: 'GRD', init_qty: 1 }] }]);
    await loginAs(USERS.lineman);
    await expect(page.getByRole('link', { name: 'Unit Library' })).toHaveCount(0);
    await openJob(page, job.id);
    await expect(page.getByRole('region', { name: 'Production', exact: true })).toHaveCount(0);
  });
});
