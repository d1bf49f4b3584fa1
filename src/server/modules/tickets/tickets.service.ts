import { TICKET_STATUS } from '../../../shared/constants';
import { toIsoDate } from '../../../shared/dates';
import { MSG } from '../../../shared/messages';
import { can } from '../../../shared/permissions';
import { clampAdditionalQty } from '../../../shared/tasks';
import type { PermitSave, TaskPatch, Ticket, TicketSave } from '../../../shared/tickets.schemas';
import type { AppContext } from '../../context';
import type { DbOrTx } from '../../db/client';
import type { tickets } from '../../db/schema/index';
import { ERROR_CODE } from '../../../shared/error-codes';
import { badRequest, conflict, forbidden, notFound } from '../../errors';
import type { CurrentUser } from '../../plugins/auth';
import { requireUploadedFile, type StorageKind } from '../../storage/keys';
import { deleteUnreferencedFiles, holdFileUrls } from '../../storage/stored-files';
import { findJob, type JobRecord } from '../job-record/job-record.service';
import { findPole, insertNewPole } from '../poles/poles.service';
import { permitTypeExists } from '../reference/reference.service';
import { emitWebhookEvent } from '../webhooks/webhooks.service';
import * as repo from './tickets.repository';
import { loadTicket } from './ticket-reads.repository';
import { recordTicketChange, recordTicketUpdate, type TicketBefore } from './ticket-history.service';
import { historyPage, record } from '../history/history.service';
import type { HistoryQuery, HistoryReply } from '../../../shared/history.schemas';

/**
 * Ticket rules (docs/product/roles-and-statuses.md §5 Ticket window, §5 Add pole / Tasks; docs/product/roles-and-statuses.md §5 roles, statuses,
 * concurrency, atomicity). Every write runs in one transaction; stored files that a write made
 * unreachable are removed after it commits, unless another record still points at them.
 */

type TicketInsert = typeof tickets.$inferInsert;

/**
 * The ticket read model as other modules read it (the job page, My Work, exports, and a pole added
 * with its ticket): the statements are in ticket-reads.repository.ts, and other modules use the
 * tickets module through its services only (docs/decisions/041-modules-and-layers-depend-one-way.md).
 */
export { companyDaySql, evidencePhotoCountOf, loadTicket, loadTicketsOfJob, loadTicketRows, loadTicketRowVersions, selectTicketRows, ticketStatus, toTicketRow } from './ticket-reads.repository';

/** Document kinds a dig-safe, NRA or permit url may point at (all are "a PDF or a photo"). */
const DOC_KINDS: readonly StorageKind[] = ['dig_file', 'nra_file', 'permit'];

export async function getTicket({ db }: AppContext, user: CurrentUser, id: number): Promise<Ticket> {
  const ticket = await loadTicket(db, user.companyId, id);
  if (!ticket) throw notFound('ticket');
  return ticket;
}

/**
 * GET /tickets/{id}/history: newest first, paged (docs/product/records.md §1). Read by whoever may read the
 * ticket (every role of its company; another company's id answers 404 like the ticket).
 */
export async function ticketHistory({ db }: AppContext, user: CurrentUser, id: number, query: HistoryQuery): Promise<HistoryReply> {
  if (!(await repo.findTicketRow(db, user.companyId, id))) throw notFound('ticket');
  return historyPage(db, user.companyId, { ticketId: id }, query.limit, query.cursor);
}

async function reload(db: DbOrTx, companyId: number, id: number): Promise<Ticket> {
  const ticket = await loadTicket(db, companyId, id);
  if (!ticket) throw notFound('ticket');
  return ticket;
}

/** The merge flags of a save reply when another ticket of the job holds this ticket's pole. */
async function mergeFlags(db: DbOrTx, companyId: number, t: { id: number; job_id: number; pole_id: number | null }) {
  if (t.pole_id == null) return {};
  const others = await repo.ticketsOnPole(db, companyId, t.job_id, t.pole_id, t.id);
  return others.length ? { notifyMergeRequired: true, ticketIdToMerge: others[0] } : {};
}

/**
 * Inserts the ticket of a job for a pole (docs/product/rules.md §2.2: adding a pole saves its ticket at once).
 * Address and coordinates start as the pole's; EHASP starts as the job's override.
 */
export async function insertTicketForPole(
  db: DbOrTx,
  companyId: number,
  job: JobRecord,
  poleId: number,
  dueDate: string | null | undefined,
): Promise<number> {
  const pole = await findPole(db, companyId, poleId);
  if (!pole) throw notFound('pole');
  let due: string | null = null;
  if (dueDate != null && dueDate !== '') {
    due = toIsoDate(dueDate);
    if (!due) throw badRequest(MSG.dueDateInvalid, { due_date: 'not a date' });
  }
  return repo.insertTicket(db, {
    companyId,
    jobId: job.id,
    poleId,
    dueDate: due ?? job.dueDate,
    streetAddress: pole.street_address,
    geoLat: pole.geo_lat,
    geoLon: pole.geo_lon,
    ehasp: job.ehaspOverride,
  });
}

/** insertTicketForPole, recorded as the ticket's creation (a pole added to a job: POST /poles/). */
export async function createTicketForPole(db: DbOrTx, user: CurrentUser, job: JobRecord, poleId: number, dueDate: string | null | undefined): Promise<number> {
  const id = await insertTicketForPole(db, user.companyId, job, poleId, dueDate);
  await recordTicketChange(db, user, null, (await loadTicket(db, user.companyId, id))!);
  return id;
}

// ---------------------------------------------------------------------------------------------
// The billed-ticket lock (docs/product/billing.md §5, docs/decisions/025-invoices.md)

/** Billed and not unlocked: its tasks and status may not change (the invoice was made from them). */
export const isBilledLocked = (t: Pick<repo.TicketRow, 'billedAt' | 'unlockedAt'>) => t.billedAt != null && t.unlockedAt == null;

/** 409 naming the invoice, for a change to the tasks or status of a locked ticket. */
export function assertNotBilledLocked(t: Pick<repo.TicketRow, 'billedAt' | 'unlockedAt' | 'invoiceNumber'>) {
  if (isBilledLocked(t)) throw conflict(MSG.ticketBilledLocked(t.invoiceNumber ?? 'an invoice'), ERROR_CODE.ticketBilled);
}

/**
 * POST /tickets/{id}/unlock {reason}: a billed ticket's tasks and status may change again. The
 * ticket stays billed (its invoice's lines are frozen) and can never go on a second invoice.
 */
export async function unlockTicket(ctx: AppContext, me: CurrentUser, id: number, reasonIn: string): Promise<{ ticket: Ticket }> {
  const reason = reasonIn.trim();
  if (!reason) throw badRequest(MSG.unlockReasonRequired, { reason: MSG.unlockReasonRequired });
  return ctx.db.transaction(async (tx) => {
    const locked = await repo.lockTicketForChange(tx, me.companyId, id);
    if (!locked) throw notFound('ticket');
    if (!locked.row.billedAt) throw conflict(MSG.unlockNotBilled);
    await repo.unlockTicket(tx, me.companyId, id, me.id, reason);
    const ticket = (await loadTicket(tx, me.companyId, id))!;
    await recordTicketUpdate(tx, me, { locked }, ticket);
    return { ticket };
  });
}

// ---------------------------------------------------------------------------------------------
// PUT /tickets/

/** Equal within the 6 decimals kept (docs/product/rules.md §2.3): a stored 42.1049 may come back as 42.104899. */
const sameCoordinate = (a: number | null, b: number | null) => (a === null || b === null ? a === b : Math.abs(a - b) < 1e-6);

const blankToNull = (v: string | null | undefined) => (v == null || v.trim() === '' ? null : v);

interface Changes {
  /** Ticket columns to set. */
  set: Partial<TicketInsert>;
  /** What the caller changed, by permission needed. */
  structural: string[]; // tickets.write
  edits: string[]; // tickets.edit
  notes: string[]; // new note texts (tickets.annotate)
  workOrders?: string[];
  tasks?: {
    remove: number[];
    update: { id: number; init: number; additional: number; done?: Date | null }[];
    add: { unitId: number; init: number; additional: number; done: Date | null }[];
  };
  permits?: { remove: number[]; update: { id: number; set: Record<string, unknown> }[]; add: Record<string, unknown>[] };
  /** Urls no longer referenced once the save commits. */
  orphanUrls: string[];
  /** The stored lists the comparison read: they are also the "before" of the save's history. */
  stored: Pick<TicketBefore, 'tasks' | 'permits' | 'workOrders'>;
}

/**
 * What a save changes compared to the stored ticket. The client may send the whole read model
 * back: only real differences count, so a lineman who re-sends everything and adds a note only
 * "adds a note".
 */
async function diffTicket(ctx: AppContext, db: DbOrTx, user: CurrentUser, cur: repo.TicketRow, input: TicketSave): Promise<Changes> {
  const c: Changes = { set: {}, structural: [], edits: [], notes: [], orphanUrls: [], stored: {} };
  const edit: Edit = (field, col, next, prev) => {
    if (next !== prev) {
      (c.set as Record<string, unknown>)[col] = next;
      c.edits.push(field);
    }
  };
  const d: Diff = { ctx, db, user, cur, c, edit };
  await diffFields(d, input);
  await diffDocuments(d, input);
  diffDigSafeRecord(d, input);
  await diffWorkOrders(d, input);
  // Notes are append-only: the ones without an id are new.
  if (input.notes !== undefined) {
    c.notes = input.notes.filter((n) => n.id == null && n.note_text.trim() !== '').map((n) => n.note_text.trim());
  }
  await diffTasks(d, input);
  await diffPermits(d, input);
  return c;
}

/** Sets a ticket column and names the field when the value differs from the stored one. */
type Edit = (field: string, col: keyof TicketInsert, next: unknown, prev: unknown) => void;

/** One save being compared: who saves, the stored ticket, and the changes found so far. */
interface Diff {
  ctx: AppContext;
  db: DbOrTx;
  user: CurrentUser;
  cur: repo.TicketRow;
  c: Changes;
  edit: Edit;
}

/** The pole and the ticket's own fields. */
async function diffFields({ db, user, cur, c, edit }: Diff, input: TicketSave) {
  // Pole: choosing another existing pole, or a new one.
  const poleId = input.pole_id ?? input.pole?.id ?? undefined;
  if (poleId !== undefined && poleId !== null && poleId !== cur.poleId) {
    if (!(await findPole(db, user.companyId, poleId))) throw notFound('pole');
    c.set.poleId = poleId;
    c.structural.push('pole');
  } else if (input.pole && input.pole.id == null && (input.pole.pole_name || input.pole.line_name)) {
    c.structural.push('pole');
    c.set.poleId = await insertNewPole(db, user.companyId, input.pole, cur.jobId);
  }

  if (input.street_address !== undefined) edit('street_address', 'streetAddress', blankToNull(input.street_address), cur.streetAddress);
  // A coordinate sent back as read (cut to 6 decimals on the way in) is not a change.
  if (input.geo_lat !== undefined && !sameCoordinate(input.geo_lat, cur.geoLat)) edit('geo_lat', 'geoLat', input.geo_lat, cur.geoLat);
  if (input.geo_lon !== undefined && !sameCoordinate(input.geo_lon, cur.geoLon)) edit('geo_lon', 'geoLon', input.geo_lon, cur.geoLon);
  if (input.description !== undefined) edit('description', 'description', blankToNull(input.description), cur.description);
  if (input.ehasp !== undefined) edit('ehasp', 'ehasp', blankToNull(input.ehasp), cur.ehasp);
  if (input.ambulance_meetup !== undefined) edit('ambulance_meetup', 'ambulanceMeetup', blankToNull(input.ambulance_meetup), cur.ambulanceMeetup);
  if (input.due_date !== undefined) {
    const due = input.due_date == null || input.due_date === '' ? null : toIsoDate(input.due_date);
    if (input.due_date && !due) throw badRequest(MSG.dueDateInvalid, { due_date: 'not a date' });
    edit('due_date', 'dueDate', due, cur.dueDate);
  }
  if (input.assigned_to !== undefined && input.assigned_to !== cur.assignedTo) {
    if (input.assigned_to !== null && !(await repo.isActiveWorkingForeman(db, user.companyId, input.assigned_to))) {
      throw badRequest(MSG.ticketAssignWorkingForeman, { assigned_to: MSG.ticketAssignWorkingForeman });
    }
    edit('assigned_to', 'assignedTo', input.assigned_to, cur.assignedTo);
  }
  if (input.status !== undefined) {
    const complete = input.status === TICKET_STATUS.COMPLETE;
    if (complete && !cur.actualCompletionDate) {
      edit('status', 'actualCompletionDate', new Date(), null);
      Object.assign(c.set, completionRecord(user, input));
    }
    if (!complete && cur.actualCompletionDate) {
      edit('status', 'actualCompletionDate', null, cur.actualCompletionDate);
      // Reopening clears the record; the history keeps it (docs/product/records.md §6).
      Object.assign(c.set, { completedBy: null, completedLat: null, completedLon: null, completedAccuracyM: null } satisfies Partial<TicketInsert>);
    }
  }
}

/**
 * The completion record of a save that completes the ticket (docs/product/records.md §6): who
 * (the caller, whichever screen or queued replay sent it) and, when the body carries it, where
 * the device was when the crew tapped (the schema has checked the three are given together and
 * in range). Any path that completes a ticket goes through this save.
 */
function completionRecord(user: CurrentUser, input: TicketSave): Partial<TicketInsert> {
  const at = input.completed_lat != null && input.completed_lon != null && input.completed_accuracy_m != null;
  return {
    completedBy: user.id,
    completedLat: at ? input.completed_lat : null,
    completedLon: at ? input.completed_lon : null,
    completedAccuracyM: at ? input.completed_accuracy_m : null,
  };
}

/** Dig-safe and NRA documents (docs/product/rules.md §2.5): uploading one sets its flag to 1, removing it sets 0. */
async function diffDocuments({ ctx, db, user, cur, c, edit }: Diff, input: TicketSave) {
  const doc = async (
    label: string,
    what: string,
    urlIn: string | null | undefined,
    nameIn: string | null | undefined,
    requiredIn: 0 | 1 | undefined,
    cols: { url: 'digSafeUrl' | 'nraUrl'; name: 'digSafeName' | 'nraName'; required: 'digSafeRequired' | 'nraRequired' },
  ) => {
    const prevUrl = cur[cols.url];
    let nextUrl = urlIn === undefined ? prevUrl : blankToNull(urlIn);
    let file: Awaited<ReturnType<typeof requireUploadedFile>> | undefined;
    if (nextUrl && nextUrl !== prevUrl) {
      await holdFileUrls(db, ctx.storage, [nextUrl]);
      file = await requireUploadedFile(ctx.storage, user.companyId, nextUrl, DOC_KINDS, what);
      // Stored as the storage's own url of the object, one spelling per file.
      nextUrl = ctx.storage.urlFor(file.key);
    }
    if (nextUrl !== prevUrl) {
      if (nextUrl && file) {
        edit(`${label}_url`, cols.url, nextUrl, prevUrl);
        edit(`${label}_name`, cols.name, blankToNull(nameIn) ?? file.name, cur[cols.name]);
        edit(`${label}_required`, cols.required, 1, cur[cols.required]);
      } else {
        edit(`${label}_url`, cols.url, null, prevUrl);
        edit(`${label}_name`, cols.name, null, cur[cols.name]);
        edit(`${label}_required`, cols.required, 0, cur[cols.required]);
      }
      if (prevUrl) c.orphanUrls.push(prevUrl);
      return;
    }
    if (nameIn !== undefined && nextUrl) edit(`${label}_name`, cols.name, blankToNull(nameIn), cur[cols.name]);
    if (requiredIn !== undefined) edit(`${label}_required`, cols.required, requiredIn, cur[cols.required]);
  };
  await doc('dig_safe', 'dig-safe document', input.dig_safe_url, input.dig_safe_name, input.dig_safe_required, {
    url: 'digSafeUrl',
    name: 'digSafeName',
    required: 'digSafeRequired',
  });
  await doc('nra', 'NRA document', input.nra_url, input.nra_name, input.nra_required, {
    url: 'nraUrl',
    name: 'nraName',
    required: 'nraRequired',
  });
}

/**
 * A date of a permit or the dig-safe record as stored: 'YYYY-MM-DD', or null for blank. The save
 * schema has refused what is not a date; this is where 'MM/DD/YYYY' becomes the stored form.
 */
const recordDay = (v: string | null | undefined) => (v == null || v.trim() === '' ? null : toIsoDate(v));

/**
 * "Valid from" on or before the expiry, checked on what will be stored (a save may send one of
 * the two dates and keep the other): 400 naming the record, on its expiry field.
 */
function assertValidity(what: string, field: string, from: string | null, to: string | null) {
  if (from && to && from > to) throw badRequest(MSG.recordDatesOrder(what), { [field]: MSG.recordDatesOrder(what) });
}

/** The dig-safe record (docs/product/records.md §2): its number and dates, edited like the ticket's other fields (tickets.edit). */
function diffDigSafeRecord({ cur, edit }: Diff, input: TicketSave) {
  const from = input.dig_safe_valid_from === undefined ? cur.digSafeValidFrom : recordDay(input.dig_safe_valid_from);
  const to = input.dig_safe_expires_on === undefined ? cur.digSafeExpiresOn : recordDay(input.dig_safe_expires_on);
  assertValidity('dig safe ticket', 'dig_safe_expires_on', from, to);
  if (input.dig_safe_number !== undefined) edit('dig_safe_number', 'digSafeNumber', blankToNull(input.dig_safe_number)?.trim() ?? null, cur.digSafeNumber);
  edit('dig_safe_valid_from', 'digSafeValidFrom', from, cur.digSafeValidFrom);
  edit('dig_safe_expires_on', 'digSafeExpiresOn', to, cur.digSafeExpiresOn);
}

/** Work orders: the list as sent (trimmed, blanks and repeats dropped). */
async function diffWorkOrders({ db, cur, c }: Diff, input: TicketSave) {
  if (input.work_orders !== undefined) {
    const seen = new Set<string>();
    const next = input.work_orders.map((w) => w.trim()).filter((w) => w !== '' && !seen.has(w) && (seen.add(w), true));
    const prev = (await repo.workOrdersOf(db, cur.id)).map((w) => w.workOrder);
    c.stored.workOrders = prev;
    if (next.length !== prev.length || next.some((w, i) => w !== prev[i])) {
      c.workOrders = next;
      c.edits.push('work_orders');
    }
  }
}

/** Tasks: the ones with an id are kept (and maybe changed), the others added, the missing removed. */
async function diffTasks({ db, user, cur, c }: Diff, input: TicketSave) {
  if (input.tasks === undefined) return;
  c.stored.tasks = await repo.tasksOf(db, cur.id);
  const prev = new Map(c.stored.tasks.map((t) => [t.id, t]));
  const kept = new Set<number>();
  const tasks: NonNullable<Changes['tasks']> = { remove: [], update: [], add: [] };
  for (const t of input.tasks) {
    const init = t.init_qty;
    const additional = clampAdditionalQty(init, t.additional_qty);
    const done = t.date_completed == null ? t.date_completed : new Date(t.date_completed);
    if (t.ticket_task_id != null) {
      const p = prev.get(t.ticket_task_id);
      if (!p) throw notFound('task');
      kept.add(p.id);
      const doneChanged = done !== undefined && (done?.getTime() ?? null) !== (p.dateCompleted?.getTime() ?? null);
      if (p.initQty !== init || p.additionalQty !== additional || doneChanged) {
        tasks.update.push({ id: p.id, init, additional, ...(doneChanged ? { done } : {}) });
      }
    } else {
      tasks.add.push({ unitId: t.task_id, init, additional, done: done ?? null });
    }
  }
  tasks.remove = [...prev.keys()].filter((id) => !kept.has(id));
  const units = await repo.companyUnitIds(db, user.companyId, [...new Set(tasks.add.map((t) => t.unitId))]);
  if (tasks.add.some((t) => !units.has(t.unitId))) throw badRequest(MSG.ticketUnitInvalid);
  if (tasks.remove.length || tasks.update.length || tasks.add.length) {
    c.tasks = tasks;
    c.edits.push('tasks');
  }
}

/** Permits: like tasks; a permit's new document must be an uploaded file, a replaced one is orphaned. */
async function diffPermits({ ctx, db, user, cur, c }: Diff, input: TicketSave) {
  if (input.permits === undefined) return;
  c.stored.permits = await repo.permitsOf(db, cur.id);
  const prev = new Map(c.stored.permits.map((p) => [p.id, p]));
  const kept = new Set<number>();
  const permits: NonNullable<Changes['permits']> = { remove: [], update: [], add: [] };
  const checkPermit = async (p: PermitSave, prevUrl: string | null) => {
    const validFrom = recordDay(p.valid_from);
    const expiresOn = recordDay(p.expires_on);
    assertValidity('permit', 'expires_on', validFrom, expiresOn);
    if (p.permit_type != null && !(await permitTypeExists(db, user.companyId, p.permit_type))) throw badRequest(MSG.ticketPermitTypeInvalid);
    let url = blankToNull(p.permit_url);
    if (url && url !== prevUrl) {
      await holdFileUrls(db, ctx.storage, [url]);
      url = ctx.storage.urlFor((await requireUploadedFile(ctx.storage, user.companyId, url, DOC_KINDS, 'permit')).key);
    }
    return {
      permitTypeId: p.permit_type ?? null,
      permitUrl: url,
      permitName: blankToNull(p.permit_name),
      permitFileType: blankToNull(p.permit_file_type),
      filename: blankToNull(p.filename),
      number: blankToNull(p.number)?.trim() ?? null,
      validFrom,
      expiresOn,
    };
  };
  for (const p of input.permits) {
    if (p.id != null) {
      const old = prev.get(p.id);
      if (!old) throw notFound('permit');
      kept.add(old.id);
      const next = await checkPermit(p, old.permitUrl);
      const changed = (Object.keys(next) as (keyof typeof next)[]).filter((k) => next[k] !== old[k]);
      if (changed.length) {
        permits.update.push({ id: old.id, set: next });
        if (old.permitUrl && next.permitUrl !== old.permitUrl) c.orphanUrls.push(old.permitUrl);
      }
    } else {
      permits.add.push(await checkPermit(p, null));
    }
  }
  for (const [id, old] of prev) {
    if (kept.has(id)) continue;
    permits.remove.push(id);
    if (old.permitUrl) c.orphanUrls.push(old.permitUrl);
  }
  if (permits.remove.length || permits.update.length || permits.add.length) {
    c.permits = permits;
    c.edits.push('permits');
  }
}

/** docs/product/roles-and-statuses.md: pole changes need tickets.write, other edits tickets.edit, notes tickets.annotate. */
function checkRole(user: CurrentUser, c: Changes) {
  if (c.structural.length && !can(user.roleId, 'tickets.write')) {
    throw forbidden(can(user.roleId, 'tickets.edit') ? MSG.forbidden : MSG.ticketNotesAndImagesOnly);
  }
  if (c.edits.length && !can(user.roleId, 'tickets.edit')) throw forbidden(MSG.ticketNotesAndImagesOnly);
  if (c.notes.length && !can(user.roleId, 'tickets.annotate')) throw forbidden();
}

async function applyChanges(db: DbOrTx, user: CurrentUser, cur: repo.TicketRow, c: Changes): Promise<boolean> {
  const { companyId } = user;
  if (c.workOrders) await repo.replaceWorkOrders(db, companyId, cur.id, c.workOrders);
  await repo.insertNotes(db, companyId, cur.id, user.id, c.notes);
  if (c.tasks) {
    await repo.deleteTasks(db, cur.id, c.tasks.remove);
    for (const t of c.tasks.update) await repo.updateTask(db, cur.id, t.id, t.init, t.additional, user.id, t.done);
    const now = new Date();
    await repo.insertTasks(
      db,
      c.tasks.add.map((t) => ({
        companyId,
        ticketId: cur.id,
        unitId: t.unitId,
        initQty: t.init,
        additionalQty: t.additional,
        dateCompleted: t.done,
        qtyChangedAt: now,
        qtyChangedBy: user.id,
      })),
    );
  }
  if (c.permits) {
    await repo.deletePermits(db, cur.id, c.permits.remove);
    for (const p of c.permits.update) await repo.updatePermit(db, cur.id, p.id, p.set);
    await repo.insertPermits(
      db,
      c.permits.add.map((p) => ({ ...p, companyId, ticketId: cur.id })),
    );
  }
  const changed = c.structural.length > 0 || c.edits.length > 0 || c.notes.length > 0;
  if (changed) await repo.updateTicket(db, companyId, cur.id, { ...c.set, version: cur.version + 1 });
  return changed;
}

/**
 * ticket.completed / ticket.reopened when the save changed the status (docs/product/integrations.md §4),
 * in the save's transaction. Every way a ticket becomes Complete or leaves it is this save
 * (diffFields sets actual_completion_date): the ticket window, My Work, offline replays.
 */
async function emitStatusEvent(tx: DbOrTx, user: CurrentUser, cur: repo.TicketRow, c: Changes) {
  if (!('actualCompletionDate' in c.set)) return;
  const completedAt = c.set.actualCompletionDate;
  const ids = { ticket_id: cur.id, job_id: cur.jobId, pole_id: c.set.poleId ?? cur.poleId, user_id: user.id };
  if (completedAt) await emitWebhookEvent(tx, user.companyId, 'ticket.completed', { ...ids, completed_at: completedAt.toISOString() });
  else await emitWebhookEvent(tx, user.companyId, 'ticket.reopened', ids);
}

export interface SaveResult {
  ticket: Ticket;
  notifyMergeRequired?: boolean;
  ticketIdToMerge?: number;
}

/** PUT /tickets/ (docs/product/rules.md §1.3): create (no id) or update with the version that was read. */
export async function saveTicket(ctx: AppContext, user: CurrentUser, input: TicketSave, log?: (err: unknown) => void): Promise<SaveResult> {
  const { db } = ctx;
  let orphanUrls: string[] = [];
  const saved = await db.transaction(async (tx) => {
    let locked: repo.LockedTicket | undefined;
    let body = input;
    if (input.id == null) {
      if (!can(user.roleId, 'tickets.write')) throw forbidden();
      if (input.job_id == null) throw badRequest(MSG.ticketJobRequired, { job_id: 'required' });
      const job = await findJob(tx, user.companyId, input.job_id);
      if (!job) throw notFound('job');
      const existingPole = input.pole_id ?? input.pole?.id ?? null;
      let poleId: number;
      if (existingPole != null) {
        if (!(await findPole(tx, user.companyId, existingPole))) throw notFound('pole');
        poleId = existingPole;
      } else if (input.pole) {
        poleId = await insertNewPole(tx, user.companyId, input.pole, job.id);
      } else {
        throw badRequest(MSG.ticketPoleRequired);
      }
      const newId = await insertTicketForPole(tx, user.companyId, job, poleId, input.due_date);
      locked = await repo.lockTicketForChange(tx, user.companyId, newId);
      // The pole is chosen; the rest of the draft is applied like an update of the new ticket.
      body = { ...input, pole_id: undefined, pole: undefined };
    } else {
      if (input.version === undefined) throw badRequest(MSG.ticketVersionRequired, { version: 'required' });
      locked = await lockAtVersion(tx, user, input.id, input.version, input.job_id);
    }
    const result = await applySave(ctx, tx, user, locked!, body, input.id == null);
    orphanUrls = result.orphanUrls;
    return result.ticket;
  });
  await deleteUnreferencedFiles(ctx, user.companyId, orphanUrls, log);
  return { ticket: saved, ...(await mergeFlags(db, user.companyId, saved)) };
}

/** The ticket to update, locked, if it is the caller's company's and still at the version read. */
async function lockAtVersion(tx: DbOrTx, user: CurrentUser, id: number, version: number, jobId?: number | null): Promise<repo.LockedTicket> {
  const locked = await repo.lockTicketForChange(tx, user.companyId, id);
  if (!locked) throw notFound('ticket');
  if (jobId != null && jobId !== locked.row.jobId) throw notFound('ticket');
  if (locked.row.version !== version) throw conflict(MSG.staleVersion, ERROR_CODE.staleVersion);
  return locked;
}

/**
 * One save of a locked ticket: compare, check the role and billing lock, write, and in the same
 * transaction its history entries and webhook event (`created`: this save creates the ticket).
 * The ticket after, and the urls the save orphaned.
 */
async function applySave(
  ctx: AppContext,
  tx: DbOrTx,
  user: CurrentUser,
  locked: repo.LockedTicket,
  body: TicketSave,
  created: boolean,
): Promise<{ ticket: Ticket; orphanUrls: string[] }> {
  const cur = locked.row;
  const changes = await diffTicket(ctx, tx, user, cur, body);
  checkRole(user, changes);
  // Checked on the row locked above: an invoice made meanwhile has already set billed_at.
  if (changes.edits.includes('tasks') || changes.edits.includes('status')) assertNotBilledLocked(cur);
  const changed = await applyChanges(tx, user, cur, changes);
  await emitStatusEvent(tx, user, cur, changes);
  // Read under the lock, in the save's transaction: the reply and the history's "after" are the
  // same ticket, and a save that rolls back leaves no entry. The "before" is what the save holds
  // (the locked row, the lists it compared, the notes it adds): the ticket is not read twice.
  const after = await reload(tx, user.companyId, cur.id);
  if (created) await recordTicketChange(tx, user, null, after);
  else if (changed) await recordTicketUpdate(tx, user, { locked, ...changes.stored, notesAdded: changes.notes }, after);
  return { ticket: after, orphanUrls: changes.orphanUrls };
}

/**
 * PATCH /tickets/{id}/tasks/{ticket_task_id} (docs/product/api.md §4 Tickets): one task. It is the
 * ticket save of the stored task list with this one task changed, so every rule of PUT /tickets/
 * (role, billing lock, clamping, version, the job page's touch) applies unchanged, and the
 * other tasks are sent back exactly as stored: nothing else can change.
 */
export async function patchTask(ctx: AppContext, user: CurrentUser, ticketId: number, taskId: number, input: TaskPatch): Promise<{ ticket: Ticket }> {
  const ticket = await ctx.db.transaction(async (tx) => {
    const locked = await lockAtVersion(tx, user, ticketId, input.version);
    const stored = await repo.tasksOf(tx, ticketId);
    if (!stored.some((t) => t.id === taskId)) throw notFound('task');
    const tasks = stored.map((t) => {
      const mine = t.id === taskId;
      return {
        ticket_task_id: t.id,
        task_id: t.unitId,
        init_qty: mine && input.init_qty !== undefined ? input.init_qty : t.initQty,
        additional_qty: mine && input.additional_qty !== undefined ? input.additional_qty : t.additionalQty,
        date_completed: mine ? input.date_completed : undefined,
      };
    });
    return (await applySave(ctx, tx, user, locked, { id: ticketId, version: input.version, tasks }, false)).ticket;
  });
  return { ticket };
}

// ---------------------------------------------------------------------------------------------
// Merge, needsMerge, delete

/** GET /tickets/needsMerge/{jobId}?pole_id=: the job's tickets on that pole (but `exceptTicketId`). */
export async function needsMerge({ db }: AppContext, user: CurrentUser, jobId: number, poleId: number, exceptTicketId?: number) {
  if (!(await findJob(db, user.companyId, jobId))) throw notFound('job');
  return { ticket_ids: await repo.ticketsOnPole(db, user.companyId, jobId, poleId, exceptTicketId) };
}

/**
 * PUT /tickets/merge/{id}: in one transaction, ticket `id` receives the tasks, notes, work orders,
 * permits and images of the secondary, its dig-safe / NRA documents where it has none, and any
 * field it left blank; then the secondary is deleted.
 */
export async function mergeTickets(ctx: AppContext, user: CurrentUser, primaryId: number, secondaryId: number, log?: (err: unknown) => void) {
  if (primaryId === secondaryId) throw badRequest(MSG.mergeSameTicket);
  const orphanUrls: string[] = [];
  const ticket = await ctx.db.transaction(async (tx) => {
    // Both rows are found, locked and checked before the first write: a missing, just deleted
    // or other company's ticket (either side) answers 404 having changed nothing. Each is
    // looked up by its own id, never "the other row", so one missing row cannot stand in for
    // both and turn the merge into deleting the ticket that stays.
    const locked = await repo.lockTickets(tx, user.companyId, [primaryId, secondaryId]);
    const primary = locked.find((r) => r.id === primaryId);
    const secondary = locked.find((r) => r.id === secondaryId);
    if (!primary || !secondary) throw notFound('ticket');
    if (primary.jobId !== secondary.jobId) throw badRequest(MSG.mergeOtherJob);
    // The primary's tasks change and the secondary goes: neither may be a locked billed ticket.
    // An unlocked billed secondary may only go into a billed primary: its billed tasks on an
    // unbilled ticket would be invoiced a second time.
    assertNotBilledLocked(primary);
    assertNotBilledLocked(secondary);
    if (secondary.billedAt && !primary.billedAt) throw conflict(MSG.ticketBilledMerge(secondary.invoiceNumber ?? 'an invoice'), ERROR_CODE.ticketBilled);

    await repo.moveChildren(tx, user.companyId, secondary.id, primary.id);

    const set: Partial<TicketInsert> = { version: primary.version + 1 };
    for (const [url, name, required] of [
      ['digSafeUrl', 'digSafeName', 'digSafeRequired'],
      ['nraUrl', 'nraName', 'nraRequired'],
    ] as const) {
      if (!primary[url] && secondary[url]) {
        set[url] = secondary[url];
        set[name] = secondary[name];
      } else if (secondary[url] && secondary[url] !== primary[url]) {
        orphanUrls.push(secondary[url]);
      }
      set[required] = Math.max(primary[required], secondary[required]);
    }
    // The dig-safe record (number and dates) goes as one, like its document: where the primary has none.
    const hasRecord = (t: repo.TicketRow) => t.digSafeNumber != null || t.digSafeValidFrom != null || t.digSafeExpiresOn != null;
    if (!hasRecord(primary) && hasRecord(secondary)) {
      set.digSafeNumber = secondary.digSafeNumber;
      set.digSafeValidFrom = secondary.digSafeValidFrom;
      set.digSafeExpiresOn = secondary.digSafeExpiresOn;
    }
    for (const col of ['streetAddress', 'description', 'ehasp', 'ambulanceMeetup', 'assignedTo', 'dueDate'] as const) {
      if (primary[col] == null && secondary[col] != null) (set as Record<string, unknown>)[col] = secondary[col];
    }
    if (primary.geoLat == null && primary.geoLon == null && (secondary.geoLat != null || secondary.geoLon != null)) {
      set.geoLat = secondary.geoLat;
      set.geoLon = secondary.geoLon;
    }
    const gone = (await loadTicket(tx, user.companyId, secondary.id))!;
    await repo.updateTicket(tx, user.companyId, primary.id, set);
    await repo.deleteTicketRow(tx, user.companyId, secondary.id);
    // One entry on each side: the ticket that stays says what it received, the other that it went into it.
    const what = { ticket_id: gone.id, pole: gone.pole ? `${gone.pole.pole_name} / ${gone.pole.line_name}` : null, tasks: gone.tasks.length, notes: gone.notes.length, images: gone.images.length };
    await record(tx, user, { entity: 'ticket', entityId: primary.id, ticketId: primary.id, jobId: primary.jobId }, [{ action: 'merge', new: what }]);
    await record(tx, user, { entity: 'ticket', entityId: gone.id, ticketId: gone.id, jobId: gone.job_id }, [{ action: 'merge', old: what, new: { merged_into: primary.id } }]);
    // Read under the lock: the reply is the merged ticket even when someone deletes it the
    // moment this commits (read after the commit, that would answer 404 to a merge that happened).
    return reload(tx, user.companyId, primaryId);
  });
  await deleteUnreferencedFiles(ctx, user.companyId, orphanUrls, log);
  return { ticket };
}

/** DELETE /tickets/{id}: the ticket, its rows (cascade) and, after commit, the stored files nothing else shows. */
export async function deleteTicket(ctx: AppContext, user: CurrentUser, id: number, log?: (err: unknown) => void) {
  const urls: (string | null)[] = [];
  await ctx.db.transaction(async (tx) => {
    const t = await repo.lockTicket(tx, user.companyId, id);
    if (!t) throw notFound('ticket');
    // A locked billed ticket stays (its invoice keeps its frozen lines either way once unlocked).
    assertNotBilledLocked(t);
    await recordTicketChange(tx, user, (await loadTicket(tx, user.companyId, id))!, null);
    urls.push(t.digSafeUrl, t.nraUrl);
    for (const img of await repo.imagesOf(tx, id)) urls.push(img.url, img.thumbnailUrl);
    for (const p of await repo.permitsOf(tx, id)) urls.push(p.permitUrl);
    await repo.deleteTicketRow(tx, user.companyId, id);
  });
  await deleteUnreferencedFiles(ctx, user.companyId, urls, log);
  return { success: true as const };
}
