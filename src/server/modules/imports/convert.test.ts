import { describe, expect, it } from 'vitest';
import { defaultMappings, type CellValue, type LibraryMappings, type ParsedWorkbook, type TicketsMappings } from '../../../shared/excel';
import { MSG } from '../../../shared/messages';
import { workbookToImport } from './convert';
import { generateTicketWorkbook } from '../../test/generate-workbook';
import { parseWorkbook } from './read/workbook';
import { fixture } from '../../test/files';

const COLUMNS = ['Work Order', 'Pole', 'Line', 'Pole ID', 'Line ID', 'Due Date', 'Lat', 'Long', 'Primary Voltage', 'Secondary Voltage', 'Arc Rating', 'Street', 'Unit', 'Description', 'Quantity'];
const LIB_COLUMNS = ['Family', 'Unit Code', 'Type', 'Action', 'UOM', 'Description', 'Notes'];
const { ticketsMappings: TM, libraryMappings: LM } = defaultMappings({ jobColumns: COLUMNS, libraryColumns: LIB_COLUMNS });

type Row = Partial<Record<(typeof COLUMNS)[number], CellValue>>;

/** A parsed workbook from rows given by column name; data starts on Excel row 2. */
function sheet(rows: Row[], library: CellValue[][] = []): ParsedWorkbook {
  return {
    format: 'xlsx',
    tickets: { name: 'Unit Tracking', headerRow: 1, columns: COLUMNS, rows: rows.map((r, i) => ({ row: i + 2, cells: COLUMNS.map((c) => r[c] ?? null) })) },
    library: { name: 'Unit Library', headerRow: 1, columns: LIB_COLUMNS, rows: library.map((cells, i) => ({ row: i + 2, cells })) },
  };
}
const row = (over: Row = {}): Row => ({ 'Work Order': 'WO-1', Pole: 'P-1', Line: 'L-1', Unit: 'U-1', Description: 'Set pole', Quantity: 1, ...over });

describe('workbookToImport with the openpyxl fixture', () => {
  it('groups rows into tickets by pole + line, one task per row, unique work orders, library deduped', async () => {
    const parsed = await parseWorkbook(fixture('good.xlsx'));
    const m = defaultMappings({ jobColumns: parsed.tickets.columns, libraryColumns: parsed.library!.columns });
    const result = workbookToImport(parsed, m.ticketsMappings, m.libraryMappings);
    expect(result.errors).toEqual([]);
    expect(result.tickets.map((t) => [t.pole.pole_name, t.pole.line_name, t.row])).toEqual([
      ['P-1', 'L-10', 4],
      ['P-2', 'L-10', 7],
      ['P-3', 'L-11', 8],
    ]);
    const [p1, p2, p3] = result.tickets;
    // ' p-1 ' / 'l-10' on row 5 joins P-1 / L-10 (trimmed, case-insensitive).
    expect(p1.tasks).toEqual([
      { code: 'U-100', description: 'Set pole', qty: 1, row: 4 },
      { code: 'U-200', description: 'Transfer wires', qty: 3, row: 5 },
      { code: 'U-300', description: '', qty: 2, row: 6 },
    ]);
    expect(p1.work_orders).toEqual(['WO-100', 'WO-101']);
    expect(p1.pole).toEqual({
      pole_name: 'P-1',
      line_name: 'L-10',
      pole_id: 'NG-1',
      line_id: 'LN-10',
      street_address: '1 Main St',
      geo_lat: 42.123456,
      geo_lon: -71.987654,
      primary_voltage: '13.2kV',
      secondary_voltage: '240V',
      arc_rating: '8 cal',
    });
    expect([p1.due_date, p1.geo_lat, p1.geo_lon, p1.street_address]).toEqual(['2027-01-15', 42.123456, -71.987654, '1 Main St']);
    // Text dates and coordinates, an Excel serial date, truncation rather than rounding.
    expect([p2.due_date, p2.geo_lat, p2.geo_lon]).toEqual(['2027-02-20', 42.5, -71.5]);
    expect([p3.due_date, p3.geo_lat, p3.geo_lon, p3.pole.street_address]).toEqual(['2026-03-19', 42.999999, -71, '3 Elm St']);
    expect(p3.tasks[0].qty).toBe(1.5);

    expect(result.library.map((u) => u.code)).toEqual(['U-100', 'U-200', 'U-400', 'U-300']);
    expect(result.library.find((u) => u.code === 'U-300')).toEqual({
      code: 'U-300',
      description: 'Crossarm 10 ft',
      family: 'Hardware',
      type: 'Install',
      action: 'Add',
      uom: 'EA',
      notes: 'Last one wins',
      // No Price column mapped: null, which keeps the library's price.
      unit_price: null,
      row: 6,
    });
    expect(result.library.find((u) => u.code === 'U-400')?.notes).toBe('');
  });

  it('names the rows of the bad-row fixture as Excel shows them', async () => {
    const parsed = await parseWorkbook(fixture('bad-row.xlsx'));
    const m = defaultMappings({ jobColumns: parsed.tickets.columns, libraryColumns: parsed.library!.columns });
    const { errors } = workbookToImport(parsed, m.ticketsMappings, m.libraryMappings);
    expect(errors).toEqual([
      { row: 14, sheet: 'tickets', message: "Row 14: Quantity 'abc' is not a number" },
      { row: 15, sheet: 'tickets', message: 'Row 15: Pole is missing' },
    ]);
  });

  it('imports a CSV without library mappings (tickets only)', async () => {
    const parsed = await parseWorkbook(fixture('tickets.csv'));
    const m = defaultMappings({ jobColumns: parsed.tickets.columns, libraryColumns: [] });
    const result = workbookToImport(parsed, m.ticketsMappings, null);
    expect(result.errors).toEqual([]);
    expect(result.library).toEqual([]);
    expect(result.tickets).toHaveLength(2);
    expect(result.tickets[0]).toMatchObject({ due_date: '2027-01-15', geo_lat: 42.1, work_orders: ['WO-1', 'WO-2'], street_address: '1 Main St, Apt 2' });
    expect(result.tickets[0].tasks.map((t) => [t.code, t.description, t.qty])).toEqual([
      ['U-100', 'Set pole, 45 ft', 1],
      ['U-200', 'Say "hi"', 2],
    ]);
    expect(result.tickets[1]).toMatchObject({ due_date: '2027-03-01', tasks: [{ description: 'two\nlines', qty: 3 }] });
  });
});

describe('workbookToImport row rules', () => {
  it('reports each bad row with its Excel row number and the value', () => {
    const { errors, tickets } = workbookToImport(
      sheet([
        row(),
        row({ Pole: '  ' }),
        row({ Unit: null }),
        row({ Quantity: 'abc' }),
        row({ Quantity: -2 }),
        row({ Lat: '42.1.1' }),
        row({ Lat: 91 }),
        row({ Long: '-180.5' }),
        row({ 'Due Date': '13/45/2027' }),
        row({ 'Due Date': 99_999_999 }),
        row({ Pole: null, Unit: null }),
        row({ Quantity: 1_000_001 }),
      ]),
      TM,
      LM,
    );
    expect(errors.map((e) => e.message)).toEqual([
      MSG.excelRowMissingPole(3),
      MSG.excelRowMissingUnit(4),
      "Row 5: Quantity 'abc' is not a number",
      "Row 6: Quantity '-2' cannot be negative",
      "Row 7: Latitude '42.1.1' is not a number",
      "Row 8: Latitude '91' must be between -90 and 90",
      "Row 9: Longitude '-180.5' must be between -180 and 180",
      MSG.excelRowBadDate(10, '13/45/2027'),
      MSG.excelRowBadDate(11, '99999999'),
      'Row 12: Pole is missing',
      'Row 12: Unit/task code is missing',
      "Row 13: Quantity '1000001' is more than 1,000,000, the largest quantity a task can hold",
    ]);
    expect(tickets).toHaveLength(1);
  });

  it('accepts blank optional cells, a blank quantity as 0, numbers written as text', () => {
    const { errors, tickets } = workbookToImport(
      sheet([row({ Quantity: null, Lat: ' 42.000001 ', Long: '-71', 'Due Date': '2027-12-31' }), row({ Quantity: '1,250.5', Unit: 'U-2' })]),
      TM,
      LM,
    );
    expect(errors).toEqual([]);
    expect(tickets[0].tasks.map((t) => t.qty)).toEqual([0, 1250.5]);
    expect([tickets[0].geo_lat, tickets[0].geo_lon, tickets[0].due_date]).toEqual([42.000001, -71, '2027-12-31']);
  });

  it('refuses over-long names before they reach the database', () => {
    const { errors } = workbookToImport(sheet([row({ Pole: 'x'.repeat(256) })]), TM, LM);
    expect(errors.map((e) => e.message)).toEqual(['Row 2: Pole is longer than 255 characters']);
  });

  it('groups by pole and line, so the same pole on two lines makes two tickets; a missing line groups by pole', () => {
    const { tickets } = workbookToImport(sheet([row(), row({ Line: 'L-2' }), row({ Line: 'l-1 ', Unit: 'U-2' })]), TM, LM);
    expect(tickets.map((t) => [t.pole.line_name, t.tasks.length])).toEqual([
      ['L-1', 2],
      ['L-2', 1],
    ]);
    const noLine = workbookToImport(sheet([row(), row({ Unit: 'U-2' })]), { ...TM, line: null }, LM);
    expect(noLine.tickets.map((t) => [t.pole.pole_name, t.pole.line_name, t.tasks.length])).toEqual([['P-1', '', 2]]);
  });

  it('splits work orders written together in one cell and keeps each once', () => {
    const { tickets } = workbookToImport(sheet([row({ 'Work Order': 'WO-1, WO-2\nWO-3' }), row({ 'Work Order': 'WO-2;WO-4', Unit: 'U-2' })]), TM, LM);
    expect(tickets[0].work_orders).toEqual(['WO-1', 'WO-2', 'WO-3', 'WO-4']);
  });

  it('takes the first non-empty pole detail of the ticket’s rows', () => {
    const { tickets } = workbookToImport(sheet([row(), row({ 'Pole ID': 'NG-9', Street: '9 Elm', Unit: 'U-2' }), row({ 'Pole ID': 'NG-10', Unit: 'U-3' })]), TM, LM);
    expect([tickets[0].pole.pole_id, tickets[0].pole.street_address, tickets[0].street_address]).toEqual(['NG-9', '9 Elm', '9 Elm']);
  });

  it('replaces mapped voltages and arc rating with the job’s overrides, and carries EHASP', () => {
    const parsed = sheet([row({ 'Arc Rating': '4 cal', 'Primary Voltage': '7.2kV', 'Secondary Voltage': '120V' })]);
    const { tickets, errors } = workbookToImport(parsed, TM, LM, {
      arc_rating_override: '12 cal',
      primary_voltage_override: '34.5kV',
      secondary_voltage_override: '',
      ehasp_override: 'EHASP-7',
    });
    expect(errors).toEqual([]);
    expect(tickets[0].pole).toMatchObject({ arc_rating: '12 cal', primary_voltage: '34.5kV', secondary_voltage: '120V' });
    expect(tickets[0].ehasp).toBe('EHASP-7');
    // An overridden target need not be mapped to an existing column at all.
    const stale = workbookToImport(parsed, { ...TM, arc_rating: 'Gone' }, LM, { arc_rating_override: '12 cal' });
    expect(stale.errors).toEqual([]);
  });

  it('skips library rows with no text in mapped columns, and names a library row without code', () => {
    const { library, errors } = workbookToImport(
      sheet(
        [row()],
        [
          ['F', 'U-1', 'T', 'A', 'EA', 'D', 'N'],
          [null, null, null, null, null, null, null],
          ['F', null, 'T', 'A', 'EA', 'Orphan', null],
        ],
      ),
      TM,
      LM,
    );
    expect(library.map((u) => u.code)).toEqual(['U-1']);
    expect(errors).toEqual([{ row: 4, sheet: 'library', message: 'Unit Library row 4: Unit code is missing' }]);
  });
});

describe('workbookToImport mapping problems', () => {
  it('needs the required mappings', () => {
    const { errors, tickets } = workbookToImport(sheet([row()]), { ...TM, qty: null } as TicketsMappings, { ...LM, notes: '' } as LibraryMappings);
    expect(tickets).toEqual([]);
    expect(errors).toEqual([{ row: 0, sheet: 'tickets', message: MSG.excelMappingIncomplete('Quantity, Unit Library Notes') }]);
  });

  it('names a mapped column that the workbook does not have', () => {
    const { errors } = workbookToImport(sheet([row()]), { ...TM, street: 'Address' }, LM);
    expect(errors).toEqual([{ row: 1, sheet: 'tickets', message: MSG.excelColumnMissing('Address', 'Street') }]);
  });

  it('matches mapped column names case-insensitively as a fallback', () => {
    const { errors, tickets } = workbookToImport(sheet([row()]), { ...TM, pole: 'POLE' }, LM);
    expect(errors).toEqual([]);
    expect(tickets).toHaveLength(1);
  });
});

describe('a 10,000-row workbook', () => {
  it('converts completely, the chunked way giving the same result', async () => {
    const parsed = await parseWorkbook(await generateTicketWorkbook(10_000));
    const m = defaultMappings({ jobColumns: parsed.tickets.columns, libraryColumns: parsed.library!.columns });
    const sync = workbookToImport(parsed, m.ticketsMappings, m.libraryMappings);
    expect(sync.errors).toEqual([]);
    expect(sync.tickets).toHaveLength(2500);
    expect(sync.tickets.reduce((n, t) => n + t.tasks.length, 0)).toBe(10_000);
    expect(sync.library).toHaveLength(100);
  }, 120_000);
});
