import { describe, expect, it } from 'vitest';
import { defaultMappings } from '../../../shared/excel';
import { MSG } from '../../../shared/messages';
import { AppError } from '../../errors';
import { generateTicketWorkbook } from './generate';
import { columnsOf, parseWorkbook } from './workbook';
import {
  sheetUploadOf,
  sheetUploadOffThread,
  workbookColumnsOffThread,
  workbookImportOf,
  workbookImportOffThread,
  type WorkbookImportRequest,
} from './workbook-import';
import { fixture } from '../../test/files';

/** The default mapping of a workbook's own headers, as the job form would send it. */
async function requestFor(buf: Buffer, overrides: WorkbookImportRequest['overrides'] = null): Promise<WorkbookImportRequest> {
  const m = defaultMappings(columnsOf(await parseWorkbook(buf)));
  return { ticketsMappings: m.ticketsMappings, libraryMappings: m.libraryMappings, overrides };
}

/** Both ways must fail alike: the same status and message, as an AppError. */
async function failures(buf: Buffer, req: WorkbookImportRequest) {
  const inThread = await workbookImportOf(buf, req).catch((e: unknown) => e);
  const offThread = await workbookImportOffThread(buf, req).catch((e: unknown) => e);
  expect(offThread).toBeInstanceOf(AppError);
  expect(inThread).toBeInstanceOf(AppError);
  const { statusCode, message } = offThread as AppError;
  expect({ statusCode, message }).toEqual({ statusCode: (inThread as AppError).statusCode, message: (inThread as AppError).message });
  return offThread as AppError;
}

describe('the workbook worker', () => {
  it('returns the same drafts as the conversion on this thread (fixture, with job overrides)', async () => {
    const buf = fixture('good.xlsx');
    const req = await requestFor(buf, { arc_rating_override: '40 cal', ehasp_override: 'EH-1' });
    const offThread = await workbookImportOffThread(buf, req);
    expect(offThread).toEqual(await workbookImportOf(buf, req));
    expect(offThread.tickets.every((t) => t.pole.arc_rating === '40 cal' && t.ehasp === 'EH-1')).toBe(true);
  });

  it('returns every ticket of a big workbook, sent back in several batches, in order', async () => {
    const buf = await generateTicketWorkbook(3000, { tasksPerPole: 2 });
    const req = await requestFor(buf);
    const offThread = await workbookImportOffThread(buf, req);
    expect(offThread.tickets).toHaveLength(1500);
    expect(offThread.tickets.reduce((n, t) => n + t.tasks.length, 0)).toBe(3000);
    expect(offThread).toEqual(await workbookImportOf(buf, req));
  });

  it('runs jobs side by side, each answered with its own result', async () => {
    const small = fixture('good.xlsx');
    const big = await generateTicketWorkbook(1200);
    const [reqSmall, reqBig] = await Promise.all([requestFor(small), requestFor(big)]);
    const [a, b, c] = await Promise.all([
      workbookImportOffThread(big, reqBig),
      workbookImportOffThread(small, reqSmall),
      workbookImportOffThread(fixture('bad-row.xlsx'), reqSmall).catch((e: unknown) => e),
    ]);
    expect(a.tickets).toHaveLength(300);
    expect(b).toEqual(await workbookImportOf(small, reqSmall));
    expect(c).toBeInstanceOf(AppError);
  });

  it('answers the same 422 naming the rows for a workbook with bad rows', async () => {
    const err = await failures(fixture('bad-row.xlsx'), await requestFor(fixture('bad-row.xlsx')));
    expect(err.statusCode).toBe(422);
    expect(err.message).toMatch(/^Row \d+: /);
  });

  it('answers the same 422 for a file that is no workbook, a legacy .xls, or too few columns', async () => {
    const req = await requestFor(fixture('good.xlsx'));
    expect((await failures(fixture('not-a-workbook.xlsx'), req)).message).toBe(MSG.excelUnparsable);
    expect((await failures(fixture('legacy.xls'), req)).message).toBe(MSG.excelLegacyXls);
    expect((await failures(fixture('too-few-columns.xlsx'), req)).message).toBe(MSG.tooFewJobColumns);
    expect((await failures(fixture('too-few-library-columns.xlsx'), req)).message).toBe(MSG.tooFewLibraryColumns);
  });

  it('reads the header lists for getColumns, with the same 422 for too few columns', async () => {
    const buf = fixture('good.xlsx');
    expect(await workbookColumnsOffThread(buf)).toEqual(columnsOf(await parseWorkbook(buf)));
    const err = await workbookColumnsOffThread(fixture('too-few-columns.xlsx')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).message).toBe(MSG.tooFewJobColumns);
  });

  it('leaves the caller’s buffer usable (the file is copied to the worker)', async () => {
    const buf = fixture('good.xlsx');
    const copy = Buffer.from(buf);
    await workbookImportOffThread(buf, await requestFor(buf));
    expect(buf.equals(copy)).toBe(true);
  });

  it('reads a spreadsheet upload the same way: default mapping, library when mapped, row errors returned', async () => {
    const overrides = { primary_voltage_override: '7.2kV' };
    for (const name of ['good.xlsx', 'tickets.csv', 'bad-row.xlsx']) {
      const offThread = await sheetUploadOffThread(fixture(name), { overrides });
      expect(offThread).toEqual(await sheetUploadOf(fixture(name), { overrides }));
      if (name === 'good.xlsx') expect(offThread.library).toHaveLength(4);
      if (name === 'tickets.csv') expect(offThread.library).toEqual([]);
      if (name === 'bad-row.xlsx') expect(offThread.errors.map((e) => e.row)).toEqual([14, 15]);
    }
    const err = await sheetUploadOffThread(fixture('too-few-columns.xlsx'), {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).message).toBe(MSG.tooFewJobColumns);
  });
});
