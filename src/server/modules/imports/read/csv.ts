import iconv from 'iconv-lite';
import type { CellValue, ParsedSheet } from '../../../../shared/excel';
import { cellOf } from './cells';
import { buildSheet, headerScore, HEADER_SCAN_ROWS, type RawRow } from './header';
import { Budget, DEFAULT_WORKBOOK_LIMITS, type WorkbookLimits } from './limits';

/**
 * CSV as people's tools write it (docs/product/imports.md §9): UTF-8 with or without a BOM, else Windows-1252
 * (Excel's "CSV (Comma delimited)"); separated by ',', ';' or TAB, whichever makes a header
 * line; in a ';'-separated file the decimal separator is the comma (what Excel writes where the
 * comma is the decimal mark).
 */

export type CsvSeparator = ',' | ';' | '\t';
const SEPARATORS: readonly CsvSeparator[] = [',', ';', '\t'];

/** The file's text, and whether it had to be read as Windows-1252. */
export function decodeCsv(buf: Buffer): { text: string; encoding?: 'windows-1252' } {
  let text: string;
  let encoding: 'windows-1252' | undefined;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(buf);
  } catch {
    // Not TextDecoder('windows-1252'): Node's decodes it as Latin-1, so “ ” – € (0x80–0x9F) become control characters.
    text = iconv.decode(buf, 'win1252');
    encoding = 'windows-1252';
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  return { text, encoding };
}

/** RFC 4180 CSV (quotes, doubled quotes, newlines in quotes, CRLF); `maxRows` stops early. */
export function parseCsvRows(text: string, delim: CsvSeparator, maxRows = Infinity): string[][] {
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length && rows.length < maxRows; i++) {
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
  if ((field !== '' || row.length > 0) && rows.length < maxRows) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

/**
 * The separator of the header line: the one whose split of the first 20 lines gives a line with
 * the most default column names; without any, the one that splits the first line the most.
 */
export function csvSeparator(text: string): CsvSeparator {
  let best: { sep: CsvSeparator; score: number; fields: number } | null = null;
  for (const sep of SEPARATORS) {
    const rows = parseCsvRows(text, sep, HEADER_SCAN_ROWS);
    for (const cells of rows) {
      const score = headerScore(cells, 'tickets');
      if (!best || score > best.score || (score === best.score && cells.length > best.fields)) best = { sep, score, fields: cells.length };
    }
  }
  if (best && best.score > 0) return best.sep;
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  return SEPARATORS.map((d) => [d, firstLine.split(d).length] as const).reduce((a, b) => (b[1] > a[1] ? b : a))[0];
}

/** A CSV file as the tickets sheet of a workbook named 'CSV'. */
export function parseCsv(buf: Buffer, limits: WorkbookLimits = DEFAULT_WORKBOOK_LIMITS): { sheet: ParsedSheet; encoding?: 'windows-1252' } {
  const { text, encoding } = decodeCsv(buf);
  const sep = csvSeparator(text);
  const count = new Budget(limits).sheet();
  const rows: RawRow[] = parseCsvRows(text, sep).map((cells, i) => {
    const values: CellValue[] = [];
    let filled = 0;
    cells.forEach((c, j) => {
      const v = cellOf(c);
      values[j + 1] = v;
      if (v !== null) filled++;
    });
    if (filled > 0) count(filled);
    return { row: i + 1, values };
  });
  return { sheet: buildSheet('CSV', 'tickets', rows, { decimalComma: sep === ';' }), encoding };
}
