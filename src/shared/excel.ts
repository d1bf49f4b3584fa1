import { z } from 'zod';
import { LIMITS } from './constants';
import { isMapped } from './excel-mapped';

export { isMapped };

/**
 * Excel column mapping (docs/product/entities.md §13 mapping targets, §4 and §5 Excel mapping, docs/product/imports.md §12 Excel
 * workbook): the targets, their default column names, the rules that enable Save, and the
 * shapes a workbook import produces. Used by the mapping modal and by the server import.
 */

// ---------------------------------------------------------------------------------------------
// Targets

export const TICKET_TARGETS = [
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
] as const;
export type TicketTarget = (typeof TICKET_TARGETS)[number];

/** `unit_price` (docs/product/billing.md §2) is optional: an unmapped Price column leaves the library's prices as they are. */
export const LIBRARY_TARGETS = ['family', 'code', 'type', 'action', 'uom', 'desc', 'notes', 'unit_price'] as const;
export type LibraryTarget = (typeof LIBRARY_TARGETS)[number];

export interface TargetInfo {
  /** What the mapping modal shows next to the column selector. */
  label: string;
  /** The column name pre-selected when the workbook has it (case-insensitive, docs/product/imports.md §2). */
  defaultColumn: string;
  /** Shown with a required mark. `line` is marked but not part of the Save check (docs/product/rules.md). */
  markedRequired: boolean;
}

export const TICKET_TARGET_INFO: Record<TicketTarget, TargetInfo> = {
  work_order: { label: 'Work Order', defaultColumn: 'work order', markedRequired: true },
  pole: { label: 'Pole', defaultColumn: 'pole', markedRequired: true },
  line: { label: 'Line', defaultColumn: 'line', markedRequired: true },
  pole_id: { label: 'Pole ID', defaultColumn: 'pole id', markedRequired: false },
  line_id: { label: 'Line ID', defaultColumn: 'line id', markedRequired: false },
  due_date: { label: 'Due Date', defaultColumn: 'due date', markedRequired: false },
  geo_lat: { label: 'Latitude', defaultColumn: 'lat', markedRequired: false },
  geo_lon: { label: 'Longitude', defaultColumn: 'long', markedRequired: false },
  primary_voltage: { label: 'Primary Voltage', defaultColumn: 'primary voltage', markedRequired: false },
  secondary_voltage: { label: 'Secondary Voltage', defaultColumn: 'secondary voltage', markedRequired: false },
  arc_rating: { label: 'Arc Rating', defaultColumn: 'arc rating', markedRequired: false },
  street: { label: 'Street', defaultColumn: 'street', markedRequired: false },
  unit_task: { label: 'Unit/Task Code', defaultColumn: 'unit', markedRequired: true },
  desc: { label: 'Description', defaultColumn: 'description', markedRequired: false },
  qty: { label: 'Quantity', defaultColumn: 'quantity', markedRequired: true },
};

export const LIBRARY_TARGET_INFO: Record<LibraryTarget, TargetInfo> = {
  family: { label: 'Family', defaultColumn: 'family', markedRequired: true },
  code: { label: 'Unit Code', defaultColumn: 'unit code', markedRequired: true },
  type: { label: 'Type', defaultColumn: 'type', markedRequired: true },
  action: { label: 'Action', defaultColumn: 'action', markedRequired: true },
  uom: { label: 'UOM', defaultColumn: 'uom', markedRequired: true },
  desc: { label: 'Description', defaultColumn: 'description', markedRequired: true },
  notes: { label: 'Notes', defaultColumn: 'notes', markedRequired: true },
  unit_price: { label: 'Price', defaultColumn: 'price', markedRequired: false },
};

/** docs/product/rules.md: Save needs these ticket targets mapped (line is marked but not checked) … */
export const REQUIRED_TICKET_TARGETS: readonly TicketTarget[] = ['work_order', 'pole', 'unit_task', 'qty'];
/** … and every library target of docs/product/rules.md (the seven; Price is an optional addition). */
export const REQUIRED_LIBRARY_TARGETS: readonly LibraryTarget[] = LIBRARY_TARGETS.filter((t) => t !== 'unit_price');

// ---------------------------------------------------------------------------------------------
// Mappings: target -> column header (absent, null or '' = not mapped)

const columnName = z.string().max(LIMITS.shortTextMax).nullable().optional();
export const ticketsMappingsSchema = z.object(
  Object.fromEntries(TICKET_TARGETS.map((t) => [t, columnName])) as Record<TicketTarget, typeof columnName>,
);
export const libraryMappingsSchema = z.object(
  Object.fromEntries(LIBRARY_TARGETS.map((t) => [t, columnName])) as Record<LibraryTarget, typeof columnName>,
);
export type TicketsMappings = z.infer<typeof ticketsMappingsSchema>;
export type LibraryMappings = z.infer<typeof libraryMappingsSchema>;

/** A utility's saved mapping: target → column header, as the job save and Upload Spreadsheet send them. */
export const savedMappingSchema = z.object({ ticketsMappings: ticketsMappingsSchema, libraryMappings: libraryMappingsSchema });
export type SavedMapping = z.infer<typeof savedMappingSchema>;

/** A sheet chosen by name instead of by the rules of docs/product/imports.md §4 (the mapping step's picker). */
export const sheetNameSchema = z.string().min(1).max(LIMITS.shortTextMax);
const sheetName = sheetNameSchema;

/** `job.ticketsFile` of docs/product/api.md §3: the uploaded workbook and its saved column mapping. */
export const ticketsFileSchema = z.object({
  ticket_file_url: z.string().min(1).max(2048),
  ticket_file_name: z.string().max(LIMITS.shortTextMax).nullable().optional(),
  ticket_file_size: z.number().int().nonnegative().nullable().optional(),
  ticket_file_type: z.string().max(LIMITS.shortTextMax).nullable().optional(),
  ticketsMappings: ticketsMappingsSchema,
  libraryMappings: libraryMappingsSchema,
  /** The sheets picked on the mapping step; absent or null: chosen by the rules of docs/product/imports.md §4. */
  ticketsSheet: sheetName.nullable().optional(),
  librarySheet: sheetName.nullable().optional(),
});
export type TicketsFile = z.infer<typeof ticketsFileSchema>;

/** `GET /jobs/excel/getColumns?url=` (docs/product/api.md §1), optionally with the sheets the user picked. */
export const getColumnsQuery = z.object({
  url: z.string().min(1).max(2048),
  /** The utility the workbook is for: the reply then carries its saved mapping (docs/product/records.md §4). */
  utility_id: z.coerce.number().int().positive().max(2_147_483_647).optional(),
  ticketsSheet: sheetName.optional(),
  librarySheet: sheetName.optional(),
});

/** A sheet of the workbook, for the picker: hidden ones are never chosen by themselves. */
export const workbookSheetSchema = z.object({ name: z.string(), hidden: z.boolean() });
export type WorkbookSheet = z.infer<typeof workbookSheetSchema>;

/** Where a sheet's data was found (docs/product/imports.md §4): shown before anything is written. */
export const sheetUsedSchema = z.object({
  name: z.string(),
  /** Excel row number (1-based, as the user sees it) of the header row. */
  headerRow: z.number().int(),
  /** Rows with content below the header. */
  rows: z.number().int(),
});
export type SheetUsed = z.infer<typeof sheetUsedSchema>;

/** What the reader had to interpret, so that the person can check it before saving. */
export const READ_NOTE_KINDS = ['two_digit_year', 'decimal_comma', 'windows_1252'] as const;
export type ReadNoteKind = (typeof READ_NOTE_KINDS)[number];
export const readNoteSchema = z.object({
  kind: z.enum(READ_NOTE_KINDS),
  /** The sheet's name ('CSV' for a CSV file). */
  sheet: z.string(),
  /** The header of the column it concerns; null when it concerns the whole file (its encoding). */
  column: z.string().nullable(),
  /** How many cells (or, for the encoding, 1). */
  count: z.number().int(),
  /** One sentence a person reads, with the first example: "… (row 5: 3/15/27 read as 03/15/2027)". */
  message: z.string(),
});
export type ReadNote = z.infer<typeof readNoteSchema>;

export const getColumnsReply = z.object({
  jobColumns: z.array(z.string()),
  libraryColumns: z.array(z.string()),
  /** Every sheet of the workbook in order (one, named 'CSV', for a CSV). */
  sheets: z.array(workbookSheetSchema),
  /** The tickets sheet used and its header row. */
  tickets: sheetUsedSchema,
  /** The library sheet used; null when there is none (a CSV, a one-sheet workbook). */
  library: sheetUsedSchema.nullable(),
  notes: z.array(readNoteSchema),
  /**
   * The mapping last used for the utility's workbooks (docs/product/records.md §4 "saved mappings"); null when
   * none was saved yet or no utility was named. The mapping step starts from it (startingMappings).
   */
  saved: savedMappingSchema.nullable().optional(),
});
export type WorkbookColumns = z.infer<typeof getColumnsReply>;

/** The sheets a person picked on the mapping step (absent: the rules of docs/product/imports.md §4 choose). */
export interface SheetChoice {
  ticketsSheet?: string | null;
  librarySheet?: string | null;
}

const norm = (s: string) => s.trim().replace(/\s+/g, ' ').toLowerCase();

/**
 * Each target's column: first the saved mapping's header where this workbook has it (docs/product/records.md §4
 * "saved mappings"), then the default name; a column is never given to two targets, and a saved
 * choice wins over another target's default name.
 */
function defaultsFor<T extends string>(targets: readonly T[], info: Record<T, TargetInfo>, columns: readonly string[], saved?: Partial<Record<T, string | null | undefined>>) {
  const byName = new Map<string, string>();
  // The first column with a given name wins, as a person reading left to right would expect.
  for (const c of columns) if (!byName.has(norm(c))) byName.set(norm(c), c);
  const used = new Set<string>();
  const out = {} as Record<T, string | null>;
  const take = (t: T, name: string | null | undefined) => {
    const col = isMapped(name) ? byName.get(norm(name)) : undefined;
    if (col === undefined || used.has(col)) return;
    out[t] = col;
    used.add(col);
  };
  for (const t of targets) take(t, saved?.[t]);
  for (const t of targets) if (out[t] === undefined) take(t, info[t].defaultColumn);
  for (const t of targets) out[t] ??= null;
  return out;
}

/** Ticket targets pre-filled from the tickets sheet's headers (docs/product/imports.md §2: case-insensitive). */
export function defaultTicketsMappings(jobColumns: readonly string[]): Record<TicketTarget, string | null> {
  return defaultsFor(TICKET_TARGETS, TICKET_TARGET_INFO, jobColumns);
}

/** Library targets pre-filled from the library sheet's headers. */
export function defaultLibraryMappings(libraryColumns: readonly string[]): Record<LibraryTarget, string | null> {
  return defaultsFor(LIBRARY_TARGETS, LIBRARY_TARGET_INFO, libraryColumns);
}

/**
 * Where the mapping step starts (docs/product/records.md §4): the utility's saved mapping for the headers this
 * workbook has, then the default names. Without a saved mapping: defaultMappings.
 */
export function startingMappings(columns: Pick<WorkbookColumns, 'jobColumns' | 'libraryColumns'>, saved: SavedMapping | null | undefined) {
  return {
    ticketsMappings: defaultsFor(TICKET_TARGETS, TICKET_TARGET_INFO, columns.jobColumns, saved?.ticketsMappings),
    libraryMappings: defaultsFor(LIBRARY_TARGETS, LIBRARY_TARGET_INFO, columns.libraryColumns, saved?.libraryMappings),
  };
}

/** Both mappings pre-filled from the getColumns reply. */
export function defaultMappings(columns: Pick<WorkbookColumns, 'jobColumns' | 'libraryColumns'>): {
  ticketsMappings: Record<TicketTarget, string | null>;
  libraryMappings: Record<LibraryTarget, string | null>;
} {
  return {
    ticketsMappings: defaultTicketsMappings(columns.jobColumns),
    libraryMappings: defaultLibraryMappings(columns.libraryColumns),
  };
}

/**
 * The options of one target's selector: every column not chosen by another target of the same
 * sheet (docs/product/rules.md), in sheet order. The target's own choice stays in its list.
 */
export function availableColumns<T extends string>(
  all: readonly string[],
  mappings: Partial<Record<T, string | null | undefined>>,
  target: NoInfer<T>,
): string[] {
  const taken = new Set<string>();
  for (const [t, col] of Object.entries(mappings) as [T, string | null | undefined][]) {
    if (t !== target && isMapped(col)) taken.add(col);
  }
  return all.filter((c) => !taken.has(c));
}

/** Targets that Save still needs, as labels, in the order the modal shows them. */
export function missingMappings(
  ticketsMappings: Partial<Record<TicketTarget, string | null | undefined>>,
  libraryMappings: Partial<Record<LibraryTarget, string | null | undefined>>,
): { tickets: TicketTarget[]; library: LibraryTarget[] } {
  return {
    tickets: REQUIRED_TICKET_TARGETS.filter((t) => !isMapped(ticketsMappings[t])),
    library: REQUIRED_LIBRARY_TARGETS.filter((t) => !isMapped(libraryMappings[t])),
  };
}

/** docs/product/rules.md §2.6: Save is enabled only when work_order, pole, unit_task, qty and all seven library fields are mapped. */
export function canSaveMapping(
  ticketsMappings: Partial<Record<TicketTarget, string | null | undefined>>,
  libraryMappings: Partial<Record<LibraryTarget, string | null | undefined>>,
): boolean {
  const m = missingMappings(ticketsMappings, libraryMappings);
  return m.tickets.length === 0 && m.library.length === 0;
}

// ---------------------------------------------------------------------------------------------
// Job overrides (docs/product/screens.md §4 Create Job: an override disables the matching column selector)

/** The job's override field -> the ticket target it replaces. EHASP has no column. */
export const OVERRIDE_TARGETS = {
  arc_rating_override: 'arc_rating',
  primary_voltage_override: 'primary_voltage',
  secondary_voltage_override: 'secondary_voltage',
} as const satisfies Record<string, TicketTarget>;
export type OverrideField = keyof typeof OVERRIDE_TARGETS;

export interface JobOverrides {
  ehasp_override?: string | null;
  arc_rating_override?: string | null;
  primary_voltage_override?: string | null;
  secondary_voltage_override?: string | null;
}

/** The override value that disables `target`'s selector, or null when it is not overridden. */
export function overrideFor(target: TicketTarget, overrides: JobOverrides | null | undefined): string | null {
  for (const [field, t] of Object.entries(OVERRIDE_TARGETS) as [OverrideField, TicketTarget][]) {
    if (t === target) {
      const v = overrides?.[field];
      return isMapped(v) ? v.trim() : null;
    }
  }
  return null;
}

/** The ticket targets an override disables (arc_rating, primary_voltage, secondary_voltage). */
export function disabledTargets(overrides: JobOverrides | null | undefined): TicketTarget[] {
  return TICKET_TARGETS.filter((t) => overrideFor(t, overrides) !== null);
}

/** The text shown instead of the selector (docs/product/screens.md). */
export const overriddenText = (value: string) => `Overridden: ${value}`;

// ---------------------------------------------------------------------------------------------
// A parsed workbook and what importing it produces

/**
 * A number whose cell format shows it otherwise (docs/product/imports.md): a pole id 123 formatted 00000
 * shows '00123'. Text targets take `shown`; quantity, latitude and longitude take `n`.
 */
export interface ShownNumber {
  n: number;
  shown: string;
}
/** A formula cell with no saved result (written by a script): refused where it is read. `noResult` is its address ('C7'). */
export interface NoResult {
  noResult: string;
}
/** A cell after normalisation: text, a number (maybe with the text it shows), empty, or a formula without result. Dates are 'YYYY-MM-DD' text. */
export type CellValue = string | number | null | ShownNumber | NoResult;

export const isShownNumber = (v: CellValue | undefined): v is ShownNumber => typeof v === 'object' && v !== null && 'shown' in v;
export const isNoResult = (v: CellValue | undefined): v is NoResult => typeof v === 'object' && v !== null && 'noResult' in v;

/** How a sheet's cells are to be read as numbers and dates (docs/product/imports.md §4). */
export interface SheetReading {
  /** A `;`-separated CSV: '3,5' and '3,500' are 3.5, '1.234,5' is 1234.5. */
  decimalComma?: boolean;
  /** The workbook counts date serials from 1904 (old Mac workbooks). */
  date1904?: boolean;
}

export interface ParsedSheet extends SheetReading {
  name: string;
  /** The Excel row number (1-based, as the user sees it) of the header row; 0 when none. */
  headerRow: number;
  /** Non-empty header texts, made unique ('Notes', 'Notes (2)'), in sheet order. */
  columns: string[];
  /** Data rows below the header, skipping empty ones. `cells[i]` belongs to `columns[i]`. */
  rows: { row: number; cells: CellValue[] }[];
  /** What had to be interpreted in this sheet's data rows (two-digit years, decimal commas). */
  notes?: ReadNote[];
}

export interface ParsedWorkbook {
  /** 'xlsx' or 'csv'. */
  format: 'xlsx' | 'csv';
  tickets: ParsedSheet;
  /** null when the file has no second sheet (a CSV, or a one-sheet workbook). */
  library: ParsedSheet | null;
  /** Every sheet, in order (one named 'CSV' for a CSV). */
  sheets?: WorkbookSheet[];
  /** A CSV that was not UTF-8 and was read as Windows-1252. */
  encoding?: 'windows-1252';
}

/** The pole a ticket is for, with the docs/product/entities.md §7 Pole fields a workbook can fill. */
export interface PoleDraft {
  pole_name: string;
  line_name: string;
  pole_id: string | null;
  line_id: string | null;
  street_address: string | null;
  geo_lat: number | null;
  geo_lon: number | null;
  primary_voltage: string | null;
  secondary_voltage: string | null;
  arc_rating: string | null;
}

/** One row of the tickets sheet: a unit of work with its bid quantity. */
export interface TaskDraft {
  /** Unit/task code; look it up in the unit library (by code, per company and utility). */
  code: string;
  /** The row's description, or '' (then use the library unit's description). */
  description: string;
  /** Bid quantity (init_qty). */
  qty: number;
  /** Excel row number it came from. */
  row: number;
}

/** One ticket: the rows that share a pole + line (trimmed, case-insensitive). */
export interface TicketDraft {
  /** Grouping key: lower-cased trimmed pole and line. */
  key: string;
  /** Excel row number of the ticket's first row. */
  row: number;
  pole: PoleDraft;
  /** The ticket's copy of address and coordinates (docs/product/entities.md §2 Ticket). */
  street_address: string | null;
  geo_lat: number | null;
  geo_lon: number | null;
  due_date: string | null;
  /** The job's EHASP override, if any. */
  ehasp: string | null;
  /** Unique, in first-seen order. */
  work_orders: string[];
  tasks: TaskDraft[];
  /**
   * A later part of a ticket already sent with this key (a workbook read in batches): its blank
   * fields take these values, and these work orders and tasks are added (mergeContinued).
   */
  continued?: true;
}

/** One unit-library row, to upsert by code (docs/product/roles-and-statuses.md). */
export interface UnitDraft {
  code: string;
  description: string;
  family: string;
  type: string;
  action: string;
  uom: string;
  notes: string;
  /**
   * The price of a mapped Price cell ("12.50", parsePrice); null when the cell is blank or the
   * column is not mapped: the library keeps the price it has (like every blank cell).
   */
  unit_price?: string | null;
  row: number;
}

export interface ImportError {
  /** Excel row number (0 for problems with the mapping itself). */
  row: number;
  sheet: 'tickets' | 'library';
  message: string;
}

export interface WorkbookImport {
  tickets: TicketDraft[];
  library: UnitDraft[];
  errors: ImportError[];
}

/** Several import errors as one message a person can act on (first few, then a count). */
export function formatImportErrors(errors: readonly ImportError[], max = 5): string {
  const shown = errors.slice(0, max).map((e) => e.message);
  const more = errors.length - shown.length;
  return more > 0 ? `${shown.join('; ')} (and ${more} more)` : shown.join('; ');
}
