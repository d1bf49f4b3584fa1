import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import type { ExportCell, ExportTable } from '../../../shared/export';
import { xmlChars } from '../../../shared/map-export';

/**
 * A job export as an .xlsx (docs/product/imports.md §10 exports): the rows of src/shared/export.ts
 * (buildExportTable), the ones the CSV of the same option holds, each cell written as what it
 * is. A CSV cannot say that a pole '007' is text, and a spreadsheet opens it as 7; here text is
 * a string cell formatted as Text (so leading zeros stay, and a value typed into it later stays
 * text too), a number a number, a date or time a real date with a date format.
 *
 * Text is never a formula in an .xlsx (a string cell is shown, not run), so the CSV's leading '
 * before '=' / '+' / '-' / '@' is not needed and not written: the cell holds what was typed.
 * Built by the streaming writer: ~2× faster than the in-memory workbook for 15,000 rows.
 */

const TEXT = '@';
const DATE = 'yyyy-mm-dd';
const DATE_TIME = 'yyyy-mm-dd hh:mm:ss';
/** Excel refuses to open (or "repairs") a file with a longer cell. */
const EXCEL_CELL_MAX = 32_767;
const MAX_WIDTH = 50;

/** Text an .xlsx cell can hold: no character XML 1.0 forbids, at most Excel's 32,767 characters. */
export function cellText(value: string): string {
  const s = xmlChars(value);
  if (s.length <= EXCEL_CELL_MAX) return s;
  // Never cut a surrogate pair in two.
  const end = /[\uD800-\uDBFF]/.test(s[EXCEL_CELL_MAX - 2]) ? EXCEL_CELL_MAX - 2 : EXCEL_CELL_MAX - 1;
  return `${s.slice(0, end)}…`;
}

const DATE_TEXT = /^(\d{4})-(\d{2})-(\d{2})(?: (\d{2}):(\d{2}):(\d{2}))?$/;

/**
 * 'YYYY-MM-DD[ HH:MM:SS]' as the company's clock shows it → a Date whose UTC fields are that
 * wall-clock time: exceljs writes a Date's UTC time, and a spreadsheet date has no zone.
 */
export function wallClockDate(text: string): Date | null {
  const m = DATE_TEXT.exec(text);
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1).map((v) => Number(v ?? 0));
  return new Date(Date.UTC(y, mo - 1, d, h, mi, s));
}

type Kind = 'plain' | 'text' | 'date' | 'dateTime';
const FORMAT: Record<Kind, string | undefined> = { plain: undefined, text: TEXT, date: DATE, dateTime: DATE_TIME };
/** A list on several lines (option 1) shows as several lines, each row's cells from the top. */
const WRAP: Partial<ExcelJS.Alignment> = { wrapText: true, vertical: 'top' };

/**
 * One style object per kind of cell, wrapped or not, shared by every cell of that kind: exceljs
 * remembers a style's id by its object (a WeakMap in its styles), so a shared object is looked
 * up once per file, where a cell's own object is hashed again for every cell (most of the
 * writer's time on a 20,000-row export). Never mutated once built.
 */
function cellStyles(wrap: boolean): Record<Kind, Partial<ExcelJS.Style>> {
  const style = (kind: Kind): Partial<ExcelJS.Style> => ({ ...(FORMAT[kind] ? { numFmt: FORMAT[kind] } : {}), ...(wrap ? { alignment: WRAP } : {}) });
  return { plain: style('plain'), text: style('text'), date: style('date'), dateTime: style('dateTime') };
}

/** What a cell takes: the value exceljs writes and its kind (its number format). */
function excelCell(cell: ExportCell): { value: ExcelJS.CellValue; kind: Kind } {
  if (cell == null || cell === '') return { value: null, kind: 'plain' };
  if (typeof cell === 'number') return { value: Number.isFinite(cell) ? cell : null, kind: 'plain' };
  if (typeof cell === 'string') return { value: cellText(cell), kind: 'text' };
  const date = wallClockDate(cell.date);
  return date ? { value: date, kind: cell.date.length > 10 ? 'dateTime' : 'date' } : { value: cellText(cell.date), kind: 'text' };
}

/** The widest line of a cell, in characters, as a column width. */
function widthOf(cell: ExportCell): number {
  if (cell == null) return 0;
  if (typeof cell === 'number') return String(cell).length;
  if (typeof cell === 'object') return cell.date.length;
  // Measured without splitting: most cells are one line, and this runs for every cell.
  let widest = 0;
  let start = 0;
  for (let nl = cell.indexOf('\n'); nl !== -1; nl = cell.indexOf('\n', start)) {
    widest = Math.max(widest, nl - start);
    start = nl + 1;
  }
  return Math.max(widest, cell.length - start);
}

/** One worksheet named after the option: a bold, frozen header row with a filter, then the rows. */
export async function exportXlsx(table: ExportTable): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: true });
  book.creator = 'Linecrew';
  const width = table.columns.length;
  const sheet = book.addWorksheet(table.sheet, { views: [{ state: 'frozen', ySplit: 1 }] });

  // Column widths from what they hold (Excel does not size columns itself), before any row is written.
  const widths = table.columns.map((c) => c.length + 2);
  for (const row of table.rows) for (let i = 0; i < width; i++) widths[i] = Math.max(widths[i], widthOf(row[i]) + 1);
  sheet.columns = widths.map((w) => ({ width: Math.min(w, MAX_WIDTH) }));
  sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1 + table.rows.length, column: width } };

  const header = sheet.addRow([...table.columns]);
  header.font = { bold: true };
  header.commit();
  const styles = { flat: cellStyles(false), wrapped: cellStyles(true) };
  const rowStyle = { flat: {}, wrapped: { alignment: WRAP } };
  for (const cells of table.rows) {
    const values: ExcelJS.CellValue[] = [];
    const kinds: Kind[] = [];
    let wrap = false;
    for (let i = 0; i < width; i++) {
      const { value, kind } = excelCell(cells[i] ?? null);
      values.push(value);
      kinds.push(kind);
      if (typeof value === 'string' && value.includes('\n')) wrap = true;
    }
    const row = sheet.addRow(values);
    const shared = wrap ? styles.wrapped : styles.flat;
    // Every cell, an empty one too: a wrapped row's empty cells carry its alignment, as exceljs's row.alignment gave them.
    kinds.forEach((kind, i) => (row.getCell(i + 1).style = shared[kind]));
    // The row's own style too (exceljs keeps one per row, untyped): shared, so it is looked up once as well.
    (row as ExcelJS.Row & { style: Partial<ExcelJS.Style> }).style = wrap ? rowStyle.wrapped : rowStyle.flat;
    row.commit();
  }
  sheet.commit();
  // The zip is piped into `out`, which ends when the zip does: every byte has arrived on 'end'.
  const ended = new Promise<void>((resolve, reject) => {
    out.on('end', resolve);
    out.on('error', reject);
  });
  await book.commit();
  await ended;
  return Buffer.concat(chunks);
}
