import type { Page } from '@playwright/test';
import { API, choose, expect, test, unique, USERS } from './fixtures';
import { openJob } from './ticketJobs';
import { scan } from './axe';

/**
 * Saved mappings (docs/product/records.md §4, decision 046): a workbook mapped by hand for a utility saves the
 * mapping; the utility's next workbook opens the Excel Column Mapping with it, for the headers it
 * has, then the default names; "Reset to defaults" puts the default names back. On UNITIL, which
 * no other journey imports into, so that no parallel upload replaces the saved mapping.
 */
// A sheet needs at least 9 columns to be read as tickets (imports.md §3): the Spare ones fill it.
const csv = (name: string, header: string, rows: string[]) => ({ name, mimeType: 'text/csv', buffer: Buffer.from([header, ...rows].join('\n')) });

async function upload(page: Page, file: ReturnType<typeof csv>) {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Upload Spreadsheet' }).click();
  await (await chooser).setFiles(file);
  const mapping = page.getByRole('dialog', { name: 'Excel Column Mapping' });
  await expect(mapping).toBeVisible();
  return mapping;
}

test('a second workbook of the same utility opens mapped as the first was; Reset to defaults restores the default names', async ({ page, request, loginAs, seededJob }) => {
  const admin = await request.post(`${API}/crew/login`, { data: { email: USERS.admin, password: 'linecrew' } });
  const auth = { Authorization: `Bearer ${((await admin.json()) as { token: string }).token}` };
  const utilities = (await (await request.get(`${API}/utilities`, { headers: auth })).json()) as { id: number; code: string }[];
  const unitil = utilities.find((u) => u.code === 'UNITIL')!.id;
  const unit = unique('SM').slice(-10);
  const job = await seededJob([{ pole: { pole_name: unique('S0').slice(-9), line_name: 'C1' }, tasks: [{ code: unit, init_qty: 1 }] }], {
    selected_utility_id: unitil,
    newUnits: [{ code: unit, description: 'Saved-mapping unit' }],
  });
  await loginAs(USERS.office);
  await openJob(page, job.id);

  // The first workbook's headers match no default name: the office maps them by hand.
  const pole1 = unique('SA').slice(-9);
  let mapping = await upload(page, csv('first.csv', 'Order No,Pole Tag,Circuit,Location,Item,Count,Spare A,Spare B,Spare C', [`WO-7,${pole1},C1,1 Elm St,${unit},3,,,`]));
  await expect(mapping.getByRole('combobox', { name: 'Pole', exact: true })).toHaveValue('');
  for (const [target, column] of [
    ['Work Order', 'Order No'],
    ['Pole', 'Pole Tag'],
    ['Line', 'Circuit'],
    ['Street', 'Location'],
    ['Unit/Task Code', 'Item'],
    ['Quantity', 'Count'],
  ]) {
    // Exact names: 'Pole' would also find 'Pole ID'.
    await mapping.getByRole('combobox', { name: target, exact: true }).click();
    await page.getByRole('option', { name: column, exact: true }).click();
  }
  await mapping.getByRole('button', { name: 'Save' }).click();
  const preview = page.getByRole('dialog', { name: 'Spreadsheet preview' });
  await preview.getByRole('button', { name: 'Add new only' }).click();
  await expect(page.getByText('Added 1 ticket and 1 task from first.csv.')).toBeVisible();

  // The next workbook of UNITIL: its columns are chosen as the first's where it has them; it has
  // no Location but a Street, which its default name finds.
  const pole2 = unique('SB').slice(-9);
  mapping = await upload(page, csv('second.csv', 'Pole Tag,Order No,Street,Circuit,Item,Count,Remarks,Spare A,Spare B', [`${pole2},WO-8,2 Oak St,C1,${unit},5,ok,,`]));
  await expect(mapping.getByRole('status').filter({ hasText: "Columns are chosen as in this utility's last import." })).toBeVisible();
  const expected = { 'Work Order': 'Order No', Pole: 'Pole Tag', Line: 'Circuit', Street: 'Street', 'Unit/Task Code': 'Item', Quantity: 'Count' };
  for (const [target, column] of Object.entries(expected)) await expect(mapping.getByRole('combobox', { name: target, exact: true })).toHaveValue(column);
  const found: string[] = [];
  await scan(page, 'Excel Column Mapping, pre-mapped', found);
  expect(found).toEqual([]);

  // Reset to defaults: the default names only (Street is one; the others are not).
  await mapping.getByRole('button', { name: 'Reset to defaults' }).click();
  await expect(mapping.getByRole('combobox', { name: 'Street', exact: true })).toHaveValue('Street');
  for (const target of ['Work Order', 'Pole', 'Line', 'Unit/Task Code', 'Quantity']) await expect(mapping.getByRole('combobox', { name: target, exact: true })).toHaveValue('');
  await expect(mapping.getByText("Columns are chosen as in this utility's last import.")).toBeHidden();
  await expect(mapping.getByRole('button', { name: 'Save' })).toBeDisabled();
  await mapping.getByRole('button', { name: 'Cancel' }).click();
  await expect(mapping).toBeHidden();
});

test('an Admin sets the company time zone and the evidence rules on the Settings page; other roles do not see it', async ({ page, loginAs }) => {
  await loginAs(USERS.admin);
  await page.getByRole('banner').getByRole('link', { name: 'Settings' }).first().click();
  await page.waitForURL('**/settings');
  const card = page.getByRole('heading', { name: 'Company' }).locator('xpath=ancestor::div[contains(@class,"mantine-Paper-root")][1]');
  const zone = card.getByRole('combobox', { name: 'Time zone' });
  await expect(zone).toHaveValue('America/New_York');
  // America/Detroit keeps New York's clock: the journeys running alongside see the same dates.
  await choose(page, card, 'Time zone', 'America/Detroit');
  await card.getByRole('button', { name: 'Save time zone' }).click();
  await expect(card.getByRole('status')).toHaveText('Saved. The daily digest goes out at 06:00 in this time zone.');
  const found: string[] = [];
  // Evidence (decision 047): the radius and the photos required, refused out of range with the server's words.
  const evidence = page.getByRole('heading', { name: 'Evidence' }).locator('xpath=ancestor::div[contains(@class,"mantine-Paper-root")][1]');
  await expect(evidence.getByRole('textbox', { name: 'Photo radius (metres)' })).toHaveValue('100');
  await expect(evidence.getByRole('textbox', { name: 'Photos required per ticket' })).toHaveValue('1');
  await scan(page, 'Settings page with the Company and Evidence cards', found);
  expect(found).toEqual([]);
  await choose(page, card, 'Time zone', 'America/New_York');
  await card.getByRole('button', { name: 'Save time zone' }).click();
  await expect(card.getByRole('status')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('combobox', { name: 'Time zone' })).toHaveValue('America/New_York');

  await page.getByRole('banner').getByRole('button', { name: 'Logout' }).click();
  await page.waitForURL('**/login');
  await loginAs(USERS.office);
  await page.goto('/user');
  await expect(page.getByRole('heading', { name: 'User Account' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Company' })).toHaveCount(0);
  await expect(page.getByRole('banner').getByRole('link', { name: 'Settings' })).toHaveCount(0);
  await page.goto('/settings');
  await expect(page.getByText("Only an Admin can change the company's settings.")).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Company' })).toHaveCount(0);
});
