import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import { choose, expect, login, test, unique, USERS } from './fixtures';
import { MSG } from '../src/shared/messages';
import { CSRF_HEADER } from '../src/shared/constants';

const PACKET = path.join(import.meta.dirname, 'fixtures/packet.pdf');
// A workbook written by openpyxl: 5 rows, 3 poles, a library sheet.
const WORKBOOK = path.join(import.meta.dirname, '../src/server/test/fixtures/good.xlsx');
const TOO_FEW = path.join(import.meta.dirname, '../src/server/test/fixtures/too-few-columns.xlsx');

const fileInput = (scope: Locator, label: string) => scope.locator(`input[type=file][aria-label="${label}"]`);

/** Creates a job through the modal (packet only, no workbook) and opens it. */
async function createJob(page: Page, jobNumber: string) {
  await page.goto('/jobs');
  await page.getByRole('button', { name: 'Create Job' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create Job' });
  await dialog.getByRole('textbox', { name: 'Job' }).fill(jobNumber);
  await choose(page, dialog, 'Utility', 'EVERSOURCE');
  await fileInput(dialog, 'Work Packet PDF').setInputFiles(PACKET);
  await expect(dialog.getByRole('link', { name: 'packet.pdf' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole('textbox', { name: 'Search jobs' }).fill(jobNumber);
  await page.getByRole('link', { name: jobNumber, exact: true }).click();
  await expect(page.getByRole('heading', { name: `Job ${jobNumber}` })).toBeVisible();
}

/** Downloads one export option and returns the file's name and bytes. */
async function exportOption(page: Page, option: string) {
  const dialog = page.getByRole('dialog', { name: 'Select an export option' });
  const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: option }).click()]);
  const file = await download.path();
  return { name: download.suggestedFilename(), bytes: await readFile(file) };
}

test.describe('jobs', () => {
  test('an office manager creates a job from a packet PDF and a workbook, sees its tickets and exports every option', async ({ page }) => {
    const jobNumber = unique('E2E');
    await login(page, USERS.office);
    await expect(page).toHaveURL(/\/jobs$/);
    await expect(page.getByRole('heading', { name: 'Job View' })).toBeVisible();
    for (const header of ['Job', 'Utility', 'Job Type', 'Status', '# Tickets', 'Created By', 'Due Date', 'Date Completed']) {
      await expect(page.getByRole('columnheader', { name: header, exact: true })).toBeVisible();
    }
    for (const filter of ['All', 'In Estimation', 'In Progress', 'Complete']) {
      await expect(page.getByRole('radiogroup', { name: 'Status filter' }).getByText(filter, { exact: true })).toBeVisible();
    }

    await page.getByRole('button', { name: 'Create Job' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create Job' });
    const save = dialog.getByRole('button', { name: 'Save', exact: true });
    await expect(save).toBeDisabled();
    // The due date starts one month out, shown as MM/DD/YYYY.
    await expect(dialog.getByRole('button', { name: /Due Date/ })).toHaveText(/\d{2}\/\d{2}\/\d{4}/);

    await dialog.getByRole('textbox', { name: 'Job' }).fill(jobNumber);
    await dialog.getByRole('textbox', { name: 'Hospital Name' }).click(); // blur: the number is checked
    await choose(page, dialog, 'Utility', 'NGRID');
    await choose(page, dialog, 'Foreman', 'Frank Foreman');
    await dialog.getByRole('textbox', { name: 'Work Contact Phone' }).fill('6175550100');
    await expect(save).toBeDisabled(); // no packet yet

    await fileInput(dialog, 'Work Packet PDF').setInputFiles(PACKET);
    await expect(dialog.getByRole('link', { name: 'packet.pdf' })).toBeVisible();
    await expect(save).toBeEnabled();

    // The workbook: its columns open the mapping, pre-filled by the default names.
    await fileInput(dialog, 'Excel Ticket File').setInputFiles(WORKBOOK);
    const mapping = page.getByRole('dialog', { name: 'Excel Column Mapping' });
    await expect(mapping).toBeVisible();
    await expect(mapping.getByRole('tab', { name: 'Unit Tracking' })).toHaveAttribute('aria-selected', 'true');
    await expect(mapping.getByRole('combobox', { name: 'Work Order' })).toHaveValue('Work Order');
    await expect(mapping.getByRole('combobox', { name: 'Pole', exact: true })).toHaveValue('POLE');
    await mapping.getByRole('tab', { name: 'Unit Library' }).click();
    await expect(mapping.getByRole('combobox', { name: 'Unit Code' })).toHaveValue('Unit Code');
    await mapping.getByRole('button', { name: 'Save' }).click();
    await expect(mapping).toBeHidden();
    await expect(dialog.getByText(/Columns mapped/)).toBeVisible();

    await save.click();
    await expect(dialog).toBeHidden({ timeout: 20_000 });

    // The list reloads: search for the new job (5+ characters: applied 1 s after typing stops).
    await page.getByRole('textbox', { name: 'Search jobs' }).fill(jobNumber);
    const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: jobNumber }) });
    await expect(row).toHaveCount(1);
    await expect(row.getByRole('cell').nth(4)).toHaveText('3'); // # Tickets: P-1/L-10, P-2/L-10, P-3/L-11
    await expect(row.getByRole('cell').nth(5)).toHaveText('Frank Foreman');
    await expect(row.getByRole('cell').nth(7)).toHaveText('--');

    await row.getByRole('link', { name: jobNumber }).click();
    await expect(page).toHaveURL(/\/job\?id=\d+$/);
    await expect(page.getByRole('heading', { name: `Job ${jobNumber}` })).toBeVisible();
    await expect(page.getByText('NGRID').first()).toBeVisible();

    // Export the options and read the files: each as CSV and as Excel (.xlsx).
    await page.getByRole('button', { name: 'Export Job Info' }).click();
    const one = await exportOption(page, 'Tickets with work as CSV');
    expect(one.name).toBe(`${jobNumber}_Export-Option1.csv`);
    expect([...one.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]); // UTF-8 BOM
    const text1 = one.bytes.toString('utf8').slice(1);
    expect(text1.split(/\r?\n/)[0]).toBe(
      'Pole #,Line #,Work Order #,Address,Unit/Task Code,Unit Description,Quantity Bid,Completed Quantity,Latitude,Longitude,Notes,Completion Date/Time',
    );
    expect(text1).toContain('P-1');
    expect(text1).toContain('42.123456'); // latitude truncated to 6 decimals

    const two = await exportOption(page, 'All tickets as CSV');
    expect(two.name).toBe(`${jobNumber}_Export-Option2.csv`);
    expect([...two.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text2 = two.bytes.toString('utf8').slice(1);
    expect(text2.split(/\r?\n/)[0]).toBe('Job Name,Pole #,Line #,Work Order #,Address,Unit/Task Code,Unit Description,Quantity Bid,Notes,Completion Date/Time');
    expect(text2).toContain(jobNumber);
    expect(text2).toContain('"WO-100, WO-101"'); // option 2 joins work orders with commas

    const units = await exportOption(page, 'Units as CSV');
    expect(units.name).toBe(`${jobNumber}_Export-Units.csv`);
    const unitLines = units.bytes.toString('utf8').slice(1).split('\r\n').filter(Boolean);
    expect(unitLines[0]).toBe('Pole,Line,Work Order,Unit,Description,Bid,Actual,Completed');
    expect(unitLines.length).toBeGreaterThan(3); // one line per unit of the workbook's rows

    // The same option as a workbook, built by the server: same name but .xlsx, same columns,
    // quantities as numbers a spreadsheet can sum.
    const book = await exportOption(page, 'Units as Excel (.xlsx)');
    expect(book.name).toBe(`${jobNumber}_Export-Units.xlsx`);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(book.bytes as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    expect(sheet.getRow(1).values).toEqual([undefined, 'Pole', 'Line', 'Work Order', 'Unit', 'Description', 'Bid', 'Actual', 'Completed']);
    expect(sheet.rowCount).toBe(unitLines.length);
    expect(typeof sheet.getRow(2).getCell(6).value).toBe('number');
    const optionOne = await exportOption(page, 'Tickets with work as Excel (.xlsx)');
    expect(optionOne.name).toBe(`${jobNumber}_Export-Option1.xlsx`);

    // The map layers, built by the server: one point per ticket that has coordinates.
    const jobId = Number(new URL(page.url()).searchParams.get('id'));
    const rows = ((await (await page.request.get(`/api/v1/jobs/${jobId}`)).json()) as { tickets: { id: number; pole_name: string; geo_lat: number | null; geo_lon: number | null }[] }).tickets;
    const located = rows.filter((r) => r.geo_lat != null && r.geo_lon != null);
    expect(located.length).toBeGreaterThan(0);
    const exportDialog = page.getByRole('dialog', { name: 'Select an export option' });
    await expect(exportDialog.getByText(`${located.length} of ${rows.length} tickets have coordinates.`)).toBeVisible();
    const geo = await exportOption(page, 'GeoJSON (map layer)');
    expect(geo.name).toBe(`${jobNumber}.geojson`);
    const fc = JSON.parse(geo.bytes.toString('utf8')) as { type: string; features: { geometry: { type: string; coordinates: [number, number] }; properties: { ticket_id: number; pole_name: string } }[] };
    expect(fc.type).toBe('FeatureCollection');
    expect(fc.features.map((f) => f.properties.ticket_id).sort()).toEqual(located.map((r) => r.id).sort());
    for (const f of fc.features) {
      const row = located.find((r) => r.id === f.properties.ticket_id)!;
      expect(f.geometry).toEqual({ type: 'Point', coordinates: [row.geo_lon, row.geo_lat] }); // [lon, lat]
      expect(f.properties.pole_name).toBe(row.pole_name);
    }
    const kml = await exportOption(page, 'KML (Google Earth)');
    expect(kml.name).toBe(`${jobNumber}.kml`);
    expect(kml.bytes.toString('utf8').match(/<Placemark /g)).toHaveLength(located.length);
  });

  test('the create modal checks the job number on blur, refuses a bad workbook and asks before losing changes', async ({ page }) => {
    await login(page, USERS.admin);
    await page.getByRole('button', { name: 'Create Job' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create Job' });
    await dialog.getByRole('textbox', { name: 'Job' }).fill('J-1001'); // seeded
    await dialog.getByRole('textbox', { name: 'Hospital Name' }).click();
    await expect(dialog.getByText(MSG.jobNumberExists)).toBeVisible();
    await choose(page, dialog, 'Utility', 'NGRID');
    await fileInput(dialog, 'Work Packet PDF').setInputFiles(PACKET);
    await expect(dialog.getByRole('link', { name: 'packet.pdf' })).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Save', exact: true })).toBeDisabled();

    await fileInput(dialog, 'Excel Ticket File').setInputFiles(TOO_FEW);
    await expect(dialog.getByText(MSG.tooFewJobColumns)).toBeVisible();
    await expect(page.getByRole('dialog', { name: 'Excel Column Mapping' })).toHaveCount(0);

    // A file of the wrong kind is refused before anything is uploaded.
    await fileInput(dialog, 'Work Packet PDF').locator('..').count(); // (the packet field now shows the file)
    await dialog.getByRole('button', { name: 'Remove packet.pdf' }).click();
    await fileInput(dialog, 'Work Packet PDF').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
    await expect(dialog.getByText(/cannot be uploaded here/)).toBeVisible();

    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    const confirm = page.getByRole('dialog', { name: 'Unsaved changes' });
    await expect(confirm.getByText(MSG.unsavedChanges)).toBeVisible();
    await confirm.getByRole('button', { name: 'Keep editing' }).click();
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await page.getByRole('dialog', { name: 'Unsaved changes' }).getByRole('button', { name: 'Close anyway' }).click();
    await expect(dialog).toBeHidden();
  });

  test('the list sorts, filters and remembers its sort; a lineman sees no Create Job', async ({ page }) => {
    await login(page, USERS.lineman);
    await expect(page.getByRole('heading', { name: 'Job View' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Create Job' })).toHaveCount(0);
    const jobHeader = page.getByRole('columnheader', { name: 'Job', exact: true });
    await expect(jobHeader).toHaveAttribute('aria-sort', 'descending'); // default job_number desc
    await page.getByRole('columnheader', { name: 'Utility', exact: true }).getByRole('button').click();
    await expect(page.getByRole('columnheader', { name: 'Utility', exact: true })).toHaveAttribute('aria-sort', 'ascending');
    await page.reload();
    await expect(page.getByRole('columnheader', { name: 'Utility', exact: true })).toHaveAttribute('aria-sort', 'ascending');
    await page.getByRole('radiogroup', { name: 'Status filter' }).getByText('In Estimation', { exact: true }).click();
    await expect(page.getByRole('radio', { name: 'In Estimation', exact: true })).toBeChecked();
    // The server answers the filtered page after the radio is checked: read the rows until every
    // one is an In Estimation job (or the empty-state row), never a snapshot of the old page.
    const rows = page.getByRole('row').filter({ has: page.getByRole('cell') });
    await expect
      .poll(async () => {
        const statuses = await rows.evaluateAll((all) =>
          all.map((row) => (row.querySelectorAll('td')[3] ?? row).textContent ?? ''),
        );
        return statuses.length > 0 && statuses.every((s) => /In Estimation|No jobs match/.test(s));
      })
      .toBe(true);
  });
  test('edit job: Save only when changed and valid, a stale version offers a reload, then delete returns to /jobs', async ({ page }) => {
    const jobNumber = unique('EDIT');
    await login(page, USERS.foreman);
    await createJob(page, jobNumber);
    const jobId = Number(new URL(page.url()).searchParams.get('id'));

    await page.getByRole('button', { name: 'Edit Job Info' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Job' });
    const save = dialog.getByRole('button', { name: 'Save', exact: true });
    await expect(dialog.getByRole('textbox', { name: 'Job' })).toHaveAttribute('readonly', '');
    await expect(save).toBeDisabled(); // nothing changed
    await dialog.getByRole('textbox', { name: 'Hospital Name' }).fill('Mercy General');
    await expect(save).toBeEnabled();
    // Removing the packet makes the form dirty but not valid: the packet is required.
    await dialog.getByRole('button', { name: 'Remove packet.pdf' }).click();
    await expect(save).toBeDisabled();
    await fileInput(dialog, 'Work Packet PDF').setInputFiles(PACKET);
    await expect(dialog.getByRole('link', { name: 'packet.pdf' })).toBeVisible();
    await expect(save).toBeEnabled();

    // Someone else saves the job meanwhile (same session cookie, through the API, with the
    // header every cookie-signed change must carry).
    const current = await (await page.request.get(`/api/v1/jobs/${jobId}`)).json();
    const other = await page.request.put('/api/v1/jobs/', {
      headers: { [CSRF_HEADER]: '1' },
      data: {
        job: {
          id: jobId,
          version: current.version,
          job_number: current.job_number,
          job_type: 0,
          due_date: current.due_date,
          selected_utility_id: current.selected_utility_id,
          work_packet_url: current.work_packet_url,
          work_packet_name: current.work_packet_name,
          work_contact_phone: '5550001111',
        },
      },
    });
    expect(other.ok()).toBe(true);
    await save.click();
    await expect(dialog.getByText(MSG.staleVersion)).toBeVisible();
    await dialog.getByRole('button', { name: 'Reload job' }).click();
    await expect(dialog.getByRole('textbox', { name: 'Work Contact Phone' })).toHaveValue('5550001111');
    await expect(save).toBeDisabled(); // the form starts again from what was saved
    await dialog.getByRole('textbox', { name: 'Hospital Name' }).fill('Mercy General');
    await save.click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText('Hospital: Mercy General')).toBeVisible();

    // A job without tickets cannot be exported: every option, in either format, says why.
    await page.getByRole('button', { name: 'Export Job Info' }).click();
    const exportDialog = page.getByRole('dialog', { name: 'Select an export option' });
    for (const name of ['Tickets with work as CSV', 'Units as Excel (.xlsx)']) {
      await expect(exportDialog.getByRole('button', { name })).toHaveAttribute('data-disabled', 'true');
    }
    await expect(exportDialog.getByText('No tickets in job')).toBeVisible();
    await exportDialog.getByRole('button', { name: 'All tickets as CSV' }).hover();
    await expect(page.getByRole('tooltip')).toHaveText('No tickets in job');
    await page.keyboard.press('Escape');
    await expect(exportDialog).toBeHidden();

    await page.getByRole('button', { name: 'Delete Job' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete Job' });
    await expect(confirm.getByText(MSG.confirmDeleteJob)).toBeVisible();
    await confirm.getByRole('button', { name: 'Delete Job' }).click();
    await expect(page).toHaveURL(/\/jobs$/);
    expect((await page.request.get(`/api/v1/jobs/${jobId}`)).status()).toBe(404);
  });

  test('a failed upload says why and offers Retry after 10 seconds, which clears the file', async ({ page }) => {
    await login(page, USERS.admin);
    await page.route('**/api/v1/doc_upload/sign-s3-pdf**', (route) => route.fulfill({ status: 503, json: { error: 'Storage is down' } }));
    await page.getByRole('button', { name: 'Create Job' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create Job' });
    await fileInput(dialog, 'Work Packet PDF').setInputFiles(PACKET);
    await expect(dialog.getByText(MSG.uploadError)).toBeVisible();
    await expect(dialog.getByText(MSG.signedUrlFailed('Storage is down'))).toBeVisible();
    const retry = dialog.getByRole('button', { name: 'Retry' });
    await expect(retry).toHaveCount(0);
    await expect(retry).toBeVisible({ timeout: 15_000 });
    await page.unroute('**/api/v1/doc_upload/sign-s3-pdf**');
    await retry.click();
    await expect(dialog.getByText(MSG.uploadError)).toHaveCount(0);
    await fileInput(dialog, 'Work Packet PDF').setInputFiles(PACKET);
    await expect(dialog.getByRole('link', { name: 'packet.pdf' })).toBeVisible();

    // The workbook's own failure message (docs/product/rules.md): 'File upload failed.'
    await page.route('**/files/**', (route) => (route.request().method() === 'PUT' ? route.fulfill({ status: 500, body: 'disk full' }) : route.continue()));
    await fileInput(dialog, 'Excel Ticket File').setInputFiles(WORKBOOK);
    await expect(dialog.getByText(MSG.fileUploadFailed)).toBeVisible();
  });
});
