import { LIMITS } from '../../../../shared/constants';
import {
  REQUIRED_LIBRARY_TARGETS,
  defaultLibraryMappings,
  defaultTicketsMappings,
  formatImportErrors,
  isMapped,
  type JobOverrides,
  type LibraryMappings,
  type SheetChoice,
  type TicketsMappings,
  type WorkbookImport,
} from '../../../../shared/excel';
import { MSG } from '../../../../shared/messages';
import { unprocessable } from '../../../errors';
import { workbookToImport } from '../convert';
import { assertEnoughColumns, assertTicketColumns, columnsOf, parseWorkbook, type WorkbookLimits } from '../read/workbook';

/** What the worker runs for a whole workbook: bytes → drafts, pure (no database, no storage). */

export interface WorkbookImportRequest {
  ticketsMappings: TicketsMappings;
  libraryMappings: LibraryMappings | null;
  overrides?: JobOverrides | null;
  /** The sheets picked on the mapping step (docs/product/imports.md §4). */
  sheets?: SheetChoice;
}

export type WorkbookDrafts = Omit<WorkbookImport, 'errors'>;

/** 422 with the first few row errors (and a count), or with "no rows" for an empty sheet. */
export function assertImportOk(result: WorkbookImport): void {
  if (result.errors.length) throw unprocessable(formatImportErrors(result.errors));
  if (result.tickets.length === 0) throw unprocessable(MSG.excelNoRows);
}

/**
 * Parse, check the columns, convert with the saved mapping and the job's overrides: 422 naming
 * the bad rows when there is any problem. Pure (no database, no storage): what the worker runs.
 */
export async function workbookImportOf(buf: Buffer, req: WorkbookImportRequest, limits?: WorkbookLimits): Promise<WorkbookDrafts> {
  const parsed = await parseWorkbook(buf, limits, req.sheets);
  assertEnoughColumns(parsed);
  const result = workbookToImport(parsed, req.ticketsMappings, req.libraryMappings, req.overrides);
  assertImportOk(result);
  return { tickets: result.tickets, library: result.library };
}

export interface SheetUploadRequest {
  /** Sent by the client, else the default mapping of the sheet's headers. */
  ticketsMappings?: TicketsMappings;
  libraryMappings?: LibraryMappings;
  overrides?: JobOverrides | null;
  sheets?: SheetChoice;
}

/**
 * The spreadsheet upload of a job: parse (422 when unreadable or with too few ticket columns),
 * the sent mapping or the default one, the library sheet too when it is mapped (sent, or every
 * required default column found), convert. Row problems come back in `errors`, not thrown: the
 * route lists every rejected row. Pure: what the worker runs.
 */
export async function sheetUploadOf(buf: Buffer, req: SheetUploadRequest, limits?: WorkbookLimits): Promise<WorkbookImport> {
  const parsed = await parseWorkbook(buf, limits, req.sheets);
  assertTicketColumns(parsed);
  const columns = columnsOf(parsed);
  const ticketsMappings = req.ticketsMappings ?? defaultTicketsMappings(columns.jobColumns);
  let libraryMappings = req.libraryMappings ?? null;
  if (!libraryMappings && columns.libraryColumns.length >= LIMITS.minLibraryColumns) {
    const defaults = defaultLibraryMappings(columns.libraryColumns);
    if (REQUIRED_LIBRARY_TARGETS.every((t) => isMapped(defaults[t]))) libraryMappings = defaults;
  }
  return workbookToImport(parsed, ticketsMappings, libraryMappings, req.overrides);
}
