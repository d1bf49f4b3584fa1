import ExcelJS from 'exceljs';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatDateTimeInZone } from '../../../shared/dates';
import { buildExportTable, OPTION1_COLUMNS, OPTION2_COLUMNS, UNITS_COLUMNS, type ExportOption } from '../../../shared/export';
import type { JobListItem, JobSaveInput } from '../../../shared/jobs.schemas';
import { ticketSchema, type Ticket } from '../../../shared/tickets.schemas';
import { companies, notes, ticketTasks, tickets, utilities } from '../../db/schema/index';
import { createTestApp } from '../../test/harness';
import { selectExportTickets } from './exports.repository';

/**
 * GET /jobs/{id}/export.xlsx?option= (docs/product/imports.md §10 exports): each Export option as a workbook
 * with the CSV's columns and rows, text as text (a pole '007' stays '007'), quantities as
 * numbers, the completion as a real date. Roles 1–3 (the modal's "export"); another company's
 * job answers 404.
 */
const t = await createTestApp();
const API = '/api/v1';
const db = t.ctx.db;
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

let admin: string, office: string, foreman: string, wforeman: string, lineman: string, otherAdmin: string;
let demoId: number, ngrid: number, timeZone: string;

beforeAll(async () => {
  [admin, office, foreman, wforeman, lineman, otherAdmin] = await t.loginAs('admin', 'office', 'foreman', 'wforeman', 'lineman', 'other');
  const [company] = await db.select().from(companies).where(eq(companies.name, 'Demo Line Co'));
  demoId = company.id;
  timeZone = company.timeZone;
  ngrid = (await db.select().from(utilities).where(and(eq(utilities.companyId, demoId), eq(utilities.code, 'NGRID'))))[0].id;
});

const get = (url: string, token: string | undefined = admin) => t.request({ method: 'GET', url: `${API}${url}`, token });

let seq = 0;
const createJob = (jobNumber: string, newTickets: JobSaveInput['newTickets']): Promise<JobListItem> =>
  t.createJob(admin, demoId, {
    job_number: jobNumber,
    selected_utility_id: ngrid,
    newTickets,
    newUnits: [
      { code: 'XL-A', description: 'Unit A' },
      { code: '007', description: 'Unit with a leading zero' },
    ],
  });

const fullTickets = async (jobId: number): Promise<Ticket[]> => {
  const res = await get(`/jobs/tickets/${jobId}`);
  expect(res.statusCode).toBe(200);
  return res.json().map((x: unknown) => ticketSchema.parse(x));
};

/** The workbook's only sheet as rows of exceljs cell values, header first. */
async function readSheet(body: Buffer): Promise<{ name: string; rows: ExcelJS.CellValue[][]; sheet: ExcelJS.Worksheet }> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(body as unknown as ArrayBuffer);
  expect(book.worksheets).toHaveLength(1);
  const sheet = book.worksheets[0];
  const rows: ExcelJS.CellValue[][] = [];
  sheet.eachRow({ includeEmpty: true }, (row) => {
    const width = sheet.columnCount;
    rows.push(Array.from({ length: width }, (_, i) => row.getCell(i + 1).value));
  });
  return { name: sheet.name, rows, sheet };
}

const COMPLETED_AT = new Date('2027-03-05T03:04:09.000Z');
let job: JobListItem;
beforeAll(async () => {
  job = await createJob(`XL-${Date.now().toString(36)}-${++seq}`, [
    {
      pole: { pole_name: '007', line_name: '010', geo_lat: 42.123456, geo_lon: -71.654321, street_address: '1 Main St' },
      work_orders: ['00123', 'WO-2'],
      tasks: [
        { code: 'XL-A', init_qty: 2.5, additional_qty: 1 },
        { code: '007', init_qty: 0.1, additional_qty: 0.2 },
      ],
    },
    { pole: { pole_name: '10', line_name: 'L', street_address: '=HYPERLINK("x")' }, work_orders: ['WO-9'], tasks: [{ code: 'XL-A', init_qty: 3 }] },
    { pole: { pole_name: '2', line_name: 'L' }, work_orders: [], tasks: [] },
  ]);
  // The first ticket Complete at a known moment (a ticket is Complete exactly when it has the date).
  const first = (await fullTickets(job.id)).find((x) => x.pole_name === '007')!;
  await db.update(tickets).set({ actualCompletionDate: COMPLETED_AT }).where(eq(tickets.id, first.id));
});

describe('GET /jobs/{id}/export.xlsx', () => {
  it('requires authentication', async () => {
    expect((await get(`/jobs/${job.id}/export.xlsx?option=1`, '')).statusCode).toBe(401);
  });

  it('is for roles 1–3, as the Export modal: a working foreman or a lineman gets 403', async () => {
    for (const [role, token] of [['office', office], ['foreman', foreman]] as const) {
      expect((await get(`/jobs/${job.id}/export.xlsx?option=units`, token)).statusCode, role).toBe(200);
    }
    for (const [role, token] of [['wforeman', wforeman], ['lineman', lineman]] as const) {
      const res = await get(`/jobs/${job.id}/export.xlsx?option=units`, token);
      expect(res.statusCode, role).toBe(403);
      expect(res.body).not.toContain('XL-A');
    }
  });

  it("answers 404 for another company's job or none, 400 for a bad option or id", async () => {
    const other = await get(`/jobs/${job.id}/export.xlsx?option=1`, otherAdmin);
    expect(other.statusCode).toBe(404);
    expect(other.headers['content-type']).toMatch(/^application\/json/);
    expect((await get(`/jobs/999999/export.xlsx?option=1`)).statusCode).toBe(404);
    for (const q of ['', '?option=3', '?option=Option1', '?option=csv', '?option=1.0']) {
      expect((await get(`/jobs/${job.id}/export.xlsx${q}`)).statusCode, q).toBe(400);
    }
    expect((await get(`/jobs/abc/export.xlsx?option=1`)).statusCode).toBe(400);
  });

  it('refuses a job the modal cannot export, with the same reason (422)', async () => {
    const empty = await createJob(`XL-EMPTY-${++seq}`, []);
    const res = await get(`/jobs/${empty.id}/export.xlsx?option=2`);
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toBe('No tickets in job');
  });

  it('is a download named like the CSV, with the CSV\'s columns and rows for every option', async () => {
    const all = await fullTickets(job.id);
    const names: Record<ExportOption, string> = { 1: 'Option1', 2: 'Option2', units: 'Units' };
    for (const option of [1, 2, 'units'] as const) {
      const res = await get(`/jobs/${job.id}/export.xlsx?option=${option}`);
      expect(res.statusCode, String(option)).toBe(200);
      expect(res.headers['content-type']).toBe(XLSX_TYPE);
      expect(res.headers['content-disposition']).toBe(`attachment; filename="${job.job_number}_Export-${names[option]}.xlsx"`);
      expect(res.headers['cache-control']).toBe('private, no-store');
      const { name, rows } = await readSheet(res.rawPayload);
      const table = buildExportTable(job, all, option, timeZone);
      expect(name).toBe(table.sheet);
      expect(rows[0]).toEqual([...table.columns]);
      expect(rows).toHaveLength(table.rows.length + 1);
      // The same cells as the CSV's rows, each as what it is.
      const asXlsx = (c: (typeof table.rows)[number][number]) => (c == null || c === '' ? null : typeof c === 'object' ? expect.any(Date) : c);
      expect(rows.slice(1)).toEqual(table.rows.map((r) => r.map(asXlsx)));
    }
  });

  it('keeps text as text (007, 00123), quantities as numbers and the completion as a date', async () => {
    const units = await readSheet((await get(`/jobs/${job.id}/export.xlsx?option=units`)).rawPayload);
    expect(units.rows[0]).toEqual([...UNITS_COLUMNS]);
    const col = (name: (typeof UNITS_COLUMNS)[number]) => UNITS_COLUMNS.indexOf(name);
    const first = units.rows[1];
    expect(first.slice(0, 5)).toEqual(['007', '010', '00123, WO-2', 'XL-A', 'Unit A']);
    expect([first[col('Bid')], first[col('Actual')]]).toEqual([2.5, 3.5]);
    expect(units.rows[2].slice(3, 7)).toEqual(['007', 'Unit with a leading zero', 0.1, 0.3]); // 0.1 + 0.2 without float noise
    // The pole and the unit code are string cells formatted as Text; quantities are number cells.
    const cell = (r: number, name: (typeof UNITS_COLUMNS)[number]) => units.sheet.getRow(r).getCell(col(name) + 1);
    expect(cell(2, 'Pole').type).toBe(ExcelJS.ValueType.String);
    expect(cell(2, 'Pole').numFmt).toBe('@');
    expect(cell(3, 'Unit').type).toBe(ExcelJS.ValueType.String);
    expect(cell(2, 'Bid').type).toBe(ExcelJS.ValueType.Number);
    expect(cell(2, 'Actual').type).toBe(ExcelJS.ValueType.Number);
    // Completed: a real date, the company's calendar day, with a date format; empty while Pending.
    const day = formatDateTimeInZone(COMPLETED_AT, timeZone).slice(0, 10);
    expect(cell(2, 'Completed').type).toBe(ExcelJS.ValueType.Date);
    expect((cell(2, 'Completed').value as Date).toISOString()).toBe(`${day}T00:00:00.000Z`);
    expect(cell(2, 'Completed').numFmt).toBe('yyyy-mm-dd');
    expect(units.rows[3].slice(0, 2)).toEqual(['10', 'L']);
    expect(units.rows[3][col('Completed')]).toBeNull();
    // A spreadsheet can sum the columns.
    const sum = (name: (typeof UNITS_COLUMNS)[number]) => units.rows.slice(1).reduce((acc, r) => acc + (r[col(name)] as number), 0);
    expect(sum('Bid')).toBeCloseTo(5.6, 9);
    expect(sum('Actual')).toBeCloseTo(6.8, 9);

    const one = await readSheet((await get(`/jobs/${job.id}/export.xlsx?option=1`)).rawPayload);
    const c1 = (name: (typeof OPTION1_COLUMNS)[number]) => OPTION1_COLUMNS.indexOf(name);
    const pole007 = one.rows.find((r) => r[0] === '007')!;
    expect(pole007[c1('Work Order #')]).toBe('00123\nWO-2');
    expect(pole007[c1('Quantity Bid')]).toBe('2.5\n0.1'); // several units: their list, as in the CSV
    expect([pole007[c1('Latitude')], pole007[c1('Longitude')]]).toEqual([42.123456, -71.654321]);
    const when = pole007[c1('Completion Date/Time')] as Date;
    expect(when).toBeInstanceOf(Date);
    expect(when.toISOString().replace('T', ' ').slice(0, 19)).toBe(formatDateTimeInZone(COMPLETED_AT, timeZone));
    const pole10 = one.rows.find((r) => r[0] === '10')!;
    expect(pole10[c1('Quantity Bid')]).toBe(3); // one unit: a number
    expect(pole10[c1('Completed Quantity')]).toBeNull(); // Pending claims nothing

    // Text that looks like a formula is a string cell, not a formula, and needs no leading '.
    const two = await readSheet((await get(`/jobs/${job.id}/export.xlsx?option=2`)).rawPayload);
    expect(two.rows.map((r) => r[1])).toEqual(['Pole #', '2', '007', '10']); // pole, then line, in natural order
    const address = two.sheet.getRow(4).getCell(OPTION2_COLUMNS.indexOf('Address') + 1);
    expect(address.type).toBe(ExcelJS.ValueType.String);
    expect(address.value).toBe('=HYPERLINK("x")');
    expect(two.rows.map((r) => r[0])).toEqual(['Job Name', job.job_number, job.job_number, job.job_number]);
  });
});

describe('the export read (selectExportTickets)', () => {
  it("gives the rows the tickets' full read gives (GET /jobs/tickets/{id}), for every option", async () => {
    const shaped = await createJob(`XL-READ-${++seq}`, [
      { pole: { pole_name: 'P1', line_name: 'L1', geo_lat: 41.5, geo_lon: -70.25, street_address: 'Pole St' }, work_orders: ['B', 'A'], tasks: [{ code: 'XL-A', init_qty: 1.5, additional_qty: -0.5 }, { code: '007', init_qty: 2 }] },
      { pole: { pole_name: 'P2', line_name: 'L1' }, work_orders: [], tasks: [{ code: '007', init_qty: 1 }] },
      { pole: { pole_name: 'P10', line_name: 'L2', street_address: 'Pole Rd' }, work_orders: ['W'], tasks: [] },
    ]);
    const [a, b, c] = (await fullTickets(shaped.id)).sort((x, y) => x.id - y.id);
    // The ticket's own address and coordinates over its pole's; notes out of id order; a task's own description.
    await db.update(tickets).set({ streetAddress: 'Ticket Ave', geoLat: 1.25, geoLon: 2.5, actualCompletionDate: new Date('2027-01-02T23:59:59.987Z') }).where(eq(tickets.id, a.id));
    await db.update(tickets).set({ actualCompletionDate: new Date('2027-06-30T12:00:00.000Z') }).where(eq(tickets.id, c.id));
    await db.insert(notes).values([
      { companyId: demoId, ticketId: a.id, noteText: 'second', createdDate: new Date('2027-01-02T10:00:00Z') },
      { companyId: demoId, ticketId: a.id, noteText: 'first, "quoted"\nover two lines', createdDate: new Date('2027-01-01T10:00:00Z') },
      { companyId: demoId, ticketId: b.id, noteText: 'b', createdDate: new Date('2027-01-01T10:00:00Z') },
    ]);
    await db.update(ticketTasks).set({ description: 'Its own text' }).where(eq(ticketTasks.ticketId, b.id));

    const full = await fullTickets(shaped.id);
    const narrow = await selectExportTickets(db, demoId, shaped.id);
    expect(narrow.map((x) => x.id)).toEqual(full.map((x) => x.id));
    for (const option of [1, 2, 'units'] as const) {
      expect(buildExportTable(shaped, narrow, option, timeZone), String(option)).toEqual(buildExportTable(shaped, full, option, timeZone));
    }
    expect(await selectExportTickets(db, demoId + 1_000_000, shaped.id)).toEqual([]);
  });
});
