import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MSG } from '../src/shared/messages';
import { API, expect, fixture, test, unique, USERS } from './fixtures';
import { openJob, row, ticketWindow } from './ticketJobs';

const here = path.dirname(fileURLToPath(import.meta.url));

test.describe('tickets of a job', () => {
  // Each journey makes its own job through the API first, and some upload files: allow for a busy machine.
  test.describe.configure({ timeout: 120_000 });

  test('the Pole filter narrows the table, from the keyboard too', async ({ page, loginAs, seededJob }) => {
    const a = unique('PFA').slice(-10);
    const b = unique('PFB').slice(-10);
    const job = await seededJob([{ pole: { pole_name: a, line_name: '1' } }, { pole: { pole_name: b, line_name: '1' } }]);
    await loginAs(USERS.foreman);
    await openJob(page, job.id);
    await expect(row(page, a)).toHaveCount(1);
    await expect(row(page, b)).toHaveCount(1);

    // Its list is made when the filter is first focused, and mounted only while it is open.
    const filter = page.getByRole('textbox', { name: 'Pole', exact: true }).or(page.getByRole('combobox', { name: 'Pole', exact: true }));
    await expect(page.getByRole('listbox')).toHaveCount(0);
    await filter.focus();
    await filter.press('ArrowDown');
    await expect(page.getByRole('option', { name: b, exact: true })).toBeVisible();
    await filter.fill(b);
    await filter.press('ArrowDown');
    await filter.press('Enter');
    await expect(filter).toHaveValue(b);
    await expect(row(page, a)).toHaveCount(0);
    await expect(row(page, b)).toHaveCount(1);
    await expect(page.getByRole('listbox')).toHaveCount(0);
  });

  test('a foreman adds a new pole as a ticket, adds two tasks and a note, uploads three photos and views one', async ({ page, loginAs, seededJob }) => {
    const job = await seededJob([{ pole: { pole_name: unique('EX'), line_name: '3' }, tasks: [{ code: 'P40-2', init_qty: 1 }] }]);
    await loginAs(USERS.foreman);
    await openJob(page, job.id);

    const pole = unique('NP').slice(-10);
    await page.getByRole('button', { name: 'Create Ticket' }).click();
    const win = ticketWindow(page);
    await expect(win.getByText('Create Ticket')).toBeVisible();
    // Info and Tasks stay closed until a pole is chosen.
    await expect(win.getByRole('tab', { name: /Info/ })).toBeDisabled();
    await expect(win.getByRole('button', { name: 'Add as a New Pole' })).toBeDisabled();
    await win.getByRole('textbox', { name: 'Pole', exact: true }).fill(pole);
    await win.getByRole('textbox', { name: 'Line', exact: true }).fill('9');
    // As a person does: wait for the search to answer (its message moves the button down).
    await expect(win.getByText('No existing pole matches')).toBeVisible();
    await win.getByRole('button', { name: 'Add as a New Pole' }).click();

    // The new ticket is saved at once and opened.
    await expect(win.getByText('Edit Ticket')).toBeVisible();
    await expect(row(page, pole)).toHaveCount(1);

    await win.getByRole('tab', { name: /Tasks/ }).click();
    for (const code of ['P40-2', 'XA8']) {
      await win.getByRole('button', { name: 'Add Task' }).click();
      const picker = win.getByLabel('Unit for the new task');
      await picker.fill(code);
      await page.getByRole('option', { name: new RegExp(`^${code} `) }).click();
      await expect(win.getByRole('button', { name: 'Add Task' })).toBeEnabled();
    }
    await expect(win.getByTestId('task-row')).toHaveCount(2);

    await win.getByRole('tab', { name: /Info/ }).click();
    await win.getByLabel('New note').fill('Crew needs a bucket truck for this pole.');
    await win.getByRole('button', { name: 'Add Note' }).click();
    await win.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByText('Ticket saved.')).toBeVisible();
    await expect(win.getByRole('tab', { name: 'Tasks (2)' })).toBeVisible();
    await expect(win.getByTestId('note').first()).toContainText('Crew needs a bucket truck');
    await expect(win.getByTestId('note').first()).toContainText('Frank');
    await expect(win.getByText('not saved yet')).toHaveCount(0);

    await win.getByLabel('Choose photos').setInputFiles([fixture('pole-photo-1.jpg'), fixture('pole-photo-2.jpg'), fixture('pole-photo-3.png')]);
    await expect(win.getByRole('button', { name: /^View image/ })).toHaveCount(3, { timeout: 30_000 });
    await expect(win.getByText('Images (3/10)')).toBeVisible();
    await win.getByRole('button', { name: 'View image 2' }).click();
    const full = page.getByRole('img', { name: /Full photo of pole/ });
    await expect(full).toBeVisible();
    expect(await full.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await page.keyboard.press('Escape');
    await expect(full).toBeHidden();

    // Saved for real: a fresh load of the ticket shows both tasks, the note and the photos.
    await win.getByRole('button', { name: 'Close', exact: true }).click();
    await expect(win).toBeHidden();
    await row(page, pole).click();
    await expect(win.getByRole('tab', { name: 'Tasks (2)' })).toBeVisible();
  });

  test('picking a pole another ticket of the job holds offers a merge; merging leaves one ticket with everything', async ({ page, loginAs, seededJob }) => {
    const a = unique('MA').slice(-9);
    const b = unique('MB').slice(-9);
    const job = await seededJob([
      { pole: { pole_name: a, line_name: '4' }, tasks: [{ code: 'P40-2', init_qty: 1 }], work_orders: ['WO-A'] },
      { pole: { pole_name: b, line_name: '4' }, tasks: [{ code: 'XA8', init_qty: 2 }], work_orders: ['WO-B'] },
    ]);
    await loginAs(USERS.admin);
    await openJob(page, job.id);
    await expect(page.locator('[data-ticket-id]')).toHaveCount(2);

    await row(page, a).click();
    const win = ticketWindow(page);
    await expect(win.getByText('Edit Ticket')).toBeVisible();
    // Typing another pole name unselects the pole: Info and Tasks close until one is chosen.
    await win.getByRole('tab', { name: 'Pole' }).click();
    await win.getByRole('textbox', { name: 'Pole', exact: true }).fill(b);
    await expect(win.getByRole('tab', { name: /Info/ })).toBeDisabled();
    await win.getByRole('button', { name: `Select pole ${b} line 4` }).click();
    await expect(win.getByText(MSG.needsMerge)).toBeVisible();
    await expect(win.getByRole('button', { name: 'Save', exact: true })).toHaveCount(0);
    await win.getByRole('button', { name: 'Merge Tickets' }).click();

    await expect(win).toBeHidden();
    await expect(page.locator('[data-ticket-id]')).toHaveCount(1);
    await row(page, b).click();
    await expect(win.getByRole('tab', { name: 'Tasks (2)' })).toBeVisible();
    await win.getByRole('tab', { name: /Info/ }).click();
    await expect(win.getByText('WO-A')).toBeVisible();
    await expect(win.getByText('WO-B')).toBeVisible();
  });

  test('marking the last open ticket complete completes the job', async ({ page, loginAs, seededJob }) => {
    const pole = unique('CP').slice(-9);
    const job = await seededJob([{ pole: { pole_name: pole, line_name: '5' }, tasks: [{ code: 'P40-2', init_qty: 1 }] }]);
    await loginAs(USERS.wforeman);
    await openJob(page, job.id);
    const jobBadge = page.locator('.mantine-Badge-root').filter({ hasText: /^In Progress$/ });
    await expect(jobBadge).toBeVisible();

    await row(page, pole).click();
    const win = ticketWindow(page);
    // A working foreman edits tickets but may not delete them.
    await expect(win.getByText('Delete Ticket')).toHaveCount(0);
    await win.getByRole('tab', { name: /Info/ }).click();
    await win.getByRole('button', { name: 'Mark Complete' }).click();
    await expect(page.getByText('Ticket marked complete.')).toBeVisible();
    await win.getByRole('button', { name: 'Close', exact: true }).click();

    await expect(row(page, pole)).toContainText('Complete');
    await expect(page.locator('.mantine-Badge-root').filter({ hasText: /^Complete$/ })).toBeVisible();
  });

  test('a lineman can read tickets and add a note, but not create or delete tickets', async ({ page, loginAs, seededJob }) => {
    const pole = unique('LN').slice(-9);
    const job = await seededJob([{ pole: { pole_name: pole, line_name: '6' } }]);
    await loginAs(USERS.lineman);
    await openJob(page, job.id);
    await expect(page.getByRole('button', { name: 'Create Ticket' })).toHaveCount(0);
    await row(page, pole).click();
    const win = ticketWindow(page);
    await expect(win.getByText('Delete Ticket')).toHaveCount(0);
    await win.getByRole('tab', { name: /Info/ }).click();
    await win.getByLabel('New note').fill('Checked the guy wire.');
    await win.getByRole('button', { name: 'Add Note' }).click();
    await win.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByText('Ticket saved.')).toBeVisible();
    await expect(win.getByTestId('note').first()).toContainText('Checked the guy wire.');
  });

  test('a save over someone else\'s newer save is refused with a reload offer, and the edit stays on screen', async ({ page, request, loginAs, seededJob }) => {
    const pole = unique('SV').slice(-9);
    const job = await seededJob([{ pole: { pole_name: pole, line_name: '7' } }]);
    await loginAs(USERS.office);
    await openJob(page, job.id);
    await row(page, pole).click();
    const win = ticketWindow(page);
    await win.getByRole('tab', { name: /Info/ }).click();
    const description = win.getByLabel('Description');
    await expect(description).toBeVisible();

    // Meanwhile someone else saves the same ticket.
    const auth = { Authorization: `Bearer ${job.token}` };
    const jobBody = (await (await request.get(`${API}/jobs/${job.id}`, { headers: auth })).json()) as { tickets: { id: number; version: number }[] };
    const t = jobBody.tickets[0];
    const other = await request.put(`${API}/tickets/`, { headers: auth, data: { ticket: { id: t.id, version: t.version, description: 'Saved by the office first' } } });
    expect(other.ok()).toBeTruthy();

    await description.fill('My own description');
    await win.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(win.getByText(MSG.staleVersion)).toBeVisible();
    await expect(description).toHaveValue('My own description');
    await win.getByRole('button', { name: 'Reload' }).click();
    await expect(win.getByText(MSG.staleVersion)).toBeHidden();
    await expect(description).toHaveValue('Saved by the office first');
  });

  test('a spreadsheet adds its tickets to the job, and one with bad rows names them and adds nothing', async ({ page, loginAs, seededJob }) => {
    const job = await seededJob([{ pole: { pole_name: unique('XL').slice(-9), line_name: '8' } }]);
    // The foreman: the server reads one workbook per user at a time, and the other specs that
    // upload workbooks (jobs, reimport) sign in as admin or office on the other worker.
    await loginAs(USERS.foreman);
    await openJob(page, job.id);
    await expect(page.locator('[data-ticket-id]')).toHaveCount(1);
    const workbooks = path.join(here, '../src/server/test/fixtures');
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Upload Spreadsheet' }).click();
    await (await chooser).setFiles(path.join(workbooks, 'bad-row.xlsx'));
    // The Excel Column Mapping of Create Job, then a preview (decision 018; e2e/reimport.spec.ts).
    await page.getByRole('dialog', { name: 'Excel Column Mapping' }).getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Spreadsheet not added')).toBeVisible();
    await expect(page.getByText("Row 14: Quantity 'abc' is not a number")).toBeVisible();
    await expect(page.locator('[data-ticket-id]')).toHaveCount(1);

    const chooser2 = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Upload Spreadsheet' }).click();
    await (await chooser2).setFiles(path.join(workbooks, 'good.xlsx'));
    await page.getByRole('dialog', { name: 'Excel Column Mapping' }).getByRole('button', { name: 'Save' }).click();
    await page.getByRole('dialog', { name: 'Spreadsheet preview' }).getByRole('button', { name: 'Add new only' }).click();
    await expect(page.getByText(/Added 3 tickets and 5 tasks from good\.xlsx/)).toBeVisible();
    await expect(page.locator('[data-ticket-id]')).toHaveCount(4);
  });

  test('Create Task adds one unit to every ticked ticket', async ({ page, request, loginAs, seededJob }) => {
    const a = unique('CA').slice(-9);
    const b = unique('CB').slice(-9);
    const job = await seededJob([{ pole: { pole_name: a, line_name: '2' } }, { pole: { pole_name: b, line_name: '2' } }, { pole: { pole_name: unique('CC').slice(-9), line_name: '2' } }]);
    await loginAs(USERS.foreman);
    await openJob(page, job.id);
    await expect(page.getByRole('button', { name: /^Create Task/ })).toBeDisabled();
    await page.getByRole('checkbox', { name: `Select pole ${a}` }).check();
    await page.getByRole('checkbox', { name: `Select pole ${b}` }).check();
    await page.getByRole('button', { name: 'Create Task (2)' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create Task' });
    await dialog.getByLabel('Unit').fill('XA8');
    await page.getByRole('option', { name: /^XA8 / }).click();
    await dialog.getByRole('button', { name: 'Add to 2 tickets' }).click();
    await expect(page.getByText('Task XA8 added to 2 tickets.')).toBeVisible();
    await expect(dialog).toBeHidden();

    const auth = { Authorization: `Bearer ${job.token}` };
    const full = (await (await request.get(`${API}/jobs/tickets/${job.id}`, { headers: auth })).json()) as { pole_name: string; tasks: { code: string }[] }[];
    const codes = Object.fromEntries(full.map((t) => [t.pole_name, t.tasks.map((x) => x.code)]));
    expect(codes[a]).toEqual(['XA8']);
    expect(codes[b]).toEqual(['XA8']);
    expect(Object.values(codes).filter((c) => c.length === 0)).toHaveLength(1);
  });

  test('on a phone the ticket window fills the screen and its tabs work', async ({ page, loginAs, seededJob }) => {
    const pole = unique('PH').slice(-9);
    const job = await seededJob([{ pole: { pole_name: pole, line_name: '1' }, tasks: [{ code: 'P40-2', init_qty: 1 }] }]);
    await page.setViewportSize({ width: 375, height: 800 });
    await loginAs(USERS.wforeman);
    await page.goto(`/job?id=${job.id}`);
    // A phone shows ticket cards, not the table (e2e/tickets-phone.spec.ts).
    await page.getByRole('button', { name: `Pole ${pole} · Line 1` }).click({ timeout: 45_000 });
    const win = ticketWindow(page);
    await expect(win.getByText('Edit Ticket')).toBeVisible();
    const box = await win.boundingBox();
    expect(box?.width).toBeGreaterThanOrEqual(370);
    await win.getByRole('tab', { name: /Tasks/ }).click();
    await expect(win.getByTestId('task-row')).toHaveCount(1);
    await expect(win.getByRole('button', { name: 'Close', exact: true })).toBeInViewport();
  });

  test('closing with changes asks first, and Delete Ticket asks before deleting', async ({ page, loginAs, seededJob }) => {
    const pole = unique('DL').slice(-9);
    const job = await seededJob([{ pole: { pole_name: pole, line_name: '3' } }, { pole: { pole_name: unique('KP').slice(-9), line_name: '3' } }]);
    await loginAs(USERS.admin);
    await openJob(page, job.id);
    await row(page, pole).click();
    const win = ticketWindow(page);
    await win.getByRole('tab', { name: /Info/ }).click();
    await win.getByLabel('Description').fill('Changed but not saved');
    await win.getByRole('button', { name: 'Close', exact: true }).click();
    await expect(page.getByText(MSG.unsavedChanges)).toBeVisible();
    await page.getByRole('button', { name: 'Keep editing' }).click();
    await expect(win.getByLabel('Description')).toHaveValue('Changed but not saved');
    await win.getByRole('button', { name: 'Close', exact: true }).click();
    await page.getByRole('button', { name: 'Close anyway' }).click();
    await expect(win).toBeHidden();

    await row(page, pole).click();
    await win.getByRole('button', { name: 'Delete Ticket' }).click();
    await expect(page.getByText(MSG.confirmDeleteTicket)).toBeVisible();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect(win).toBeHidden();
    await expect(page.locator('[data-ticket-id]')).toHaveCount(1);
    await expect(row(page, pole)).toHaveCount(0);
  });
});
