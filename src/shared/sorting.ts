/**
 * Comparators of docs/product/rules.md §4.2 shared by every sortable table (jobs list, tickets table). Each takes
 * raw cell values and answers ascending order; callers flip the sign for descending and break
 * ties themselves (e.g. by id) so that the order is stable.
 */

/** Table sorting rule shared by every sortable list (docs/product/imports.md §3): direction toggles, a new column starts ascending. */
export type SortDirection = 'asc' | 'desc';
export interface SortState<C extends string = string> {
  column: C;
  direction: SortDirection;
}

export function nextSort<C extends string>(current: SortState<C>, column: C): SortState<C> {
  if (current.column === column) return { column, direction: current.direction === 'asc' ? 'desc' : 'asc' };
  return { column, direction: 'asc' };
}

// Case-insensitive, and "J-2" before "J-10" as a person reading numbers expects.
const collator = new Intl.Collator('en', { sensitivity: 'accent', numeric: true });

/** Case-insensitive text; null, undefined and '' sort as empty text (first ascending). */
export function compareText(a: unknown, b: unknown): number {
  return collator.compare(a == null ? '' : String(a), b == null ? '' : String(b));
}

/**
 * Where a billed line stands on an invoice (docs/product/billing.md §4): line, then pole, each in the
 * tables' natural order ('L-2' before 'L-10', pole 10 < 20 < 130). The preview, the invoice reply,
 * its PDF and XLSX and the evidence pack all use this one order. Ties are left to the caller (the
 * sort is stable: the ticket's tasks keep their order).
 */
export function compareLinePole(a: { line_name: string | null; pole_name: string | null }, b: { line_name: string | null; pole_name: string | null }): number {
  return compareText(a.line_name, b.line_name) || compareText(a.pole_name, b.pole_name);
}

/** Milliseconds of a date, a 'YYYY-MM-DD' or an ISO timestamp; null when empty or invalid. */
export function dateValue(v: unknown): number | null {
  if (v == null || v === '') return null;
  const t = v instanceof Date ? v.getTime() : Date.parse(String(v));
  return Number.isNaN(t) ? null : t;
}

/**
 * Dates, with empty or invalid values last in BOTH directions (docs/product/rules.md §1.2 ticket due dates).
 * Pass the direction so that "last" survives the flip.
 */
export function compareDate(a: unknown, b: unknown, direction: 'asc' | 'desc' = 'asc'): number {
  const ta = dateValue(a);
  const tb = dateValue(b);
  if (ta === null || tb === null) return ta === tb ? 0 : ta === null ? 1 : -1;
  const cmp = ta - tb;
  return direction === 'asc' ? cmp : -cmp;
}

// ---------------------------------------------------------------------------------------------
// Ticket table of the job page (docs/product/screens.md §5 Job detail, §5 Ticket table sorting).

/** The sortable columns of the ticket table, in display order. */
export const TICKET_SORT_COLUMNS = [
  'pole_name',
  'line_name',
  'work_orders',
  'assigned_to_name',
  'gps',
  'street_address',
  'dig_safe_required',
  'nra_required',
  'status',
  'created_date',
  'actual_completion_date',
  'due_date',
] as const;
export type TicketSortColumn = (typeof TICKET_SORT_COLUMNS)[number];

/** The fields of a ticket the table sorts by (a subset of docs/product/entities.md §2 Ticket). */
export interface TicketSortRow {
  id: number;
  pole_name: string | null;
  line_name: string | null;
  /** The ticket's work orders (the ticket table's Work Order column, docs/product/rules.md §4.4): sorted as their text, joined. */
  work_orders?: readonly string[];
  assigned_to_name: string | null;
  geo_lat: number | null;
  geo_lon: number | null;
  street_address: string | null;
  dig_safe_required: number;
  dig_safe_url: string | null;
  nra_required: number;
  nra_url: string | null;
  status: string;
  created_date: string | null;
  actual_completion_date: string | null;
  due_date: string | null;
}

const hasGps = (t: TicketSortRow) => (t.geo_lat != null && t.geo_lon != null ? 1 : 0);

/**
 * A plain-string sort key with the collator's order for everyday text: lower case, and digit runs
 * zero-padded so that '9' < '10'. Comparing these with `<` is ~10× faster than Intl.Collator.
 */
export function textKey(v: unknown): string {
  if (v == null) return '';
  const s = String(v).toLowerCase();
  // One pass over the characters, not a regex replace with a callback per digit run: a job page
  // makes 10,000+ of these keys at load, on a phone's slow CPU inside its first render (decision 058).
  let out = '';
  let copied = 0;
  for (let i = 0; i < s.length; i++) {
    if (!isDigit(s.charCodeAt(i))) continue;
    let end = i + 1;
    while (end < s.length && isDigit(s.charCodeAt(end))) end++;
    // Leading zeros dropped (one kept), then padded to 16: '007' → '0000000000000007'.
    let start = i;
    while (start < end - 1 && s.charCodeAt(start) === 48) start++;
    out += s.slice(copied, i) + ZEROS.slice(end - start) + s.slice(start, end);
    copied = end;
    i = end;
  }
  return copied === 0 ? s : out + s.slice(copied);
}
const ZEROS = '0000000000000000';
const isDigit = (c: number) => c >= 48 && c <= 57;

/**
 * textKey of a string, kept: a job's pole and line names are keyed for the filters' option lists
 * and again for the table's sort. Bounded, so a long session does not keep every name it saw.
 */
const textKeys = new Map<string, string>();
export function cachedTextKey(v: string | null | undefined): string {
  if (v == null) return '';
  let key = textKeys.get(v);
  if (key === undefined) {
    if (textKeys.size >= 50_000) textKeys.clear();
    textKeys.set(v, (key = textKey(v)));
  }
  return key;
}

/**
 * Text values in the table's text order (textKey: case-insensitive, '9' before '10'), e.g. the
 * options of a filter. One key per value, then plain string comparisons: 5,000 pole names sort in
 * a few ms, where Intl.Collator's compare took ~10× as long. Equal keys keep the order given.
 */
export function sortTextValues(values: Iterable<string>): string[] {
  const keyed = Array.from(values, (v) => ({ v, key: cachedTextKey(v) }));
  keyed.sort((a, b) => (a.key === b.key ? 0 : a.key < b.key ? -1 : 1));
  return keyed.map((k) => k.v);
}

// Sort keys per row object and column: rows keep their identity until the data is reloaded, so
// the second sort by a column (and every sort after a filter change) reuses them.
const keyCache = new WeakMap<object, Map<TicketSortColumn, number | string | null>>();

function sortKey(r: TicketSortRow, column: TicketSortColumn): number | string | null {
  let byColumn = keyCache.get(r);
  if (!byColumn) keyCache.set(r, (byColumn = new Map()));
  if (byColumn.has(column)) return byColumn.get(column)!;
  let key: number | string | null;
  if (column === 'due_date' || column === 'created_date' || column === 'actual_completion_date') key = dateValue(r[column]);
  else if (column === 'gps') key = hasGps(r);
  else if (column === 'work_orders') key = textKey((r.work_orders ?? []).join(', '));
  else if (column === 'dig_safe_required') key = (Number(r.dig_safe_required) || 0) * 2 + (r.dig_safe_url ? 1 : 0);
  else if (column === 'nra_required') key = (Number(r.nra_required) || 0) * 2 + (r.nra_url ? 1 : 0);
  else if (column === 'pole_name') key = cachedTextKey(r.pole_name);
  else if (column === 'line_name') key = cachedTextKey(r.line_name);
  else key = textKey(r[column]);
  byColumn.set(column, key);
  return key;
}

/**
 * A sorted copy (the input is never reordered, so React state stays untouched). Sort keys are
 * computed once per row rather than once per comparison: 5,000 rows re-sort in a few ms.
 * The rules (docs/product/rules.md): due_date, Date Added and Date Completed as dates with empty or invalid
 * values last in both directions (a ticket not complete yet never sits between two completion
 * dates); the dig-safe and NRA flags numerically, a present document after a missing one on ties
 * (matching the green/red circles); the rest case-insensitive text; ties by id.
 */
export function sortTickets<T extends TicketSortRow>(rows: readonly T[], column: TicketSortColumn, direction: 'asc' | 'desc'): T[] {
  const flip = direction === 'asc' ? 1 : -1;
  const isDate = column === 'due_date' || column === 'created_date' || column === 'actual_completion_date';
  const isText = !isDate && column !== 'gps' && column !== 'dig_safe_required' && column !== 'nra_required';
  const keyed = rows.map((r) => ({ r, key: sortKey(r, column) }));
  keyed.sort((a, b) => {
    let c: number;
    if (isDate) {
      const ka = a.key as number | null;
      const kb = b.key as number | null;
      c = ka === null || kb === null ? (ka === kb ? 0 : ka === null ? 1 : -1) : flip * (ka - kb);
    } else if (isText) c = flip * (a.key === b.key ? 0 : (a.key as string) < (b.key as string) ? -1 : 1);
    else c = flip * ((a.key as number) - (b.key as number));
    return c || a.r.id - b.r.id;
  });
  return keyed.map((k) => k.r);
}

/**
 * Computes the sort keys of every column ahead of time, a slice of the work per call so that it
 * can run in idle time without a long task: each call does at most `budget` rows (all columns
 * count) from where the last one stopped, and answers where to go on, or null when all is done.
 */
export function warmTicketSortKeys(
  rows: readonly TicketSortRow[],
  from: { column: number; row: number } = { column: 0, row: 0 },
  budget = Infinity,
  columns: readonly TicketSortColumn[] = TICKET_SORT_COLUMNS,
): { column: number; row: number } | null {
  let { column, row } = from;
  for (let done = 0; column < columns.length; column++, row = 0) {
    for (; row < rows.length; row++, done++) {
      if (done >= budget) return { column, row };
      sortKey(rows[row], columns[column]);
    }
  }
  return null;
}
