import { LIMITS } from '../../shared/constants';
import { isMapped } from '../../shared/excel-mapped';
import type {
  LibraryTarget,
  ReadNote,
  SheetChoice,
  SheetUsed,
  TicketTarget,
  WorkbookColumns,
  WorkbookSheet,
} from '../../shared/excel';

/**
 * What the Excel Column Mapping says about the workbook before anything is written (DESIGN
 * §7.5): the sheets and header rows it used, the sheets one may pick instead, and the values
 * the reader had to interpret. Pure, so that the rules are tested without a browser.
 */

type Mapping<T extends string> = Partial<Record<T, string | null | undefined>>;

const rows = (n: number) => `${n} row${n === 1 ? '' : 's'}`;

/** "Tickets: sheet “Unit Tracking”, header in row 3, 120 rows below it." */
export function sheetUsedText(what: 'Tickets' | 'Unit Library', used: SheetUsed): string {
  return `${what}: sheet “${used.name}”, header in row ${used.headerRow}, ${rows(used.rows)} below it.`;
}

/** The options of a sheet picker, in workbook order; a hidden sheet says so ("Old copy (hidden)"). */
export function sheetOptions(sheets: readonly WorkbookSheet[] | undefined): { value: string; label: string }[] {
  return (sheets ?? []).map((s) => ({ value: s.name, label: s.hidden ? `${s.name} (hidden)` : s.name }));
}

/**
 * The workbook has no usable Unit Library sheet (a CSV, a one-sheet workbook, too few library
 * columns): the job page's Upload Spreadsheet then maps the tickets only.
 */
export function hasNoLibrary(columns: WorkbookColumns): boolean {
  return columns.library === null || columns.libraryColumns.length < LIMITS.minLibraryColumns;
}

/**
 * The notes to show for the current mapping: those about the whole file (`column` null) and
 * those about a column that some target is mapped to, on the sheet it was read from. A note
 * naming a sheet that is neither the tickets nor the library sheet used (should not happen) is
 * matched against both mappings rather than hidden.
 */
export function shownNotes(
  columns: Pick<WorkbookColumns, 'notes' | 'tickets' | 'library'>,
  ticketsMappings: Mapping<TicketTarget>,
  libraryMappings: Mapping<LibraryTarget> | null,
): ReadNote[] {
  const ticketCols = new Set(Object.values(ticketsMappings).filter(isMapped));
  const libraryCols = new Set(libraryMappings ? Object.values(libraryMappings).filter(isMapped) : []);
  const ticketsSheet = columns.tickets?.name;
  const librarySheet = libraryMappings ? columns.library?.name : undefined;
  return (columns.notes ?? []).filter((n) => {
    if (n.column === null) return true;
    const onTickets = n.sheet === ticketsSheet;
    const onLibrary = n.sheet === librarySheet;
    if (onTickets && ticketCols.has(n.column)) return true;
    if (onLibrary && libraryCols.has(n.column)) return true;
    if (!onTickets && !onLibrary) return ticketCols.has(n.column) || libraryCols.has(n.column);
    return false;
  });
}

const sameRead = (a: SheetUsed | null | undefined, b: SheetUsed | null | undefined) =>
  (a ?? null) === (b ?? null) || (a != null && b != null && a.name === b.name && a.headerRow === b.headerRow);
const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((c, i) => c === b[i]);

/**
 * After the columns were read again for another sheet: which side's sheet, header row or
 * columns changed. That side's selectors start again from the defaults of its new columns
 * (defaultTicketsMappings / defaultLibraryMappings); the other side keeps what the person chose.
 */
export function changedSides(before: WorkbookColumns, after: WorkbookColumns): { tickets: boolean; library: boolean } {
  return {
    tickets: !(sameRead(before.tickets, after.tickets) && sameList(before.jobColumns, after.jobColumns)),
    library: !(sameRead(before.library, after.library) && sameList(before.libraryColumns, after.libraryColumns)),
  };
}

/** The sheets picked, without the unset ones: what getColumns and xls-upload are sent. */
export function sheetParams(choice: SheetChoice | null | undefined): { ticketsSheet?: string; librarySheet?: string } {
  const out: { ticketsSheet?: string; librarySheet?: string } = {};
  if (choice?.ticketsSheet) out.ticketsSheet = choice.ticketsSheet;
  if (choice?.librarySheet) out.librarySheet = choice.librarySheet;
  return out;
}
