import { CREW_STATUS, ROLE, TICKET_STATUS } from '../../../shared/constants';
import type { TicketsFile } from '../../../shared/excel';
import { truncateDecimals } from '../../../shared/excel';
import type { Job, JobListItem, JobListRow, JobSave, JobSaveReply, NewTicketDraft, NewUnitDraft, Utility } from '../../../shared/jobs.schemas';
import type { MapTicket } from '../../../shared/map-export';
import { MSG } from '../../../shared/messages';
import type { Ticket } from '../../../shared/tickets.schemas';
import type { AppContext } from '../../context';
import type { DbOrTx } from '../../db/client';
import { ERROR_CODE } from '../../../shared/error-codes';
import { isUniqueViolation } from '../../db/errors';
import { AppError, badRequest, conflict, notFound } from '../../errors';
import type { CurrentUser } from '../../plugins/auth';
import { requireUploadedFile } from '../../storage/keys';
import { loadWorkbookImport, workbookImportStream } from '../excel/excel.service';
import { importIntoJob, importTicketsStaged, type ImportBatch, type ImportCounts, type ImportTicket, type ImportUnit } from '../imports/import.service';
import { isoInstant, loadTicketRows, loadTicketRowVersions, loadTicketsOfJob } from '../tickets/tickets.read';
import { deleteUnreferencedFiles } from '../uploads/stored-files';
import { findUser } from '../crew/crew.repository';
import { findUtility } from '../reference/reference.repository';
import type { BuiltReply, JobReply, JobReplyCache } from './job-replies';
import { assembleJobPage, freshTicket, mergeTickets, staleTickets, type TicketSlices } from './job-page-reply';
import { jobHasInvoices } from '../invoices/invoices.repository';
import * as repo from './jobs.repository';
import { selectJobPercents } from '../production/production.repository';

/** Jobs: list, read, save (create/update with import), delete (SPEC §5 Job save, DESIGN §4–5). */

function toListItem(row: repo.JobRow): JobListItem {
  return {
    ...row,
    status: row.status as JobListItem['status'],
    date_completed: isoInstant(row.date_completed),
    created_at: isoInstant(row.created_at) ?? '',
  };
}

/** The jobs and their "% Complete", two statements whatever the number of jobs. */
async function listJobs(ctx: AppContext, companyId: number): Promise<JobListRow[]> {
  const rows = await repo.selectJobs(ctx.db, companyId);
  const percents = await selectJobPercents(ctx.db, companyId);
  return rows.map((row) => ({ ...toListItem(row), percent_complete: percents.get(row.id) ?? 0 }));
}

/**
 * GET /jobs as serialised bytes, one reply per company (nothing in it depends on the role):
 * 5,000 jobs take two grouped statements over every ticket and task of the company and ~1 MB
 * of JSON to build, their fingerprint one cheap statement. Fingerprint FIRST, as getJobReply.
 */
export async function getJobListReply(ctx: AppContext, me: CurrentUser, cache: JobReplyCache): Promise<JobReply> {
  const fingerprint = await repo.jobListFingerprint(ctx.db, me.companyId);
  return cache.get(`jobs:${me.companyId}`, fingerprint, () => listJobs(ctx, me.companyId));
}

async function jobHeader(ctx: AppContext, companyId: number, id: number): Promise<JobListItem> {
  const [row] = await repo.selectJobs(ctx.db, companyId, id);
  if (!row) throw notFound('job');
  return toListItem(row);
}

/** GET /jobs/{id}: header + ticket-table rows + the company's time zone (for the CSV export). */
export async function getJob(ctx: AppContext, me: CurrentUser, id: number): Promise<Job> {
  const job = await jobHeader(ctx, me.companyId, id);
  const [tickets, tz] = await Promise.all([loadTicketRows(ctx.db, me.companyId, id), repo.companyTimeZone(ctx.db, me.companyId)]);
  return { ...job, tickets, company_time_zone: tz };
}

/**
 * GET /jobs/{id} as serialised bytes: the fingerprint is read FIRST, then (on a change) the job,
 * so a write landing in between can only make the stored reply newer than its fingerprint,
 * which the next request sees as a change; a reply older than the database is never served.
 */
export async function getJobReply(ctx: AppContext, me: CurrentUser, id: number, cache: JobReplyCache<TicketSlices>): Promise<JobReply> {
  const key = `${me.companyId}:${id}`;
  const fingerprint = await repo.jobFingerprint(ctx.db, me.companyId, id);
  if (fingerprint === null) {
    cache.delete(key);
    throw notFound('job');
  }
  return cache.getRebuilt(key, fingerprint, (kept) => buildJobPage(ctx, me.companyId, id, kept));
}

/**
 * The bytes of GET /jobs/{id}, the same as `getJob` serialised, from the kept reply when there is
 * one: the header is read again (its status and counts come from the tickets), the tickets' xmins
 * tell which rows changed, and only those are read and serialised (decision 028). Three statements
 * whatever changed (two when no ticket did); the whole job is read when nothing is kept or much changed.
 */
async function buildJobPage(ctx: AppContext, companyId: number, id: number, kept?: BuiltReply<TicketSlices>): Promise<BuiltReply<TicketSlices>> {
  const [versions, header] = await Promise.all([repo.jobTicketVersions(ctx.db, companyId, id), jobHeader(ctx, companyId, id)]);
  if (!versions) throw notFound('job');
  const stale = staleTickets(kept?.state, versions.tickets);
  if (!kept || stale === null) {
    const rows = await loadTicketRowVersions(ctx.db, companyId, id);
    return assembleJobPage(header, versions.timeZone, rows.map(freshTicket));
  }
  const fresh = stale.length ? (await loadTicketRowVersions(ctx.db, companyId, id, stale)).map(freshTicket) : [];
  return assembleJobPage(header, versions.timeZone, mergeTickets(kept, versions.tickets, fresh));
}

export async function ticketsOfJob(ctx: AppContext, me: CurrentUser, id: number): Promise<Ticket[]> {
  if (!(await repo.findJob(ctx.db, me.companyId, id))) throw notFound('job');
  return loadTicketsOfJob(ctx.db, me.companyId, id);
}

/** GET /jobs/job_exists/{number}: the jobs of the caller's company with exactly this number. */
export function jobsWithNumber(ctx: AppContext, me: CurrentUser, jobNumber: string) {
  return repo.jobsWithNumber(ctx.db, me.companyId, jobNumber.trim());
}

/**
 * GET /jobs/{id}/geojson and /kml: the job's number and its tickets that have coordinates, in
 * two statements whatever the number of tickets (the builders of src/shared/map-export.ts do the rest).
 */
export async function jobMapTickets(ctx: AppContext, me: CurrentUser, id: number): Promise<{ job_number: string; tickets: MapTicket[] }> {
  const [job, rows] = await Promise.all([repo.findJob(ctx.db, me.companyId, id), repo.selectLocatedTickets(ctx.db, me.companyId, id)]);
  if (!job) throw notFound('job');
  const tickets = rows.map(({ complete, ...r }): MapTicket => ({ ...r, status: complete ? TICKET_STATUS.COMPLETE : TICKET_STATUS.PENDING }));
  return { job_number: job.jobNumber, tickets };
}

export const utilities = (ctx: AppContext, me: CurrentUser): Promise<Utility[]> => repo.listUtilities(ctx.db, me.companyId);

/** job.newTickets (SPEC §3 shapes) → import drafts, with the job's overrides applied. */
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

/**
 * The workbook of job.ticketsFile, converted; row problems answer 400 like newTickets ones. A
 * workbook over a limit (rows, cells, time) keeps its 422, as everywhere a workbook is read.
 */
async function workbookDrafts(ctx: AppContext, me: CurrentUser, file: TicketsFile, job: JobSave) {
  try {
    return await loadWorkbookImport(ctx, me, file, job);
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

/** A row problem answers 400 like a newTickets one; a file over a limit or of another kind keeps its 422, as on every route. */
const asSaveError = (err: unknown) =>
  err instanceof AppError && err.statusCode === 422 && err.code !== ERROR_CODE.workbookLimit && err.code !== ERROR_CODE.workbookKind ? badRequest(err.message) : err;

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
 * PUT /jobs/ {job}: no id creates, with id updates (needs the current version). Drafts of
 * newTickets / newUnits / ticketsFile are imported all or nothing with the job row (a new job's
 * staged, decision 027): a bad row answers 400 naming it and nothing is written.
 */
export async function saveJob(ctx: AppContext, me: CurrentUser, input: JobSave, log?: (err: unknown) => void): Promise<JobSaveReply> {
  const { companyId } = me;
  const existing = input.id !== undefined ? await repo.findJob(ctx.db, companyId, input.id) : undefined;
  if (input.id !== undefined && !existing) throw notFound('job');
  if (existing && input.version === undefined) throw badRequest(MSG.jobVersionRequired);

  if (!existing || existing.utilityId !== input.selected_utility_id) {
    if (!(await findUtility(ctx.db, companyId, input.selected_utility_id))) {
      throw badRequest(MSG.jobUtilityInvalid, { selected_utility_id: MSG.jobUtilityInvalid });
    }
  }
  const foremanId = input.foreman_id ?? null;
  if (foremanId !== null && foremanId !== existing?.foremanId) {
    const u = await findUser(ctx.db, companyId, foremanId);
    if (!u || u.roleId !== ROLE.FOREMAN || u.crewStatus !== CREW_STATUS.ACTIVE) {
      throw badRequest(MSG.jobForemanInvalid, { foreman_id: MSG.jobForemanInvalid });
    }
  }
  // A new or changed packet must be this company's upload of a work packet, really stored.
  let packet = { size: input.work_packet_size ?? null, type: input.work_packet_type ?? null, name: input.work_packet_name ?? null };
  if (!existing || existing.workPacketUrl !== input.work_packet_url) {
    const stored = await requireUploadedFile(ctx.storage, companyId, input.work_packet_url, ['work_packet'], 'work packet');
    packet = { size: stored.size, type: stored.contentType, name: input.work_packet_name || stored.name };
  }

  const drafts: ImportTicket[] = input.newTickets?.length ? newTicketsToDrafts(input.newTickets, input) : [];
  const library: ImportUnit[] = (input.newUnits ?? []).map((u: NewUnitDraft) => u);
  // Into an existing job the workbook is read whole first; a new job's is written while the
  // worker still reads it (staged, decision 027).
  let book: AsyncIterable<ImportBatch> | undefined;
  if (input.ticketsFile && existing) {
    const whole = await workbookDrafts(ctx, me, input.ticketsFile, input);
    drafts.push(...whole.tickets);
    library.push(...whole.library);
  } else if (input.ticketsFile) {
    book = workbookBatches(await workbookImportStream(ctx, me, input.ticketsFile, input));
  }

  const values = {
    jobNumber: input.job_number,
    jobType: input.job_type,
    dueDate: input.due_date,
    utilityId: input.selected_utility_id,
    foremanId,
    workPacketUrl: input.work_packet_url,
    workPacketName: packet.name,
    workPacketSize: packet.size,
    workPacketType: packet.type,
    workContactPhone: input.work_contact_phone ?? null,
    hospitalName: input.hospital_name ?? null,
    hospitalAddress: input.hospital_address ?? null,
    ehaspOverride: input.ehasp_override ?? null,
    arcRatingOverride: input.arc_rating_override ?? null,
    primaryVoltageOverride: input.primary_voltage_override ?? null,
    secondaryVoltageOverride: input.secondary_voltage_override ?? null,
  };

  let imported: ImportCounts | undefined;
  let jobId: number;
  // A new job's import is staged (decision 027): the job is created hidden, its tickets written
  // in short statements and published at once, so the one PGlite connection is never held for
  // the seconds a big workbook takes. Into an existing job, importIntoJob runs the save's update
  // in the transaction that writes the import (a big one staged too, decision 032).
  const hasImport = drafts.length > 0 || library.length > 0 || book !== undefined;
  const staged = !existing && hasImport;
  const update = async (tx: DbOrTx) => {
    const row = await repo.updateJob(tx, companyId, existing!.id, input.version!, values);
    if (!row) throw conflict(MSG.staleVersion, ERROR_CODE.staleVersion);
    return row.id;
  };
  try {
    if (existing && hasImport) {
      const scope = { companyId, jobId: existing.id, utilityId: input.selected_utility_id, userId: me.id };
      imported = (await importIntoJob(ctx.db, scope, drafts, library, { prepare: update }, log)).counts;
      jobId = existing.id;
    } else if (existing) {
      jobId = await ctx.db.transaction(update);
    } else {
      jobId = (await repo.insertJob(ctx.db, { ...values, companyId, createdBy: me.id, importPending: staged })).id;
    }
  } catch (err) {
    // The workbook's own problem comes first, as when it was read before the job row.
    if (book) for await (const _ of book);
    if (isUniqueViolation(err, 'jobs_company_number_unique')) throw conflict(MSG.jobNumberExists, ERROR_CODE.jobNumberTaken);
    throw err;
  }
  if (staged) {
    const scope = { companyId, jobId, utilityId: input.selected_utility_id, userId: me.id };
    imported = await importTicketsStaged(ctx.db, scope, withFirst({ tickets: drafts, library }, book), log);
  }
  // A replaced packet nobody else shows is removed from storage (after the commit).
  const oldPacket = existing?.workPacketUrl;
  if (oldPacket && oldPacket !== input.work_packet_url) await deleteUnreferencedFiles(ctx, companyId, [oldPacket], log);
  const job = await jobHeader(ctx, companyId, jobId);
  return imported ? { job, imported } : { job };
}

/**
 * GET /jobs/delete/{id} and DELETE /jobs/{id}: the job and (by cascade) its tickets, tasks,
 * notes, work orders, permits and images; then the stored files only this job pointed at.
 */
export async function deleteJob(ctx: AppContext, me: CurrentUser, id: number, log?: (err: unknown) => void) {
  const urls = await ctx.db.transaction(async (tx) => {
    if (!(await repo.findJob(tx, me.companyId, id))) throw notFound('job');
    // Deleting the job would delete its invoices (DESIGN §7.3: an invoice is kept).
    if (await jobHasInvoices(tx, me.companyId, id)) throw conflict(MSG.jobHasInvoices, ERROR_CODE.jobHasInvoices);
    const urls = await repo.fileUrlsOfJob(tx, me.companyId, id);
    await repo.deleteJob(tx, me.companyId, id);
    return urls;
  });
  await deleteUnreferencedFiles(ctx, me.companyId, urls, log);
  return { success: true, id };
}
