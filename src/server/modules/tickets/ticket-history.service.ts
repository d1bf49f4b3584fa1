import type { Ticket } from '../../../shared/tickets.schemas';
import type { DbOrTx } from '../../db/client';
import { recordDiff, type Actor, type HistoryView } from '../history/history.service';
import type { CurrentUser } from '../../plugins/auth';
import { loadTicket } from './ticket-reads.repository';

/**
 * A ticket as its history compares it (docs/product/records.md §1): the fields a person edits, by their API
 * names, with what a person reads as value (the assignee's name, a task as its code and
 * quantities, a photo as its file name). Derived fields (version, the names the pole carries)
 * are left out. The completion record is one field, `completed` (who and where, docs/product/records.md §6):
 * marking complete is two entries, the status and the record; reopening's entry keeps the old record.
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

export function ticketView(t: Ticket): HistoryView {
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
    dig_safe_url: t.dig_safe_url == null ? null : (t.dig_safe_name ?? fileName(t.dig_safe_url)),
    dig_safe_number: t.dig_safe_number,
    dig_safe_valid_from: t.dig_safe_valid_from,
    dig_safe_expires_on: t.dig_safe_expires_on,
    nra_required: t.nra_required,
    nra_url: t.nra_url == null ? null : (t.nra_name ?? fileName(t.nra_url)),
    work_orders: t.work_orders,
    notes: t.notes.map((n) => n.note_text),
    tasks: t.tasks.map((k) => `${k.code}: bid ${k.init_qty}, change ${signed(k.additional_qty)}`),
    permits: t.permits.map(permitLabel),
    images: t.images.map((i) => fileName(i.url) ?? `photo ${i.id}`),
    billing: billingLabel(t),
  };
}

/** A permit as the history reads it: its type and name, then its number and validity when set. */
function permitLabel(p: Ticket['permits'][number]) {
  const name = [p.permit_type_title, p.permit_name ?? p.filename ?? fileName(p.permit_url)].filter(Boolean).join(': ') || 'Permit';
  const dates = p.valid_from || p.expires_on ? `${p.valid_from ?? '…'} to ${p.expires_on ?? '…'}` : null;
  return [name, p.number ? `no. ${p.number}` : null, dates].filter(Boolean).join(', ');
}

/** The ticket's read model inside the caller's transaction (before or after its change). */
export const ticketNow = (db: DbOrTx, companyId: number, id: number) => loadTicket(db, companyId, id);

/**
 * Records a ticket's change from its read model before and after (null before: created; null
 * after: deleted), in the caller's transaction.
 */
export async function recordTicketChange(db: DbOrTx, user: Actor | CurrentUser, before: Ticket | null, after: Ticket | null) {
  const t = (after ?? before)!;
  await recordDiff(db, user, { entity: 'ticket', entityId: t.id, ticketId: t.id, jobId: t.job_id }, before && ticketView(before), after && ticketView(after));
}
