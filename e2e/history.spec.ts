import { readFileSync } from 'node:fs';
import { API, expect, test, unique, USERS } from './fixtures';
import { scan } from './axe';
import { openJob, row, ticketWindow } from './ticketJobs';

/**
 * History (docs/product/records.md §1, decision 044): who changed what, read where the work is — the ticket
 * window's History tab, the phone ticket view, and the job's history with its CSV.
 */
const PHONE = { width: 390, height: 844 };
/** MM/DD/YYYY h:mm AM/PM */
const WHEN = /\d{2}\/\d{2}\/\d{4} \d{1,2}:\d{2} [AP]M/;

test.describe('history', () => {
  test.describe.configure({ timeout: 120_000 });

  test('an office manager edits a ticket and reads the change in its History tab and in the job history, and downloads it', async ({ page, loginAs, seededJob }) => {
    const pole = unique('HP').slice(-10);
    const job = await seededJob([{ pole: { pole_name: pole, line_name: '1' }, tasks: [{ code: 'P40-2', init_qty: 1 }], description: 'Old words' }]);
    await loginAs(USERS.office);
    await openJob(page, job.id);
    await row(page, pole).click();
    const win = ticketWindow(page);
    await expect(win.getByText('Edit Ticket')).toBeVisible();
    await win.getByRole('tab', { name: /Info/ }).click();
    await win.getByRole('textbox', { name: 'Description' }).fill('Replace the crossarm');
    await win.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByText('Ticket saved.')).toBeVisible();

    await win.getByRole('tab', { name: 'History' }).click();
    const changes = win.getByRole('list', { name: 'Changes, newest first' });
    const newest = changes.getByRole('listitem').first();
    await expect(newest).toContainText('Changed Description');
    await expect(newest).toContainText('Old words → Replace the crossarm');
    await expect(newest).toContainText('Olivia');
    await expect(newest).toContainText(WHEN);
    await expect(changes.getByRole('listitem').last()).toContainText('Imported Tasks');
    const found: string[] = [];
    await scan(page, 'ticket window, History tab', found);
    await win.getByRole('button', { name: 'Close', exact: true }).click();
    await expect(win).toBeHidden();

    await page.getByRole('button', { name: 'History', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: `History of job ${job.number}` });
    const first = dialog.getByRole('listitem').first();
    await expect(first).toContainText('Changed Description');
    await expect(first).toContainText(`${pole} / 1`);
    await scan(page, 'job history', found);
    expect(found).toEqual([]);

    const download = page.waitForEvent('download');
    await dialog.getByRole('button', { name: 'Download CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`${job.number}_History.csv`);
    const csv = readFileSync((await file.path())!, 'utf8');
    expect(csv.startsWith('\uFEFFWhen,Who,Ticket,What,Field,Old,New\r\n')).toBe(true);
    expect(csv).toContain(`,${pole} / 1,Changed Description,description,Old words,Replace the crossarm\r\n`);
  });

  test('a lineman on a phone adds a note and finds it in the ticket view’s history', async ({ page, loginAs, seededJob, request }) => {
    await page.setViewportSize(PHONE);
    const pole = unique('HL').slice(-10);
    const job = await seededJob([{ pole: { pole_name: pole, line_name: '2' }, tasks: [{ code: 'P40-2', init_qty: 1 }] }]);
    const tickets = (await (await request.get(`${API}/jobs/${job.id}`, { headers: { Authorization: `Bearer ${job.token}` } })).json()).tickets as { id: number }[];
    await loginAs(USERS.lineman);
    await page.goto(`/work/${tickets[0].id}`);
    await page.getByRole('textbox', { name: 'New note' }).fill('Pole leans north');
    await page.getByRole('button', { name: 'Add note' }).click();
    await expect(page.getByText('All changes synced')).toBeVisible();

    const section = page.getByRole('region', { name: 'History' });
    await section.getByRole('button', { name: 'Show who changed what' }).click();
    const newest = section.getByRole('listitem').first();
    await expect(newest).toContainText('Changed Notes');
    await expect(newest).toContainText('— → Pole leans north');
    await expect(newest).toContainText(WHEN);
    // Nothing wider than the phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    const found: string[] = [];
    await scan(page, 'phone ticket view, History', found);
    expect(found).toEqual([]);
  });
});
