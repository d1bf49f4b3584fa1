import path from 'node:path';
import { Readable } from 'node:stream';
import type ExcelJS from 'exceljs';
import type { CellValue, ParsedSheet, SheetChoice, WorkbookSheet } from '../../../../shared/excel';
import { MSG } from '../../../../shared/messages';
import { unprocessable } from '../../../errors';
import { cellOf, type CellContext } from './cells';
import { buildSheet, hasHeaderRow, HEADER_SCAN_ROWS, SheetRows, type ParsedRow, type RawRow, type SheetKind } from './header';
import { Budget, DEFAULT_WORKBOOK_LIMITS, type WorkbookLimits } from './limits';
import { entryText, readZipDirectory, type ZipEntry } from './zip-check';

/**
 * exceljs is slow to load (a large module graph): only the import worker (and the rare fallback on the
 * server's thread) reads workbooks, so the server's start and every test that builds the app do
 * not pay for it up front.
 */
const loadExcelJs = () => import('exceljs');

/** The tickets and library sheets, read (docs/product/imports.md §4). */
export interface PickedSheets {
  tickets: ParsedSheet;
  library: ParsedSheet | null;
  sheets: WorkbookSheet[];
}

/** Indexes into the workbook's sheets of the two it reads; library null when there is none. */
export interface SheetIndexes {
  tickets: number;
  library: number | null;
}

const squash = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * docs/product/imports.md §4 "sheets": a sheet the person picked, by name; otherwise the visible sheet named like
 * "unit tracking" (or "tickets"), else the first visible sheet with a tickets header row; the
 * library likewise ("unit library", "library"). Hidden and very hidden sheets are never chosen
 * by themselves. `hasHeader` reads a sheet's first rows.
 */
export async function chooseSheets(
  sheets: readonly WorkbookSheet[],
  hasHeader: (index: number, kind: SheetKind) => Promise<boolean>,
  choice: SheetChoice = {},
): Promise<SheetIndexes> {
  const byName = (name: string) => {
    let i = sheets.findIndex((s) => s.name === name);
    if (i < 0) i = sheets.findIndex((s) => s.name.trim().toLowerCase() === name.trim().toLowerCase());
    if (i < 0) throw unprocessable(MSG.excelNoSuchSheet(name));
    return i;
  };
  const visible = sheets.map((s, i) => ({ ...s, i })).filter((s) => !s.hidden);
  const named = (words: string[], not: number | null) => {
    for (const w of words) {
      const s = visible.find((v) => v.i !== not && squash(v.name).includes(w));
      if (s) return s.i;
    }
    return -1;
  };
  const firstWithHeader = async (kind: SheetKind, not: number | null) => {
    for (const s of visible) if (s.i !== not && (await hasHeader(s.i, kind))) return s.i;
    return -1;
  };

  let tickets = choice.ticketsSheet ? byName(choice.ticketsSheet) : -1;
  // The library's own name keeps it from being taken for the tickets sheet.
  const libraryNamed = named(['unitlibrary', 'library'], null);
  if (tickets < 0) tickets = named(['unittracking', 'tickets'], libraryNamed);
  if (tickets < 0) tickets = await firstWithHeader('tickets', libraryNamed);
  // None has a header: the first visible sheet, whose missing header is then the answer.
  if (tickets < 0) tickets = visible.find((v) => v.i !== libraryNamed)?.i ?? visible[0]?.i ?? 0;

  let library = choice.librarySheet ? byName(choice.librarySheet) : -1;
  if (library < 0) library = named(['unitlibrary', 'library'], tickets);
  if (library < 0) library = await firstWithHeader('library', tickets);
  return { tickets, library: library >= 0 ? library : null };
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
  model?: { sheets?: { id: number; name: string; rId: string; state?: string }[] };
  properties?: { model?: { date1904?: boolean } };
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

/** A row's cells as CellValues, by 1-based column; null when it has none. */
function rawRow(row: ExcelJS.Row, ctx: CellContext, skipMerged: boolean): RawRow | null {
  const values: CellValue[] = [];
  let filled = 0;
  row.eachCell({ includeEmpty: false }, (cell, col) => {
    // The whole loader repeats a merged range's value in every cell of it; the stream leaves them empty.
    if (skipMerged && cell.isMerged && cell.master !== cell) return;
    const v = cellOf(cell.value, cell.numFmt, cell.address, ctx);
    if (v !== null) {
      values[col] = v;
      filled++;
    }
  });
  return filled > 0 ? { row: row.number, values } : null;
}

const filledCells = (r: RawRow) => r.values.reduce<number>((n, v) => (v == null ? n : n + 1), 0);

/** A workbook opened for exceljs's streaming parsers: its sheets and a reader of their rows. */
export interface XlsxBook {
  sheets: WorkbookSheet[];
  ctx: CellContext;
  /** Sheet `index`'s rows with content go to `onRow` as they are parsed; `peek` stops after the header rows, uncounted. */
  read(index: number, onRow: (row: RawRow) => void, peek?: boolean): Promise<void>;
}

/** `<calcPr fullCalcOnLoad="1"/>`: the saved results of formulas are not to be trusted (cells.ts). */
const asksFullRecalc = (workbookXml: string) => /<(?:\w+:)?calcPr\b[^>]*\bfullCalcOnLoad="(?:1|true)"/.test(workbookXml);

async function textOf(chunks: AsyncIterable<string>): Promise<string> {
  let s = '';
  for await (const c of chunks) s += c;
  return s;
}

export async function openXlsx(buf: Buffer, limits: WorkbookLimits, entries: ZipEntry[]): Promise<XlsxBook> {
  const parts = new Map(entries.map((e) => [e.name, e]));
  const part = (name: string) => {
    const entry = parts.get(name);
    return entry && Readable.from(entryText(buf, entry));
  };
  const { default: Excel } = await loadExcelJs();
  const reader = new Excel.stream.xlsx.WorkbookReader(Readable.from([]), {
    sharedStrings: 'cache',
    styles: 'cache', // number formats: dates, and numbers shown as text (00123)
    hyperlinks: 'ignore', // a hyperlink cell's text is its value already
    worksheets: 'emit',
    entries: 'ignore',
  }) as unknown as ReaderInternals;

  const rels = part('xl/_rels/workbook.xml.rels');
  const workbookEntry = parts.get('xl/workbook.xml');
  if (!rels || !workbookEntry) throw new Error('no xl/workbook.xml: a zip, but not a workbook');
  const workbookXml = await textOf(entryText(buf, workbookEntry));
  await reader._parseRels(rels);
  await reader._parseWorkbook(Readable.from([workbookXml]));
  const relOf = (type: string) => reader.workbookRels?.find((r) => r.Type?.endsWith(`/${type}`));
  const sharedStrings = part(partPath(relOf('sharedStrings')?.Target ?? 'sharedStrings.xml'));
  if (sharedStrings) for await (const _ of reader._parseSharedStrings(sharedStrings)); // 'cache': fills the reader's table
  const styles = part(partPath(relOf('styles')?.Target ?? 'styles.xml'));
  if (styles) await reader._parseStyles(styles);

  const model = reader.model?.sheets ?? [];
  if (model.length === 0) throw new Error('the workbook lists no sheets');
  const ctx: CellContext = {
    date1904: reader.properties?.model?.date1904 === true,
    staleFormulas: asksFullRecalc(workbookXml),
  };
  const budget = new Budget(limits);
  const read = async (index: number, onRow: (row: RawRow) => void, peek = false) => {
    const sheet = model[index];
    const target = reader.workbookRels?.find((r) => r.Id === sheet.rId)?.Target;
    const entry = target === undefined ? undefined : parts.get(partPath(target));
    if (!entry) throw new Error(`sheet '${sheet.name}' has no part in the zip`);
    const [{ value: ws }] = [...reader._parseWorksheet(entryText(buf, entry), String(sheet.id))];
    const count = peek ? null : budget.sheet();
    for await (const row of ws) {
      if (peek && row.number > HEADER_SCAN_ROWS) break;
      const raw = rawRow(row, ctx, false);
      if (raw) {
        count?.(filledCells(raw));
        onRow(raw);
      }
    }
  };
  return { sheets: model.map((m) => ({ name: m.name, hidden: m.state === 'hidden' || m.state === 'veryHidden' })), ctx, read };
}

/** The sheets of docs/product/imports.md §4 in an opened book. */
async function pick(book: XlsxBook, choice?: SheetChoice): Promise<SheetIndexes> {
  return chooseSheets(
    book.sheets,
    async (i, kind) => {
      const rows: RawRow[] = [];
      await book.read(i, (r) => rows.push(r), true);
      return hasHeaderRow(rows, kind);
    },
    choice,
  );
}

/** One sheet's rows with content, whole. */
async function collect(book: XlsxBook, index: number, kind: SheetKind): Promise<ParsedSheet> {
  const rows: RawRow[] = [];
  await book.read(index, (r) => rows.push(r));
  return buildSheet(book.sheets[index].name, kind, rows, { date1904: book.ctx.date1904 });
}

/** Rows of the tickets and library sheets, through exceljs's streaming parsers. */
export async function readXlsxSheets(
  buf: Buffer,
  limits: WorkbookLimits = DEFAULT_WORKBOOK_LIMITS,
  entries?: ZipEntry[],
  choice?: SheetChoice,
): Promise<PickedSheets> {
  if (!entries) {
    const zip = await readZipDirectory(buf, limits.maxUnzippedBytes);
    if (!zip.ok) throw new Error(`not a whole zip (${zip.reason})`);
    entries = zip.entries;
  }
  const book = await openXlsx(buf, limits, entries);
  const picked = await pick(book, choice);
  const tickets = await collect(book, picked.tickets, 'tickets');
  const library = picked.library === null ? null : await collect(book, picked.library, 'library');
  return { tickets, library, sheets: book.sheets };
}

/** Where streamXlsx sends what it reads. */
export interface SheetSink {
  /** The library sheet, whole (null when there is none): first, before any ticket row. */
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
export async function streamXlsx(buf: Buffer, limits: WorkbookLimits, entries: ZipEntry[], sink: SheetSink, choice?: SheetChoice): Promise<SheetRows> {
  const book = await openXlsx(buf, limits, entries);
  const picked = await pick(book, choice);
  sink.library(picked.library === null ? null : await collect(book, picked.library, 'library'));
  const tickets = new SheetRows(book.sheets[picked.tickets].name, 'tickets', { date1904: book.ctx.date1904 });
  let announced = false;
  const emit = (rows: ParsedRow[]) => {
    // The header is chosen when the rows below it are ready (or at the end of a short sheet).
    if (!announced && tickets.headerRow > 0) {
      announced = true;
      sink.header(tickets);
    }
    for (const row of rows) sink.row(row);
  };
  await book.read(picked.tickets, (raw) => emit(tickets.add(raw)));
  emit(tickets.end());
  return tickets;
}

/**
 * The same with exceljs's whole-workbook loader (slower, holds every sheet in memory: the
 * unzipped-size check before it bounds what it can take).
 */
export async function readXlsxSheetsWhole(buf: Buffer, limits: WorkbookLimits = DEFAULT_WORKBOOK_LIMITS, choice?: SheetChoice): Promise<PickedSheets> {
  const { default: Excel } = await loadExcelJs();
  const workbook = new Excel.Workbook();
  await workbook.xlsx.load(buf as unknown as ArrayBuffer);
  const worksheets = workbook.worksheets;
  if (worksheets.length === 0) throw new Error('no sheets');
  // exceljs's model drops calcPr: read it from the part itself.
  const zip = await readZipDirectory(buf, limits.maxUnzippedBytes);
  const workbookEntry = zip.ok ? zip.entries.find((e) => e.name === 'xl/workbook.xml') : undefined;
  const ctx: CellContext = {
    date1904: (workbook.properties as { date1904?: boolean }).date1904 === true,
    staleFormulas: workbookEntry !== undefined && asksFullRecalc(await textOf(entryText(buf, workbookEntry))),
  };
  const rowsOf = (ws: ExcelJS.Worksheet, count?: (n: number) => void, upTo = Infinity): RawRow[] => {
    const rows: RawRow[] = [];
    ws.eachRow({ includeEmpty: false }, (row) => {
      if (row.number > upTo) return;
      const raw = rawRow(row, ctx, true);
      if (raw) {
        count?.(filledCells(raw));
        rows.push(raw);
      }
    });
    return rows;
  };
  const sheets = worksheets.map((ws) => ({ name: ws.name, hidden: ws.state === 'hidden' || ws.state === 'veryHidden' }));
  const picked = await chooseSheets(sheets, async (i, kind) => hasHeaderRow(rowsOf(worksheets[i], undefined, HEADER_SCAN_ROWS), kind), choice);
  const budget = new Budget(limits);
  const read = (i: number, kind: SheetKind) => buildSheet(worksheets[i].name, kind, rowsOf(worksheets[i], budget.sheet()), { date1904: ctx.date1904 });
  return { tickets: read(picked.tickets, 'tickets'), library: picked.library === null ? null : read(picked.library, 'library'), sheets };
}
