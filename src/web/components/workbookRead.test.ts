import { describe, expect, it } from 'vitest';
import type { ReadNote, WorkbookColumns } from '../../shared/excel';
import { changedSides, hasNoLibrary, sheetOptions, sheetParams, sheetUsedText, shownNotes } from './workbookRead';

const LIBRARY = ['Family', 'Unit Code', 'Type', 'Action', 'UOM', 'Description', 'Notes'];
const TICKETS = ['Work Order', 'Pole', 'Line', 'Due Date', 'Unit', 'Quantity', 'Qty (metric)'];

const note = (over: Partial<ReadNote>): ReadNote => ({
  kind: 'two_digit_year',
  sheet: 'Unit Tracking',
  column: 'Due Date',
  count: 2,
  message: 'Due Date: 2 dates with a two-digit year were read as 20YY (row 4: 3/15/27 read as 03/15/2027).',
  ...over,
});

const columns = (over: Partial<WorkbookColumns> = {}): WorkbookColumns => ({
  jobColumns: TICKETS,
  libraryColumns: LIBRARY,
  sheets: [
    { name: 'Old copy', hidden: true },
    { name: 'Unit Tracking', hidden: false },
    { name: 'Unit Library', hidden: false },
  ],
  tickets: { name: 'Unit Tracking', headerRow: 3, rows: 120 },
  library: { name: 'Unit Library', headerRow: 1, rows: 45 },
  notes: [],
  ...over,
});

describe('what the mapping step says was read', () => {
  it('names the sheet, the header row and the rows below it', () => {
    expect(sheetUsedText('Tickets', { name: 'Unit Tracking', headerRow: 3, rows: 120 })).toBe(
      'Tickets: sheet “Unit Tracking”, header in row 3, 120 rows below it.',
    );
    expect(sheetUsedText('Unit Library', { name: 'Lib', headerRow: 1, rows: 1 })).toBe('Unit Library: sheet “Lib”, header in row 1, 1 row below it.');
    expect(sheetUsedText('Tickets', { name: 'CSV', headerRow: 1, rows: 0 })).toBe('Tickets: sheet “CSV”, header in row 1, 0 rows below it.');
  });

  it('offers every sheet in workbook order, a hidden one labelled so', () => {
    expect(sheetOptions(columns().sheets)).toEqual([
      { value: 'Old copy', label: 'Old copy (hidden)' },
      { value: 'Unit Tracking', label: 'Unit Tracking' },
      { value: 'Unit Library', label: 'Unit Library' },
    ]);
    expect(sheetOptions(undefined)).toEqual([]);
  });

  it('knows when a workbook has no usable library sheet', () => {
    expect(hasNoLibrary(columns())).toBe(false);
    expect(hasNoLibrary(columns({ library: null, libraryColumns: [] }))).toBe(true);
    expect(hasNoLibrary(columns({ libraryColumns: ['Family', 'Unit Code'] }))).toBe(true);
  });

  it('sends only the sheets that were picked', () => {
    expect(sheetParams(undefined)).toEqual({});
    expect(sheetParams({ ticketsSheet: 'Week 2', librarySheet: null })).toEqual({ ticketsSheet: 'Week 2' });
    expect(sheetParams({ ticketsSheet: '', librarySheet: 'Lib' })).toEqual({ librarySheet: 'Lib' });
  });
});

describe('shownNotes: the interpreted values of the columns that are mapped', () => {
  const year = note({});
  const comma = note({ kind: 'decimal_comma', column: 'Qty (metric)', message: 'Qty (metric): 3 numbers with a decimal comma.' });
  const encoding = note({ kind: 'windows_1252', column: null, count: 1, message: 'The file was read as Windows-1252.' });
  const libraryComma = note({ kind: 'decimal_comma', sheet: 'Unit Library', column: 'Notes', message: 'Notes: 1 number with a decimal comma.' });
  const cols = columns({ notes: [year, comma, encoding, libraryComma] });

  it('shows a note of a mapped column and every note about the whole file', () => {
    expect(shownNotes(cols, { due_date: 'Due Date', qty: 'Quantity' }, { notes: 'Notes' })).toEqual([year, encoding, libraryComma]);
  });

  it('follows the mapping: an unmapped column drops its note, a newly mapped one adds it', () => {
    expect(shownNotes(cols, { due_date: null, qty: 'Quantity' }, {})).toEqual([encoding]);
    expect(shownNotes(cols, { due_date: 'Due Date', qty: 'Qty (metric)' }, {})).toEqual([year, comma, encoding]);
  });

  it('matches a column on the sheet it was read from', () => {
    // "Notes" is mapped on the tickets side only: the library note stays hidden.
    expect(shownNotes(cols, { desc: 'Notes' }, {})).toEqual([encoding]);
    // A tickets-only upload has no library mapping: its notes are not shown.
    expect(shownNotes(cols, { due_date: 'Due Date' }, null)).toEqual([year, encoding]);
  });

  it('matches a note of an unknown sheet against both sides rather than hide it', () => {
    const odd = note({ sheet: 'Elsewhere', column: 'Unit Code', message: 'odd' });
    expect(shownNotes(columns({ notes: [odd] }), {}, { code: 'Unit Code' })).toEqual([odd]);
    expect(shownNotes(columns({ notes: [odd] }), {}, {})).toEqual([]);
  });

  it('shows nothing when nothing was interpreted, or for an old reply without notes', () => {
    expect(shownNotes(columns(), { due_date: 'Due Date' }, {})).toEqual([]);
    expect(shownNotes({ tickets: columns().tickets, library: null } as WorkbookColumns, { due_date: 'Due Date' }, {})).toEqual([]);
  });
});

describe('changedSides: which selectors start again after another sheet was read', () => {
  const before = columns();

  it('another tickets sheet resets the ticket side only', () => {
    const after = columns({ jobColumns: ['WO', 'Pole', 'Unit', 'Qty'], tickets: { name: 'Week 2', headerRow: 1, rows: 10 } });
    expect(changedSides(before, after)).toEqual({ tickets: true, library: false });
  });

  it('another library sheet resets the library side only', () => {
    const after = columns({ library: { name: 'Old copy', headerRow: 2, rows: 3 } });
    expect(changedSides(before, after)).toEqual({ tickets: false, library: true });
  });

  it('the same sheets and columns keep both', () => {
    expect(changedSides(before, columns({ tickets: { ...before.tickets, rows: 121 } }))).toEqual({ tickets: false, library: false });
  });

  it('a library that appears or disappears, or other columns, count as a change', () => {
    expect(changedSides(before, columns({ library: null, libraryColumns: [] }))).toEqual({ tickets: false, library: true });
    expect(changedSides(columns({ library: null, libraryColumns: [] }), before)).toEqual({ tickets: false, library: true });
    expect(changedSides(before, columns({ jobColumns: [...TICKETS, 'Street'] }))).toEqual({ tickets: true, library: false });
  });
});
