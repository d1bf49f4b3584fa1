import { TICKET_STATUS } from './constants';
import { formatDateTimeInZone } from './dates';
import type { Ticket } from './tickets.schemas';

/**
 * The job CSV export (SPEC §2 Export, §5 Export, §9; DESIGN §5 export rows), as pure functions
 * shared by the web page (which builds and downloads the file) and any server use.
 *
 * - Option 1 (Priority items): tickets with at least one task; multi-value cells joined by a
 *   newline; Completed Quantity is bid + change on Complete tickets and empty on Pending ones; Completion Date/Time is the ticket's actual_completion_date as
 *   'YYYY-MM-DD HH:MM:SS' in the company's time zone (GET /jobs/{id} → job.company_time_zone).
 * - Option 2 (All items): every ticket, 'Job Name' first, no Completed Quantity / Latitude /
 *   Longitude, multi-value cells joined by ', '.
 * - Rows ordered by pole, then line, in natural order ('2' before '10').
 * - The file opens cleanly in Excel and LibreOffice: UTF-8 with a BOM, RFC 4180 quoting (cells
 *   with a comma, quote or line break are quoted, quotes doubled), CRLF between rows, line
 *   breaks inside a cell kept as LF. A text cell that a spreadsheet could run as a formula
 *   (FORMULA_START) gets a leading ' (plain numbers such as -71.5 are left alone).
 */

export type ExportOption = 1 | 2;

/** The parts of a ticket the export reads (a full SPEC §3 Ticket fits). */
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

const isBlank = (v: unknown) => v == null || (typeof v === 'string' && v.trim() === '');

/**
 * The first SPEC §5 reason that blocks the export, or null when the job can be exported.
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

/** '{job_number}_Export-Option1.csv' (jobFileStem). */
export function exportFileName(jobNumber: string, option: ExportOption): string {
  return `${jobFileStem(jobNumber)}_Export-Option${option}.csv`;
}

const PLAIN_NUMBER = /^ *[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
/**
 * What a spreadsheet may run as a formula (OWASP "CSV Injection"): a cell that starts with
 * = + - @ (or their full-width forms), possibly after blanks, or that starts with TAB or CR.
 */
const FORMULA_START = /^(?:[\t\r]| *[=+\-@＝＋－＠])/;

/** One CSV cell: formula-guarded, then quoted when RFC 4180 needs it. */
export function csvCell(value: string | number | null | undefined): string {
  let s = value == null ? '' : typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : String(value);
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

const num = (n: number | null | undefined) => (n == null || !Number.isFinite(n) ? '' : String(n));
/** A quantity without binary floating-point noise (0.1 + 0.2 → 0.3). */
const qty = (n: number) => num(Number.isFinite(n) ? Number(n.toFixed(6)) : n);

/**
 * The CSV of SPEC §2 for `option`. `timeZone` is the company's IANA zone for the completion
 * time. Call exportProblems first: this function does not refuse incomplete data.
 */
export function buildExportCsv(
  job: { job_number: string },
  tickets: readonly ExportTicket[],
  option: ExportOption,
  timeZone: string,
): { filename: string; csv: string } {
  const sep = option === 1 ? '\n' : ', ';
  const join = (values: readonly (string | null | undefined)[]) => values.map((v) => v ?? '').join(sep);
  const rows: (string | number | null)[][] = [[...(option === 1 ? OPTION1_COLUMNS : OPTION2_COLUMNS)]];
  const chosen = [...tickets].filter((t) => option === 2 || t.tasks.length > 0).sort(compareTicketsForExport);
  for (const t of chosen) {
    const address = t.street_address ?? t.pole?.street_address ?? '';
    const codes = join(t.tasks.map((k) => k.code));
    const descriptions = join(t.tasks.map((k) => k.description));
    const bid = join(t.tasks.map((k) => qty(k.init_qty)));
    const notes = join(t.notes.map((n) => n.note_text));
    const workOrders = join(t.work_orders);
    const completed = formatDateTimeInZone(t.actual_completion_date, timeZone);
    if (option === 1) {
      // Completed Quantity is what was built: the actual quantity, on Complete tickets only.
      // A Pending ticket claims nothing (an export used for billing must not bill open work).
      const done = t.status === TICKET_STATUS.COMPLETE ? join(t.tasks.map((k) => qty(k.init_qty + k.additional_qty))) : '';
      const lat = t.geo_lat ?? t.pole?.geo_lat ?? null;
      const lon = t.geo_lon ?? t.pole?.geo_lon ?? null;
      rows.push([t.pole_name, t.line_name, workOrders, address, codes, descriptions, bid, done, num(lat), num(lon), notes, completed]);
    } else {
      rows.push([job.job_number, t.pole_name, t.line_name, workOrders, address, codes, descriptions, bid, notes, completed]);
    }
  }
  const csv = '\uFEFF' + rows.map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n';
  return { filename: exportFileName(job.job_number, option), csv };
}
