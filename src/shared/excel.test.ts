import { describe, expect, it } from 'vitest';
import {
  startingMappings,
  LIBRARY_TARGETS,
  REQUIRED_LIBRARY_TARGETS,
  LIBRARY_TARGET_INFO,
  TICKET_TARGETS,
  TICKET_TARGET_INFO,
  availableColumns,
  canSaveMapping,
  defaultLibraryMappings,
  defaultMappings,
  defaultTicketsMappings,
  disabledTargets,
  formatImportErrors,
  getColumnsReply,
  missingMappings,
  overriddenText,
  overrideFor,
  ticketsFileSchema,
  type LibraryMappings,
  type TicketsMappings,
} from './excel';
import { truncateDecimals } from './geo';

const JOB_COLUMNS = [
  'Work Order',
  'POLE',
  'line',
  'Pole ID',
  'Line Id',
  'DUE DATE',
  'Lat',
  'Long',
  'Primary Voltage',
  'Secondary Voltage',
  'Arc Rating',
  'Street',
  'Unit',
  'Description',
  'Quantity',
];
const LIBRARY_COLUMNS = ['Family', 'Unit Code', 'Type', 'Action', 'UOM', 'Description', 'Notes'];

describe('mapping targets', () => {
  it('lists the fifteen ticket targets and seven library targets of docs/product/entities.md §2 in order', () => {
    expect(TICKET_TARGETS).toEqual([
      'work_order',
      'pole',
      'line',
      'pole_id',
      'line_id',
      'due_date',
      'geo_lat',
      'geo_lon',
      'primary_voltage',
      'secondary_voltage',
      'arc_rating',
      'street',
      'unit_task',
      'desc',
      'qty',
    ]);
    expect(LIBRARY_TARGETS).toEqual(['family', 'code', 'type', 'action', 'uom', 'desc', 'notes', 'unit_price']);
    // Price (docs/product/billing.md) is optional: the seven of docs/product/rules.md are the required ones.
    expect(REQUIRED_LIBRARY_TARGETS).toEqual(['family', 'code', 'type', 'action', 'uom', 'desc', 'notes']);
  });

  it('uses the default column names of docs/product/imports.md §3', () => {
    expect(TICKET_TARGETS.map((t) => TICKET_TARGET_INFO[t].defaultColumn)).toEqual([
      'work order',
      'pole',
      'line',
      'pole id',
      'line id',
      'due date',
      'lat',
      'long',
      'primary voltage',
      'secondary voltage',
      'arc rating',
      'street',
      'unit',
      'description',
      'quantity',
    ]);
    expect(LIBRARY_TARGETS.map((t) => LIBRARY_TARGET_INFO[t].defaultColumn)).toEqual([
      'family',
      'unit code',
      'type',
      'action',
      'uom',
      'description',
      'notes',
      'price',
    ]);
  });

  it('marks line as required although Save does not check it (docs/product/rules.md)', () => {
    expect(TICKET_TARGET_INFO.line.markedRequired).toBe(true);
    expect(TICKET_TARGETS.filter((t) => TICKET_TARGET_INFO[t].markedRequired)).toEqual(['work_order', 'pole', 'line', 'unit_task', 'qty']);
  });
});

describe('defaultMappings', () => {
  it('pre-fills every target by case-insensitive match, keeping the workbook spelling', () => {
    const { ticketsMappings, libraryMappings } = defaultMappings({ jobColumns: JOB_COLUMNS, libraryColumns: LIBRARY_COLUMNS });
    expect(ticketsMappings).toEqual({
      work_order: 'Work Order',
      pole: 'POLE',
      line: 'line',
      pole_id: 'Pole ID',
      line_id: 'Line Id',
      due_date: 'DUE DATE',
      geo_lat: 'Lat',
      geo_lon: 'Long',
      primary_voltage: 'Primary Voltage',
      secondary_voltage: 'Secondary Voltage',
      arc_rating: 'Arc Rating',
      street: 'Street',
      unit_task: 'Unit',
      desc: 'Description',
      qty: 'Quantity',
    });
    expect(libraryMappings).toEqual({
      family: 'Family',
      code: 'Unit Code',
      type: 'Type',
      action: 'Action',
      uom: 'UOM',
      desc: 'Description',
      notes: 'Notes',
      // No Price column in this workbook: left unmapped, so an import keeps the library's prices.
      unit_price: null,
    });
  });

  it('leaves targets without a matching column unmapped and ignores near misses', () => {
    const m = defaultTicketsMappings(['Pole #', 'Line', 'Latitude', 'unit code', ' quantity ']);
    expect(m.pole).toBeNull();
    expect(m.line).toBe('Line');
    expect(m.geo_lat).toBeNull();
    expect(m.unit_task).toBeNull();
    // Surrounding and doubled spaces do not matter.
    expect(m.qty).toBe(' quantity ');
    expect(defaultTicketsMappings(['Due   Date']).due_date).toBe('Due   Date');
  });

  it('takes the first of two columns with the same name', () => {
    expect(defaultLibraryMappings(['Notes', 'NOTES']).notes).toBe('Notes');
  });

  it('maps nothing for an empty sheet', () => {
    expect(Object.values(defaultLibraryMappings([])).every((v) => v === null)).toBe(true);
  });
});

describe('availableColumns', () => {
  const all = ['A', 'B', 'C', 'D'];

  it('hides a column chosen by another target, but keeps the target’s own choice', () => {
    const mappings: TicketsMappings = { pole: 'A', line: 'B', qty: null };
    expect(availableColumns(all, mappings, 'pole')).toEqual(['A', 'C', 'D']);
    expect(availableColumns(all, mappings, 'line')).toEqual(['B', 'C', 'D']);
    expect(availableColumns(all, mappings, 'qty')).toEqual(['C', 'D']);
  });

  it('gives a column back when its target is cleared', () => {
    const mappings: TicketsMappings = { pole: '', line: 'B' };
    expect(availableColumns(all, mappings, 'qty')).toEqual(['A', 'C', 'D']);
  });

  it('keeps the sheet order', () => {
    const mappings: LibraryMappings = { code: 'Y' };
    expect(availableColumns(['Z', 'Y', 'X'], mappings, 'family')).toEqual(['Z', 'X']);
  });
});

describe('canSaveMapping', () => {
  const full = defaultMappings({ jobColumns: JOB_COLUMNS, libraryColumns: LIBRARY_COLUMNS });

  it('allows Save when everything is mapped', () => {
    expect(canSaveMapping(full.ticketsMappings, full.libraryMappings)).toBe(true);
  });

  it('needs only work_order, pole, unit_task and qty of the ticket targets', () => {
    const tickets = { work_order: 'Work Order', pole: 'POLE', unit_task: 'Unit', qty: 'Quantity' };
    expect(canSaveMapping(tickets, full.libraryMappings)).toBe(true);
    // Line is marked required but is not part of the check.
    expect(canSaveMapping({ ...tickets, line: null }, full.libraryMappings)).toBe(true);
    for (const t of ['work_order', 'pole', 'unit_task', 'qty'] as const) {
      expect(canSaveMapping({ ...tickets, [t]: null }, full.libraryMappings)).toBe(false);
      expect(canSaveMapping({ ...tickets, [t]: '  ' }, full.libraryMappings)).toBe(false);
    }
  });

  it('needs all seven library targets, not the optional Price', () => {
    expect(canSaveMapping(full.ticketsMappings, { ...full.libraryMappings, unit_price: null })).toBe(true);
    for (const t of REQUIRED_LIBRARY_TARGETS) {
      expect(canSaveMapping(full.ticketsMappings, { ...full.libraryMappings, [t]: null })).toBe(false);
    }
    expect(canSaveMapping(full.ticketsMappings, {})).toBe(false);
  });

  it('says what is missing', () => {
    expect(missingMappings({ pole: 'P' }, { family: 'F', code: 'C' })).toEqual({
      tickets: ['work_order', 'unit_task', 'qty'],
      library: ['type', 'action', 'uom', 'desc', 'notes'],
    });
  });
});

describe('overrides', () => {
  it('disables arc rating and the voltages when the job overrides them, not for EHASP', () => {
    expect(disabledTargets({})).toEqual([]);
    expect(disabledTargets(null)).toEqual([]);
    expect(disabledTargets({ ehasp_override: 'yes' })).toEqual([]);
    expect(disabledTargets({ arc_rating_override: '8 cal', primary_voltage_override: '13.2kV', secondary_voltage_override: '240V' })).toEqual([
      'primary_voltage',
      'secondary_voltage',
      'arc_rating',
    ]);
    expect(disabledTargets({ primary_voltage_override: '  ', secondary_voltage_override: null })).toEqual([]);
  });

  it('gives the override value and the text that replaces the selector', () => {
    expect(overrideFor('arc_rating', { arc_rating_override: ' 8 cal ' })).toBe('8 cal');
    expect(overrideFor('pole', { arc_rating_override: '8 cal' })).toBeNull();
    expect(overriddenText('8 cal')).toBe('Overridden: 8 cal');
  });
});

describe('truncateDecimals', () => {
  it('cuts to six decimals without rounding (docs/product/rules.md)', () => {
    expect(truncateDecimals(42.12345678)).toBe(42.123456);
    expect(truncateDecimals(-71.98765432)).toBe(-71.987654);
    expect(truncateDecimals(42.9999999)).toBe(42.999999);
    expect(truncateDecimals(-71.0000001)).toBe(-71);
    expect(truncateDecimals(0.1234569)).toBe(0.123456);
  });

  it('leaves shorter numbers alone and survives binary floating point', () => {
    expect(truncateDecimals(42.5)).toBe(42.5);
    expect(truncateDecimals(0.000001)).toBe(0.000001);
    expect(truncateDecimals(89.999999)).toBe(89.999999);
    expect(truncateDecimals(71.1)).toBe(71.1);
    expect(Object.is(truncateDecimals(-0.0000005), 0)).toBe(true);
    expect(truncateDecimals(1.23456789, 2)).toBe(1.23);
  });
});

describe('schemas and messages', () => {
  it('accepts a saved mapping as docs/product/api.md §3 describes ticketsFile, and rejects over-long names', () => {
    const file = {
      ticket_file_url: '/files/1/excel/abc/tickets.xlsx',
      ticket_file_name: 'tickets.xlsx',
      ticket_file_size: 7000,
      ticket_file_type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      ticketsMappings: { pole: 'Pole', qty: null },
      libraryMappings: { code: 'Unit Code' },
    };
    expect(ticketsFileSchema.parse(file).ticketsMappings.pole).toBe('Pole');
    expect(ticketsFileSchema.safeParse({ ...file, ticketsMappings: { pole: 'x'.repeat(256) } }).success).toBe(false);
    expect(ticketsFileSchema.safeParse({ ...file, ticket_file_url: '' }).success).toBe(false);
    const columns = {
      jobColumns: ['A'],
      libraryColumns: [],
      sheets: [{ name: 'Tickets', hidden: false }],
      tickets: { name: 'Tickets', headerRow: 3, rows: 10 },
      library: null,
      notes: [],
    };
    expect(getColumnsReply.parse(columns)).toEqual(columns);
    expect(getColumnsReply.safeParse({ jobColumns: ['A'], libraryColumns: [] }).success).toBe(false);
    expect(ticketsFileSchema.parse({ ...file, ticketsSheet: 'Unit Tracking' }).ticketsSheet).toBe('Unit Tracking');
    expect(ticketsFileSchema.safeParse({ ...file, ticketsSheet: '' }).success).toBe(false);
  });

  it('joins row errors, showing the first few and a count', () => {
    const errors = Array.from({ length: 7 }, (_, i) => ({ row: i + 4, sheet: 'tickets' as const, message: `Row ${i + 4}: Pole is missing` }));
    expect(formatImportErrors(errors.slice(0, 2))).toBe('Row 4: Pole is missing; Row 5: Pole is missing');
    expect(formatImportErrors(errors)).toBe(
      'Row 4: Pole is missing; Row 5: Pole is missing; Row 6: Pole is missing; Row 7: Pole is missing; Row 8: Pole is missing (and 2 more)',
    );
  });
});

describe('startingMappings (docs/product/records.md §4 saved mappings)', () => {
  const jobColumns = ['WO #', 'Pole', 'Line', 'Unit', 'Qty', 'Quantity', 'Street'];
  const libraryColumns = ['Family', 'Unit Code', 'Type', 'Action', 'UOM', 'Description', 'Notes'];
  it('takes the saved column where the workbook has it (whatever its case), then the default names', () => {
    const saved = {
      ticketsMappings: { work_order: 'wo #', qty: 'Qty', street: 'Gone Column', pole: null },
      libraryMappings: { notes: 'Description', desc: 'Notes' },
    };
    const m = startingMappings({ jobColumns, libraryColumns }, saved);
    expect(m.ticketsMappings).toMatchObject({ work_order: 'WO #', qty: 'Qty', pole: 'Pole', line: 'Line', unit_task: 'Unit', street: 'Street' });
    // A saved choice wins over another target's default name; that target is left unmapped.
    expect(m.libraryMappings).toMatchObject({ notes: 'Description', desc: 'Notes', family: 'Family' });
  });
  it('a saved column is never given to two targets', () => {
    const m = startingMappings({ jobColumns, libraryColumns }, { ticketsMappings: { unit_task: 'Unit', qty: 'Unit' }, libraryMappings: {} });
    expect(m.ticketsMappings.unit_task).toBe('Unit');
    // Quantity's saved column is taken: it falls back to its default name.
    expect(m.ticketsMappings.qty).toBe('Quantity');
  });
  it('without a saved mapping it is the default mapping', () => {
    expect(startingMappings({ jobColumns, libraryColumns }, null)).toEqual(defaultMappings({ jobColumns, libraryColumns }));
  });
});
