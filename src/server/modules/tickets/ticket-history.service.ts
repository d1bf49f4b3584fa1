import { fullName } from '../../../shared/names';
import type { Ticket } from '../../../shared/tickets.schemas';
import type { DbOrTx } from '../../db/client';
import { isoInstant } from '../../db/sql';
import { minus, record, recordDiff, type Actor, type HistoryView, type Target } from '../history/history.service';
import type { CurrentUser } from '../../plugins/auth';
import type { LockedTicket, permitsOf, tasksOf } from './tickets.repository';
import { ticketStatus } from './ticket-reads.repository';

/**
 * A ticket as its history compares it (docs/product/records.md §1): the fields a person edits, by their API
 * names, with what a person reads as value (the assignee's name, a task as its code and
 * quantities, a photo as its file name). Derived fields (version, the names the pole carries)
 * are left out. The completion record is one field, `completed` (who and where, docs/product/records.md §6):
 * marking complete is two entries, the status and the record; reopening's entry keeps the old record.
 *
 * A save's "before" is not read again (recording must cost ≤ 20 % of the save; decision 051): it is
 * made from what the save holds already — the row it locked, with its pole's, assignee's and
 * completer's names read in the same statement, and the child rows its comparison read — and, for the lists
 * the save did not touch, the ticket after (they are the same). `ownFieldsOf` is the one list of
 * the ticket's own fields; the type makes both sources give every one of them.
 */

/** The completion record as the history says it: "Jane Foreman at 42.101300, -71.060100 (12 m accuracy)"; null while Pending. */
export function completionLabel(t: Pick<Ticket, 'completed_by' | 'completed_by_name' | 'completed_lat' | 'completed_lon' | 'completed_accuracy_m'>): string | null {
  if (t.completed_by == null && t.completed_lat == null) return null;
  const who = t.completed_by_name ?? (t.completed_by == null ? 'someone' : `user ${t.completed_by}`);
  if (t.completed_lat == null || t.completed_lon == null) return `${who}, no position`;
  const accuracy = t.completed_accuracy_m == null ? '' : ` (${Math.round(t.completed_accuracy_m)} m accuracy)`;
  return `${who} at ${t.completed_lat.toFixed(6)}, ${t.completed_lon.toFixed(6)}${accuracy}`;
}

/** What the Billing field of a ticket's history says. */
export function billingLabel(t: Pick<Ticket, 'billed_at' | 'invoice_number' | 'unlocked_at' | 'unlock_reason'>): string | null {
  if (!t.billed_at) return null;
  const billed = `Billed on ${t.invoice_number ?? 'an invoice'}`;
  return t.unlocked_at ? `${billed}, unlocked: ${t.unlock_reason ?? ''}` : billed;
}

const fileName = (url: string | null) => (url == null ? null : decodeURIComponent(url.split('?')[0].split('/').pop() ?? url));
const signed = (n: number) => (n < 0 ? `${n}` : `+${n}`);
const docLabel = (url: string | null, name: string | null) => (url == null ? null : (name ?? fileName(url)));
const taskLabel = (code: string, init: number, additional: number) => `${code}: bid ${init}, change ${signed(additional)}`;
/** A photo as the history reads it: its file name. */
export const photoLabel = (i: { id: number; url: string | null }) => fileName(i.url) ?? `photo ${i.id}`;

/** The ticket's own fields (not its lists) as the view needs them, by the API's names. */
type OwnSource = Pick<
  Ticket,
  | 'status'
  | 'completed_by'
  | 'completed_by_name'
  | 'completed_lat'
  | 'completed_lon'
  | 'completed_accuracy_m'
  | 'due_date'
  | 'assigned_to'
  | 'assigned_to_name'
  | 'street_address'
  | 'geo_lat'
  | 'geo_lon'
  | 'description'
  | 'ehasp'
  | 'ambulance_meetup'
  | 'dig_safe_required'
  | 'dig_safe_url'
  | 'dig_safe_name'
  | 'dig_safe_number'
  | 'dig_safe_valid_from'
  | 'dig_safe_expires_on'
  | 'nra_required'
  | 'nra_url'
  | 'nra_name'
  | 'billed_at'
  | 'invoice_number'
  | 'unlocked_at'
  | 'unlock_reason'
> & { pole: { pole_name: string; line_name: string } | null };

function ownFieldsOf(t: OwnSource): HistoryView {
  return {
    pole: t.pole ? `${t.pole.pole_name} / ${t.pole.line_name}` : null,
    status: t.status,
    completed: completionLabel(t),
    due_date: t.due_date,
    assigned_to: t.assigned_to == null ? null : (t.assigned_to_name ?? String(t.assigned_to)),
    street_address: t.street_address,
    geo_lat: t.geo_lat,
    geo_lon: t.geo_lon,
    description: t.description,
    ehasp: t.ehasp,
    ambulance_meetup: t.ambulance_meetup,
    dig_safe_required: t.dig_safe_required,
    dig_safe_url: docLabel(t.dig_safe_url, t.dig_safe_name),
    dig_safe_number: t.dig_safe_number,
    dig_safe_valid_from: t.dig_safe_valid_from,
    dig_safe_expires_on: t.dig_safe_expires_on,
    nra_required: t.nra_required,
    nra_url: docLabel(t.nra_url, t.nra_name),
    billing: billingLabel(t),
  };
}

/** The locked row as the same fields: the read model's names and values (ticket-reads.repository toRow). */
function ownSourceOfRow({ row: r, pole, assignee, completer }: LockedTicket): OwnSource {
  return {
    pole,
    status: ticketStatus(r.actualCompletionDate),
    completed_by: r.completedBy,
    completed_by_name: r.completedBy == null ? null : fullName(completer.first, completer.last),
    completed_lat: r.completedLat,
    completed_lon: r.completedLon,
    completed_accuracy_m: r.completedAccuracyM,
    due_date: r.dueDate,
    assigned_to: r.assignedTo,
    assigned_to_name: r.assignedTo == null ? null : fullName(assignee.first, assignee.last),
    street_address: r.streetAddress,
    geo_lat: r.geoLat,
    geo_lon: r.geoLon,
    description: r.description,
    ehasp: r.ehasp,
    ambulance_meetup: r.ambulanceMeetup,
    dig_safe_required: r.digSafeRequired,
    dig_safe_url: r.digSafeUrl,
    dig_safe_name: r.digSafeName,
    dig_safe_number: r.digSafeNumber,
    dig_safe_valid_from: r.digSafeValidFrom,
    dig_safe_expires_on: r.digSafeExpiresOn,
    nra_required: r.nraRequired,
    nra_url: r.nraUrl,
    nra_name: r.nraName,
    billed_at: isoInstant(r.billedAt),
    invoice_number: r.invoiceNumber,
    unlocked_at: isoInstant(r.unlockedAt),
    unlock_reason: r.unlockReason,
  };
}

export function ticketView(t: Ticket): HistoryView {
  return {
    ...ownFieldsOf(t),
    work_orders: t.work_orders,
    notes: t.notes.map((n) => n.note_text),
    tasks: t.tasks.map((k) => taskLabel(k.code, k.init_qty, k.additional_qty)),
    permits: t.permits.map(permitLabel),
    images: t.images.map(photoLabel),
  };
}

/** A permit as the history reads it: its type and name, then its number and validity when set. */
function permitLabel(p: Pick<Ticket['permits'][number], 'permit_type_title' | 'permit_name' | 'filename' | 'permit_url' | 'number' | 'valid_from' | 'expires_on'>) {
  const name = [p.permit_type_title, p.permit_name ?? p.filename ?? fileName(p.permit_url)].filter(Boolean).join(': ') || 'Permit';
  const dates = p.valid_from || p.expires_on ? `${p.valid_from ?? '…'} to ${p.expires_on ?? '…'}` : null;
  return [name, p.number ? `no. ${p.number}` : null, dates].filter(Boolean).join(', ');
}

/**
 * What a change holds of the ticket before it: the locked row, the child rows its comparison
 * read (a list it did not read is unchanged), and the notes it adds (notes are append-only).
 */
export interface TicketBefore {
  locked: LockedTicket;
  tasks?: Awaited<ReturnType<typeof tasksOf>>;
  permits?: Awaited<ReturnType<typeof permitsOf>>;
  workOrders?: string[];
  notesAdded?: string[];
}

/** The view of the ticket before a change, from what the change holds and the ticket after it. */
export function viewBefore(b: TicketBefore, after: Ticket): HistoryView {
  const now = ticketView(after);
  return {
    ...ownFieldsOf(ownSourceOfRow(b.locked)),
    work_orders: b.workOrders ?? now.work_orders,
    notes: minus(now.notes as string[], b.notesAdded ?? []),
    tasks: b.tasks ? b.tasks.map((k) => taskLabel(k.code, k.initQty, k.additionalQty)) : now.tasks,
    permits: b.permits
      ? b.permits.map((p) =>
          permitLabel({ permit_type_title: p.typeTitle, permit_name: p.permitName, filename: p.filename, permit_url: p.permitUrl, number: p.number, valid_from: p.validFrom, expires_on: p.expiresOn }),
        )
      : now.permits,
    images: now.images,
  };
}

const targetOf = (t: { id: number; job_id: number }): Target => ({ entity: 'ticket', entityId: t.id, ticketId: t.id, jobId: t.job_id });

/**
 * Records a ticket's change from its read model before and after (null before: created; null
 * after: deleted), in the caller's transaction.
 */
export async function recordTicketChange(db: DbOrTx, user: Actor | CurrentUser, before: Ticket | null, after: Ticket | null) {
  await recordDiff(db, user, targetOf((after ?? before)!), before && ticketView(before), after && ticketView(after));
}

/** Records a change of a ticket from what the change holds of it before (see viewBefore) and its read model after. */
export async function recordTicketUpdate(db: DbOrTx, user: Actor | CurrentUser, before: TicketBefore, after: Ticket) {
  await recordDiff(db, user, targetOf(after), viewBefore(before, after), ticketView(after));
}

/** Records a photo added to or deleted from a ticket: one entry of its photos, as the view names them. */
export async function recordPhotoChange(db: DbOrTx, user: Actor | CurrentUser, ticket: { id: number; job_id: number }, change: { added: { id: number; url: string } } | { removed: { id: number; url: string } }) {
  const [old, now] = 'added' in change ? [[], [photoLabel(change.added)]] : [[photoLabel(change.removed)], []];
  await record(db, user, targetOf(ticket), [{ action: 'update', field: 'images', old, new: now }]);
}
