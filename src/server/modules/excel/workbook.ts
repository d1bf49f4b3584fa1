import path from 'node:path';
import { Readable } from 'node:stream';
import type ExcelJS from 'exceljs';
import { LIMITS } from '../../../shared/constants';
import { toIsoDate } from '../../../shared/dates';
import type { CellValue, ParsedSheet, ParsedWorkbook, WorkbookColumns } from '../../../shared/excel';
import { MSG } from '../../../shared/messages';
import { ERROR_CODE } from '../../../shared/error-codes';
import { AppError, unprocessable } from '../../errors';
import { entryText, readZipDirectory, type ZipEntry } from './zip-check';

/**
 * exceljs is ~200 ms of module loading: only the import worker (and the rare fallback on the
 * server's thread) reads workbooks, so the server's start and every test that builds the app do
 * not pay for it up front.
 */
const loadExcelJs = () => import('exceljs');

/**
 * Reading a ticket workbook (DESIGN §4 Excel workbook): .xlsx through exceljs, .csv through a
 * small RFC 4180 reader, legacy .xls refused by its magic bytes (exceljs would either throw an
 * obscure zip error or, as CSV, return junk — STACK-NOTES).
 */

const OLE_MAGIC = Buffer.from([0xd0, 0xcf, 0x11, 0xe0]);
const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
/** DESIGN §4: the header row is the first row with at least this many non-empty cells. */
const HEADER_MIN_CELLS = 3;

export type WorkbookFormat = 'xlsx' | 'xls' | 'csv' | 'unknown';

/** What the first bytes say the file is. */
export function sniffFormat(buf: Buffer): WorkbookFormat {
  if (buf.length >= 4 && buf.subarray(0, 4).equals(OLE_MAGIC)) return 'xls';
  if (buf.length >= 4 && buf.subarray(0, 4).equals(ZIP_MAGIC)) return 'xlsx';
  const head = buf.subarray(0, 64 * 1024);
  // Text without NUL bytes that decodes as UTF-8 is taken as CSV.
  if (head.length > 0 && !head.includes(0)) {
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(cutAtCharBoundary(head, buf.length));
      return 'csv';
    } catch {
      return 'unknown';
    }
  }
  return 'unknown';
}

/** A prefix of a UTF-8 buffer must not end inside a multi-byte character before decoding. */
function cutAtCharBoundary(head: Buffer, fullLength: number): Buffer {
  if (head.length === fullLength) return head;
  let end = head.length;
  while (end > 0 && end > head.length - 4 && (head[end - 1] & 0xc0) === 0x80) end--;
  if (end > 0 && head[end - 1] >= 0xc0) end--;
  return head.subarray(0, end);
}

/**
 * What one workbook may cost (a 1 MB file that unzipped to 250 MB took 20 s and
 * 1.3 GB). The unzipped size is checked before anything is parsed; rows and cells are counted
 * while the sheets stream and reading stops at the first one too many.
 */
export interface WorkbookLimits {
  /** Bytes of the unzipped parts of a .xlsx, or of a CSV (IMPORT_MAX_UNZIPPED_MB). */
  maxUnzippedBytes: number;
  /** Rows with content, per sheet read. A 10,000-row job is the largest seen. */
  maxRows: number;
  /** Non-empty cells of the sheets read, together. */
  maxCells: number;
}

export const DEFAULT_WORKBOOK_LIMITS: WorkbookLimits = { maxUnzippedBytes: 50 * 1024 * 1024, maxRows: 20_000, maxCells: 1_000_000 };

const tooLarge = (limits: WorkbookLimits) => new AppError(413, MSG.excelTooLarge(Math.round(limits.maxUnzippedBytes / (1024 * 1024))));

/** Counts rows and cells as they are read; throws the 422 at the first one over the limit. */
class Budget {
  private cells = 0;
  constructor(private readonly limits: WorkbookLimits) {}
  sheet() {
    let rows = 0;
    return (filledCells: number) => {
      if (++rows > this.limits.maxRows) throw unprocessable(MSG.excelTooManyRows(this.limits.maxRows), ERROR_CODE.workbookLimit);
      this.cells += filledCells;
      if (this.cells > this.limits.maxCells) throw unprocessable(MSG.excelTooManyCells(this.limits.maxCells), ERROR_CODE.workbookLimit);
    };
  }
}

/** Parse a workbook or CSV; throws 422 with the SPEC §5 message when it cannot be read. */
export async function parseWorkbook(buf: Buffer, limits: WorkbookLimits = DEFAULT_WORKBOOK_LIMITS): Promise<ParsedWorkbook> {
  const format = sniffFormat(buf);
  if (format === 'xls') throw unprocessable(MSG.excelLegacyXls);
  if (format === 'csv') {
    if (buf.length > limits.maxUnzippedBytes) throw tooLarge(limits);
    return { format: 'csv', tickets: parseCsv(buf.toString('utf8'), 'CSV', limits), library: null };
  }
  if (format !== 'xlsx') throw unprocessable(MSG.excelUnparsable);

  const entries = await xlsxEntries(buf, limits);
  let sheets: PickedSheets;
  try {
    sheets = await withDeadline(readXlsxSheets(buf, limits, entries), READ_DEADLINE_MS);
  } catch (err) {
    // A limit reached is the answer; anything else and the streaming reader is the fast path,
    // not the only one: give the whole-model loader a chance before calling the file unparsable.
    if (err instanceof AppError) throw err;
    sheets = await readXlsxSheetsWhole(buf, limits).catch((wholeErr: unknown) => {
      throw wholeErr instanceof AppError ? wholeErr : unprocessable(MSG.excelUnparsable);
    });
  }
  return {
    format: 'xlsx',
    tickets: buildSheet(sheets.tickets.name, sheets.tickets.rows),
    library: sheets.library && buildSheet(sheets.library.name, sheets.library.rows),
  };
}

/** The parts of a .xlsx, its unzipped size checked (413 over the limit, 422 when not a whole zip). */
export async function xlsxEntries(buf: Buffer, limits: WorkbookLimits): Promise<ZipEntry[]> {
  const zip = await readZipDirectory(buf, limits.maxUnzippedBytes);
  if (!zip.ok) throw zip.reason === 'too-large' ? tooLarge(limits) : unprocessable(MSG.excelUnparsable);
  return zip.entries;
}

export interface RawRow {
  row: number;
  /** Cells by 1-based column number. */
  values: CellValue[];
  /** Non-empty cells, for the header rule. */
  headerCandidates: number;
}
interface RawSheet {
  name: string;
  rows: RawRow[];
}
/** The two sheets DESIGN §4 reads (pickSheets); the others are never parsed. */
interface PickedSheets {
  tickets: RawSheet;
  library: RawSheet | null;
}

/** Last line of defence against a reader that never settles; whole zips read in ~1 s per 10,000 rows. */
export const READ_DEADLINE_MS = 120_000;

export function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('workbook read timed out')), ms);
    timer.unref();
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

/**
 * exceljs's streaming WorkbookReader, minus its zip handling. Its own `parse()` reads the zip
 * with unzipper front to back and, when the worksheets come before xl/workbook.xml (openpyxl),
 * parks them in temporary files; its entry iterator stops at the zip's 'end' event, which
 * unzipper emits as soon as the last byte is parsed — entries still queued behind a paused
 * iterator (xl/workbook.xml, its relationships, later sheets) were silently dropped whenever
 * the parser outran a temporary file's write: no model, no sheet names, no error.
 * Here the zip's directory (already checked) says where each part is, and the reader's own
 * part parsers (exceljs is pinned at 4.4.0) get them in the order they need: relationships,
 * workbook, shared strings, styles, then the sheets, straight from memory.
 */
interface ReaderInternals {
  model?: { sheets?: { id: number; name: string; rId: string }[] };
  workbookRels?: { Id: string; Target: string; Type?: string }[];
  _parseRels(entry: Readable): Promise<void>;
  _parseWorkbook(entry: Readable): Promise<void>;
  _parseSharedStrings(entry: Readable): AsyncGenerator<unknown>;
  _parseStyles(entry: Readable): Promise<void>;
  _parseWorksheet(text: AsyncIterable<string>, sheetNo: string): Generator<{ value: StreamWorksheet }>;
}
interface StreamWorksheet extends AsyncIterable<ExcelJS.Row> {
  name: string;
}

/** A relationship target as a zip path: absolute ('/xl/worksheets/sheet1.xml', openpyxl) or relative to xl/. */
const partPath = (target: string) => (target.startsWith('/') ? target.slice(1) : path.posix.normalize(`xl/${target}`));

/** A workbook opened for exceljs's streaming parsers: which sheets DESIGN §4 reads, and a reader of their rows. */
interface XlsxBook {
  picked: { tickets: number; library: number | null };
  names: string[];
  /** Sheet `index`'s rows with content go to `onRow` as they are parsed. Rows and cells count against the limits. */
  read(index: number, onRow: (row: RawRow) => void): Promise<void>;
}

async function openXlsx(buf: Buffer, limits: WorkbookLimits, entries: ZipEntry[]): Promise<XlsxBook> {
  const parts = new Map(entries.map((e) => [e.name, e]));
  const part = (name: string) => {
    const entry = parts.get(name);
    return entry && Readable.from(entryText(buf, entry));
  };
  const { default: Excel } = await loadExcelJs();
  const reader = new Excel.stream.xlsx.WorkbookReader(Readable.from([]), {
    sharedStrings: 'cache',
    styles: 'cache', // needed to see which numbers are dates
    hyperlinks: 'ignore', // a hyperlink cell's text is its value already
    worksheets: 'emit',
    entries: 'ignore',
  }) as unknown as ReaderInternals;

  const rels = part('xl/_rels/workbook.xml.rels');
  const workbook = part('xl/workbook.xml');
  if (!rels || !workbook) throw new Error('no xl/workbook.xml: a zip, but not a workbook');
  await reader._parseRels(rels);
  await reader._parseWorkbook(workbook);
  const relOf = (type: string) => reader.workbookRels?.find((r) => r.Type?.endsWith(`/${type}`));
  const sharedStrings = part(partPath(relOf('sharedStrings')?.Target ?? 'sharedStrings.xml'));
  if (sharedStrings) for await (const _ of reader._parseSharedStrings(sharedStrings)); // 'cache': fills the reader's table
  const styles = part(partPath(relOf('styles')?.Target ?? 'styles.xml'));
  if (styles) await reader._parseStyles(styles);

  const model = reader.model?.sheets ?? [];
  if (model.length === 0) throw new Error('the workbook lists no sheets');
  const budget = new Budget(limits);
  const read = async (index: number, onRow: (row: RawRow) => void) => {
    const sheet = model[index];
    const target = reader.workbookRels?.find((r) => r.Id === sheet.rId)?.Target;
    const entry = target === undefined ? undefined : parts.get(partPath(target));
    if (!entry) throw new Error(`sheet '${sheet.name}' has no part in the zip`);
    const [{ value: ws }] = [...reader._parseWorksheet(entryText(buf, entry), String(sheet.id))];
    const count = budget.sheet();
    for await (const row of ws) {
      const raw = row.values as unknown[];
      const values: CellValue[] = [];
      let headerCandidates = 0;
      for (let c = 1; c < raw.length; c++) {
        const v = normaliseCell(raw[c]);
        if (v !== null) {
          values[c] = v;
          headerCandidates++;
        }
      }
      if (headerCandidates > 0) {
        count(headerCandidates);
        onRow({ row: row.number, values, headerCandidates });
      }
    }
  };
  const names = model.map((m) => m.name);
  return { picked: pickSheets(names), names, read };
}

/** One sheet's rows with content, whole. */
async function collect(book: XlsxBook, index: number): Promise<RawSheet> {
  const rows: RawRow[] = [];
  await book.read(index, (r) => rows.push(r));
  return { name: book.names[index], rows };
}

/** Rows of the tickets and library sheets (pickSheets), through exceljs's streaming parsers. */
export async function readXlsxSheets(buf: Buffer, limits: WorkbookLimits = DEFAULT_WORKBOOK_LIMITS, entries?: ZipEntry[]): Promise<PickedSheets> {
  if (!entries) {
    const zip = await readZipDirectory(buf, limits.maxUnzippedBytes);
    if (!zip.ok) throw new Error(`not a whole zip (${zip.reason})`);
    entries = zip.entries;
  }
  const book = await openXlsx(buf, limits, entries);
  const tickets = await collect(book, book.picked.tickets);
  return { tickets, library: book.picked.library === null ? null : await collect(book, book.picked.library) };
}

/** Where streamXlsx sends what it reads. */
export interface SheetSink {
  /** The library sheet, whole (null for a one-sheet workbook): first, before any ticket row. */
  library(sheet: ParsedSheet | null): void;
  /** The tickets sheet's header, once found. */
  header(sheet: SheetRows): void;
  /** Each data row of the tickets sheet, as soon as it is parsed. */
  row(row: ParsedRow): void;
}

/**
 * The streaming read of an import (the worker's): the library sheet whole, then the tickets
 * sheet a row at a time, so rows can be converted and sent on while the rest is read. Returns
 * the tickets sheet (its header; headerRow 0 when it has none). AppErrors are the limits; any
 * other error means this reader could not read the file (parseWorkbook's whole loader may).
 */
export async function streamXlsx(buf: Buffer, limits: WorkbookLimits, entries: ZipEntry[], sink: SheetSink): Promise<SheetRows> {
  const book = await openXlsx(buf, limits, entries);
  const { library } = book.picked;
  const whole = library === null ? null : await collect(book, library);
  sink.library(whole && buildSheet(whole.name, whole.rows));
  const tickets = new SheetRows(book.names[book.picked.tickets]);
  await book.read(book.picked.tickets, (raw) => {
    const hadHeader = tickets.headerRow > 0;
    const row = tickets.add(raw);
    if (!hadHeader && tickets.headerRow > 0) sink.header(tickets);
    if (row) sink.row(row);
  });
  return tickets;
}

/**
 * The same with exceljs's whole-workbook loader (slower, holds every sheet in memory: the
 * unzipped-size check before it bounds what it can take).
 */
export async function readXlsxSheetsWhole(buf: Buffer, limits: WorkbookLimits = DEFAULT_WORKBOOK_LIMITS): Promise<PickedSheets> {
  const { default: Excel } = await loadExcelJs();
  const workbook = new Excel.Workbook();
  await workbook.xlsx.load(buf as unknown as ArrayBuffer);
  const sheets = workbook.worksheets;
  if (sheets.length === 0) throw new Error('no sheets');
  const picked = pickSheets(sheets.map((s) => s.name));
  const budget = new Budget(limits);
  const read = (sheet: ExcelJS.Worksheet): RawSheet => {
    const count = budget.sheet();
    const rows: RawRow[] = [];
    sheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
      const values: CellValue[] = [];
      let headerCandidates = 0;
      row.eachCell({ includeEmpty: false }, (cell, col) => {
        // Merged cells repeat their master's value here; the streaming reader leaves them empty.
        if (cell.type === Excel.ValueType.Merge) return;
        const v = normaliseCell(cell.value);
        if (v !== null) {
          values[col] = v;
          headerCandidates++;
        }
      });
      if (headerCandidates > 0) {
        count(headerCandidates);
        rows.push({ row: rowNumber, values, headerCandidates });
      }
    });
    return { name: sheet.name, rows };
  };
  return { tickets: read(sheets[picked.tickets]), library: picked.library === null ? null : read(sheets[picked.library]) };
}

const squash = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * DESIGN §4: tickets = the sheet named like "unit tracking", else the first; library = the one
 * named like "unit library", else the second (or, when tickets was found further right, the
 * first other sheet). Indexes into `names`; library is null for a one-sheet workbook.
 */
export function pickSheets(names: readonly string[]): { tickets: number; library: number | null } {
  const named = (word: string) => names.findIndex((n) => squash(n).includes(word));
  const t = named('unittracking');
  const l = named('unitlibrary');
  // Without a "unit tracking" sheet, the first sheet, unless that one is the named library.
  const firstOther = (not: number) => names.findIndex((_, i) => i !== not);
  const tickets = t >= 0 ? t : l === 0 && names.length > 1 ? firstOther(0) : 0;
  if (l >= 0 && l !== tickets) return { tickets, library: l };
  const other = firstOther(tickets);
  return { tickets, library: other >= 0 ? other : null };
}

/** Excel-like display of a cell value as text or number; dates become 'YYYY-MM-DD'. */
export function normaliseCell(value: unknown): CellValue {
  if (value == null) return null;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string') {
    const s = value.trim();
    return s === '' ? null : s;
  }
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) return toIsoDate(value);
  if (typeof value === 'object') {
    const v = value as Record<string, unknown>;
    if (Array.isArray(v.richText)) {
      return normaliseCell((v.richText as { text?: string }[]).map((r) => r.text ?? '').join(''));
    }
    if ('formula' in v || 'sharedFormula' in v || 'result' in v) return normaliseCell(v.result);
    if ('hyperlink' in v || 'text' in v) return normaliseCell(v.text);
    // { error: '#N/A' } and anything else unknown: empty, as a person would not use it.
    return null;
  }
  return null;
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

const headerText = (v: CellValue) => (v === null ? null : String(v).replace(/\s+/g, ' ').trim().slice(0, LIMITS.shortTextMax) || null);

export type ParsedRow = ParsedSheet['rows'][number];

/**
 * Header detection and row extraction over rows as they are read: the header is the first row
 * with at least HEADER_MIN_CELLS non-empty cells; the rows below it become cells by column.
 */
export class SheetRows {
  /** 0 until the header row is found. */
  headerRow = 0;
  columns: string[] = [];
  private colIndexes: number[] = [];
  constructor(readonly name: string) {}

  /** A row's cells by column; null for the rows down to the header and for empty ones. */
  add(r: RawRow): ParsedRow | null {
    if (!this.headerRow) {
      if (r.headerCandidates < HEADER_MIN_CELLS) return null;
      this.headerRow = r.row;
      const names: string[] = [];
      r.values.forEach((v, i) => {
        const text = headerText(v);
        if (text) {
          this.colIndexes.push(i);
          names.push(text);
        }
      });
      this.columns = uniqueNames(names);
      return null;
    }
    const cells = this.colIndexes.map((i) => r.values[i] ?? null);
    return cells.some((c) => c !== null) ? { row: r.row, cells } : null;
  }
}

/** A whole sheet through SheetRows. */
function buildSheet(name: string, rows: Iterable<RawRow>): ParsedSheet {
  const sheet = new SheetRows(name);
  const out: ParsedRow[] = [];
  for (const r of rows) {
    const row = sheet.add(r);
    if (row) out.push(row);
  }
  return { name, headerRow: sheet.headerRow, columns: sheet.columns, rows: out };
}

/** RFC 4180 CSV (quotes, doubled quotes, newlines in quotes, CRLF, BOM); ',' ';' or tab. */
export function parseCsvRows(text: string): string[][] {
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  const counts = [',', ';', '\t'].map((d) => [d, firstLine.split(d).length] as const);
  const delim = counts.reduce((a, b) => (b[1] > a[1] ? b : a))[0];
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += ch;
    } else if (ch === '"' && field === '') quoted = true;
    else if (ch === delim) {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += ch;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

export function parseCsv(text: string, name = 'CSV', limits: WorkbookLimits = DEFAULT_WORKBOOK_LIMITS): ParsedSheet {
  const rows = parseCsvRows(text);
  const count = new Budget(limits).sheet();
  return buildSheet(
    name,
    rows.map((cells, i) => {
      const values: CellValue[] = [];
      let headerCandidates = 0;
      cells.forEach((c, j) => {
        const v = normaliseCell(c);
        values[j + 1] = v;
        if (v !== null) headerCandidates++;
      });
      if (headerCandidates > 0) count(headerCandidates);
      return { row: i + 1, values, headerCandidates };
    }),
  );
}

/** The two header lists of getColumns. */
export function columnsOf(parsed: ParsedWorkbook): WorkbookColumns {
  return { jobColumns: parsed.tickets.columns, libraryColumns: parsed.library?.columns ?? [] };
}

/** SPEC §5/§9: at least 9 ticket columns, else 422 with the SPEC message. */
export function assertTicketColumns(parsed: ParsedWorkbook): void {
  if (parsed.tickets.columns.length < LIMITS.minJobColumns) throw unprocessable(MSG.tooFewJobColumns);
}

/** SPEC §5/§9: at least 9 ticket columns and 7 library columns. */
export function assertEnoughColumns(parsed: ParsedWorkbook): void {
  assertTicketColumns(parsed);
  if ((parsed.library?.columns.length ?? 0) < LIMITS.minLibraryColumns) throw unprocessable(MSG.tooFewLibraryColumns);
}
