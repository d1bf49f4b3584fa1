import { LIMITS } from '../../../shared/constants';
import {
  LIBRARY_TARGETS,
  LIBRARY_TARGET_INFO,
  TICKET_TARGETS,
  TICKET_TARGET_INFO,
  isMapped,
  isNoResult,
  isShownNumber,
  missingMappings,
  overrideFor,
  type ImportError,
  type JobOverrides,
  type LibraryMappings,
  type LibraryTarget,
  type ParsedSheet,
  type ParsedWorkbook,
  type TicketTarget,
  type TicketsMappings,
  type UnitDraft,
  type WorkbookImport,
} from '../../../shared/excel';
import { MSG } from '../../../shared/messages';
import { normalizeCode } from '../../../shared/names';
import { parsePrice } from '../../../shared/money';
import { columnOfRef, plainNumberText } from './read/cells';
import { MAX_ERRORS, TicketRows, text } from './ticket-rows';

/**
 * A parsed workbook + the saved column mapping → ticket and unit drafts (docs/product/imports.md §12). Pass
 * `libraryMappings = null` for a tickets-only sheet (a CSV, the spreadsheet upload of a job). Pure and
 * single-pass: 10,000 rows convert in a few milliseconds (bench/investigations/excel-import.ts). Every problem
 * is reported with the Excel row number the user sees; the caller rejects the whole save if
 * there is any, so nothing is written.
 *
 * Rows can also be converted as they are read (TicketRows): the import worker sends the tickets
 * in batches while it still reads the sheet, so the server writes one batch while the next is
 * read. A later row of a pole already sent goes out as a continuation (`continued`), which
 * mergeContinued folds in exactly as the converter would have.
 */

/** Where a sheet's columns are and how its cells read (ParsedSheet without its rows). */
export type SheetHeader = Pick<ParsedSheet, 'name' | 'headerRow' | 'columns' | 'decimalComma' | 'date1904'>;

/** target → column index in the sheet; mapped columns that are not there are errors. */
function resolveColumns<T extends string>(
  sheet: SheetHeader | null,
  targets: readonly T[],
  mappings: Partial<Record<T, string | null | undefined>>,
  labels: Record<T, { label: string }>,
  skip: (t: T) => boolean,
  sheetKind: ImportError['sheet'],
  errors: ImportError[],
): Partial<Record<T, number>> {
  const columns = sheet?.columns ?? [];
  const lower = columns.map((c) => c.toLowerCase());
  const out: Partial<Record<T, number>> = {};
  for (const t of targets) {
    const col = mappings[t];
    if (skip(t) || !isMapped(col)) continue;
    let i = columns.indexOf(col);
    if (i < 0) i = lower.indexOf(col.trim().toLowerCase());
    if (i < 0) errors.push({ row: sheet?.headerRow ?? 0, sheet: sheetKind, message: MSG.excelColumnMissing(col, labels[t].label) });
    else out[t] = i;
  }
  return out;
}

export function workbookToImport(
  parsed: ParsedWorkbook,
  ticketsMappings: TicketsMappings,
  libraryMappings: LibraryMappings | null,
  overrides?: JobOverrides | null,
): WorkbookImport {
  const conversion = startConversion(parsed.tickets, parsed.library, ticketsMappings, libraryMappings, overrides);
  if ('errors' in conversion) return { tickets: [], library: [], errors: conversion.errors };
  for (const { row, cells } of parsed.tickets.rows) conversion.tickets.add(row, cells);
  const library = conversion.library(parsed.library?.rows ?? []);
  return { tickets: conversion.tickets.all(), library: library.units, errors: importErrors(conversion.tickets.errors, library.errors) };
}

/** Ticket errors first, then the library's: the first MAX_ERRORS of them. */
export const importErrors = (tickets: readonly ImportError[], library: readonly ImportError[]): ImportError[] => [...tickets, ...library].slice(0, MAX_ERRORS);

export interface Conversion {
  tickets: TicketRows;
  /** The library sheet's rows → units by code (the last row of a code wins); none without library mappings. */
  library: (rows: ParsedSheet['rows']) => { units: UnitDraft[]; errors: ImportError[] };
}

/**
 * The mapping checked against the sheets' headers: the converters of their rows, or the
 * problems (a target left unmapped, a mapped column the sheet does not have).
 */
export function startConversion(
  tickets: SheetHeader,
  library: SheetHeader | null,
  ticketsMappings: TicketsMappings,
  libraryMappings: LibraryMappings | null,
  overrides?: JobOverrides | null,
): Conversion | { errors: ImportError[] } {
  const errors: ImportError[] = [];
  const missing = missingMappings(ticketsMappings, libraryMappings ?? {});
  // Without library mappings (a tickets-only spreadsheet upload) only the ticket targets count.
  if (!libraryMappings) missing.library = [];
  if (missing.tickets.length || missing.library.length) {
    const labels = [
      ...missing.tickets.map((t) => TICKET_TARGET_INFO[t].label),
      ...missing.library.map((t) => `Unit Library ${LIBRARY_TARGET_INFO[t].label}`),
    ].join(', ');
    return { errors: [{ row: 0, sheet: missing.tickets.length ? 'tickets' : 'library', message: MSG.excelMappingIncomplete(labels) }] };
  }
  const tc = resolveColumns<TicketTarget>(
    tickets,
    TICKET_TARGETS,
    ticketsMappings,
    TICKET_TARGET_INFO,
    (t) => overrideFor(t, overrides) !== null,
    'tickets',
    errors,
  );
  const lc = libraryMappings
    ? resolveColumns<LibraryTarget>(library, LIBRARY_TARGETS, libraryMappings, LIBRARY_TARGET_INFO, () => false, 'library', errors)
    : {};
  if (errors.length) return { errors };
  return {
    tickets: new TicketRows(tc, overrides, tickets),
    library: (rows) => (libraryMappings ? libraryUnits(rows, lc, library?.name ?? 'Unit Library') : { units: [], errors: [] }),
  };
}

/** The library sheet's rows → units (the last row of a code wins, in the position where it last appeared). */
function libraryUnits(rows: ParsedSheet['rows'], lc: Partial<Record<LibraryTarget, number>>, sheetName: string): { units: UnitDraft[]; errors: ImportError[] } {
  const errors: ImportError[] = [];
  const units = new Map<string, UnitDraft>();
  const fail = (row: number, message: string) => {
    if (errors.length < MAX_ERRORS) errors.push({ row, sheet: 'library', message });
  };
  const mapped = Object.values(lc) as number[];
  for (const { row, cells } of rows) {
    const uncached = mapped.map((i) => cells[i]).filter(isNoResult);
    if (uncached.length) {
      for (const c of uncached) fail(row, MSG.excelFormulaNoResult(row, columnOfRef(c.noResult), sheetName));
      continue;
    }
    let tooLong = false;
    const str = (t: LibraryTarget) => {
      const max = t === 'desc' || t === 'notes' ? LIMITS.textMax : LIMITS.shortTextMax;
      const s = lc[t] === undefined ? '' : text(cells[lc[t]!]);
      if (s.length > max) {
        fail(row, MSG.excelLibraryRowTooLong(row, LIBRARY_TARGET_INFO[t].label, max));
        tooLong = true;
      }
      return s;
    };
    const unit: UnitDraft = {
      code: normalizeCode(str('code')),
      description: str('desc'),
      family: str('family'),
      type: str('type'),
      action: str('action'),
      uom: str('uom'),
      notes: str('notes'),
      unit_price: null,
      row,
    };
    let badPrice = false;
    if (lc.unit_price !== undefined) {
      // The number of a numeric cell ('$12.50' is how a currency format shows 12.5).
      const cell = cells[lc.unit_price];
      const price = parsePrice(typeof cell === 'number' ? plainNumberText(cell) : isShownNumber(cell) ? plainNumberText(cell.n) : text(cell));
      if (price.ok) unit.unit_price = price.value;
      else {
        fail(row, MSG.excelLibraryRowBadPrice(row, price.message));
        badPrice = true;
      }
    }
    if (!unit.code) {
      // A row that only has text in unmapped columns (a footnote, a total) is not a unit.
      if (unit.description || unit.family || unit.type || unit.action || unit.uom || unit.notes) fail(row, MSG.excelLibraryRowMissingCode(row));
      continue;
    }
    if (tooLong || badPrice) continue;
    units.delete(unit.code);
    units.set(unit.code, unit);
  }
  return { units: [...units.values()], errors };
}
