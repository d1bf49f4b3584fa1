import { axeViolations } from './axe';
import type { Locator, Page } from '@playwright/test';
import { API, choose, DEMO_PASSWORD, expect, fixture, login, test, unique, USERS } from './fixtures';
import { openJob } from './ticketJobs';

/**
 * The Excel Column Mapping says what it read before anything is written (docs/product/imports.md §14):
 * the sheet and header row used for the tickets and for the library with their row
 * counts, the values it had to interpret, and a way to read another sheet instead.
 *
 * The workbook (e2e/fixtures/make-import-mapping.py): a hidden first sheet "Old copy" with other
 * columns, "Unit Tracking" with two title lines above its header (row 3) and Due Dates written
 * as text with a two-digit year ("3/15/27"), "Unit Library", and a "Read me" sheet without a
 * header row.
 */
const WORKBOOK = fixture('import-mapping.xlsx');
// Each reading of the workbook is a server round trip through its worker pool: four of them, a
// job save and a job page take over a minute on a busy two-core machine. A guard, not a budget.
test.describe.configure({ timeout: 180_000 });
const READ = { timeout: 45_000 };
const fileInput = (scope: Locator, label: string) => scope.locator(`input[type=file][aria-label="${label}"]`);

/** Opens Create Job, fills what Save needs besides the workbook, uploads the workbook and returns the mapping. */
async function openMapping(page: Page, jobNumber: string, withPacket: boolean) {
  await page.goto('/jobs');
  await page.getByRole('button', { name: 'Create Job' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create Job' });
  await dialog.getByRole('textbox', { name: 'Job' }).fill(jobNumber);
  await choose(page, dialog, 'Utility', 'NGRID');
  if (withPacket) {
    await fileInput(dialog, 'Work Packet PDF').setInputFiles(fixture('packet.pdf'));
    await expect(dialog.getByRole('link', { name: 'packet.pdf' })).toBeVisible();
  }
  await fileInput(dialog, 'Excel Ticket File').setInputFiles(WORKBOOK);
  const mapping = page.getByRole('dialog', { name: 'Excel Column Mapping' });
  await expect(mapping).toBeVisible(READ);
  return { dialog, mapping };
}

const TICKETS_READ = 'Tickets: sheet “Unit Tracking”, header in row 3, 3 rows below it.';
const LIBRARY_READ = 'Unit Library: sheet “Unit Library”, header in row 1, 2 rows below it.';

test('the mapping step names the sheets and header rows it read, lists the two-digit years, and reads another sheet on request', async ({ page, request }) => {
  const jobNumber = unique('MAP');
  await login(page, USERS.foreman);
  const { dialog, mapping } = await openMapping(page, jobNumber, true);

  // What was read: the visible Unit Tracking sheet (the hidden "Old copy" is never chosen by
  // itself), its header under the two title lines, and the library sheet.
  await expect(mapping.getByText(TICKETS_READ)).toBeVisible();
  await expect(mapping.getByText(LIBRARY_READ)).toBeVisible();
  const ticketsSheet = mapping.getByRole('combobox', { name: 'Tickets sheet' });
  await expect(ticketsSheet).toHaveValue('Unit Tracking');
  await expect(mapping.getByRole('combobox', { name: 'Due Date' })).toHaveValue('Due Date');

  // The two-digit years it read, because Due Date is mapped; unmapping it drops the note.
  const notes = mapping.getByRole('status').filter({ hasText: 'Check these values before saving' });
  await expect(notes).toBeVisible();
  await expect(notes).toContainText('3/15/27');
  await expect(notes).toContainText('03/15/2027');
  await clearSelect(page, mapping, 'Due Date');
  await expect(notes).toBeHidden();
  await choose(page, mapping, 'Due Date', 'Due Date');
  await expect(notes).toBeVisible();

  // Every sheet is offered, the hidden one labelled so.
  await ticketsSheet.click();
  for (const name of ['Old copy (hidden)', 'Unit Tracking', 'Unit Library', 'Read me']) {
    await expect(page.getByRole('option', { name, exact: true })).toBeVisible();
  }
  await page.keyboard.press('Escape');

  // A sheet without a header row is refused by the server: its message shows, and the mapping
  // (Pole ID cleared by hand) and the sheet stay as they were.
  await clearSelect(page, mapping, 'Pole ID');
  await choose(page, mapping, 'Tickets sheet', 'Read me');
  const refused = mapping.getByRole('alert').filter({ hasText: 'That sheet could not be used' });
  await expect(refused).toBeVisible(READ);
  await expect(refused).toContainText('Read me');
  await expect(ticketsSheet).toHaveValue('Unit Tracking');
  await expect(mapping.getByText(TICKETS_READ)).toBeVisible();
  await expect(mapping.getByRole('combobox', { name: 'Pole ID' })).toHaveValue('');
  await expect(mapping.getByRole('combobox', { name: 'Due Date' })).toHaveValue('Due Date');

  // The hidden old copy, picked by hand: its columns replace the tickets side's (no Due Date, "Qty").
  await choose(page, mapping, 'Tickets sheet', 'Old copy (hidden)');
  await expect(mapping.getByText('Tickets: sheet “Old copy”, header in row 1, 1 row below it.')).toBeVisible(READ);
  await expect(refused).toBeHidden();
  await expect(ticketsSheet).toHaveValue('Old copy (hidden)');
  await expect(mapping.getByRole('combobox', { name: 'Work Order' })).toHaveValue('Work Order');
  await expect(mapping.getByRole('combobox', { name: 'Due Date' })).toHaveValue('');
  await expect(mapping.getByRole('combobox', { name: 'Quantity' })).toHaveValue('');
  await expect(notes).toBeHidden();
  await mapping.getByRole('combobox', { name: 'Description' }).click();
  await expect(page.getByRole('option', { name: 'Remarks', exact: true })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(mapping.getByRole('button', { name: 'Save' })).toBeDisabled(); // Quantity is not mapped
  // The library side was not touched.
  await expect(mapping.getByText(LIBRARY_READ)).toBeVisible();

  // Back to Unit Tracking: its columns and the defaults again (Pole ID too), and the note.
  await choose(page, mapping, 'Tickets sheet', 'Unit Tracking');
  await expect(mapping.getByText(TICKETS_READ)).toBeVisible(READ);
  await expect(mapping.getByRole('combobox', { name: 'Due Date' })).toHaveValue('Due Date');
  await expect(mapping.getByRole('combobox', { name: 'Pole ID' })).toHaveValue('Pole ID');
  await expect(mapping.getByRole('combobox', { name: 'Quantity' })).toHaveValue('Quantity');
  await expect(notes).toContainText('03/15/2027');
  await mapping.getByRole('tab', { name: 'Unit Library' }).click();
  await expect(mapping.getByRole('combobox', { name: 'Unit Library sheet' })).toHaveValue('Unit Library');
  await expect(mapping.getByRole('combobox', { name: 'Unit Code' })).toHaveValue('Unit Code');
  await mapping.getByRole('button', { name: 'Save' }).click();
  await expect(mapping).toBeHidden();
  await expect(dialog.getByText(/Columns mapped/)).toBeVisible();

  // The job is saved with the sheet picked (the library's was left to the rules).
  const saved = page.waitForResponse((r) => r.request().method() === 'PUT' && new URL(r.url()).pathname === `${API}/jobs/`);
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  const reply = await saved;
  expect(reply.status(), await reply.text()).toBe(200);
  const sent = reply.request().postDataJSON() as { job: { ticketsFile: { ticketsSheet?: string; librarySheet?: string } } };
  expect(sent.job.ticketsFile.ticketsSheet).toBe('Unit Tracking');
  expect(sent.job.ticketsFile.librarySheet).toBeUndefined();
  await expect(dialog).toBeHidden(READ);
  const jobId = ((await reply.json()) as { job: { id: number } }).job.id;

  const token = ((await (await request.post(`${API}/crew/login`, { data: { email: USERS.admin, password: DEMO_PASSWORD } })).json()) as { token: string }).token;
  const auth = { Authorization: `Bearer ${token}` };
  try {
    // "3/15/27" is March 15, 2027: stored as that calendar date and shown as 03/15/2027.
    const job = (await (await request.get(`${API}/jobs/${jobId}`, { headers: auth })).json()) as { tickets: { pole_name: string; due_date: string | null }[] };
    const due = Object.fromEntries(job.tickets.map((t) => [t.pole_name, t.due_date]));
    expect(due).toEqual({ 'MP-1': '2027-03-15', 'MP-2': '2027-03-16' });
    await page.goto(`/job?id=${jobId}`);
    const mp1 = page.locator('[data-ticket-id]').filter({ has: page.getByRole('cell', { name: 'MP-1', exact: true }) });
    await expect(mp1).toContainText('03/15/2027', { timeout: 45_000 });
  } finally {
    const res = await request.delete(`${API}/jobs/${jobId}`, { headers: auth });
    expect([200, 404]).toContain(res.status());
  }
});

test('the job page\'s Upload Spreadsheet reads the sheet picked, in its preview and its import', async ({ page, loginAs, seededJob }) => {
  const job = await seededJob([{ pole: { pole_name: unique('MQ').slice(-9), line_name: '1' }, tasks: [{ code: 'XA8', init_qty: 1 }] }]);
  await loginAs(USERS.foreman);
  await openJob(page, job.id);
  await expect(page.locator('[data-ticket-id]')).toHaveCount(1);

  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Upload Spreadsheet' }).click();
  await (await chooser).setFiles(WORKBOOK);
  const mapping = page.getByRole('dialog', { name: 'Excel Column Mapping' });
  await expect(mapping.getByText(TICKETS_READ)).toBeVisible(READ);
  await expect(mapping.getByText(LIBRARY_READ)).toBeVisible();
  await expect(mapping.getByRole('status').filter({ hasText: 'Check these values before saving' })).toContainText('03/15/2027');

  // The old copy (one row: MP-1 / ML-1, MAP-POLE × 1), its Qty mapped by hand.
  await choose(page, mapping, 'Tickets sheet', 'Old copy (hidden)');
  await expect(mapping.getByText('Tickets: sheet “Old copy”, header in row 1, 1 row below it.')).toBeVisible(READ);
  await choose(page, mapping, 'Quantity', 'Qty');
  await mapping.getByRole('button', { name: 'Save' }).click();

  // The sheet picked travels with the preview and the import (multipart fields; Chromium does not
  // show a test the body of a request with a file): both count the old copy's one row, not Unit
  // Tracking's three rows of two tickets.
  const preview = page.getByRole('dialog', { name: 'Spreadsheet preview' });
  await expect(preview).toBeVisible(READ);
  expect((await preview.locator('.mantine-SimpleGrid-root').innerText()).replace(/\s+/g, ' ').trim()).toBe('1 New tickets 1 New tasks 0 Changed quantities 0 Unchanged rows');
  await preview.getByRole('button', { name: 'Add new only' }).click();
  await expect(page.getByText('Added 1 ticket and 1 task from import-mapping.xlsx.')).toBeVisible(READ);
  await expect(page.locator('[data-ticket-id]')).toHaveCount(2);
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the mapping step fits 390 px: what was read, the notes and the sheet picker', async ({ page }, testInfo) => {
    await login(page, USERS.foreman);
    const { mapping } = await openMapping(page, unique('MAPP'), false);
    await expect(mapping.getByText(TICKETS_READ)).toBeVisible();
    await expect(mapping.getByRole('status').filter({ hasText: 'Check these values before saving' })).toBeVisible();
    await expect(mapping.getByRole('combobox', { name: 'Tickets sheet' })).toHaveValue('Unit Tracking');
    // Nothing is wider than the screen.
    const overflow = await mapping.evaluate((el) => {
      const wide = [...el.querySelectorAll<HTMLElement>('*')].filter((n) => n.getBoundingClientRect().right > window.innerWidth + 1);
      return wide.map((n) => `${n.tagName}.${n.className}`).slice(0, 5);
    });
    expect(overflow).toEqual([]);
    await page.screenshot({ path: testInfo.outputPath('excel-mapping-390.png') });
    // WCAG A/AA on the modal as a phone shows it (the a11y spec's tags).
    expect((await axeViolations(page)).map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join('; ')}`)).toEqual([]);
    // The picker works on a phone too.
    await choose(page, mapping, 'Tickets sheet', 'Old copy (hidden)');
    await expect(mapping.getByText('Tickets: sheet “Old copy”, header in row 1, 1 row below it.')).toBeVisible(READ);
    await mapping.getByRole('button', { name: 'Cancel' }).click();
    await expect(mapping).toBeHidden();
  });
});

/** Unmaps a target: a second pick of the chosen column deselects it (Mantine's allowDeselect). */
async function clearSelect(page: Page, scope: Locator, label: string) {
  const box = scope.getByRole('combobox', { name: label, exact: true });
  const current = await box.inputValue();
  await box.click();
  await page.getByRole('option', { name: current, exact: true }).click();
  await expect(box).toHaveValue('');
}
