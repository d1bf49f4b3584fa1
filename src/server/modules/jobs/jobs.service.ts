import { TICKET_STATUS } from '../../../shared/constants';
import type { Job, JobListItem, JobListRow, JobSave, JobSaveReply } from '../../../shared/jobs.schemas';
import type { MapTicket } from '../../../shared/map-export';
import { MSG } from '../../../shared/messages';
import { normalizeCode } from '../../../shared/names';
import type { Ticket } from '../../../shared/tickets.schemas';
import type { AppContext } from '../../context';
import type { DbOrTx } from '../../db/client';
import { ERROR_CODE } from '../../../shared/error-codes';
import { isUniqueViolation } from '../../db/errors';
import { isoInstant } from '../../db/sql';
import { badRequest, conflict, notFound } from '../../errors';
import type { CurrentUser } from '../../plugins/auth';
import { requireUploadedFile } from '../../storage/keys';
import { importJobWorkbook } from '../imports/job-import.service';
import { loadTicketRows, loadTicketRowVersions, loadTicketsOfJob } from '../tickets/tickets.service';
import { deleteUnreferencedFiles } from '../../storage/stored-files';
import { isActiveForeman } from '../crew/crew.service';
import { findUtility } from '../reference/reference.service';
import type { BuiltReply, CachedReply, ReplyCache } from '../../plugins/reply-cache';
import { assembleJobPage, freshTicket, mergeTickets, staleTickets, type TicketSlices } from './job-page-reply';
import { jobHasInvoices } from '../invoices/invoices.service';
import * as repo from './jobs.repository';
import { historyPage, recordDiff, type HistoryView } from '../history/history.service';
import type { HistoryQuery, HistoryReply } from '../../../shared/history.schemas';
import { companyTimeZone, evidencePhotosRequired } from '../auth/auth.service';
import { findJob, jobFingerprint } from '../job-record/job-record.service';
import { jobPercents } from '../production/production.service';
import { emitWebhookEvent } from '../webhooks/webhooks.service';

/** Jobs: list, read, save (create/update with import), delete (docs/product/rules.md §1.2 Job save, docs/product/roles-and-statuses.md–5). */

export function toListItem(row: repo.JobRow): JobListItem {
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
  const percents = await jobPercents(ctx.db, companyId);
  return rows.map((row) => ({ ...toListItem(row), percent_complete: percents.get(row.id) ?? 0 }));
}

/**
 * GET /jobs as serialised bytes, one reply per company (nothing in it depends on the role):
 * 5,000 jobs take two grouped statements over every ticket and task of the company and ~1 MB
 * of JSON to build, their fingerprint one cheap statement. Fingerprint FIRST, as getJobReply.
 */
export async function getJobListReply(ctx: AppContext, me: CurrentUser, cache: ReplyCache): Promise<CachedReply> {
  const fingerprint = await repo.jobListFingerprint(ctx.db, me.companyId);
  return cache.get(`jobs:${me.companyId}`, fingerprint, () => listJobs(ctx, me.companyId));
}

async function jobHeader(ctx: AppContext, companyId: number, id: number): Promise<JobListItem> {
  const [row] = await repo.selectJobs(ctx.db, companyId, id);
  if (!row) throw notFound('job');
  return toListItem(row);
}

/** GET /jobs/{id}/header: the job without its tickets (404 for another company's). One statement. */
export const jobHeaderOf = (ctx: AppContext, me: CurrentUser, id: number): Promise<JobListItem> => jobHeader(ctx, me.companyId, id);

/** GET /jobs/{id}: header + ticket-table rows + the company's time zone (for the CSV export). */
export async function getJob(ctx: AppContext, me: CurrentUser, id: number): Promise<Job> {
  const job = await jobHeader(ctx, me.companyId, id);
  const [tickets, tz, evidence] = await Promise.all([loadTicketRows(ctx.db, me.companyId, id), companyTimeZone(ctx.db, me.companyId), evidencePhotosRequired(ctx.db, me.companyId)]);
  return { ...job, tickets, company_time_zone: tz, evidence_photos_required: evidence };
}

/**
 * GET /jobs/{id} as serialised bytes: the fingerprint is read FIRST, then (on a change) the job,
 * so a write landing in between can only make the stored reply newer than its fingerprint,
 * which the next request sees as a change; a reply older than the database is never served.
 */
export async function getJobReply(ctx: AppContext, me: CurrentUser, id: number, cache: ReplyCache<TicketSlices>): Promise<CachedReply> {
  // The rows' Clear to dig depends on the company's calendar day (docs/product/records.md §5): a new day is a
  // new reply, built afresh; yesterday's is dropped by the cache's size limit.
  const found = await jobFingerprint(ctx.db, me.companyId, id);
  if (found === null) {
    cache.deletePrefix(`${me.companyId}:${id}:`);
    throw notFound('job');
  }
  return cache.getRebuilt(`${me.companyId}:${id}:${found.day}`, found.fingerprint, (kept) => buildJobPage(ctx, me.companyId, id, kept));
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
    return assembleJobPage(header, versions.timeZone, versions.evidencePhotosRequired, rows.map(freshTicket));
  }
  const fresh = stale.length ? (await loadTicketRowVersions(ctx.db, companyId, id, stale)).map(freshTicket) : [];
  return assembleJobPage(header, versions.timeZone, versions.evidencePhotosRequired, mergeTickets(kept, versions.tickets, fresh));
}

/**
 * GET /jobs/{id}/history: the job's own entries and its tickets' (deleted ones included),
 * newest first, paged (docs/product/records.md). Every role reads it, as the job.
 */
export async function jobHistory(ctx: AppContext, me: CurrentUser, id: number, query: HistoryQuery): Promise<HistoryReply> {
  if (!(await findJob(ctx.db, me.companyId, id))) throw notFound('job');
  return historyPage(ctx.db, me.companyId, { jobId: id }, query.limit, query.cursor);
}

export async function ticketsOfJob(ctx: AppContext, me: CurrentUser, id: number): Promise<Ticket[]> {
  if (!(await findJob(ctx.db, me.companyId, id))) throw notFound('job');
  return loadTicketsOfJob(ctx.db, me.companyId, id);
}

/** GET /jobs/job_exists/{number}: the jobs of the caller's company with exactly this number. */
export function jobsWithNumber(ctx: AppContext, me: CurrentUser, jobNumber: string) {
  // Compared as stored (docs/product/sessions-and-safety.md): 'Ｊ-１' finds J-1.
  return repo.jobsWithNumber(ctx.db, me.companyId, normalizeCode(jobNumber));
}

/**
 * GET /jobs/{id}/geojson and /kml: the job's number and its tickets that have coordinates, in
 * two statements whatever the number of tickets (the builders of src/shared/map-export.ts do the rest).
 */
export async function jobMapTickets(ctx: AppContext, me: CurrentUser, id: number): Promise<{ job_number: string; tickets: MapTicket[] }> {
  const [job, rows] = await Promise.all([findJob(ctx.db, me.companyId, id), repo.selectLocatedTickets(ctx.db, me.companyId, id)]);
  if (!job) throw notFound('job');
  const tickets = rows.map(({ complete, ...r }): MapTicket => ({ ...r, status: complete ? TICKET_STATUS.COMPLETE : TICKET_STATUS.PENDING }));
  return { job_number: job.jobNumber, tickets };
}

/**
 * PUT /jobs/ {job}: no id creates, with id updates (needs the current version). Drafts of
 * newTickets / newUnits / ticketsFile are imported all or nothing with the job row (a new job's
 * staged, decision 027): a bad row answers 400 naming it and nothing is written.
 */
export async function saveJob(ctx: AppContext, me: CurrentUser, input: JobSave, log?: (err: unknown) => void): Promise<JobSaveReply> {
  const { companyId } = me;
  const existing = input.id !== undefined ? await findJob(ctx.db, companyId, input.id) : undefined;
  if (input.id !== undefined && !existing) throw notFound('job');
  if (existing && input.version === undefined) throw badRequest(MSG.jobVersionRequired);

  if (!existing || existing.utilityId !== input.selected_utility_id) {
    if (!(await findUtility(ctx.db, companyId, input.selected_utility_id))) {
      throw badRequest(MSG.jobUtilityInvalid, { selected_utility_id: MSG.jobUtilityInvalid });
    }
  }
  const foremanId = input.foreman_id ?? null;
  if (foremanId !== null && foremanId !== existing?.foremanId) {
    if (!(await isActiveForeman(ctx.db, companyId, foremanId))) throw badRequest(MSG.jobForemanInvalid, { foreman_id: MSG.jobForemanInvalid });
  }
  // A new or changed packet must be this company's upload of a work packet, really stored.
  let packet = { size: input.work_packet_size ?? null, type: input.work_packet_type ?? null, name: input.work_packet_name ?? null };
  if (!existing || existing.workPacketUrl !== input.work_packet_url) {
    const stored = await requireUploadedFile(ctx.storage, companyId, input.work_packet_url, ['work_packet'], 'work packet');
    packet = { size: stored.size, type: stored.contentType, name: input.work_packet_name || stored.name };
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

  // Each write of the row records its history in its own transaction (a job's own entries
  // carry no ticket; docs/product/records.md). A staged import's hidden job that is discarded takes its
  // creation entry with it (imports' discardStagedImport).
  const update = async (tx: DbOrTx) => {
    const before = await jobView(tx, companyId, existing!.id);
    const row = await repo.updateJob(tx, companyId, existing!.id, input.version!, values);
    if (!row) throw conflict(MSG.staleVersion, ERROR_CODE.staleVersion);
    await recordJobChange(tx, me, row.id, before, await jobView(tx, companyId, row.id));
    return row.id;
  };
  // A job with an import is created when its staged import is published (staged-write.ts emits
  // job.created there); one without, here, in the transaction of its row.
  const insert = async (importPending: boolean) =>
    ctx.db.transaction(async (tx) => {
      const { id } = await repo.insertJob(tx, { ...values, companyId, createdBy: me.id, importPending });
      await recordJobChange(tx, me, id, null, await jobView(tx, companyId, id));
      if (!importPending) await emitWebhookEvent(tx, companyId, 'job.created', { job_id: id, job_number: values.jobNumber, user_id: me.id });
      return id;
    });
  let saved: Awaited<ReturnType<typeof importJobWorkbook>>;
  try {
    // The row written with the drafts of newTickets / newUnits / ticketsFile (the import module).
    saved = await importJobWorkbook(ctx, me, input, { existingId: existing?.id, update, insert }, log);
  } catch (err) {
    if (isUniqueViolation(err, 'jobs_company_number_unique')) throw conflict(MSG.jobNumberExists, ERROR_CODE.jobNumberTaken);
    throw err;
  }
  const { jobId, imported } = saved;
  // A replaced packet nobody else shows is removed from storage (after the commit).
  const oldPacket = existing?.workPacketUrl;
  if (oldPacket && oldPacket !== input.work_packet_url) await deleteUnreferencedFiles(ctx, companyId, [oldPacket], log);
  const job = await jobHeader(ctx, companyId, jobId);
  return imported ? { job, imported } : { job };
}

/** The job as its history compares it (repo.selectJobForHistory). */
const jobView = async (db: DbOrTx, companyId: number, id: number): Promise<HistoryView | null> => (await repo.selectJobForHistory(db, companyId, id)) ?? null;

const recordJobChange = (db: DbOrTx, me: CurrentUser, id: number, before: HistoryView | null, after: HistoryView | null) =>
  recordDiff(db, me, { entity: 'job', entityId: id, jobId: id }, before, after);

/**
 * GET /jobs/delete/{id} and DELETE /jobs/{id}: the job and (by cascade) its tickets, tasks,
 * notes, work orders, permits and images; then the stored files only this job pointed at.
 */
export async function deleteJob(ctx: AppContext, me: CurrentUser, id: number, log?: (err: unknown) => void) {
  const urls = await ctx.db.transaction(async (tx) => {
    if (!(await findJob(tx, me.companyId, id))) throw notFound('job');
    // Deleting the job would delete its invoices (docs/product/billing.md §4: an invoice is kept).
    if (await jobHasInvoices(tx, me.companyId, id)) throw conflict(MSG.jobHasInvoices, ERROR_CODE.jobHasInvoices);
    const urls = await repo.fileUrlsOfJob(tx, me.companyId, id);
    await recordJobChange(tx, me, id, await jobView(tx, me.companyId, id), null);
    await repo.deleteJob(tx, me.companyId, id);
    return urls;
  });
  await deleteUnreferencedFiles(ctx, me.companyId, urls, log);
  return { success: true, id };
}
