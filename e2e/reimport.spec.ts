import { axeViolations } from './axe';
import type { Page } from '@playwright/test';
import { API, expect, test, unique, USERS } from './fixtures';
import { openJob } from './ticketJobs';

/**
 * The job page's Upload Spreadsheet maps the columns (the Excel Column Mapping
 * of Create Job), previews, and lets the user choose "Add new only" or "Update quantities too";
 * uploading a workbook the job already has never adds a task twice.
 */

const workbook = (pole: string, other: string) => ({
  name: 'week-2.csv',
  mimeType: 'text/csv',
  buffer: Buffer.from(
    [
      'Work Order,Pole,Line,Street,A,B,C,D,E,Unit,Quantity',
      `WO-1,${pole},1,Main St,,,,,,XA8,4`,
      `WO-1,${pole},1,Main St,,,,,,P40-2,1`,
      `WO-2,${other},1,Main St,,,,,,PR,1`,
    ].join('\n'),
  ),
});

async function uploadAndMap(page: Page, file: ReturnType<typeof workbook>) {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Upload Spreadsheet' }).click();
  await (await chooser).setFiles(file);
  const mapping = page.getByRole('dialog', { name: 'Excel Column Mapping' });
  await expect(mapping).toBeVisible();
  // The defaults found every column of this workbook; it has no Unit Library sheet.
  await expect(mapping.getByRole('combobox', { name: 'Unit/Task Code' })).toHaveValue('Unit');
  await mapping.getByRole('button', { name: 'Save' }).click();
  const preview = page.getByRole('dialog', { name: 'Spreadsheet preview' });
  await expect(preview).toBeVisible();
  return preview;
}

test('re-uploading a workbook shows a preview and never adds a task twice; "Update quantities too" sets the bid', async ({ page, request, loginAs, seededJob }) => {
  const pole = unique('RI').slice(-9);
  const other = unique('RJ').slice(-9);
  const job = await seededJob([{ pole: { pole_name: pole, line_name: '1' }, tasks: [{ code: 'XA8', init_qty: 2 }], work_orders: ['WO-1'] }]);
  await loginAs(USERS.office);
  await openJob(page, job.id);
  await expect(page.locator('[data-ticket-id]')).toHaveCount(1);

  // First upload: one new ticket, two new tasks (P40-2 on the pole, PR on the new one), the
  // crossarms bid 2 → 4 in the file.
  let preview = await uploadAndMap(page, workbook(pole, other));
  await expect(preview.getByText('New tickets')).toBeVisible();
  const figures = async () => (await preview.locator('.mantine-SimpleGrid-root').innerText()).replace(/\s+/g, ' ').trim();
  expect(await figures()).toBe('1 New tickets 2 New tasks 1 Changed quantities 0 Unchanged rows');
  await expect(preview.getByRole('row', { name: `${pole} 1 XA8 2 4` })).toBeVisible();
  await preview.getByRole('button', { name: 'Add new only' }).click();
  await expect(page.getByText('Added 1 ticket and 2 tasks from week-2.csv.')).toBeVisible();
  await expect(preview).toBeHidden();
  await expect(page.locator('[data-ticket-id]')).toHaveCount(2);

  // The same file again: nothing new, the matched rows are listed as unchanged or changed.
  preview = await uploadAndMap(page, workbook(pole, other));
  expect(await figures()).toBe('0 New tickets 0 New tasks 1 Changed quantities 2 Unchanged rows');
  await expect(preview.getByRole('button', { name: 'Add new only' })).toBeDisabled();
  await preview.getByRole('button', { name: 'Update quantities too' }).click();
  await expect(page.getByText('Added 0 tickets and 0 tasks, updated 1 bid quantity from week-2.csv.')).toBeVisible();
  await expect(page.locator('[data-ticket-id]')).toHaveCount(2);

  // Each unit once per ticket, with the file's bid.
  const full = (await (await request.get(`${API}/jobs/tickets/${job.id}`, { headers: { Authorization: `Bearer ${job.token}` } })).json()) as {
    pole_name: string;
    tasks: { code: string; init_qty: number }[];
  }[];
  const tasks = Object.fromEntries(full.map((t) => [t.pole_name, t.tasks.map((x) => `${x.code} ${x.init_qty}`).sort()]));
  expect(tasks).toEqual({ [pole]: ['P40-2 1', 'XA8 4'], [other]: ['PR 1'] });
});

test('on a phone, the preview passes axe (WCAG A/AA) and Cancel imports nothing', async ({ page, loginAs, seededJob }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const pole = unique('RK').slice(-9);
  const job = await seededJob([{ pole: { pole_name: pole, line_name: '1' }, tasks: [{ code: 'XA8', init_qty: 2 }] }]);
  await loginAs(USERS.admin);
  await page.goto(`/job?id=${job.id}`);
  await expect(page.getByRole('button', { name: 'Upload Spreadsheet' })).toBeVisible({ timeout: 45_000 });
  const preview = await uploadAndMap(page, workbook(pole, unique('RL').slice(-9)));
  await expect(preview.getByRole('row', { name: `${pole} 1 XA8 2 4` })).toBeVisible();
  // WCAG A/AA once the modal's transition is done (axeViolations waits for it).
  expect((await axeViolations(page)).map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  await preview.getByRole('button', { name: 'Cancel' }).click();
  await expect(preview).toBeHidden();
  await expect(page.locator('[data-ticket-id]')).toHaveCount(1);
});
