import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { LIMITS } from '../../../shared/constants';
import { toIsoDate } from '../../../shared/dates';
import type { CellValue, ParsedSheet, ParsedWorkbook, WorkbookColumns } from '../../../shared/excel';
import { MSG } from '../../../shared/messages';
import { unprocessable } from '../../errors';
import { isWholeZip } from './zip-check';

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

/** Parse a workbook or CSV; throws 422 with the SPEC §5 message when it cannot be read. */
export async function parseWorkbook(buf: Buffer): Promise<ParsedWorkbook> {
  const format = sniffFormat(buf);
  if (format === 'xls') throw unprocessable(MSG.excelLegacyXls);
  if (format === 'csv') return { format: 'csv', tickets: parseCsv(buf.toString('utf8')), library: null };
  if (format !== 'xlsx') throw unprocessable(MSG.excelUnparsable);

  if (!(await isWholeZip(buf))) throw unprocessable(MSG.excelUnparsable);
  let sheets: RawSheet[];
  try {
    sheets = await withDeadline(readXlsxSheets(buf), READ_DEADLINE_MS);
  } catch {
    // The streaming reader is the fast path, not the only one: give the whole-model loader a
    // chance before calling the file unparsable.
    try {
      sheets = await readXlsxSheetsWhole(buf);
    } catch {
      throw unprocessable(MSG.excelUnparsable);
    }
  }
  if (sheets.length === 0) throw unprocessable(MSG.excelUnparsable);
  const { tickets, library } = pickSheets(sheets.map((s) => s.name));
  return {
    format: 'xlsx',
    tickets: buildSheet(sheets[tickets].name, sheets[tickets].rows),
    library: library === null ? null : buildSheet(sheets[library].name, sheets[library].rows),
  };
}

interface RawRow {
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

/** Last line of defence against a reader that never settles; whole zips read in ~1 s per 10,000 rows. */
const READ_DEADLINE_MS = 120_000;

function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('workbook read timed out')), ms);
    timer.unref();
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

/** Feed the parser in slices so that unzipping never holds the event loop for long. */
function* slices(buf: Buffer, size = 64 * 1024) {
  for (let i = 0; i < buf.length; i += size) yield buf.subarray(i, i + size);
}

/**
 * Every sheet's rows, in tab order, with exceljs's streaming reader: it parses in small async
 * steps (other requests keep being served while a 10,000-row workbook is read) and is about
 * twice as fast as loading the whole workbook model.
 */
export async function readXlsxSheets(buf: Buffer): Promise<RawSheet[]> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from(slices(buf)), {
    sharedStrings: 'cache',
    styles: 'cache', // needed to see which numbers are dates
    hyperlinks: 'ignore', // a hyperlink cell's text is its value already
    worksheets: 'emit',
    entries: 'ignore',
  });
  const found: { id: unknown; name: string; rows: RawRow[] }[] = [];
  for await (const ws of reader as AsyncIterable<StreamWorksheet>) {
    const rows: RawRow[] = [];
    for await (const row of ws) {
      const values: CellValue[] = [];
      let headerCandidates = 0;
      const raw = row.values as unknown[];
      for (let c = 1; c < raw.length; c++) {
        const v = normaliseCell(raw[c]);
        if (v !== null) {
          values[c] = v;
          headerCandidates++;
        }
      }
      if (headerCandidates > 0) rows.push({ row: row.number, values, headerCandidates });
    }
    found.push({ id: ws.id, name: ws.name, rows });
  }
  // No xl/workbook.xml: a zip, but not a workbook.
  if (!(reader as unknown as ReaderInternals).model) return [];
  return inTabOrder(found, reader as unknown as ReaderInternals);
}

/** The same with exceljs's whole-workbook loader (slower, holds the event loop longer). */
export async function readXlsxSheetsWhole(buf: Buffer): Promise<RawSheet[]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(buf as unknown as ArrayBuffer);
  return workbook.worksheets.map((sheet) => {
    const rows: RawRow[] = [];
    sheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
      const values: CellValue[] = [];
      let headerCandidates = 0;
      row.eachCell({ includeEmpty: false }, (cell, col) => {
        // Merged cells repeat their master's value here; the streaming reader leaves them empty.
        if (cell.type === ExcelJS.ValueType.Merge) return;
        const v = normaliseCell(cell.value);
        if (v !== null) {
          values[col] = v;
          headerCandidates++;
        }
      });
      if (headerCandidates > 0) rows.push({ row: rowNumber, values, headerCandidates });
    });
    return { name: sheet.name, rows };
  });
}

interface StreamWorksheet extends AsyncIterable<ExcelJS.Row> {
  id: unknown;
  name: string;
}
interface ReaderInternals {
  model?: { sheets?: { id: unknown; name: string; rId: string }[] };
  workbookRels?: { Id: string; Target: string }[];
}

/**
 * The streaming reader names a sheet only when the workbook's relationship targets are relative
 * ('worksheets/sheet1.xml'); openpyxl writes absolute ones ('/xl/worksheets/sheet1.xml'), and
 * the sheets then come out as 'Sheet1'…, in file order. Resolve names and tab order ourselves.
 */
function inTabOrder(found: { id: unknown; name: string; rows: RawRow[] }[], reader: ReaderInternals): RawSheet[] {
  const model = reader.model?.sheets ?? [];
  const rels = reader.workbookRels ?? [];
  const target = (t: string) => t.replace(/^\/?(xl\/)?/, '');
  const placed = found.map((f, fileOrder) => {
    let index = model.findIndex((m) => m.id === f.id && m.name === f.name);
    if (index < 0) {
      const rel = rels.find((r) => target(r.Target) === `worksheets/sheet${String(f.id)}.xml`);
      index = rel ? model.findIndex((m) => m.rId === rel.Id) : -1;
    }
    return { name: index >= 0 ? model[index].name : f.name, rows: f.rows, order: index >= 0 ? index : model.length + fileOrder };
  });
  return placed.sort((a, b) => a.order - b.order).map(({ name, rows }) => ({ name, rows }));
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

/** Header detection and row extraction over rows given as (row number, cells by 1-based column). */
function buildSheet(name: string, rows: Iterable<RawRow>): ParsedSheet {
  let headerRow = 0;
  const colIndexes: number[] = [];
  let columns: string[] = [];
  const out: ParsedSheet['rows'] = [];
  for (const r of rows) {
    if (!headerRow) {
      if (r.headerCandidates < HEADER_MIN_CELLS) continue;
      headerRow = r.row;
      const names: string[] = [];
      r.values.forEach((v, i) => {
        const text = headerText(v);
        if (text) {
          colIndexes.push(i);
          names.push(text);
        }
      });
      columns = uniqueNames(names);
      continue;
    }
    const cells = colIndexes.map((i) => r.values[i] ?? null);
    if (cells.some((c) => c !== null)) out.push({ row: r.row, cells });
  }
  return { name, headerRow, columns, rows: out };
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

export function parseCsv(text: string, name = 'CSV'): ParsedSheet {
  const rows = parseCsvRows(text);
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
