import type { JobOverrides, ParsedWorkbook, TicketsFile, WorkbookColumns, WorkbookImport } from '../../../shared/excel';
import { formatImportErrors } from '../../../shared/excel';
import { MSG } from '../../../shared/messages';
import type { AppContext } from '../../context';
import { notFound, unprocessable } from '../../errors';
import type { CurrentUser } from '../../plugins/auth';
import { workbookToImportChunked } from './convert';
import { assertEnoughColumns, assertTicketColumns, columnsOf, parseWorkbook } from './workbook';

/**
 * Workbooks the caller uploaded with the signed-upload flow, read back from storage. A url is
 * only honoured when its key lies under the caller's company (`<companyId>/…`): anything else
 * answers 404, exactly like a file that does not exist.
 */
export async function readUploadedFile(ctx: AppContext, user: Pick<CurrentUser, 'companyId'>, url: string): Promise<Buffer> {
  const key = ctx.storage.keyFromUrl(url);
  if (!key || !key.startsWith(`${user.companyId}/`)) throw notFound('file');
  try {
    return await ctx.storage.get(key);
  } catch (err) {
    if (isMissing(err)) throw notFound('file');
    throw err;
  }
}

/** Not there (local ENOENT, S3 NoSuchKey / 404), as opposed to storage being down. */
function isMissing(err: unknown): boolean {
  const e = err as { code?: string; name?: string; Code?: string; $metadata?: { httpStatusCode?: number } };
  return (
    e?.code === 'ENOENT' ||
    e?.code === 'EISDIR' ||
    e?.code === 'ENOTDIR' ||
    e?.name === 'NoSuchKey' ||
    e?.name === 'NotFound' ||
    e?.Code === 'NoSuchKey' ||
    e?.$metadata?.httpStatusCode === 404
  );
}

/** GET /jobs/excel/getColumns: the header rows of the tickets and library sheets. */
export async function getColumns(ctx: AppContext, user: CurrentUser, url: string): Promise<WorkbookColumns> {
  const parsed = await parseWorkbook(await readUploadedFile(ctx, user, url));
  assertEnoughColumns(parsed);
  return columnsOf(parsed);
}

/** Read and parse an uploaded workbook; `ticketsOnly` for the spreadsheet upload of a job (issue 4). */
export async function readWorkbook(
  ctx: AppContext,
  user: Pick<CurrentUser, 'companyId'>,
  url: string,
  opts: { ticketsOnly?: boolean } = {},
): Promise<ParsedWorkbook> {
  const parsed = await parseWorkbook(await readUploadedFile(ctx, user, url));
  if (opts.ticketsOnly) assertTicketColumns(parsed);
  else assertEnoughColumns(parsed);
  return parsed;
}

/**
 * For a job save with `job.ticketsFile`: read the workbook, convert it with the saved mapping
 * and the job's overrides, and throw 422 naming the bad rows when there is any problem, before
 * anything is written. Call it before opening the transaction that inserts the drafts.
 */
export async function loadWorkbookImport(
  ctx: AppContext,
  user: Pick<CurrentUser, 'companyId'>,
  ticketsFile: TicketsFile,
  overrides?: JobOverrides | null,
): Promise<Omit<WorkbookImport, 'errors'>> {
  const parsed = await readWorkbook(ctx, user, ticketsFile.ticket_file_url);
  const result = await workbookToImportChunked(parsed, ticketsFile.ticketsMappings, ticketsFile.libraryMappings, overrides);
  assertImportOk(result);
  return { tickets: result.tickets, library: result.library };
}

/** 422 with the first few row errors (and a count), or with "no rows" for an empty sheet. */
export function assertImportOk(result: WorkbookImport): void {
  if (result.errors.length) throw unprocessable(formatImportErrors(result.errors));
  if (result.tickets.length === 0) throw unprocessable(MSG.excelNoRows);
}
