import type { JobOverrides, SheetChoice, TicketsFile, WorkbookColumns } from '../../../shared/excel';
import type { AppContext } from '../../context';
import { notFound } from '../../errors';
import type { CurrentUser } from '../../plugins/auth';
import { DEFAULT_WORKBOOK_LIMITS } from './read/workbook';
import type { WorkbookDrafts } from './worker/convert-workbook';
import { workbookColumnsOffThread, workbookImportBatches, workbookImportOffThread } from './worker/off-thread';
import type { ImportOptions } from './worker/pool';
import { findSavedMapping } from './saved-mapping.repository';
import type { DraftBatch } from './worker/stream';

/**
 * Workbooks the caller uploaded with the signed-upload flow, read back from storage. A url is
 * only honoured when its key lies under the caller's company (`<companyId>/…`): anything else
 * answers 404, exactly like a file that does not exist.
 */
async function readUploadedFile(ctx: AppContext, user: Pick<CurrentUser, 'companyId'>, url: string): Promise<Buffer> {
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

/**
 * How this process reads a user's workbook: the configured unzipped size and time
 * limit, and one workbook per user at a time (a second one answers 429).
 */
export function importOptions(ctx: AppContext, user: Pick<CurrentUser, 'id'>): ImportOptions {
  return {
    userId: user.id,
    limits: { ...DEFAULT_WORKBOOK_LIMITS, maxUnzippedBytes: ctx.config.importMaxUnzippedBytes },
    timeLimitMs: ctx.config.importTimeLimitMs,
  };
}

/**
 * GET /jobs/excel/getColumns: the header rows of the tickets and library sheets. Read in the
 * workbook worker (the whole file is parsed, which is the import's costliest step), which also warms its
 * code up for the job save that follows.
 */
export async function getColumns(ctx: AppContext, user: CurrentUser, url: string, sheets?: SheetChoice, utilityId?: number): Promise<WorkbookColumns> {
  const columns = await workbookColumnsOffThread(await readUploadedFile(ctx, user, url), importOptions(ctx, user), sheets);
  // The utility's saved mapping, for the mapping step to start from (docs/product/records.md §4).
  return utilityId ? { ...columns, saved: await findSavedMapping(ctx.db, user.companyId, utilityId) } : columns;
}

/** The sheets a saved mapping names (absent: the rules of docs/product/imports.md §4 choose). */
const sheetsOf = (f: TicketsFile): SheetChoice => ({ ticketsSheet: f.ticketsSheet ?? null, librarySheet: f.librarySheet ?? null });

/**
 * For a job save with `job.ticketsFile`: read the workbook, convert it with the saved mapping
 * and the job's overrides, and throw 422 naming the bad rows when there is any problem, before
 * anything is written. Call it before opening the transaction that inserts the drafts. Parsing
 * and converting run in the workbook worker (the server keeps answering meanwhile).
 */
export async function loadWorkbookImport(
  ctx: AppContext,
  user: Pick<CurrentUser, 'companyId' | 'id'>,
  ticketsFile: TicketsFile,
  overrides?: JobOverrides | null,
): Promise<WorkbookDrafts> {
  const buf = await readUploadedFile(ctx, user, ticketsFile.ticket_file_url);
  return workbookImportOffThread(
    buf,
    { ticketsMappings: ticketsFile.ticketsMappings, libraryMappings: ticketsFile.libraryMappings, overrides, sheets: sheetsOf(ticketsFile) },
    importOptions(ctx, user),
  );
}

/**
 * For a new job's save with `job.ticketsFile`: the same drafts in batches, converted in the
 * workbook worker while it still reads the file, so that the staged import writes one batch
 * while the next is read. Reading starts now (a missing file is a 404 here, a second workbook of
 * the same user a 429); the file's problems come out of the iteration, after its earlier batches.
 */
export async function workbookImportStream(
  ctx: AppContext,
  user: Pick<CurrentUser, 'companyId' | 'id'>,
  ticketsFile: TicketsFile,
  overrides?: JobOverrides | null,
): Promise<AsyncIterable<DraftBatch>> {
  const buf = await readUploadedFile(ctx, user, ticketsFile.ticket_file_url);
  return workbookImportBatches(
    buf,
    { ticketsMappings: ticketsFile.ticketsMappings, libraryMappings: ticketsFile.libraryMappings, overrides, sheets: sheetsOf(ticketsFile) },
    importOptions(ctx, user),
  );
}
