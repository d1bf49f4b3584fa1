import { LIMITS } from '../../../../shared/constants';
import type { ParsedSheet, ParsedWorkbook, ReadNote, SheetChoice, SheetUsed, WorkbookColumns } from '../../../../shared/excel';
import { ERROR_CODE } from '../../../../shared/error-codes';
import { sniffFileKind, SNIFF_BYTES, wrongKindMessage, ZIP_WITHOUT_WORKBOOK } from '../../../../shared/file-kinds';
import { MSG } from '../../../../shared/messages';
import { AppError, unprocessable } from '../../../errors';
import { parseCsv } from './csv';
import { DEFAULT_WORKBOOK_LIMITS, READ_DEADLINE_MS, tooLarge, withDeadline, type WorkbookLimits } from './limits';
import { readXlsxSheets, readXlsxSheetsWhole, type PickedSheets } from './xlsx';
import { readZipDirectory, type ZipEntry } from './zip-check';

export { DEFAULT_WORKBOOK_LIMITS, READ_DEADLINE_MS, withDeadline, type WorkbookLimits } from './limits';

/**
 * Reading a ticket workbook (docs/product/imports.md §9): .xlsx through exceljs (xlsx.ts), CSV through
 * csv.ts; a legacy .xls or an OpenDocument .ods refused by their first bytes, naming their kind
 * (exceljs would throw an obscure zip error or, as CSV, return junk — STACK-NOTES).
 */

const OLE_MAGIC = Buffer.from([0xd0, 0xcf, 0x11, 0xe0]);
const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
/** An OpenDocument zip starts with its stored 'mimetype' entry (ODF 1.2 §3.3). */
const ODS_MIME = 'application/vnd.oasis.opendocument.spreadsheet';

export type WorkbookFormat = 'xlsx' | 'xls' | 'ods' | 'csv' | 'unknown';

/** What the first bytes say the file is. */
export function sniffFormat(buf: Buffer): WorkbookFormat {
  if (buf.length >= 4 && buf.subarray(0, 4).equals(OLE_MAGIC)) return 'xls';
  if (buf.length >= 4 && buf.subarray(0, 4).equals(ZIP_MAGIC)) {
    const head = buf.subarray(30, 30 + 8 + ODS_MIME.length).toString('latin1');
    return head.startsWith('mimetype') && head.includes('opendocument.spreadsheet') ? 'ods' : 'xlsx';
  }
  const head = buf.subarray(0, 64 * 1024);
  // Text (UTF-8 or Windows-1252: csv.ts decodes it) has no NUL bytes; a PDF is not a CSV, and
  // neither is a web page or other markup (docs/product/sessions-and-safety.md §10 file kinds).
  if (head.length > 0 && !head.includes(0) && sniffFileKind(head) === 'text') return 'csv';
  return 'unknown';
}

/**
 * The one answer every route gives a file of another kind: .xls and .ods named by their own 422
 * (docs/product/imports.md §10 "other kinds"); anything else that is no workbook at all (a PDF, a web page,
 * binary) a 415 naming the kinds expected (docs/product/sessions-and-safety.md §10 "file kinds").
 */
function refuseKind(format: WorkbookFormat, buf: Buffer): never {
  if (format === 'xls') throw unprocessable(MSG.excelLegacyXls, ERROR_CODE.workbookKind);
  if (format === 'ods') throw unprocessable(MSG.excelOds, ERROR_CODE.workbookKind);
  throw notAWorkbook(sniffFileKind(buf.subarray(0, SNIFF_BYTES)));
}

const notAWorkbook = (found: Parameters<typeof wrongKindMessage>[2]) =>
  new AppError(415, wrongKindMessage('spreadsheet', 'excel', found), undefined, ERROR_CODE.workbookKind);

/** Parse a workbook or CSV; throws 422 with a message naming the cause when it cannot be read. */
export async function parseWorkbook(buf: Buffer, limits: WorkbookLimits = DEFAULT_WORKBOOK_LIMITS, choice?: SheetChoice): Promise<ParsedWorkbook> {
  const format = sniffFormat(buf);
  if (format === 'csv') {
    if (buf.length > limits.maxUnzippedBytes) throw tooLarge(limits);
    const { sheet, encoding } = parseCsv(buf, limits);
    return { format: 'csv', tickets: sheet, library: null, sheets: [{ name: sheet.name, hidden: false }], ...(encoding && { encoding }) };
  }
  if (format !== 'xlsx') refuseKind(format, buf);

  const entries = await xlsxEntries(buf, limits);
  let sheets: PickedSheets;
  try {
    sheets = await withDeadline(readXlsxSheets(buf, limits, entries, choice), READ_DEADLINE_MS);
  } catch (err) {
    // A limit reached is the answer; anything else and the streaming reader is the fast path,
    // not the only one: give the whole-model loader a chance before calling the file unparsable.
    if (err instanceof AppError) throw err;
    sheets = await readXlsxSheetsWhole(buf, limits, choice).catch((wholeErr: unknown) => {
      throw wholeErr instanceof AppError ? wholeErr : unprocessable(MSG.excelUnparsable, ERROR_CODE.workbookKind);
    });
  }
  return { format: 'xlsx', ...sheets };
}

/** The parts of a .xlsx, its unzipped size checked (413 over the limit, 422 when not a whole zip). */
export async function xlsxEntries(buf: Buffer, limits: WorkbookLimits): Promise<ZipEntry[]> {
  const zip = await readZipDirectory(buf, limits.maxUnzippedBytes);
  if (!zip.ok) throw zip.reason === 'too-large' ? tooLarge(limits) : unprocessable(MSG.excelUnparsable, ERROR_CODE.workbookKind);
  // A whole zip that is not a workbook (a Word document, a zipped folder): no kind we read.
  if (!zip.entries.some((e) => e.name === 'xl/workbook.xml')) throw notAWorkbook({ words: ZIP_WITHOUT_WORKBOOK });
  return zip.entries;
}

const used = (s: ParsedSheet): SheetUsed => ({ name: s.name, headerRow: s.headerRow, rows: s.rows.length });

/** The mapping step's view of a parsed workbook (getColumns): headers, sheets, and what was interpreted. */
export function columnsOf(parsed: ParsedWorkbook): WorkbookColumns {
  const notes: ReadNote[] = [];
  if (parsed.encoding === 'windows-1252') {
    notes.push({ kind: 'windows_1252', sheet: parsed.tickets.name, column: null, count: 1, message: MSG.excelReadAsWindows1252 });
  }
  notes.push(...(parsed.tickets.notes ?? []), ...(parsed.library?.notes ?? []));
  return {
    jobColumns: parsed.tickets.columns,
    libraryColumns: parsed.library?.columns ?? [],
    sheets: parsed.sheets ?? [{ name: parsed.tickets.name, hidden: false }],
    tickets: used(parsed.tickets),
    library: parsed.library && used(parsed.library),
    notes,
  };
}

/** docs/product/imports.md §3, rules.md §6: a header row and at least 9 ticket columns, else 422 naming the sheet and row. */
export function assertTicketColumns(parsed: Pick<ParsedWorkbook, 'tickets'>): void {
  const t = parsed.tickets;
  if (!t.headerRow) throw unprocessable(MSG.excelNoHeader(t.name, 'tickets'));
  if (t.columns.length < LIMITS.minJobColumns) {
    throw unprocessable(`${MSG.tooFewJobColumns} ${MSG.excelHeaderUsed(t.name, t.headerRow, t.columns.length, LIMITS.minJobColumns)}`);
  }
}

/** For a new job: the ticket columns, and a unit library sheet with at least 7 columns. */
export function assertEnoughColumns(parsed: Pick<ParsedWorkbook, 'tickets' | 'library' | 'format'>): void {
  assertTicketColumns(parsed);
  if (parsed.format === 'csv') throw unprocessable(MSG.excelCsvCannotCreateJob);
  const l = parsed.library;
  if (!l) throw unprocessable(`${MSG.tooFewLibraryColumns} ${MSG.excelNoLibrarySheet}`);
  if (!l.headerRow) throw unprocessable(MSG.excelNoHeader(l.name, 'library'));
  if (l.columns.length < LIMITS.minLibraryColumns) {
    throw unprocessable(`${MSG.tooFewLibraryColumns} ${MSG.excelHeaderUsed(l.name, l.headerRow, l.columns.length, LIMITS.minLibraryColumns)}`);
  }
}
