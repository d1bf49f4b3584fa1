import { LIMITS } from '../../../../shared/constants';
import {
  LIBRARY_TARGET_INFO,
  TICKET_TARGET_INFO,
  type CellValue,
  type ParsedSheet,
  type ReadNote,
  type ReadNoteKind,
  type SheetReading,
} from '../../../../shared/excel';
import { cellNumber, hasDecimalComma, importDate, shownText, TWO_DIGIT_YEAR } from './cells';

/**
 * Where a sheet's header is (docs/product/imports.md §5 "header row"): within the first 20 rows, the row that
 * holds the most of the sheet's default column names (docs/product/imports.md §3), at least 3. Titles, group-title
 * rows and "Job: … Prepared: …" lines above it are skipped, whatever their number of cells.
 * Rows are taken as they are read (the import streams them), so the first 20 wait until the
 * choice can be made.
 *
 * A sheet whose columns all have names of the office's own (what the mapping step is for: 'WO',
 * 'Pole Number', 'Qty') holds no default name. Its header is the first of those rows with at
 * least 3 cells that are all text (a data row has numbers and dates); the mapping step shows
 * which row was taken, and only a sheet with no such row is refused (decision 033).
 */

export const HEADER_SCAN_ROWS = 20;
export const HEADER_MIN_NAMES = 3;

/** Which default names a sheet's header is recognised by. */
export type SheetKind = 'tickets' | 'library';

const norm = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase();
const DEFAULT_NAMES: Record<SheetKind, Set<string>> = {
  tickets: new Set(Object.values(TICKET_TARGET_INFO).map((t) => norm(t.defaultColumn))),
  library: new Set(Object.values(LIBRARY_TARGET_INFO).map((t) => norm(t.defaultColumn))),
};

export interface RawRow {
  row: number;
  /** Cells by 1-based column number. */
  values: CellValue[];
}

export type ParsedRow = ParsedSheet['rows'][number];

/** A header cell's text: numbers as shown, blanks collapsed, cut to the short-text limit. */
const headerText = (v: CellValue): string | null => shownText(v).replace(/\s+/g, ' ').trim().slice(0, LIMITS.shortTextMax) || null;

/** At least HEADER_MIN_NAMES cells, every one of them text: what a header of the office's own names looks like. */
const isTextRow = (values: readonly CellValue[]) => {
  let filled = 0;
  for (const v of values) {
    if (v == null) continue;
    if (typeof v !== 'string' || /^[-+]?[\d.,]+$/.test(v)) return false;
    filled++;
  }
  return filled >= HEADER_MIN_NAMES;
};

/** How many distinct default column names of `kind` a row holds. */
export function headerScore(values: readonly CellValue[], kind: SheetKind): number {
  const seen = new Set<string>();
  for (const v of values) {
    const t = v == null ? null : headerText(v);
    if (t && DEFAULT_NAMES[kind].has(norm(t))) seen.add(norm(t));
  }
  return seen.size;
}

const uniqueNames = (names: string[]): string[] => {
  const seen = new Map<string, number>();
  return names.map((n) => {
    const key = n.toLowerCase();
    const count = (seen.get(key) ?? 0) + 1;
    seen.set(key, count);
    return count === 1 ? n : `${n} (${count})`;
  });
};

/** The first cell of a kind of note, and how many there were, per column. */
interface NoteTally {
  count: number;
  row: number;
  text: string;
  read: string;
}

const usDate = (iso: string) => `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`;

/**
 * Header detection and row extraction over rows as they are read; also counts the values that
 * had to be interpreted (a two-digit year, a decimal comma) for the mapping step's notes.
 */
export class SheetRows {
  /** 0 until the header row is found (and for good when none of the first 20 rows is one). */
  headerRow = 0;
  columns: string[] = [];
  private colIndexes: number[] = [];
  /** The first rows, kept until the header is chosen; null once it is. */
  private pending: RawRow[] | null = [];
  private readonly tallies = new Map<string, NoteTally>();

  constructor(
    readonly name: string,
    readonly kind: SheetKind,
    readonly reading: SheetReading = {},
  ) {}

  /** The data rows this row makes ready: none while the header is still being looked for. */
  add(r: RawRow): ParsedRow[] {
    if (this.pending) {
      if (r.row <= HEADER_SCAN_ROWS) {
        this.pending.push(r);
        // Every default name: no later row can do better.
        if (headerScore(r.values, this.kind) < DEFAULT_NAMES[this.kind].size) return [];
      }
      const out = this.choose();
      if (r.row > HEADER_SCAN_ROWS) this.take(r, out);
      return out;
    }
    const out: ParsedRow[] = [];
    this.take(r, out);
    return out;
  }

  /** The end of the sheet: the rows still waiting for the header's choice. */
  end(): ParsedRow[] {
    return this.pending ? this.choose() : [];
  }

  /** Choose the header among the pending rows; the rows below it are data. */
  private choose(): ParsedRow[] {
    const rows = this.pending!;
    this.pending = null;
    let best = -1;
    let bestScore = HEADER_MIN_NAMES - 1;
    rows.forEach((r, i) => {
      const score = headerScore(r.values, this.kind);
      if (score > bestScore) [best, bestScore] = [i, score];
    });
    if (best < 0) best = rows.findIndex((r) => isTextRow(r.values));
    if (best < 0) return [];
    const header = rows[best];
    this.headerRow = header.row;
    const names: string[] = [];
    header.values.forEach((v, i) => {
      const text = v == null ? null : headerText(v);
      if (text) {
        this.colIndexes.push(i);
        names.push(text);
      }
    });
    this.columns = uniqueNames(names);
    const out: ParsedRow[] = [];
    for (const r of rows.slice(best + 1)) this.take(r, out);
    return out;
  }

  private take(r: RawRow, out: ParsedRow[]) {
    if (!this.headerRow) return;
    const cells = this.colIndexes.map((i) => r.values[i] ?? null);
    if (!cells.some((c) => c !== null)) return;
    cells.forEach((c, i) => this.tally(r.row, i, c));
    out.push({ row: r.row, cells });
  }

  private tally(row: number, column: number, c: CellValue) {
    if (typeof c !== 'string') return;
    const note = (kind: ReadNoteKind, read: string) => {
      const key = `${kind}\u0000${column}`;
      const t = this.tallies.get(key);
      if (t) t.count++;
      else this.tallies.set(key, { count: 1, row, text: c, read });
    };
    if (TWO_DIGIT_YEAR.test(c)) {
      const d = importDate(c, this.reading.date1904);
      if (d?.ok) note('two_digit_year', usDate(d.date));
    } else if (this.reading.decimalComma && hasDecimalComma(c)) {
      const n = cellNumber(c, true);
      if (Number.isFinite(n)) note('decimal_comma', String(n));
    }
  }

  /** What was interpreted, a note per column and kind, in column order. */
  notes(): ReadNote[] {
    const out: (ReadNote & { at: number })[] = [];
    for (const [key, t] of this.tallies) {
      const [kind, col] = key.split('\u0000') as [ReadNoteKind, string];
      const column = this.columns[Number(col)];
      const many = t.count > 1;
      const message =
        kind === 'two_digit_year'
          ? `${column}: ${t.count} ${many ? 'dates have' : 'date has'} a two-digit year, read as 20YY (row ${t.row}: ${t.text} is ${t.read}).`
          : `${column}: ${t.count} ${many ? 'numbers have' : 'number has'} a decimal comma (row ${t.row}: ${t.text} is ${t.read}).`;
      out.push({ kind, sheet: this.name, column, count: t.count, message, at: Number(col) });
    }
    return out.sort((a, b) => a.at - b.at || a.kind.localeCompare(b.kind)).map(({ at: _at, ...n }) => n);
  }

  /** The sheet whole, once read: what the converter takes. */
  sheet(rows: ParsedRow[]): ParsedSheet {
    return { name: this.name, headerRow: this.headerRow, columns: this.columns, rows, ...this.reading, notes: this.notes() };
  }
}

/** A whole sheet through SheetRows. */
export function buildSheet(name: string, kind: SheetKind, rows: Iterable<RawRow>, reading: SheetReading = {}): ParsedSheet {
  const sheet = new SheetRows(name, kind, reading);
  const out: ParsedRow[] = [];
  for (const r of rows) out.push(...sheet.add(r));
  out.push(...sheet.end());
  return sheet.sheet(out);
}

/** Does this sheet have a header row in its first rows? (for choosing the sheets by their content) */
export function hasHeaderRow(rows: readonly RawRow[], kind: SheetKind): boolean {
  return rows.some((r) => r.row <= HEADER_SCAN_ROWS && headerScore(r.values, kind) >= HEADER_MIN_NAMES);
}
