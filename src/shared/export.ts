import { TICKET_STATUS } from './constants';
import { formatDateTimeInZone } from './dates';
import type { Ticket } from './tickets.schemas';

/**
 * The job exports (docs/product/screens.md §5.4 Export, §5 Export, §9; docs/product/rules.md §5.2 export rows, §7.5 exports), as pure
 * functions shared by the web page (which builds and downloads the CSV) and the server (which
 * writes the same rows as .xlsx: GET /jobs/{id}/export.xlsx). The rows are built once
 * (buildExportTable), so the CSV and the workbook of an option cannot differ in columns or order.
 *
 * - Option 1 (SPEC's "Priority items", shown as "Tickets with work"): tickets with at least one
 *   task; multi-value cells joined by a newline; Completed Quantity is bid + change on Complete
 *   tickets and empty on Pending ones; Completion Date/Time is the ticket's actual_completion_date
 *   as 'YYYY-MM-DD HH:MM:SS' in the company's time zone (GET /jobs/{id} → job.company_time_zone).
 * - Option 2 (SPEC's "All items", shown as "All tickets"): every ticket, 'Job Name' first, no
 *   Completed Quantity / Latitude / Longitude, multi-value cells joined by ', '.
 * - 'units' (docs/product/imports.md, "Units"): one row per task of each ticket (pole, line, work orders
 *   joined by ', ', unit code, description, bid, actual = bid + change, the ticket's completion
 *   day or empty while Pending): one number per cell, so a spreadsheet can sum the columns.
 * - Rows ordered by pole, then line, in natural order ('2' before '10').
 * - Each cell says what it is (ExportCell): text, a number or a date. The CSV cannot say it (a
 *   pole '007' opens as 7 in a spreadsheet), the .xlsx can: text stays text, numbers and dates
 *   are numbers and dates there. A quantity cell of a ticket with one task is a number; with
 *   several it is their list, as text.
 * - The CSV opens cleanly in Excel and LibreOffice: UTF-8 with a BOM, RFC 4180 quoting (cells
 *   with a comma, quote or line break are quoted, quotes doubled), CRLF between rows, line
 *   breaks inside a cell kept as LF. A text cell that a spreadsheet could run as a formula
 *   (FORMULA_START) gets a leading ' (plain numbers such as -71.5 are left alone).
 */

/** The options of the Export modal, as GET /jobs/{id}/export.xlsx?option= names them. */
export const EXPORT_OPTIONS = [1, 2, 'units'] as const;
export type ExportOption = (typeof EXPORT_OPTIONS)[number];
export type ExportFormat = 'csv' | 'xlsx';

/** Text (kept as text in an .xlsx, so '007' stays '007'), a number, a date or time, or empty. */
export type ExportCell = string | number | ExportDate | null;
/**
 * A day or a moment as the company's clock shows it ('YYYY-MM-DD' / 'YYYY-MM-DD HH:MM:SS'):
 * the CSV writes the text, the .xlsx a real date with that format (spreadsheet dates have no zone).
 */
export interface ExportDate {
  date: string;
}

/** One option's rows, ready for CSV or .xlsx: `sheet` names the worksheet (31 characters at most). */
export interface ExportTable {
  option: ExportOption;
  sheet: string;
  columns: readonly string[];
  rows: ExportCell[][];
}

/** The parts of a ticket the export reads (a full docs/product/entities.md §2 Ticket fits). */
export type ExportTicket = Pick<Ticket, 'pole_name' | 'line_name' | 'street_address' | 'geo_lat' | 'geo_lon' | 'actual_completion_date' | 'status'> & {
  id?: number;
  work_orders: readonly string[];
  tasks: readonly Pick<Ticket['tasks'][number], 'code' | 'description' | 'init_qty' | 'additional_qty'>[];
  notes: readonly Pick<Ticket['notes'][number], 'note_text'>[];
  pole?: { street_address?: string | null; geo_lat?: number | null; geo_lon?: number | null } | null;
};

export const EXPORT_PROBLEM = {
  noTickets: 'No tickets in job',
  jobNumber: 'Job number missing',
  ticketsNotLoaded: 'Tickets data not properly loaded',
  poleName: 'Pole name missing',
  lineName: 'Line name missing',
  tasks: 'Tasks not properly loaded',
  notes: 'Notes not properly loaded',
  workOrders: 'Work orders not properly loaded',
  pole: 'Pole data not properly loaded',
  geo: 'Geo data not properly loaded',
} as const;

export const OPTION1_COLUMNS = [
  'Pole #',
  'Line #',
  'Work Order #',
  'Address',
  'Unit/Task Code',
  'Unit Description',
  'Quantity Bid',
  'Completed Quantity',
  'Latitude',
  'Longitude',
  'Notes',
  'Completion Date/Time',
] as const;

export const OPTION2_COLUMNS = [
  'Job Name',
  'Pole #',
  'Line #',
  'Work Order #',
  'Address',
  'Unit/Task Code',
  'Unit Description',
  'Quantity Bid',
  'Notes',
  'Completion Date/Time',
] as const;

export const UNITS_COLUMNS = ['Pole', 'Line', 'Work Order', 'Unit', 'Description', 'Bid', 'Actual', 'Completed'] as const;

/** What each option holds, for the worksheet's name and the file's (docs/product/screens.md names options 1 and 2's files). */
const SHEET: Record<ExportOption, string> = { 1: 'Tickets with work', 2: 'All tickets', units: 'Units' };
const FILE_PART: Record<ExportOption, string> = { 1: 'Option1', 2: 'Option2', units: 'Units' };

const isBlank = (v: unknown) => v == null || (typeof v === 'string' && v.trim() === '');

/**
 * The first docs/product/rules.md §5.1 reason that blocks the export, or null when the job can be exported.
 * Per-ticket reasons name the ticket by its 1-based position: 'Ticket 3: Line name missing'.
 */
export function exportProblems(job: { job_number?: string | null; tickets?: unknown } | null | undefined): string | null {
  if (!job || !Array.isArray(job.tickets)) return EXPORT_PROBLEM.ticketsNotLoaded;
  if (job.tickets.length === 0) return EXPORT_PROBLEM.noTickets;
  if (isBlank(job.job_number)) return EXPORT_PROBLEM.jobNumber;
  for (const [i, raw] of (job.tickets as unknown[]).entries()) {
    const at = (message: string) => `Ticket ${i + 1}: ${message}`;
    if (raw == null || typeof raw !== 'object') return EXPORT_PROBLEM.ticketsNotLoaded;
    const t = raw as Record<string, unknown>;
    if (isBlank(t.pole_name)) return at(EXPORT_PROBLEM.poleName);
    if (isBlank(t.line_name)) return at(EXPORT_PROBLEM.lineName);
    if (!Array.isArray(t.tasks)) return at(EXPORT_PROBLEM.tasks);
    if (!Array.isArray(t.notes)) return at(EXPORT_PROBLEM.notes);
    if (!Array.isArray(t.work_orders)) return at(EXPORT_PROBLEM.workOrders);
    const pole = t.pole as Record<string, unknown> | null | undefined;
    if (pole == null || typeof pole !== 'object') return at(EXPORT_PROBLEM.pole);
    // Coordinates may be empty (a pole without GPS exports blank cells) but must have been loaded.
    if (pole.geo_lat === undefined || pole.geo_lon === undefined) return at(EXPORT_PROBLEM.geo);
  }
  return null;
}

/** A job number as the start of a file name: characters no file system accepts become '_'. */
export function jobFileStem(jobNumber: string): string {
  return [...jobNumber.trim()].map((c) => (c < ' ' || '\\/:*?"<>|'.includes(c) ? '_' : c)).join('') || 'job';
}

/**
 * '{job_number}_Export-Option1.csv' (docs/product/screens.md §5.4), '…_Export-Option2.csv', '…_Export-Units.csv', and
 * the same names ending in '.xlsx' (jobFileStem).
 */
export function exportFileName(jobNumber: string, option: ExportOption, format: ExportFormat = 'csv'): string {
  return `${jobFileStem(jobNumber)}_Export-${FILE_PART[option]}.${format}`;
}

const PLAIN_NUMBER = /^ *[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
/**
 * What a spreadsheet may run as a formula (OWASP "CSV Injection"): a cell whose first visible
 * character is = + - @ (or a look-alike a spreadsheet may read as one: the full-width and small
 * forms, the minus sign), after any blanks or invisible characters (spaces, tabs, no-break and
 * other Unicode spaces, zero-width characters, the byte order mark, bidirectional controls); or
 * that starts with TAB, CR or LF at all. Blanks and invisibles are skipped because spreadsheets
 * trim or ignore them before deciding that a cell is a formula, and a person cannot see them.
 */
// [blanks and invisibles]* then a formula character or a look-alike; or TAB / CR / LF first.
const FORMULA_START =
  /^(?:[\t\r\n]|[\s\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]*[=+\-@\u2212\ufe62\ufe63\ufe66\ufe6b\uff0b\uff0d\uff1d\uff20])/;

/** One CSV cell: formula-guarded, then quoted when RFC 4180 needs it. A date is its text. */
export function csvCell(value: ExportCell | undefined): string {
  let s = value == null ? '' : typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : typeof value === 'object' ? value.date : String(value);
  if (FORMULA_START.test(s) && !PLAIN_NUMBER.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

const natural = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/** Pole, then line, in natural order; the ticket id keeps equal names stable. */
export function compareTicketsForExport(a: ExportTicket, b: ExportTicket): number {
  return (
    natural.compare(a.pole_name ?? '', b.pole_name ?? '') ||
    natural.compare(a.line_name ?? '', b.line_name ?? '') ||
    (a.id ?? 0) - (b.id ?? 0)
  );
}

/** A quantity without binary floating-point noise (0.1 + 0.2 → 0.3); null when not a number. */
const qty = (n: number | null | undefined): number | null => (n == null || !Number.isFinite(n) ? null : Number(n.toFixed(6)));
const finite = (n: number | null | undefined): number | null => (n == null || !Number.isFinite(n) ? null : n);
/** The text of a quantity list: '' for none. */
const qtyText = (n: number | null) => (n == null ? '' : String(n));
/** A date cell, or null for an empty text. */
const dateCell = (text: string): ExportDate | null => (text ? { date: text } : null);

/**
 * The rows of `option` (docs/product/screens.md §1.2; docs/product/imports.md for 'units'), header first in `columns`. `timeZone`
 * is the company's IANA zone for the completion time. Call exportProblems first: this function
 * does not refuse incomplete data.
 */
export function buildExportTable(job: { job_number: string }, tickets: readonly ExportTicket[], option: ExportOption, timeZone: string): ExportTable {
  const sorted = [...tickets].filter((t) => option === 2 || t.tasks.length > 0).sort(compareTicketsForExport);
  const rows: ExportCell[][] = [];
  if (option === 'units') {
    for (const t of sorted) {
      const workOrders = t.work_orders.join(', ');
      // The day the ticket was completed, as the company's calendar has it; none while Pending.
      const done = t.status === TICKET_STATUS.COMPLETE ? dateCell(formatDateTimeInZone(t.actual_completion_date, timeZone).slice(0, 10)) : null;
      for (const k of t.tasks) rows.push([t.pole_name, t.line_name, workOrders, k.code, k.description, qty(k.init_qty), qty(k.init_qty + k.additional_qty), done]);
    }
    return { option, sheet: SHEET[option], columns: UNITS_COLUMNS, rows };
  }
  const sep = option === 1 ? '\n' : ', ';
  const join = (values: readonly (string | null | undefined)[]) => values.map((v) => v ?? '').join(sep);
  // One quantity is a number; several are their list, as text.
  const quantities = (values: readonly (number | null)[]): ExportCell => (values.length === 1 ? values[0] : join(values.map(qtyText)));
  for (const t of sorted) {
    const address = t.street_address ?? t.pole?.street_address ?? '';
    const codes = join(t.tasks.map((k) => k.code));
    const descriptions = join(t.tasks.map((k) => k.description));
    const bid = quantities(t.tasks.map((k) => qty(k.init_qty)));
    const notes = join(t.notes.map((n) => n.note_text));
    const workOrders = join(t.work_orders);
    const completed = dateCell(formatDateTimeInZone(t.actual_completion_date, timeZone));
    if (option === 1) {
      // Completed Quantity is what was built: the actual quantity, on Complete tickets only.
      // A Pending ticket claims nothing (an export used for billing must not bill open work).
      const done = t.status === TICKET_STATUS.COMPLETE ? quantities(t.tasks.map((k) => qty(k.init_qty + k.additional_qty))) : '';
      const lat = finite(t.geo_lat ?? t.pole?.geo_lat);
      const lon = finite(t.geo_lon ?? t.pole?.geo_lon);
      rows.push([t.pole_name, t.line_name, workOrders, address, codes, descriptions, bid, done, lat, lon, notes, completed]);
    } else {
      rows.push([job.job_number, t.pole_name, t.line_name, workOrders, address, codes, descriptions, bid, notes, completed]);
    }
  }
  return { option, sheet: SHEET[option], columns: option === 1 ? OPTION1_COLUMNS : OPTION2_COLUMNS, rows };
}

/** The CSV text of a table: a BOM, the header, one line per row, CRLF after each. */
export function exportTableCsv(table: ExportTable): string {
  return '\uFEFF' + [table.columns, ...table.rows].map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

/** The CSV of docs/product/screens.md §5.4 (or of the 'units' option) and its file name; see buildExportTable. */
export function buildExportCsv(
  job: { job_number: string },
  tickets: readonly ExportTicket[],
  option: ExportOption,
  timeZone: string,
): { filename: string; csv: string } {
  return { filename: exportFileName(job.job_number, option), csv: exportTableCsv(buildExportTable(job, tickets, option, timeZone)) };
}
