import { beforeAll, describe, expect, it } from 'vitest';
import { defaultMappings, type ParsedWorkbook } from '../../../../shared/excel';
import { MSG } from '../../../../shared/messages';
import { AppError } from '../../../errors';
import { fixture, multipart } from '../../../test/files';
import { createTestApp, type TestApp } from '../../../test/harness';
import { workbookToImport } from '../convert';
import { columnsOf, parseWorkbook, sniffFormat } from './workbook';
import { workbookImportOf } from '../worker/convert-workbook';

/**
 * docs/product/imports.md (decision 033): files as the tools our users use write them — openpyxl, xlsxwriter,
 * LibreOffice, Excel's CSVs (scripts/make-fixtures.py) — are read as a person sees them in a
 * spreadsheet, or refused with a message naming the row, the column and the cause.
 */

const defaults = (p: ParsedWorkbook) => defaultMappings({ jobColumns: p.tickets.columns, libraryColumns: p.library?.columns ?? [] });
const importOf = async (name: string) => {
  const parsed = await parseWorkbook(fixture(name));
  const m = defaults(parsed);
  return workbookImportOf(fixture(name), { ticketsMappings: m.ticketsMappings, libraryMappings: m.libraryMappings });
};
/** A tickets-only sheet (a CSV) converted with the default mapping. */
const convertParsed = (p: ParsedWorkbook) => workbookToImport(p, defaults(p).ticketsMappings, null);
const refusal = async (p: Promise<unknown>): Promise<AppError> => {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
};

describe('workbooks written by scripts and spreadsheets', () => {
  it('never takes a hidden sheet by itself: the visible tickets sheet, and a hidden lists sheet does not stop the library', async () => {
    const parsed = await parseWorkbook(fixture('hidden-sheets.xlsx'));
    expect(parsed.sheets).toEqual([
      { name: 'Old copy', hidden: true },
      { name: 'Lists', hidden: true },
      { name: 'Tickets', hidden: false },
      { name: 'Unit Library', hidden: false },
    ]);
    expect(parsed.tickets.name).toBe('Tickets');
    expect(parsed.library?.name).toBe('Unit Library');
    const { tickets } = await importOf('hidden-sheets.xlsx');
    expect(tickets.map((t) => t.pole.pole_name)).toEqual(['P-1', 'P-2', 'P-3']);
    // The person may still pick the hidden sheet on purpose.
    expect((await parseWorkbook(fixture('hidden-sheets.xlsx'), undefined, { ticketsSheet: 'Old copy' })).tickets.rows).toHaveLength(1);
  });

  it('refuses a mapped formula that openpyxl saved without a result, naming its row and column', async () => {
    const err = await refusal(importOf('uncached-formulas.xlsx'));
    expect(err.statusCode).toBe(422);
    expect(err.message).toBe(MSG.excelFormulaNoResult(5, 'O'));
  });

  it('refuses the formulas of an xlsxwriter workbook, whose saved results are 0 and marked for recalculation', async () => {
    const err = await refusal(importOf('xlsxwriter-formulas.xlsx'));
    expect(err.message).toBe(MSG.excelFormulaNoResult(2, 'O'));
  });

  it('takes a LibreOffice formula’s saved result and its date cells', async () => {
    // One sheet, no library: what the spreadsheet upload of a job reads.
    const { tickets } = convertParsed(await parseWorkbook(fixture('libreoffice.xlsx')));
    expect(tickets[0]).toMatchObject({ due_date: '2027-01-15', tasks: [{ code: 'U-100', qty: 3 }] });
    expect(tickets[1].tasks[0].qty).toBe(4);
  });

  it('answers an OpenDocument spreadsheet by its kind', async () => {
    expect(sniffFormat(fixture('libreoffice.ods'))).toBe('ods');
    const err = await refusal(parseWorkbook(fixture('libreoffice.ods')));
    expect({ status: err.statusCode, message: err.message }).toEqual({ status: 422, message: MSG.excelOds });
  });

  it('reads text as formatted (007, 00123, LN-04), numbers as numbers, skips title and group rows, and reads M/D/YY as 20YY', async () => {
    const parsed = await parseWorkbook(fixture('formats-and-titles.xlsx'));
    expect(parsed.tickets.headerRow).toBe(3);
    const { tickets } = await importOf('formats-and-titles.xlsx');
    expect(tickets.map((t) => [t.pole.pole_name, t.pole.pole_id, t.pole.line_id, t.due_date, t.tasks[0].qty])).toEqual([
      ['007', '00123', 'LN-04', '2027-03-15', 2],
      ['008', '00124', 'LN-04', '2026-12-01', 1.5],
    ]);
    expect(columnsOf(parsed).notes).toEqual([
      {
        kind: 'two_digit_year',
        sheet: 'Unit Tracking',
        column: 'Due Date',
        count: 2,
        message: 'Due Date: 2 dates have a two-digit year, read as 20YY (row 4: 3/15/27 is 03/15/2027).',
      },
    ]);
  });

  it('reads the dates of a 1904 (old Mac) workbook', async () => {
    const { tickets } = await importOf('date-1904.xlsx');
    expect(tickets[0].due_date).toBe('2027-01-15');
  });
});

describe('CSV files as Excel writes them', () => {
  it('reads a Windows-1252 CSV (Excel’s "CSV (Comma delimited)") and says so', async () => {
    const parsed = await parseWorkbook(fixture('tickets-cp1252.csv'));
    expect(parsed.encoding).toBe('windows-1252');
    const { tickets } = convertParsed(parsed);
    expect(tickets.map((t) => [t.street_address, t.tasks[0].description, t.due_date])).toEqual([
      ['Rue Molière 5', 'Poteau – côté nord', '2027-01-15'],
      ['Øster Allé', 'Transfer “A”', '2027-03-15'],
    ]);
    expect(columnsOf(parsed).notes.map((n) => n.kind)).toEqual(['windows_1252', 'two_digit_year']);
  });

  it('reads a ;-separated CSV with decimal commas: 3,500 is 3.5, 0,250 is 0.25, 1.234,5 is 1234.5', async () => {
    const parsed = await parseWorkbook(fixture('tickets-semicolon.csv'));
    expect(parsed.tickets.decimalComma).toBe(true);
    const { tickets, errors } = convertParsed(parsed);
    expect(errors).toEqual([]);
    expect(tickets.map((t) => [t.pole.pole_name, t.tasks[0].qty, t.geo_lat, t.geo_lon])).toEqual([
      ['P-1', 3.5, null, null],
      ['P-2', 0.25, 42.124, -71.5],
      ['P-3', 1234.5, null, null],
    ]);
    expect(columnsOf(parsed).notes.map((n) => [n.column, n.count])).toEqual([
      ['Lat', 1],
      ['Long', 1],
      ['Quantity', 3],
    ]);
  });

  it('says what is wrong with a decimal-comma coordinate or a date of another form, in a comma-separated file', async () => {
    const header = 'Work Order,Pole,Line,Pole ID,Line ID,Due Date,Lat,Long,Primary Voltage,Secondary Voltage,Arc Rating,Street,Unit,Description,Quantity';
    const csv = `${header}\r\nWO-1,P-1,L-1,,,15.01.2027,"42,124",-71.5,,,,,U-100,,1\r\n`;
    const { errors } = convertParsed(await parseWorkbook(Buffer.from(csv)));
    expect(errors.map((e) => e.message)).toEqual([MSG.excelRowCoordinateComma(2, 'Latitude', '42,124'), MSG.excelRowBadDate(2, '15.01.2027')]);
  });
});

describe('the routes give one answer per kind of file', () => {
  let t: TestApp;
  let admin: string;
  let demo: Awaited<ReturnType<TestApp['demo']>>;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.login('admin@example.com');
    demo = await t.demo();
  });

  const stored = async (name: string) => (await t.storeFile(demo.company, 'excel', name, { body: fixture(name) })).url;
  const xlsUpload = (jobId: number, name: string, fields: Record<string, string> = {}) => {
    const body = multipart({ job_id: String(jobId), ...fields }, { field: 'file', name, type: 'application/octet-stream', content: fixture(name) });
    return t.request({ method: 'POST', url: '/api/v1/tickets/xls-upload', token: admin, headers: body.headers, payload: body.payload });
  };
  const saveJob = async (name: string, mappings = defaultMappings({ jobColumns: [], libraryColumns: [] })) =>
    t.request({
      method: 'PUT',
      url: '/api/v1/jobs/',
      token: admin,
      body: {
        job: {
          job_number: `RF-${name}-${Math.random().toString(36).slice(2, 8)}`,
          job_type: 0,
          due_date: '12/31/2027',
          selected_utility_id: demo.ngrid,
          work_packet_url: (await t.storeFile(demo.company, 'work_packet', 'p.pdf')).url,
          work_packet_name: 'p.pdf',
          ticketsFile: { ticket_file_url: await stored(name), ticketsMappings: mappings.ticketsMappings, libraryMappings: mappings.libraryMappings },
        },
      },
    });

  it('.ods and .xls: the same 422 naming the kind from getColumns, the spreadsheet upload and the job save', async () => {
    for (const [name, message] of [
      ['libreoffice.ods', MSG.excelOds],
      ['legacy.xls', MSG.excelLegacyXls],
    ]) {
      const cols = await t.request({ method: 'GET', url: `/api/v1/jobs/excel/getColumns?url=${encodeURIComponent(await stored(name))}`, token: admin });
      const upload = await xlsUpload(demo.job['J-1001'], name);
      const save = await saveJob(name);
      expect([cols, upload, save].map((r) => [r.statusCode, r.json().error])).toEqual([
        [422, message],
        [422, message],
        [422, message],
      ]);
    }
  });

  it('getColumns of a CSV says that a CSV adds tickets to a job, and picking a sheet that is not there is a 422', async () => {
    const cols = await t.request({ method: 'GET', url: `/api/v1/jobs/excel/getColumns?url=${encodeURIComponent(await stored('tickets.csv'))}`, token: admin });
    expect([cols.statusCode, cols.json().error]).toEqual([422, MSG.excelCsvCannotCreateJob]);
    const url = encodeURIComponent(await stored('hidden-sheets.xlsx'));
    const picked = await t.request({ method: 'GET', url: `/api/v1/jobs/excel/getColumns?url=${url}&ticketsSheet=Nope`, token: admin });
    expect([picked.statusCode, picked.json().error]).toEqual([422, MSG.excelNoSuchSheet('Nope')]);
  });

  it('a job saved from a workbook with formatted ids and two-digit years stores what the person saw', async () => {
    const cols = await t.request({ method: 'GET', url: `/api/v1/jobs/excel/getColumns?url=${encodeURIComponent(await stored('formats-and-titles.xlsx'))}`, token: admin });
    expect(cols.json()).toMatchObject({ tickets: { name: 'Unit Tracking', headerRow: 3, rows: 2 }, library: { name: 'Unit Library', headerRow: 1 } });
    const res = await saveJob('formats-and-titles.xlsx', defaultMappings(cols.json()));
    expect(res.statusCode, res.body).toBe(200);
    const rows = (await t.request({ method: 'GET', url: `/api/v1/jobs/tickets/${res.json().job.id}`, token: admin })).json() as {
      pole_name: string;
      due_date: string;
      pole: { pole_id: string };
      tasks: { init_qty: number }[];
    }[];
    expect(rows.map((r) => [r.pole_name, r.pole.pole_id, r.due_date, r.tasks[0].init_qty]).sort()).toEqual([
      ['007', '00123', '2027-03-15', 2],
      ['008', '00124', '2026-12-01', 1.5],
    ]);
  });

  it('the spreadsheet upload of a ;-separated CSV stores 3.5, not 3500', async () => {
    const job = demo.job['J-1003'];
    // The job's utility gets the units U-100…U-400 from this workbook's library first.
    expect((await xlsUpload(job, 'good.xlsx')).statusCode).toBe(200);
    const res = await xlsUpload(job, 'tickets-semicolon.csv');
    expect(res.statusCode, res.body).toBe(200);
    const rows = (await t.request({ method: 'GET', url: `/api/v1/jobs/tickets/${job}`, token: admin })).json() as { pole_name: string; tasks: { init_qty: number; code: string }[] }[];
    const qty = (pole: string) => rows.filter((r) => r.pole_name === pole).flatMap((r) => r.tasks.map((k) => k.init_qty));
    expect(qty('P-2')).toContain(0.25);
    expect(qty('P-3')).toContain(1234.5);
    expect(qty('P-1')).toContain(3.5);
    expect(qty('P-1')).not.toContain(3500);
  });
});
