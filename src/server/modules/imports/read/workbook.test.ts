import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { MSG } from '../../../../shared/messages';
import { AppError } from '../../../errors';
import { generateTicketWorkbook } from '../../../test/generate-workbook';
import { readZipDirectory } from './zip-check';
import {
  assertEnoughColumns,
  assertTicketColumns,
  columnsOf,
  parseWorkbook,
  sniffFormat,
} from './workbook';
import { chooseSheets, readXlsxSheets, readXlsxSheetsWhole } from './xlsx';
import { parseCsvRows } from './csv';
import { fixture } from '../../../test/files';

/** The 422 AppError a call throws, with its message. */
async function rejection(p: Promise<unknown> | (() => unknown)): Promise<AppError> {
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    return err as AppError;
  }
  throw new Error('expected a rejection');
}

async function xlsx(build: (wb: ExcelJS.Workbook) => void): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  build(wb);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

describe('parseWorkbook with workbooks written by openpyxl', () => {
  it('finds the named sheets, the header under the title row, and normalises the cells', async () => {
    const parsed = await parseWorkbook(fixture('good.xlsx'));
    expect(parsed.format).toBe('xlsx');
    // 'Read Me' is the first tab: the tickets sheet is found by its name.
    expect(parsed.tickets.name).toBe('Unit Tracking');
    expect(parsed.tickets.headerRow).toBe(3);
    expect(parsed.tickets.columns).toEqual([
      'Work Order',
      'POLE',
      'Line',
      'Pole ID',
      'Line ID',
      'Due Date',
      'Lat',
      'Long',
      'Primary Voltage',
      'Secondary Voltage',
      'Arc Rating',
      'Street',
      'Unit',
      'Description',
      'Quantity',
    ]);
    expect(parsed.library?.name).toBe('Unit Library');
    expect(parsed.library?.columns).toEqual(['Family', 'Unit Code', 'Type', 'Action', 'UOM', 'Description', 'Notes']);

    const rows = parsed.tickets.rows;
    expect(rows.map((r) => r.row)).toEqual([4, 5, 6, 7, 8]);
    // A date cell becomes the calendar date; text is trimmed; numbers stay numbers.
    expect(rows[0].cells).toEqual(['WO-100', 'P-1', 'L-10', 'NG-1', 'LN-10', '2027-01-15', 42.12345678, -71.98765432, '13.2kV', '240V', '8 cal', '1 Main St', 'U-100', 'Set pole', 1]);
    expect(rows[1].cells[1]).toBe('p-1');
    // A plain number in the date column stays an Excel serial for the converter.
    expect(rows[4].cells[5]).toBe(46100);
    // The hyperlink cell gives its text.
    expect(rows[4].cells[11]).toBe('3 Elm St');
    expect(columnsOf(parsed)).toEqual({
      jobColumns: parsed.tickets.columns,
      libraryColumns: parsed.library?.columns,
      sheets: [
        { name: 'Read Me', hidden: false },
        { name: 'Unit Tracking', hidden: false },
        { name: 'Unit Library', hidden: false },
      ],
      tickets: { name: 'Unit Tracking', headerRow: 3, rows: 5 },
      library: { name: 'Unit Library', headerRow: 1, rows: 5 },
      notes: [],
    });
    expect(() => assertEnoughColumns(parsed)).not.toThrow();
  });

  it('falls back to the first and second sheets when none is named like the spec says', async () => {
    const parsed = await parseWorkbook(fixture('too-few-library-columns.xlsx'));
    expect(parsed.tickets.name).toBe('Tickets');
    expect(parsed.library?.name).toBe('Units');
    expect(parsed.tickets.headerRow).toBe(1);
  });

  it('answers the docs/product/imports.md §3 message for too few ticket columns', async () => {
    const parsed = await parseWorkbook(fixture('too-few-columns.xlsx'));
    expect(parsed.tickets.columns).toHaveLength(5);
    const err = await rejection(() => assertEnoughColumns(parsed));
    expect(err.statusCode).toBe(422);
    expect(err.message).toBe(`${MSG.tooFewJobColumns} ${MSG.excelHeaderUsed('Unit Tracking', 1, 5, 9)}`);
  });

  it('answers the docs/product/imports.md §3 message for too few library columns', async () => {
    const parsed = await parseWorkbook(fixture('too-few-library-columns.xlsx'));
    expect(() => assertTicketColumns(parsed)).not.toThrow();
    const err = await rejection(() => assertEnoughColumns(parsed));
    expect(err.message).toBe(`${MSG.tooFewLibraryColumns} ${MSG.excelHeaderUsed('Units', 1, 4, 7)}`);
  });

  it('refuses a legacy .xls by its magic bytes, asking for .xlsx', async () => {
    expect(sniffFormat(fixture('legacy.xls'))).toBe('xls');
    const err = await rejection(parseWorkbook(fixture('legacy.xls')));
    expect(err.statusCode).toBe(422);
    expect(err.message).toBe(MSG.excelLegacyXls);
  });

  it('answers "couldn\'t be parsed" (422) for a cut-off workbook', async () => {
    const good = fixture('good.xlsx');
    const err = await rejection(parseWorkbook(good.subarray(0, Math.floor(good.length / 2))));
    expect(err.statusCode).toBe(422);
    expect(err.message).toBe(MSG.excelUnparsable);
  });

  it('answers 415 naming the kinds expected for a zip that is not a workbook, binary junk and an empty file (docs/product/sessions-and-safety.md)', async () => {
    for (const buf of [fixture('not-a-workbook.xlsx'), Buffer.from([0xff, 0xfe, 0x00, 0x01, 0x02]), Buffer.alloc(0)]) {
      const err = await rejection(parseWorkbook(buf));
      expect(err.statusCode).toBe(415);
      expect(err.message).toMatch(/^The spreadsheet must be an Excel workbook \(\.xlsx\) or a CSV file, but this file is /);
    }
  });
});

describe('parseWorkbook reads every valid workbook, every time', () => {
  // openpyxl stores the worksheets before xl/workbook.xml (check with `unzip -l`). exceljs's
  // streaming reader lost the zip entries that followed the last worksheet whenever its parser
  // got there before the worksheet's temporary file was written: no workbook model, no error.
  it('parses the same openpyxl workbooks 300 times each, with the same sheets and rows every time', async () => {
    for (const name of ['extra-tabs.xlsx', 'good.xlsx']) {
      const buf = fixture(name);
      const first = await parseWorkbook(buf);
      expect(first.tickets.name).toBe('Unit Tracking');
      expect(first.library?.name).toBe('Unit Library');
      expect(first.tickets.rows).toHaveLength(5);
      let differing = 0;
      for (let i = 0; i < 300; i++) {
        const again = await parseWorkbook(buf).catch((err: unknown) => err);
        if (JSON.stringify(again) !== JSON.stringify(first)) differing++;
      }
      expect({ name, differing }).toEqual({ name, differing: 0 });
    }
  }, 180_000);

  it('treats a read without the workbook model as a failure (so the whole-model loader gets its try), never as "no sheets"', async () => {
    // A zip without xl/workbook.xml: the streaming read used to return no sheets, silently.
    await expect(readXlsxSheets(fixture('not-a-workbook.xlsx'))).rejects.toThrow(/workbook/);
    await expect(parseWorkbook(fixture('not-a-workbook.xlsx'))).rejects.toThrow(/a zip archive without a workbook in it/);
  });
});

describe('readZipDirectory', () => {
  const whole = async (buf: Buffer, max = 50 * 1024 * 1024) => (await readZipDirectory(buf, max)).ok;
  it('accepts a whole workbook and refuses damaged data, cut-off files and oversized contents', async () => {
    const good = fixture('good.xlsx');
    expect(await whole(good)).toBe(true);
    // Damage inside every stretch of compressed data in turn: the CRC check catches each one
    // (exceljs's streaming reader could wait forever on some of these).
    for (let at = 200; at < good.length - 1000; at += 397) {
      const bad = Buffer.from(good);
      bad[at] ^= 0xff;
      if (await whole(bad)) await expect(parseWorkbook(bad)).resolves.toBeTruthy();
      else await expect(parseWorkbook(bad)).rejects.toThrow(MSG.excelUnparsable);
    }
    expect(await whole(good.subarray(0, good.length - 10))).toBe(false);
    expect(await readZipDirectory(good, 1000)).toEqual({ ok: false, reason: 'too-large' });
  });
});

describe('parseWorkbook with CSV', () => {
  it('reads a UTF-8 CSV with BOM, quotes, commas and newlines inside cells as the tickets sheet', async () => {
    const parsed = await parseWorkbook(fixture('tickets.csv'));
    expect(parsed.format).toBe('csv');
    expect(parsed.library).toBeNull();
    expect(parsed.tickets.columns[0]).toBe('Work Order');
    expect(parsed.tickets.columns).toHaveLength(15);
    expect(parsed.tickets.rows.map((r) => r.row)).toEqual([2, 3, 4]);
    expect(parsed.tickets.rows[0].cells[11]).toBe('1 Main St, Apt 2');
    expect(parsed.tickets.rows[1].cells[13]).toBe('Say "hi"');
    expect(parsed.tickets.rows[2].cells[13]).toBe('two\nlines');
    expect(() => assertTicketColumns(parsed)).not.toThrow();
    // A CSV has no library sheet, so it cannot create a job: the message says what it can do.
    expect((await rejection(() => assertEnoughColumns(parsed))).message).toBe(MSG.excelCsvCannotCreateJob);
  });

  it('parses RFC 4180 details and other delimiters', () => {
    expect(parseCsvRows('a,"b ""q""",c\r\n1,"x\r\ny",3', ',')).toEqual([
      ['a', 'b "q"', 'c'],
      ['1', 'x\r\ny', '3'],
    ]);
    expect(parseCsvRows('a;b;c\n1;2,5;3\n', ';')).toEqual([
      ['a', 'b', 'c'],
      ['1', '2,5', '3'],
    ]);
    expect(parseCsvRows('a\tb\tc', '\t')).toEqual([['a', 'b', 'c']]);
    expect(parseCsvRows('', ',')).toEqual([]);
  });
});

describe('sheets and header rows', () => {
  it('picks visible sheets by name, case- and space-insensitively, else the first with a header', async () => {
    const visible = (...names: string[]) => names.map((name) => ({ name, hidden: false }));
    const headers = (ticketSheets: number[], librarySheets: number[]) => async (i: number, kind: 'tickets' | 'library') =>
      (kind === 'tickets' ? ticketSheets : librarySheets).includes(i);
    expect(await chooseSheets(visible('Cover', 'unit  TRACKING (2027)', 'Unit_Library'), headers([], []))).toEqual({ tickets: 1, library: 2 });
    expect(await chooseSheets(visible('Data', 'Lookup', 'Notes'), headers([1], [2]))).toEqual({ tickets: 1, library: 2 });
    expect(await chooseSheets(visible('Units', 'Unit Tracking'), headers([], [0]))).toEqual({ tickets: 1, library: 0 });
    expect(await chooseSheets(visible('Unit Library', 'Data'), headers([1], []))).toEqual({ tickets: 1, library: 0 });
    expect(await chooseSheets(visible('Only'), headers([0], []))).toEqual({ tickets: 0, library: null });
    // Hidden sheets are never chosen by themselves, named right or not; a picked one is.
    const withHidden = [{ name: 'Unit Tracking', hidden: true }, ...visible('Tickets 2027', 'Lists', 'Library')];
    expect(await chooseSheets(withHidden, headers([0, 1], [3]))).toEqual({ tickets: 1, library: 3 });
    expect(await chooseSheets(withHidden, headers([0, 1], [3]), { ticketsSheet: 'unit tracking' })).toEqual({ tickets: 0, library: 3 });
    await expect(chooseSheets(withHidden, headers([], []), { librarySheet: 'Nope' })).rejects.toThrow(MSG.excelNoSuchSheet('Nope'));
  });

  it('takes the row with the most default column names as the header, skipping titles and group rows above it', async () => {
    const buf = await xlsx((wb) => {
      const ws = wb.addWorksheet('Unit Tracking');
      ws.getCell('A1').value = 'Title';
      ws.getRow(2).values = ['Job: 4711', 'Prepared: 11/20/2026', 'Prepared by', 'Office'];
      ws.getRow(3).values = ['Pole info', 'Pole info', null, 'Work', 'Work'];
      ws.getRow(4).values = ['Pole', 'Line', null, 'Unit', 'Pole'];
      ws.getRow(6).values = ['P-1', 'L-1', 'ignored, no header', 'U-1', 'dup'];
      ws.getRow(8).values = [];
      wb.addWorksheet('Unit Library').addRow(['Family', 'Unit Code', 'Type']);
    });
    const parsed = await parseWorkbook(buf);
    expect(parsed.tickets.headerRow).toBe(4);
    // Cells under an empty header are dropped; a repeated name gets a suffix.
    expect(parsed.tickets.columns).toEqual(['Pole', 'Line', 'Unit', 'Pole (2)']);
    expect(parsed.tickets.rows).toEqual([{ row: 6, cells: ['P-1', 'L-1', 'U-1', 'dup'] }]);
  });

  it('refuses a sheet none of whose first 20 rows holds three column names, naming it', async () => {
    const buf = await xlsx((wb) => {
      const ws = wb.addWorksheet('Unit Tracking');
      ws.addRow(['Job 4711', 12, 2027]);
      for (let i = 0; i < 25; i++) ws.addRow(['x', 2, 3]);
      ws.getRow(22).values = ['Pole', 'Line', 'Unit', 'Quantity'];
    });
    const parsed = await parseWorkbook(buf);
    expect(parsed.tickets).toMatchObject({ headerRow: 0, columns: [], rows: [] });
    expect(parsed.library).toBeNull();
    expect((await rejection(() => assertEnoughColumns(parsed))).message).toBe(MSG.excelNoHeader('Unit Tracking', 'tickets'));
  });

  it('reads formulas as their results, rich text as its text, dates as calendar dates', async () => {
    const buf = await xlsx((wb) => {
      const ws = wb.addWorksheet('Unit Tracking');
      ws.addRow(['Pole', 'Quantity', 'Description', 'Due Date', 'Flag', 'Err']);
      ws.addRow([
        { richText: [{ text: 'P-' }, { font: { bold: true }, text: '7' }] },
        { formula: '2+3', result: 5 },
        { text: 'see map', hyperlink: 'https://example.com' },
        new Date(Date.UTC(2027, 5, 30)),
        true,
        { error: '#N/A' },
      ]);
    });
    const parsed = await parseWorkbook(buf);
    expect(parsed.tickets.rows[0].cells).toEqual(['P-7', 5, 'see map', '2027-06-30', 'TRUE', null]);
  });

  it('reads the same rows with the streaming reader and with the whole-workbook fallback', async () => {
    for (const buf of [fixture('good.xlsx'), fixture('bad-row.xlsx'), await generateTicketWorkbook(50)]) {
      expect(await readXlsxSheetsWhole(buf)).toEqual(await readXlsxSheets(buf));
    }
  });

  it('reads a generated 500-row workbook completely', async () => {
    const parsed = await parseWorkbook(await generateTicketWorkbook(500));
    expect(parsed.tickets.headerRow).toBe(2);
    expect(parsed.tickets.rows).toHaveLength(500);
    expect(parsed.tickets.rows[499].row).toBe(502);
    expect(parsed.library?.rows).toHaveLength(100);
  });
});
