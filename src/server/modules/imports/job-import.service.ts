import type { JobSave, NewTicketDraft, NewUnitDraft } from '../../../shared/jobs.schemas';
import { truncateDecimals } from '../../../shared/geo';
import { ERROR_CODE } from '../../../shared/error-codes';
import type { AppContext } from '../../context';
import type { DbOrTx } from '../../db/client';
import { AppError, badRequest } from '../../errors';
import type { CurrentUser } from '../../plugins/auth';
import { importIntoJob } from './import-into-job';
import { importTicketsStaged } from './staged-write';
import { importScope, type ImportBatch, type ImportCounts, type ImportTicket, type ImportUnit } from './types';
import { loadWorkbookImport, workbookImportStream } from './uploaded-workbook';
import { saveMapping } from './saved-mapping.repository';

/**
 * The job save's import (PUT /jobs/, docs/product/rules.md §1.2 Job save): its newTickets, newUnits and ticketsFile
 * become drafts, and the job row is written with them, all or nothing. The job save calls
 * importJobWorkbook once, with how to write its row; everything about reading and staging is here.
 */

/** How the job save writes its row: the import runs it where it must (decisions 027, 032). */
export interface JobRowWrite {
  /** The job being updated; absent for a new job. */
  existingId?: number;
  /** The update of an existing job (its version checked), in the transaction given: the job's id. */
  update: (tx: DbOrTx) => Promise<number>;
  /** The insert of a new job, hidden while `importPending` (decision 027): its id. */
  insert: (importPending: boolean) => Promise<number>;
}

/** job.newTickets (docs/product/entities.md §2 shapes) → import drafts, with the job's overrides applied. */
function newTicketsToDrafts(list: readonly NewTicketDraft[], job: JobSave): ImportTicket[] {
  const geo = (v: number | null | undefined) => (v == null ? null : truncateDecimals(v));
  return list.map((t, i) => ({
    row: t.row,
    label: t.row ? `Row ${t.row}` : `Ticket ${i + 1}`,
    pole: {
      pole_name: t.pole.pole_name,
      line_name: t.pole.line_name,
      pole_id: t.pole.pole_id ?? null,
      line_id: t.pole.line_id ?? null,
      street_address: t.pole.street_address ?? null,
      geo_lat: geo(t.pole.geo_lat),
      geo_lon: geo(t.pole.geo_lon),
      primary_voltage: job.primary_voltage_override || t.pole.primary_voltage || null,
      secondary_voltage: job.secondary_voltage_override || t.pole.secondary_voltage || null,
      arc_rating: job.arc_rating_override || t.pole.arc_rating || null,
      utility_spec: t.pole.utility_spec ?? null,
      sub_curcuit: t.pole.sub_curcuit ?? null,
      sap_curcuit: t.pole.sap_curcuit ?? null,
    },
    street_address: t.street_address ?? null,
    geo_lat: geo(t.geo_lat),
    geo_lon: geo(t.geo_lon),
    due_date: t.due_date ?? null,
    ehasp: t.ehasp || job.ehasp_override || null,
    description: t.description ?? null,
    ambulance_meetup: t.ambulance_meetup ?? null,
    work_orders: t.work_orders,
    tasks: t.tasks.map((k) => ({ code: k.code, description: k.description, qty: k.init_qty, additional_qty: k.additional_qty, row: k.row })),
  }));
}

/** A row problem answers 400 like a newTickets one; a file over a limit or of another kind keeps its 422, as on every route. */
const asSaveError = (err: unknown) =>
  err instanceof AppError && err.statusCode === 422 && err.code !== ERROR_CODE.workbookLimit && err.code !== ERROR_CODE.workbookKind ? badRequest(err.message) : err;

/**
 * The workbook of job.ticketsFile, converted; row problems answer 400 like newTickets ones. A
 * workbook over a limit (rows, cells, time) keeps its 422, as everywhere a workbook is read.
 */
async function workbookDrafts(ctx: AppContext, me: CurrentUser, input: JobSave) {
  try {
    return await loadWorkbookImport(ctx, me, input.ticketsFile!, input);
  } catch (err) {
    throw asSaveError(err);
  }
}

/** workbookDrafts in batches, for a new job's staged import: the same drafts, the same errors. */
async function* workbookBatches(stream: AsyncIterable<ImportBatch>): AsyncGenerator<ImportBatch> {
  try {
    yield* stream;
  } catch (err) {
    throw asSaveError(err);
  }
}

/** newTickets / newUnits as the first batch, joined by the workbook's first (and any restart) batch. */
async function* withFirst(first: { tickets: ImportTicket[]; library: ImportUnit[] }, rest?: AsyncIterable<ImportBatch>): AsyncGenerator<ImportBatch> {
  if (!rest) {
    yield first;
    return;
  }
  let firstOfRest = true;
  for await (const b of rest) {
    yield firstOfRest || b.restart ? { ...b, tickets: [...first.tickets, ...b.tickets], library: [...first.library, ...(b.library ?? [])] } : b;
    firstOfRest = false;
  }
}

/**
 * The job row written with the save's drafts (newTickets / newUnits / ticketsFile), all or
 * nothing: a bad row answers 400 naming it and nothing is written. Into an existing job the
 * workbook is read whole first and importIntoJob runs `update` in the transaction that writes
 * the import (a big one staged, decision 032); a new job is inserted hidden and its import
 * staged (decision 027), the workbook written while the worker still reads it. Errors of the
 * row's write are thrown after the workbook's own problem, as when it was read before the row.
 */
export async function importJobWorkbook(
  ctx: AppContext,
  me: CurrentUser,
  input: JobSave,
  job: JobRowWrite,
  log?: (err: unknown) => void,
): Promise<{ jobId: number; imported?: ImportCounts }> {
  const existing = job.existingId !== undefined;
  const drafts: ImportTicket[] = input.newTickets?.length ? newTicketsToDrafts(input.newTickets, input) : [];
  const library: ImportUnit[] = (input.newUnits ?? []).map((u: NewUnitDraft) => u);
  let book: AsyncIterable<ImportBatch> | undefined;
  if (input.ticketsFile && existing) {
    const whole = await workbookDrafts(ctx, me, input);
    drafts.push(...whole.tickets);
    library.push(...whole.library);
  } else if (input.ticketsFile) {
    book = workbookBatches(await workbookImportStream(ctx, me, input.ticketsFile, input));
  }

  let imported: ImportCounts | undefined;
  let jobId: number;
  // A new job's import is staged (decision 027): the job is created hidden, its tickets written
  // in short statements and published at once, so the one PGlite connection is never held for
  // the seconds a big workbook takes. Into an existing job, importIntoJob runs the save's update
  // in the transaction that writes the import (a big one staged too, decision 032).
  const hasImport = drafts.length > 0 || library.length > 0 || book !== undefined;
  const staged = !existing && hasImport;
  try {
    if (existing && hasImport) {
      const scope = importScope(me, job.existingId!, input.selected_utility_id);
      imported = (await importIntoJob(ctx.db, scope, drafts, library, { prepare: job.update }, log)).counts;
      jobId = job.existingId!;
    } else if (existing) {
      jobId = await ctx.db.transaction(job.update);
    } else {
      jobId = await job.insert(staged);
    }
  } catch (err) {
    // The workbook's own problem comes first, as when it was read before the job row.
    if (book) for await (const _ of book);
    throw err;
  }
  if (staged) {
    const scope = importScope(me, jobId, input.selected_utility_id);
    imported = await importTicketsStaged(ctx.db, scope, withFirst({ tickets: drafts, library }, book), log);
  }
  // The workbook's mapping becomes the utility's, for its next workbook (docs/product/records.md §4).
  if (input.ticketsFile) await saveMapping(ctx.db, me.companyId, input.selected_utility_id, input.ticketsFile.ticketsMappings, input.ticketsFile.libraryMappings);
  return { jobId, imported };
}
