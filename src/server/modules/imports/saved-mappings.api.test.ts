import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultMappings } from '../../../shared/excel';
import { jobs, savedMappings, utilities } from '../../db/schema/index';
import { createTestApp, type TestApp } from '../../test/harness';
import { fixture, multipart } from '../../test/files';

/** Saved mappings (docs/product/records.md §4, decision 046): an import's mapping becomes its utility's, per company. */
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const GOOD_TICKETS = ['Work Order', 'POLE', 'Line', 'Pole ID', 'Line ID', 'Due Date', 'Lat', 'Long', 'Primary Voltage', 'Secondary Voltage', 'Arc Rating', 'Street', 'Unit', 'Description', 'Quantity'];
const GOOD_LIBRARY = ['Family', 'Unit Code', 'Type', 'Action', 'UOM', 'Description', 'Notes'];
const defaults = defaultMappings({ jobColumns: GOOD_TICKETS, libraryColumns: GOOD_LIBRARY });
/** A mapping a person made: the Street column read as the description and the other way round. */
const swapped = { ticketsMappings: { ...defaults.ticketsMappings, desc: 'Street', street: 'Description' }, libraryMappings: defaults.libraryMappings };

let t: TestApp;
let admin: string;
let other: string;
let demo: { company: number; ngrid: number; job: Record<string, number> };
let otherUtility: number;

beforeAll(async () => {
  t = await createTestApp();
  [admin, other] = await t.loginAs('admin', 'other');
  demo = await t.demo();
  otherUtility = (await t.ctx.db.select().from(utilities).where(eq(utilities.code, 'OTHERPOWER')))[0].id;
});

const stored = async (companyId: number, name: string) => (await t.storeFile(companyId, 'excel', name, { body: fixture(name), type: XLSX })).url;
const columns = (url: string, utilityId: number, token = admin) =>
  t.request({ method: 'GET', url: `/api/v1/jobs/excel/getColumns?url=${encodeURIComponent(url)}&utility_id=${utilityId}`, token });
function upload(jobId: number, fields: Record<string, string>) {
  const body = multipart({ job_id: String(jobId), ...fields }, { field: 'file', name: 'good.xlsx', type: XLSX, content: fixture('good.xlsx') });
  return t.request({ method: 'POST', url: '/api/v1/tickets/xls-upload', token: admin, headers: body.headers, payload: body.payload });
}
const savedRows = () => t.ctx.db.select().from(savedMappings);

describe('saved mappings', () => {
  it('the columns of a utility with no saved mapping say so (saved: null)', async () => {
    const res = await columns(await stored(demo.company, 'good.xlsx'), demo.ngrid);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ jobColumns: GOOD_TICKETS, saved: null });
  });

  it('Upload Spreadsheet with a mapping saves it for the job’s utility; the next workbook’s columns carry it', async () => {
    const [job] = await t.ctx.db.select().from(jobs).where(eq(jobs.id, demo.job['J-1001']));
    const res = await upload(job.id, { ticketsMappings: JSON.stringify(swapped.ticketsMappings), libraryMappings: JSON.stringify(swapped.libraryMappings) });
    expect(res.statusCode, res.body).toBe(200);
    expect(await savedRows()).toEqual([expect.objectContaining({ companyId: demo.company, utilityId: job.utilityId, ...swapped })]);
    // Both ways of reading a new workbook's columns answer it: Create Job's and Upload Spreadsheet's.
    expect((await columns(await stored(demo.company, 'good.xlsx'), job.utilityId)).json().saved).toEqual(swapped);
    const cols = await upload(job.id, { mode: 'columns' });
    expect(cols.statusCode, cols.body).toBe(200);
    expect(cols.json().saved).toEqual(swapped);
  });

  it('a preview or a read of the columns saves nothing; an upload with the default mapping keeps the saved one', async () => {
    const before = await savedRows();
    expect((await upload(demo.job['J-1001'], { mode: 'preview', ticketsMappings: JSON.stringify(defaults.ticketsMappings) })).statusCode).toBe(200);
    expect((await upload(demo.job['J-1001'], { mode: 'add_new' })).statusCode).toBe(200);
    expect(await savedRows()).toEqual(before);
  });

  it('a job save with a ticket file saves its mapping for the selected utility', async () => {
    const url = await stored(demo.company, 'good.xlsx');
    const mine = { ...defaults.ticketsMappings, pole_id: null, line_id: null };
    await t.createJob(admin, demo.company, {
      job_number: 'SAVED-MAP-1',
      selected_utility_id: demo.ngrid,
      ticketsFile: { ticket_file_url: url, ticket_file_name: 'good.xlsx', ticketsMappings: mine, libraryMappings: defaults.libraryMappings },
    });
    expect((await columns(url, demo.ngrid)).json().saved).toEqual({ ticketsMappings: mine, libraryMappings: defaults.libraryMappings });
  });

  it('another company never reads or writes a company’s saved mapping', async () => {
    const url = await stored((await t.ctx.db.select().from(utilities).where(eq(utilities.id, otherUtility)))[0].companyId, 'good.xlsx');
    // The other company names the demo company's utility: nothing of it comes back.
    const res = await columns(url, demo.ngrid, other);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().saved).toBeNull();
    expect((await columns(url, otherUtility, other)).json().saved).toBeNull();
  });
});
