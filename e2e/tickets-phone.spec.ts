import type { Page } from '@playwright/test';
import { MSG } from '../src/shared/messages';
import { API, expect, fixture, test, unique, USERS } from './fixtures';
import { openJob, row, ticketWindow } from './ticketJobs';

const PHONE = { width: 390, height: 844 };
const SHOTS = process.env.E2E_SHOTS; // a folder: screenshots to look at, as a person would

async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png` });
}

/** Nothing on the page is wider than the screen. */
async function expectNoSidewaysScroll(page: Page) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.scrollingElement!.scrollWidth, innerWidth: window.innerWidth }));
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
}

const ticketOf = (url: string) => new URL(url).searchParams.get('ticket');

test.describe('tickets on a phone and tickets by address', () => {
  test.describe.configure({ timeout: 120_000 });

  test('on a phone the tickets are cards with no sideways scroll, the first above the fold, and the filters in a drawer', async ({ page, request, loginAs, seededJob }) => {
    const a = unique('PA').slice(-9);
    const b = unique('PB').slice(-9);
    const job = await seededJob([
      { pole: { pole_name: a, line_name: '12' }, street_address: '14 Mill Street, Springfield', due_date: '2031-03-09', tasks: [{ code: 'P40-2', init_qty: 2 }] },
      { pole: { pole_name: b, line_name: '12' }, street_address: '2 Long Road' },
      { pole: { pole_name: unique('PC').slice(-9), line_name: '13' } },
    ]);
    // One ticket complete, for the status filter.
    const auth = { Authorization: `Bearer ${job.token}` };
    const rows = (await (await request.get(`${API}/jobs/${job.id}`, { headers: auth })).json()) as { tickets: { id: number; version: number; pole_name: string }[] };
    const tb = rows.tickets.find((t) => t.pole_name === b)!;
    expect((await request.put(`${API}/tickets/`, { headers: auth, data: { ticket: { id: tb.id, version: tb.version, status: 'Complete' } } })).ok()).toBeTruthy();

    await page.setViewportSize(PHONE);
    await loginAs(USERS.foreman);
    await page.goto(`/job?id=${job.id}`);
    const cards = page.getByTestId('ticket-card');
    await expect(cards).toHaveCount(3, { timeout: 45_000 });
    await expect(page.getByRole('table', { name: 'Tickets' })).toHaveCount(0);
    await shot(page, 'phone-cards');

    const first = cards.filter({ hasText: a });
    await expect(first).toContainText(`Pole ${a} · Line 12`);
    await expect(first).toContainText('14 Mill Street, Springfield');
    await expect(first).toContainText('Pending');
    await expect(first).toContainText('Due: 03/09/2031');
    await expect(first.getByRole('img', { name: 'Digsafe: Not required' })).toBeVisible();
    await expect(cards.filter({ hasText: b })).toContainText('Complete');
    // The first card is on the first screen, whole.
    const box = (await cards.first().boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(PHONE.height);
    await expectNoSidewaysScroll(page);
    // The marks have a legend in words.
    await expect(page.getByTestId('doc-legend')).toContainText('Required, no document');
    // Tap targets of 44 px: the menu button.
    const burger = (await page.getByRole('button', { name: 'Toggle navigation' }).boundingBox())!;
    expect(Math.min(burger.width, burger.height)).toBeGreaterThanOrEqual(44);

    await page.getByRole('button', { name: 'Filters' }).click();
    const drawer = page.getByRole('dialog', { name: 'Filter and sort tickets' });
    await expect(drawer).toBeVisible();
    await shot(page, 'phone-filters');
    // Inputs at 16 px, or iOS zooms the page when one is tapped.
    for (const size of await drawer.locator('input:visible').evaluateAll((els) => els.map((e) => parseFloat(getComputedStyle(e).fontSize)))) expect(size).toBeGreaterThanOrEqual(16);
    await drawer.getByText('Complete', { exact: true }).click();
    await drawer.getByRole('button', { name: 'Show 1 ticket' }).click();
    await expect(drawer).toBeHidden();
    await expect(cards).toHaveCount(1);
    await expect(cards.first()).toContainText(b);
    await expect(page.getByRole('button', { name: 'Filters (1)' })).toBeVisible();

    // A card opens its ticket, full screen, and nothing scrolls sideways there either.
    await page.getByRole('button', { name: 'Filters (1)' }).click();
    await drawer.getByText('All', { exact: true }).click();
    await drawer.getByRole('button', { name: 'Show 3 tickets' }).click();
    await page.getByRole('button', { name: `Pole ${a} · Line 12` }).click();
    const win = ticketWindow(page);
    await expect(win.getByText('Edit Ticket')).toBeVisible();
    await expectNoSidewaysScroll(page);
    await win.getByRole('tab', { name: /Info/ }).click();
    await expect(win.getByLabel('Description')).toBeVisible();
    await shot(page, 'phone-ticket-info');
    for (const size of await win.locator('input:visible, textarea:visible').evaluateAll((els) => els.map((e) => parseFloat(getComputedStyle(e).fontSize)))) expect(size).toBeGreaterThanOrEqual(16);
    await win.getByRole('tab', { name: /Tasks/ }).click();
    await expect(win.getByTestId('task-total')).toContainText('Bid 2 + 0');
    await expectNoSidewaysScroll(page);
    await shot(page, 'phone-tasks');
    // Closing gives focus back to the card that opened the window.
    await win.getByRole('button', { name: 'Close', exact: true }).click();
    await expect(win).toBeHidden();
    await expect(page.getByRole('button', { name: `Pole ${a} · Line 12` })).toBeFocused();
  });

  test('a ticket has an address: Back closes it (asking first about unsaved changes), and a fresh load of the address opens it', async ({ page, loginAs, seededJob }) => {
    const pole = unique('UR').slice(-9);
    const job = await seededJob([{ pole: { pole_name: pole, line_name: '21' } }, { pole: { pole_name: unique('UQ').slice(-9), line_name: '21' } }]);
    await loginAs(USERS.admin);
    await openJob(page, job.id);
    await shot(page, 'desktop-table');

    await row(page, pole).click();
    const win = ticketWindow(page);
    await expect(win.getByText('Edit Ticket')).toBeVisible();
    const id = ticketOf(page.url());
    expect(Number(id)).toBeGreaterThan(0);
    expect(new URL(page.url()).searchParams.get('id')).toBe(String(job.id));

    // Back with nothing changed: the window closes, the job stays, focus is on the row again.
    await page.goBack();
    await expect(win).toBeHidden();
    expect(ticketOf(page.url())).toBeNull();
    await expect(row(page, pole)).toBeFocused();

    // Back with a change: asked first; staying keeps the edit and the address.
    await row(page, pole).click();
    await win.getByRole('tab', { name: /Info/ }).click();
    await win.getByLabel('Description').fill('Half-typed on the truck');
    await page.goBack();
    await expect(page.getByText(MSG.unsavedChanges)).toBeVisible();
    await page.getByRole('button', { name: 'Keep editing' }).click();
    await expect(win.getByLabel('Description')).toHaveValue('Half-typed on the truck');
    expect(ticketOf(page.url())).toBe(id);
    // Leaving after all: the window closes, nothing saved.
    await page.goBack();
    await expect(page.getByText(MSG.unsavedChanges)).toBeVisible();
    await page.getByRole('button', { name: 'Close anyway' }).click();
    await expect(win).toBeHidden();
    expect(ticketOf(page.url())).toBeNull();
    await expect(page).toHaveURL(new RegExp(`/job\\?id=${job.id}$`));

    // Create Ticket has an address too, and Back closes it.
    await page.getByRole('button', { name: 'Create Ticket' }).click();
    await expect(win.getByText('Create Ticket')).toBeVisible();
    expect(ticketOf(page.url())).toBe('new');
    await page.goBack();
    await expect(win).toBeHidden();
    expect(ticketOf(page.url())).toBeNull();

    // The address texted to a crew member opens the ticket on a fresh load.
    await page.goto(`/job?id=${job.id}&ticket=${id}`);
    await expect(win.getByText('Edit Ticket')).toBeVisible({ timeout: 45_000 });
    await expect(win.getByText(`${pole} / 21`)).toBeVisible();
    await win.getByRole('tab', { name: /Info/ }).click();
    await expect(win.getByLabel('Description')).toHaveValue('');
    await win.getByRole('button', { name: 'Close', exact: true }).click();
    await expect(win).toBeHidden();
    expect(ticketOf(page.url())).toBeNull();
    await expect(row(page, pole)).toBeFocused();
  });

  test('Delete Job is not the first stop on the job page, and the column headers are 44 px tap targets', async ({ page, loginAs, seededJob }) => {
    const job = await seededJob([{ pole: { pole_name: unique('DJ').slice(-9), line_name: '22' } }]);
    await loginAs(USERS.admin);
    await openJob(page, job.id);
    const buttons = page.locator('main button');
    await expect(buttons.first()).toHaveText('Edit Job Info');
    await buttons.first().focus();
    await page.keyboard.press('Shift+Tab');
    await expect(page.getByRole('button', { name: 'Delete Job' })).not.toBeFocused();
    for (const h of await page.getByRole('columnheader').getByRole('button').all()) expect((await h.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  });

  test('a lineman reads what he may not change as text, with a View only cue; notes and photos stay editable', async ({ page, loginAs, seededJob }) => {
    const pole = unique('RO').slice(-9);
    const job = await seededJob([
      { pole: { pole_name: pole, line_name: '31' }, tasks: [{ code: 'P40-2', init_qty: 2 }], street_address: '9 Elm Street', description: 'Replace the crossarm', work_orders: ['WO-77'] },
    ]);
    await page.setViewportSize(PHONE);
    await loginAs(USERS.lineman);
    await page.goto(`/job?id=${job.id}`);
    await page.getByRole('button', { name: `Pole ${pole} · Line 31` }).click({ timeout: 45_000 });
    const win = ticketWindow(page);
    await expect(win.getByText('View only')).toBeVisible();
    const panel = win.getByRole('tabpanel');

    // Pole: all text, no inputs (the window opens on Info, decision 039).
    await win.getByRole('tab', { name: 'Pole' }).click();
    await expect(panel.getByText(pole, { exact: true })).toBeVisible();
    await expect(panel.locator('input, textarea, select')).toHaveCount(0);
    await shot(page, 'lineman-pole');

    // Info: the fields as text; the only inputs are the new note and the photo picker.
    await win.getByRole('tab', { name: /Info/ }).click();
    await expect(panel.getByText('9 Elm Street')).toBeVisible();
    await expect(panel.getByText('Replace the crossarm')).toBeVisible();
    await expect(panel.getByText('WO-77')).toBeVisible();
    await expect(panel.getByRole('textbox')).toHaveCount(1);
    await expect(panel.getByRole('textbox', { name: 'New note' })).toBeEditable();
    await expect(panel.getByRole('combobox')).toHaveCount(0);
    await expect(panel.getByRole('spinbutton')).toHaveCount(0);
    await expect(panel.getByRole('button', { name: 'Add Photos' })).toBeEnabled();
    await shot(page, 'lineman-info');

    // Tasks: bid, change and total as text, no steppers.
    await win.getByRole('tab', { name: /Tasks/ }).click();
    const task = win.getByTestId('task-row');
    await expect(task).toContainText('Bid qty');
    await expect(task).toContainText('Change to bid');
    await expect(task.getByTestId('task-total')).toContainText('2');
    await expect(panel.locator('input')).toHaveCount(0);
    await shot(page, 'lineman-tasks');

    // A note still saves.
    await win.getByRole('tab', { name: /Info/ }).click();
    await panel.getByLabel('New note').fill('Guy wire is loose.');
    await panel.getByRole('button', { name: 'Add Note' }).click();
    await win.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByText('Ticket saved.')).toBeVisible();
    await expect(win.getByTestId('note').first()).toContainText('Guy wire is loose.');
  });

  test('a task shows its bid, the change to the bid and the total; photos open full screen with next, previous, zoom and their time', async ({ page, loginAs, seededJob }) => {
    const pole = unique('PV').slice(-9);
    const job = await seededJob([{ pole: { pole_name: pole, line_name: '41' } }]);
    await loginAs(USERS.foreman);
    await openJob(page, job.id);
    await row(page, pole).click();
    const win = ticketWindow(page);

    // A new task starts at bid 0 and a change of 1 (docs/product/rules.md §2.6): the total says 1.
    await win.getByRole('tab', { name: /Tasks/ }).click();
    await win.getByRole('button', { name: 'Add Task' }).click();
    await win.getByLabel('Unit for the new task').fill('XA8');
    await page.getByRole('option', { name: /^XA8 / }).click();
    const task = win.getByTestId('task-row');
    await expect(task.getByRole('textbox', { name: 'Bid qty' })).toHaveValue('0');
    await expect(task.getByRole('textbox', { name: 'Change to bid (+/-)' })).toHaveValue('1');
    await expect(task.getByTestId('task-total')).toContainText('Total qty');
    await expect(task.getByTestId('task-total')).toContainText('Bid 0 + 1');
    await task.getByRole('textbox', { name: 'Bid qty' }).fill('3');
    await expect(task.getByTestId('task-total')).toContainText('Bid 3 + 1');
    await expect(task.getByTestId('task-total')).toContainText(/4\b/);
    await win.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByText('Ticket saved.')).toBeVisible();

    await win.getByRole('tab', { name: /Info/ }).click();
    await win.getByLabel('Choose photos').setInputFiles([fixture('pole-photo-1.jpg'), fixture('pole-photo-2.jpg'), fixture('pole-photo-3.png')]);
    await expect(win.getByRole('button', { name: /^View image/ })).toHaveCount(3, { timeout: 30_000 });

    await win.getByRole('button', { name: 'View image 1' }).click();
    const viewer = page.getByRole('dialog', { name: /^Photo \d of 3/ });
    await expect(viewer).toHaveAccessibleName(new RegExp(`^Photo 1 of 3 · Pole ${pole}`));
    await expect(viewer.getByTestId('photo-time')).toContainText(/^Added \w{3} \d{1,2}, \d{4}/);
    await viewer.getByRole('button', { name: 'Next photo' }).click();
    await expect(viewer).toHaveAccessibleName(/^Photo 2 of 3/);
    await page.keyboard.press('ArrowRight');
    await expect(viewer).toHaveAccessibleName(/^Photo 3 of 3/);
    await page.keyboard.press('ArrowRight');
    await expect(viewer).toHaveAccessibleName(/^Photo 1 of 3/);
    await page.keyboard.press('ArrowLeft');
    await expect(viewer).toHaveAccessibleName(/^Photo 3 of 3/);
    await viewer.getByRole('button', { name: 'Previous photo' }).click();
    await expect(viewer).toHaveAccessibleName(/^Photo 2 of 3/);

    // A swipe to the left goes on; a swipe to the right goes back.
    const stage = (await viewer.getByTestId('photo-stage').boundingBox())!;
    const y = stage.y + stage.height / 2;
    const swipe = async (from: number, to: number) => {
      await page.mouse.move(from, y);
      await page.mouse.down();
      await page.mouse.move((from + to) / 2, y, { steps: 3 });
      await page.mouse.move(to, y, { steps: 3 });
      await page.mouse.up();
    };
    await swipe(stage.x + stage.width * 0.8, stage.x + stage.width * 0.2);
    await expect(viewer).toHaveAccessibleName(/^Photo 3 of 3/);
    await swipe(stage.x + stage.width * 0.2, stage.x + stage.width * 0.8);
    await expect(viewer).toHaveAccessibleName(/^Photo 2 of 3/);

    // Zoom in and back.
    const full = viewer.getByRole('img', { name: /Full photo of pole/ });
    await expect(full).toHaveAttribute('data-scale', '1');
    await viewer.getByRole('button', { name: 'Zoom in' }).click();
    await expect(full).toHaveAttribute('data-scale', '1.5');
    await shot(page, 'photo-zoomed');
    await viewer.getByRole('button', { name: 'Fit to screen' }).click();
    await expect(full).toHaveAttribute('data-scale', '1');
    // The wheel zooms too; a double click zooms in and then back to fit.
    await page.mouse.move(stage.x + stage.width / 2, y);
    await page.mouse.wheel(0, -100);
    await expect(full).toHaveAttribute('data-scale', '1.2');
    await viewer.getByRole('button', { name: 'Fit to screen' }).click();
    await viewer.getByTestId('photo-stage').dblclick();
    await expect(full).toHaveAttribute('data-scale', '2.5');
    await viewer.getByTestId('photo-stage').dblclick();
    await expect(full).toHaveAttribute('data-scale', '1');

    // Escape closes the viewer, not the ticket window.
    await page.keyboard.press('Escape');
    await expect(viewer).toBeHidden();
    await expect(win).toBeVisible();
  });
});
