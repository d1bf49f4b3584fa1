import { readFileSync } from 'node:fs';
import type { APIRequestContext } from '@playwright/test';
import { API, createJob, expect, test, unique, USERS } from './fixtures';
import { openJob, row, ticketWindow } from './ticketJobs';

/**
 * The office invoices a job (docs/product/billing.md §4): preview, confirm, the Billed badge, the XLSX and PDF
 * downloads, then unlocking the billed ticket with a reason. The job is made through the API and
 * kept afterwards: a job with an invoice cannot be deleted (the invoice must stay), so the
 * seededJob fixture's clean-up does not apply.
 */

/** Marks the ticket on `pole` Complete through the API, as a crew would from the field. */
async function completeTicket(request: APIRequestContext, token: string, jobId: number, pole: string) {
  const auth = { Authorization: `Bearer ${token}` };
  const tickets = (await (await request.get(`${API}/jobs/tickets/${jobId}`, { headers: auth })).json()) as { id: number; version: number; pole_name: string }[];
  const t = tickets.find((x) => x.pole_name === pole)!;
  const res = await request.put(`${API}/tickets/`, { headers: auth, data: { ticket: { id: t.id, version: t.version, status: 'Complete' } } });
  expect(res.ok(), await res.text()).toBeTruthy();
}

test('office invoices a job: preview, confirm, Billed badge, XLSX and PDF downloads, then unlocks the ticket with a reason', async ({ page, request, loginAs }) => {
  // A long journey (two downloads, two modals): more than the default minute on a busy machine.
  test.setTimeout(180_000);
  const done = unique('INVD');
  const open = unique('INVO');
  const job = await createJob(request, [
    { pole: { pole_name: done, line_name: '1' }, tasks: [{ code: 'P40-2', init_qty: 2 }], work_orders: ['WO-INV'] },
    { pole: { pole_name: open, line_name: '1' }, tasks: [{ code: 'XA8', init_qty: 1 }] },
  ]);
  await completeTicket(request, job.token, job.id, done);

  await loginAs(USERS.office);
  await openJob(page, job.id);
  const invoices = page.getByRole('region', { name: 'Invoices' });
  await expect(invoices.getByText('No invoices yet.')).toBeVisible();

  // Create invoice → Preview shows the completed ticket's line, not the pending one's.
  await invoices.getByRole('button', { name: 'Create invoice' }).click();
  const modal = page.getByRole('dialog', { name: 'Create invoice' });
  await expect(modal.getByRole('radio', { name: /Every completed ticket not billed yet \(1\)/ })).toBeChecked();
  await modal.getByRole('button', { name: 'Preview' }).click();
  const preview = modal.getByTestId('invoice-preview');
  await expect(preview).toContainText('1 tickets, 1 lines');
  const lines = preview.getByRole('region', { name: 'Invoice lines' });
  await expect(lines.getByRole('cell', { name: 'P40-2' })).toBeVisible();
  await expect(lines.getByRole('cell', { name: done })).toBeVisible();
  // Each ticket's evidence beside the lines (docs/product/records.md §9).
  await expect(preview.getByRole('region', { name: 'Evidence of each ticket' })).toContainText(done);
  await expect(preview).not.toContainText(open);
  await expect(modal.getByTestId('invoice-preview-total')).toHaveText(/^Total \$\d[\d,]*\.\d{2}$/);
  await modal.getByRole('button', { name: 'Confirm invoice' }).click();
  await expect(modal).toBeHidden();
  await expect(page.getByText(/Invoice INV-\d{6} created/)).toBeVisible();

  const invoiceRow = invoices.getByTestId('invoice-row');
  await expect(invoiceRow).toHaveCount(1);
  const number = (await invoiceRow.getByRole('cell').first().textContent())!.trim();
  expect(number).toMatch(/^INV-\d{6}$/);

  // The Billed badge on the billed ticket only.
  await expect(row(page, done).getByTestId('billed-badge')).toHaveText('Billed');
  await expect(row(page, done).getByTestId('billed-badge')).toHaveAttribute('title', `Billed on ${number}`);
  await expect(row(page, open).getByTestId('billed-badge')).toHaveCount(0);

  // The downloads: non-empty files of the right type, named after the job and invoice.
  for (const [kind, magic] of [
    ['XLSX', 'PK'],
    ['PDF', '%PDF-'],
  ] as const) {
    const [download] = await Promise.all([page.waitForEvent('download'), invoiceRow.getByRole('button', { name: `Download ${number} as ${kind}` }).click()]);
    expect(download.suggestedFilename()).toBe(`${job.number} ${number}.${kind.toLowerCase()}`);
    const bytes = readFileSync((await download.path())!);
    expect(bytes.length).toBeGreaterThan(500);
    expect(bytes.subarray(0, magic.length).toString('latin1')).toBe(magic);
  }

  // The evidence pack (docs/product/billing.md §7): both offered; the PDF downloads and is a PDF.
  await expect(invoiceRow.getByRole('link', { name: `Download Evidence ZIP of ${number}, with every photo` })).toHaveAttribute('href', /\/evidence\.zip$/);
  const [evidence] = await Promise.all([page.waitForEvent('download'), invoiceRow.getByRole('link', { name: `Download Evidence PDF of ${number}` }).click()]);
  expect(evidence.suggestedFilename()).toBe(`${job.number} ${number} evidence.pdf`);
  expect(readFileSync((await evidence.path())!).subarray(0, 5).toString('latin1')).toBe('%PDF-');

  // A second invoice: nothing left to bill, said plainly.
  await invoices.getByRole('button', { name: 'Create invoice' }).click();
  await modal.getByRole('button', { name: 'Preview' }).click();
  await expect(modal.getByRole('alert')).toContainText('There are no completed tickets to invoice');
  await modal.getByRole('button', { name: 'Cancel' }).click();

  // The ticket window says it is billed and locked; the office unlocks it with a reason.
  await row(page, done).click();
  const win = ticketWindow(page);
  const notice = win.getByTestId('billed-notice');
  await expect(notice).toContainText(`Billed on ${number} — tasks and status are locked`);
  // Mark Complete / Reopen live on the Info tab: none while locked.
  await win.getByRole('tab', { name: 'Info' }).click();
  await expect(win.getByText('Status', { exact: true })).toBeVisible();
  await expect(win.getByRole('button', { name: 'Reopen Ticket' })).toHaveCount(0);
  await notice.getByRole('button', { name: 'Unlock' }).click();
  const ask = page.getByRole('dialog', { name: `Unlock the ticket billed on ${number}` });
  await ask.getByRole('button', { name: 'Unlock ticket' }).click();
  await expect(ask.getByText('Say why the ticket is unlocked')).toBeVisible();
  await ask.getByRole('textbox', { name: 'Reason' }).fill('Utility recounted the crossarms');
  await ask.getByRole('button', { name: 'Unlock ticket' }).click();
  await expect(ask).toBeHidden();
  await expect(notice).toContainText(`Billed on ${number} — unlocked`);
  await expect(notice).toContainText('“Utility recounted the crossarms”');
  await expect(notice).toContainText(/Unlocked by \S+/);
  // Its status can change again.
  await expect(win.getByRole('button', { name: 'Reopen Ticket' })).toBeVisible();
});

test('a foreman reads the invoices but cannot create one; a lineman sees no invoices at all', async ({ page, request, loginAs }) => {
  test.setTimeout(120_000);
  const pole = unique('INVF');
  const job = await createJob(request, [{ pole: { pole_name: pole, line_name: '1' }, tasks: [{ code: 'P40-2', init_qty: 1 }] }]);
  await completeTicket(request, job.token, job.id, pole);
  const made = await request.post(`${API}/jobs/${job.id}/invoices`, { headers: { Authorization: `Bearer ${job.token}` }, data: {} });
  expect(made.status()).toBe(201);

  await loginAs(USERS.foreman);
  await openJob(page, job.id);
  const invoices = page.getByRole('region', { name: 'Invoices' });
  await expect(invoices.getByTestId('invoice-row')).toHaveCount(1);
  await expect(invoices.getByRole('button', { name: 'Create invoice' })).toHaveCount(0);
  await row(page, pole).click();
  await expect(ticketWindow(page).getByTestId('billed-notice')).toContainText('An Admin or Office Manager must unlock it');
  await expect(ticketWindow(page).getByRole('button', { name: 'Unlock' })).toHaveCount(0);

  await page.context().clearCookies();
  await loginAs(USERS.lineman);
  await openJob(page, job.id);
  await expect(page.getByRole('region', { name: 'Invoices' })).toHaveCount(0);
});
