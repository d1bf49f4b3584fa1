import { describe, expect, it } from 'vitest';
import {
  EXPORT_PROBLEM,
  OPTION1_COLUMNS,
  OPTION2_COLUMNS,
  UNITS_COLUMNS,
  buildExportCsv,
  buildExportTable,
  compareTicketsForExport,
  csvCell,
  exportFileName,
  exportProblems,
  type ExportTicket,
} from './export';

/** A strict RFC 4180 reader (CRLF rows, quoted cells may hold commas, quotes and LF). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let i = 0;
  let quoted = false;
  while (i < text.length) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 2;
        continue;
      }
      if (c === '"') {
        quoted = false;
        i++;
        continue;
      }
      cell += c;
      i++;
      continue;
    }
    if (c === '"' && cell === '') {
      quoted = true;
      i++;
    } else if (c === ',') {
      row.push(cell);
      cell = '';
      i++;
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i += 2;
    } else {
      if (c === '\n' || c === '\r' || c === '"') throw new Error(`bare ${JSON.stringify(c)} at ${i}`);
      cell += c;
      i++;
    }
  }
  if (cell !== '' || row.length) throw new Error('last row without CRLF');
  return rows;
}

const ticket = (over: Partial<ExportTicket> = {}): ExportTicket => ({
  id: 1,
  pole_name: 'P-1',
  line_name: 'L-1',
  street_address: '1 Main St',
  geo_lat: 42.123456,
  geo_lon: -71.654321,
  actual_completion_date: null,
  status: 'Pending',
  work_orders: ['WO-1'],
  tasks: [{ code: 'U-1', description: 'Set pole', init_qty: 2, additional_qty: 1 }],
  notes: [{ note_text: 'Call first' }],
  pole: { street_address: 'pole addr', geo_lat: 1, geo_lon: 2 },
  ...over,
});

const csvRows = (csv: string) => {
  expect(csv.startsWith('\uFEFF')).toBe(true);
  return parseCsv(csv.slice(1));
};

describe('exportProblems (docs/product/rules.md §5.1 Export)', () => {
  const job = (over: Record<string, unknown> = {}) => ({ job_number: 'J-1', tickets: [ticket()], ...over });

  it('is null for complete data, including a pole without coordinates', () => {
    expect(exportProblems(job())).toBeNull();
    expect(exportProblems(job({ tickets: [ticket({ pole: { geo_lat: null, geo_lon: null } })] }))).toBeNull();
  });

  it('names the first blocking problem with the messages of the spec', () => {
    expect(exportProblems(job({ tickets: [] }))).toBe('No tickets in job');
    expect(exportProblems(job({ job_number: '' }))).toBe('Job number missing');
    expect(exportProblems(job({ job_number: '  ' }))).toBe('Job number missing');
    expect(exportProblems(job({ job_number: null }))).toBe('Job number missing');
    expect(exportProblems(job({ tickets: undefined }))).toBe('Tickets data not properly loaded');
    expect(exportProblems(job({ tickets: { length: 1 } }))).toBe('Tickets data not properly loaded');
    expect(exportProblems(null)).toBe('Tickets data not properly loaded');
    expect(exportProblems(job({ tickets: [ticket(), null] }))).toBe('Tickets data not properly loaded');
    const second = (over: Record<string, unknown>) => exportProblems(job({ tickets: [ticket(), { ...ticket(), ...over }] }));
    expect(second({ pole_name: '' })).toBe('Ticket 2: Pole name missing');
    expect(second({ pole_name: null })).toBe('Ticket 2: Pole name missing');
    expect(second({ line_name: '' })).toBe('Ticket 2: Line name missing');
    expect(second({ tasks: undefined })).toBe('Ticket 2: Tasks not properly loaded');
    expect(second({ notes: null })).toBe('Ticket 2: Notes not properly loaded');
    expect(second({ work_orders: 'WO-1' })).toBe('Ticket 2: Work orders not properly loaded');
    expect(second({ pole: null })).toBe('Ticket 2: Pole data not properly loaded');
    expect(second({ pole: { geo_lat: 1 } })).toBe('Ticket 2: Geo data not properly loaded');
  });

  it('reports the earliest problem first', () => {
    expect(exportProblems({ job_number: '', tickets: [] })).toBe(EXPORT_PROBLEM.noTickets);
    expect(exportProblems(job({ tickets: [{ ...ticket(), pole_name: '', line_name: '' }] }))).toBe('Ticket 1: Pole name missing');
  });
});

describe('exportFileName', () => {
  it('is {job_number}_Export-OptionN.csv, with unsafe characters replaced', () => {
    expect(exportFileName('J-1001', 1)).toBe('J-1001_Export-Option1.csv');
    expect(exportFileName('J-1001', 2)).toBe('J-1001_Export-Option2.csv');
    expect(exportFileName('A/B:C', 1)).toBe('A_B_C_Export-Option1.csv');
  });

  it('names the units option too, and the .xlsx of each option the same but for the extension', () => {
    expect(exportFileName('J-1001', 'units')).toBe('J-1001_Export-Units.csv');
    expect(exportFileName('J-1001', 1, 'xlsx')).toBe('J-1001_Export-Option1.xlsx');
    expect(exportFileName('J-1001', 2, 'xlsx')).toBe('J-1001_Export-Option2.xlsx');
    expect(exportFileName('A/B:C', 'units', 'xlsx')).toBe('A_B_C_Export-Units.xlsx');
  });
});

describe('csvCell', () => {
  it('quotes cells with commas, quotes and line breaks (RFC 4180) and doubles quotes', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('cr\r')).toBe('"cr\r"');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell(1.5)).toBe('1.5');
    expect(csvCell(Number.NaN)).toBe('');
  });

  it("guards formula starts with a leading ' but leaves plain numbers alone", () => {
    expect(csvCell('=SUM(A1:A9)')).toBe("'=SUM(A1:A9)");
    expect(csvCell('+1 555')).toBe("'+1 555");
    expect(csvCell('-cmd')).toBe("'-cmd");
    expect(csvCell('@import')).toBe("'@import");
    expect(csvCell('=HYPERLINK("x","y")')).toBe(`"'=HYPERLINK(""x"",""y"")"`);
    expect(csvCell('-71.5')).toBe('-71.5');
    expect(csvCell(-71.5)).toBe('-71.5');
    expect(csvCell('+3')).toBe('+3');
    expect(csvCell('a=b')).toBe('a=b');
  });

  // OWASP "CSV Injection": a cell that starts with TAB or CR, or with blanks before a formula
  // character, is still run as a formula by some spreadsheets.
  it('guards TAB, CR and blanks before a formula character (OWASP list)', () => {
    expect(csvCell('\t=1+2')).toBe("'\t=1+2");
    expect(csvCell('\tplain')).toBe("'\tplain");
    expect(csvCell('\r=1+2')).toBe(`"'\r=1+2"`);
    expect(csvCell('  =SUM(A1)')).toBe("'  =SUM(A1)");
    expect(csvCell(' +cmd')).toBe("' +cmd");
    expect(csvCell('   -x')).toBe("'   -x");
    expect(csvCell(' @x')).toBe("' @x");
    // Full-width forms, which some spreadsheets read as their ASCII twins.
    expect(csvCell('＝1+2')).toBe("'＝1+2");
    // Plain text with blanks and numbers with blanks are left alone.
    expect(csvCell('  Main St')).toBe('  Main St');
    expect(csvCell(' -71.5')).toBe(' -71.5');
  });

  // docs/product/rules.md §5.3: starts an outside probe found unguarded. Each is run (or shown as a formula) by
  // some spreadsheet: invisible or blank characters before = + - @, a line feed first, and the
  // small and full-width forms of the formula characters.
  it('guards every invisible or blank start before a formula character', () => {
    const cases: [string, string][] = [
      ['leading line feed', '\n=1+2'],
      ['line feed alone first', '\nplain'],
      ['small equals U+FE66', '\ufe66SUM(A1)'],
      ['full-width equals U+FF1D', '\uff1dSUM(A1)'],
      ['small plus U+FE62', '\ufe62cmd'],
      ['small hyphen-minus U+FE63', '\ufe63cmd'],
      ['small commercial at U+FE6B', '\ufe6bcmd'],
      ['full-width plus, minus, at', '\uff0bcmd'],
      ['space then tab', ' \t=1+2'],
      ['no-break space', '\u00a0=1+2'],
      ['zero-width space', '\u200b=1+2'],
      ['zero-width joiner', '\u200d+cmd'],
      ['word joiner', '\u2060-cmd'],
      ['byte order mark', '\ufeff@cmd'],
      ['left-to-right mark', '\u200e=1'],
      ['right-to-left override', '\u202e=1'],
      ['ideographic space', '\u3000=1'],
      ['several invisibles', ' \u00a0\u200b\t=1'],
      ['minus sign U+2212', '\u2212cmd'],
    ];
    for (const [name, text] of cases) {
      const cell = csvCell(text);
      // Quoted when the text holds a line break; either way it starts with the guard.
      expect(cell.replace(/^"/, '').startsWith("'"), `${name}: ${JSON.stringify(cell)}`).toBe(true);
    }
    expect(csvCell('\n=1')).toBe(`"'\n=1"`);
  });

  it('leaves text and numbers that merely start with a blank or an invisible alone', () => {
    expect(csvCell('\u00a0Main St')).toBe('\u00a0Main St');
    expect(csvCell('\u200bPole 7')).toBe('\u200bPole 7');
    expect(csvCell('-5')).toBe('-5');
    expect(csvCell('2026-12-31')).toBe('2026-12-31');
  });
});

describe('compareTicketsForExport', () => {
  it('orders by pole then line in natural order', () => {
    const list = [
      ticket({ id: 1, pole_name: '10', line_name: '1' }),
      ticket({ id: 2, pole_name: '2', line_name: '10' }),
      ticket({ id: 3, pole_name: '2', line_name: '9' }),
      ticket({ id: 4, pole_name: 'p-1', line_name: 'A' }),
      ticket({ id: 5, pole_name: 'P-1', line_name: 'A' }),
    ];
    expect([...list].sort(compareTicketsForExport).map((t) => t.id)).toEqual([3, 2, 1, 4, 5]);
  });
});

describe('buildExportCsv option 1', () => {
  const tickets: ExportTicket[] = [
    ticket({
      id: 7,
      pole_name: '10',
      line_name: 'L-1',
      work_orders: ['WO-1', 'WO-2'],
      tasks: [
        { code: 'U-1', description: 'Set pole, class 2', init_qty: 2, additional_qty: 1 },
        { code: 'U-2', description: 'Say "hi"', init_qty: 0.1, additional_qty: 0.2 },
      ],
      notes: [{ note_text: 'first' }, { note_text: '=cmd|calc' }],
      actual_completion_date: '2027-03-05T17:04:09.000Z',
      status: 'Complete',
    }),
    ticket({ id: 8, pole_name: '2', line_name: 'L-1', tasks: [], notes: [] }),
    ticket({ id: 9, pole_name: '2', line_name: 'L-0', street_address: null, geo_lat: null, geo_lon: null, notes: [] }),
  ];

  it('has the columns of docs/product/screens.md, only tickets with tasks, ordered by pole then line', () => {
    const { filename, csv } = buildExportCsv({ job_number: 'J-77' }, tickets, 1, 'America/New_York');
    expect(filename).toBe('J-77_Export-Option1.csv');
    const rows = csvRows(csv);
    expect(rows[0]).toEqual([...OPTION1_COLUMNS]);
    expect(rows).toHaveLength(3);
    expect(rows.slice(1).map((r) => r[0] + '/' + r[1])).toEqual(['2/L-0', '10/L-1']);
  });

  it('joins multi-value cells with newlines and formats the completion in the company zone', () => {
    const rows = csvRows(buildExportCsv({ job_number: 'J-77' }, tickets, 1, 'America/New_York').csv);
    expect(rows[2]).toEqual([
      '10',
      'L-1',
      'WO-1\nWO-2',
      '1 Main St',
      'U-1\nU-2',
      'Set pole, class 2\nSay "hi"',
      '2\n0.1',
      '3\n0.3',
      '42.123456',
      '-71.654321',
      'first\n=cmd|calc',
      '2027-03-05 12:04:09',
    ]);
    const utc = csvRows(buildExportCsv({ job_number: 'J-77' }, tickets, 1, 'UTC').csv);
    expect(utc[2][11]).toBe('2027-03-05 17:04:09');
  });

  it("falls back to the pole's address and coordinates; empty completion when pending", () => {
    const rows = csvRows(buildExportCsv({ job_number: 'J-77' }, tickets, 1, 'UTC').csv);
    expect(rows[1]).toEqual(['2', 'L-0', 'WO-1', 'pole addr', 'U-1', 'Set pole', '2', '', '1', '2', '', '']);
  });

  // An export used for billing must not claim work that is not done.
  it('fills Completed Quantity (bid + change) on Complete tickets only, empty on Pending ones', () => {
    const task = { code: 'U-1', description: 'Set pole', init_qty: 2, additional_qty: 3 };
    const done = ticket({ id: 1, pole_name: '1', status: 'Complete', actual_completion_date: '2027-01-01T00:00:00Z', tasks: [task, { ...task, additional_qty: -1 }] });
    const open = ticket({ id: 2, pole_name: '2', status: 'Pending', tasks: [task, task] });
    const rows = csvRows(buildExportCsv({ job_number: 'J' }, [done, open], 1, 'UTC').csv);
    const completed = OPTION1_COLUMNS.indexOf('Completed Quantity');
    const bid = OPTION1_COLUMNS.indexOf('Quantity Bid');
    expect(rows[1][completed]).toBe('5\n1');
    expect(rows[2][completed]).toBe('');
    // The bid stays on both.
    expect([rows[1][bid], rows[2][bid]]).toEqual(['2\n2', '2\n2']);
  });

  it('is UTF-8 text with a BOM, CRLF row ends and LF only inside quoted cells', () => {
    const { csv } = buildExportCsv({ job_number: 'Jöb-ü' }, [ticket({ notes: [{ note_text: 'Ünïcode ✓' }] })], 1, 'UTC');
    expect(csv.charCodeAt(0)).toBe(0xfeff);
    expect(csv.endsWith('\r\n')).toBe(true);
    expect(csv.split('\r\n')).toHaveLength(3);
    expect(csvRows(csv)[1][10]).toBe('Ünïcode ✓');
    const bytes = new TextEncoder().encode(csv);
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  });

  it('only has the header when no ticket has tasks', () => {
    const rows = csvRows(buildExportCsv({ job_number: 'J' }, [ticket({ tasks: [] })], 1, 'UTC').csv);
    expect(rows).toEqual([[...OPTION1_COLUMNS]]);
  });
});

describe('buildExportCsv option 2', () => {
  it('puts Job Name first, omits quantities done and coordinates, joins with commas, keeps every ticket', () => {
    const list = [
      ticket({ id: 1, pole_name: 'B', tasks: [], notes: [], work_orders: [] }),
      ticket({
        id: 2,
        pole_name: 'A',
        work_orders: ['WO-1', 'WO-2'],
        tasks: [
          { code: 'U-1', description: 'one', init_qty: 1, additional_qty: 5 },
          { code: 'U-2', description: 'two', init_qty: 3, additional_qty: 0 },
        ],
        notes: [{ note_text: 'n1' }, { note_text: 'n2' }],
        actual_completion_date: '2027-01-02T03:04:05Z',
      }),
    ];
    const { filename, csv } = buildExportCsv({ job_number: '=J-9' }, list, 2, 'UTC');
    expect(filename).toBe('=J-9_Export-Option2.csv');
    const rows = csvRows(csv);
    expect(rows[0]).toEqual([...OPTION2_COLUMNS]);
    expect(rows[0]).not.toContain('Completed Quantity');
    expect(rows[0]).not.toContain('Latitude');
    expect(rows[0]).not.toContain('Longitude');
    expect(rows.slice(1)).toEqual([
      ["'=J-9", 'A', 'L-1', 'WO-1, WO-2', '1 Main St', 'U-1, U-2', 'one, two', '1, 3', 'n1, n2', '2027-01-02 03:04:05'],
      ["'=J-9", 'B', 'L-1', '', '1 Main St', '', '', '', '', ''],
    ]);
  });

  it('never contains a bare line break outside quotes', () => {
    const { csv } = buildExportCsv({ job_number: 'J' }, [ticket({ notes: [{ note_text: 'a\nb' }] })], 2, 'UTC');
    expect(() => csvRows(csv)).not.toThrow();
    expect(csvRows(csv)[1][8]).toBe('a\nb');
  });
});

describe('buildExportTable: what each cell is (text, number, date), for the .xlsx', () => {
  const done = ticket({
    id: 5,
    pole_name: '007',
    line_name: '010',
    work_orders: ['00123', 'WO-2'],
    tasks: [
      { code: '0042', description: 'Set pole', init_qty: 0.1, additional_qty: 0.2 },
      { code: 'U-2', description: 'Guy', init_qty: 3.5, additional_qty: -1 },
    ],
    status: 'Complete',
    actual_completion_date: '2027-03-05T03:04:09.000Z', // 2027-03-04 22:04:09 in New York
  });
  const open = ticket({ id: 6, pole_name: '8', line_name: 'L', work_orders: [], tasks: [{ code: 'U-3', description: 'Wire', init_qty: 2, additional_qty: 1 }] });

  it('keeps pole, line, work order and unit code as text, so 007 stays 007', () => {
    const table = buildExportTable({ job_number: '0099' }, [done], 2, 'UTC');
    expect(table.rows[0].slice(0, 4)).toEqual(['0099', '007', '010', '00123, WO-2']);
    expect(table.rows[0][5]).toBe('0042, U-2');
  });

  it('makes a single quantity and the coordinates numbers; several quantities stay their list', () => {
    const one = buildExportTable({ job_number: 'J' }, [ticket({ status: 'Complete', actual_completion_date: '2027-01-01T00:00:00Z' })], 1, 'UTC');
    const row = one.rows[0];
    expect(row[OPTION1_COLUMNS.indexOf('Quantity Bid')]).toBe(2);
    expect(row[OPTION1_COLUMNS.indexOf('Completed Quantity')]).toBe(3);
    expect(row[OPTION1_COLUMNS.indexOf('Latitude')]).toBe(42.123456);
    expect(row[OPTION1_COLUMNS.indexOf('Longitude')]).toBe(-71.654321);
    const many = buildExportTable({ job_number: 'J' }, [done], 1, 'UTC').rows[0];
    expect(many[OPTION1_COLUMNS.indexOf('Quantity Bid')]).toBe('0.1\n3.5');
    expect(many[OPTION1_COLUMNS.indexOf('Completed Quantity')]).toBe('0.3\n2.5');
  });

  it('gives the completion time as a date cell in the company zone', () => {
    const row = buildExportTable({ job_number: 'J' }, [done], 1, 'America/New_York').rows[0];
    expect(row[OPTION1_COLUMNS.indexOf('Completion Date/Time')]).toEqual({ date: '2027-03-04 22:04:09' });
    expect(buildExportTable({ job_number: 'J' }, [open], 2, 'UTC').rows[0][OPTION2_COLUMNS.indexOf('Completion Date/Time')]).toBeNull();
  });
});

describe("the 'units' option: one row per unit, for totals", () => {
  const tickets: ExportTicket[] = [
    ticket({
      id: 1,
      pole_name: '10',
      line_name: 'L-1',
      work_orders: ['WO-1', '00123'],
      tasks: [
        { code: 'U-1', description: 'Set pole, class 2', init_qty: 2, additional_qty: 1 },
        { code: '007', description: 'Guy', init_qty: 0.1, additional_qty: 0.2 },
      ],
      status: 'Complete',
      actual_completion_date: '2027-03-05T03:04:09.000Z',
    }),
    ticket({ id: 2, pole_name: '2', line_name: 'L-1', work_orders: [], tasks: [{ code: 'U-2', description: 'Wire', init_qty: 3.5, additional_qty: 0 }] }),
    ticket({ id: 3, pole_name: '1', line_name: 'L-1', tasks: [] }), // no unit: no row
  ];

  it('has Pole, Line, Work Order, Unit, Description, Bid, Actual, Completed; numbers as numbers; pole then line order', () => {
    const table = buildExportTable({ job_number: 'J' }, tickets, 'units', 'America/New_York');
    expect(table.columns).toEqual(['Pole', 'Line', 'Work Order', 'Unit', 'Description', 'Bid', 'Actual', 'Completed']);
    expect(table.columns).toEqual([...UNITS_COLUMNS]);
    expect(table.sheet).toBe('Units');
    expect(table.rows).toEqual([
      ['2', 'L-1', '', 'U-2', 'Wire', 3.5, 3.5, null],
      ['10', 'L-1', 'WO-1, 00123', 'U-1', 'Set pole, class 2', 2, 3, { date: '2027-03-04' }],
      ['10', 'L-1', 'WO-1, 00123', '007', 'Guy', 0.1, 0.3, { date: '2027-03-04' }],
    ]);
  });

  it('sums: the Actual column adds up to the bid plus every change', () => {
    const rows = buildExportTable({ job_number: 'J' }, tickets, 'units', 'UTC').rows;
    const sum = (i: number) => rows.reduce((acc, r) => acc + (r[i] as number), 0);
    expect(sum(5)).toBeCloseTo(5.6, 9);
    expect(sum(6)).toBeCloseTo(6.8, 9);
  });

  it('is a CSV with the same columns, quantities written plainly, Completed empty while Pending', () => {
    const { filename, csv } = buildExportCsv({ job_number: 'J-77' }, tickets, 'units', 'UTC');
    expect(filename).toBe('J-77_Export-Units.csv');
    expect(csvRows(csv)).toEqual([
      [...UNITS_COLUMNS],
      ['2', 'L-1', '', 'U-2', 'Wire', '3.5', '3.5', ''],
      ['10', 'L-1', 'WO-1, 00123', 'U-1', 'Set pole, class 2', '2', '3', '2027-03-05'],
      ['10', 'L-1', 'WO-1, 00123', '007', 'Guy', '0.1', '0.3', '2027-03-05'],
    ]);
  });

  it('leaves Completed empty on a Pending ticket even if it carries a date', () => {
    const odd = ticket({ status: 'Pending', actual_completion_date: '2027-01-01T00:00:00Z' });
    expect(buildExportTable({ job_number: 'J' }, [odd], 'units', 'UTC').rows[0][7]).toBeNull();
  });
});
