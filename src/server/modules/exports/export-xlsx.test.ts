import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { buildExportTable, type ExportTicket } from '../../../shared/export';
import { cellText, exportXlsx, wallClockDate } from './export-xlsx';

const ticket = (over: Partial<ExportTicket> = {}): ExportTicket => ({
  id: 1,
  pole_name: '007',
  line_name: 'L-1',
  street_address: '1 Main St',
  geo_lat: 42.5,
  geo_lon: -71.25,
  actual_completion_date: null,
  status: 'Pending',
  work_orders: ['00123'],
  tasks: [{ code: 'U-1', description: 'Set pole', init_qty: 2, additional_qty: 1 }],
  notes: [{ note_text: 'Call first' }],
  pole: { street_address: null, geo_lat: null, geo_lon: null },
  ...over,
});

async function read(body: Buffer): Promise<ExcelJS.Worksheet> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(body as unknown as ArrayBuffer);
  return book.worksheets[0];
}

describe('wallClockDate', () => {
  it('reads the export\'s day or time as that wall-clock time (a spreadsheet date has no zone)', () => {
    expect(wallClockDate('2027-03-04')?.toISOString()).toBe('2027-03-04T00:00:00.000Z');
    expect(wallClockDate('2027-03-04 22:04:09')?.toISOString()).toBe('2027-03-04T22:04:09.000Z');
    expect(wallClockDate('03/04/2027')).toBeNull();
  });
});

describe('cellText', () => {
  it('replaces what XML cannot carry and cuts at Excel\'s 32,767 characters', () => {
    expect(cellText('a\u0001b\uFFFEc')).toBe('a\uFFFDb\uFFFDc');
    expect(cellText('tab\tand\nline')).toBe('tab\tand\nline');
    const long = cellText('x'.repeat(40_000));
    expect(long).toHaveLength(32_767);
    expect(long.endsWith('…')).toBe(true);
    // A surrogate pair at the cut is kept whole or left out, never halved.
    const emoji = cellText('x'.repeat(32_765) + '😀'.repeat(10));
    expect(emoji.length).toBeLessThanOrEqual(32_767);
    expect(emoji).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });
});

describe('exportXlsx', () => {
  it('writes a bold, frozen header with a filter, text as Text cells, lists on wrapped lines', async () => {
    const table = buildExportTable({ job_number: 'J' }, [ticket({ notes: [{ note_text: 'one' }, { note_text: 'two' }] })], 1, 'UTC');
    const sheet = await read(await exportXlsx(table));
    expect(sheet.name).toBe('Tickets with work');
    expect(sheet.getRow(1).getCell(1).value).toBe('Pole #');
    expect(sheet.getRow(1).getCell(1).font?.bold).toBe(true);
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(sheet.autoFilter).toBeTruthy();
    const row = sheet.getRow(2);
    expect(row.getCell(1).value).toBe('007');
    expect(row.getCell(1).numFmt).toBe('@');
    expect(row.getCell(3).value).toBe('00123');
    expect(row.getCell(11).value).toBe('one\ntwo');
    expect(row.getCell(11).alignment?.wrapText).toBe(true);
  });

  it('writes a text with control characters or past Excel\'s cell limit so that the file still opens', async () => {
    const table = buildExportTable({ job_number: 'J' }, [ticket({ notes: [{ note_text: `bell\u0007 ${'n'.repeat(40_000)}` }] })], 2, 'UTC');
    const sheet = await read(await exportXlsx(table));
    const notes = sheet.getRow(2).getCell(9).value as string;
    expect(notes.startsWith('bell\uFFFD n')).toBe(true);
    expect(notes).toHaveLength(32_767);
  });
});
