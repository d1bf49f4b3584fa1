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

/** What a cell takes: the value exceljs writes and its number format. */
function excelCell(cell: ExportCell): { value: ExcelJS.CellValue; numFmt?: string } {
  if (cell == null || cell === '') return { value: null };
  if (typeof cell === 'number') return { value: Number.isFinite(cell) ? cell : null };
  if (typeof cell === 'string') return { value: cellText(cell), numFmt: TEXT };
  const date = wallClockDate(cell.date);
  return date ? { value: date, numFmt: cell.date.length > 10 ? DATE_TIME : DATE } : { value: cellText(cell.date), numFmt: TEXT };
}

/** The widest line of a cell, in characters, as a column width. */
function widthOf(cell: ExportCell): number {
  if (cell == null) return 0;
  if (typeof cell === 'number') return String(cell).length;
  if (typeof cell === 'object') return cell.date.length;
  let widest = 0;
  for (const line of cell.split('\n')) widest = Math.max(widest, line.length);
  return widest;
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
  for (const cells of table.rows) {
    const values: ExcelJS.CellValue[] = [];
    const formats: (string | undefined)[] = [];
    let wrap = false;
    for (let i = 0; i < width; i++) {
      const { value, numFmt } = excelCell(cells[i] ?? null);
      values.push(value);
      formats.push(numFmt);
      if (typeof value === 'string' && value.includes('\n')) wrap = true;
    }
    const row = sheet.addRow(values);
    formats.forEach((numFmt, i) => numFmt && (row.getCell(i + 1).numFmt = numFmt));
    // A list on several lines (option 1) shows as several lines, each row's cells from the top.
    if (wrap) row.alignment = { wrapText: true, vertical: 'top' };
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
