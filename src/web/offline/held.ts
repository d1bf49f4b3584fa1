import { LIMITS } from '../../shared/constants';
import { saveFile } from '../components/saveFile';
import { outbox } from './outbox';
import { heldPhotoName, heldText, isPhotoOverLimit, isSavable, type OutboxEntry, type TicketChange } from './outboxLogic';

/**
 * What the queue and the phone's ticket say about a change, and saving to the phone what will not
 * sync (a deleted ticket's notes and photos, a photo over the ticket's 10): nothing a crew typed
 * or took is lost because the office changed the ticket meanwhile (decision 038).
 */

/** A queued change in a crew's words. */
export function describe(e: OutboxEntry): string {
  if (e.kind === 'note') return `Note: ${e.text.length > 80 ? `${e.text.slice(0, 80)}…` : e.text}`;
  if (e.kind === 'photo') return `Photo ${e.fileName}`;
  return describeTicketChange(e);
}

function describeTicketChange(e: TicketChange): string {
  const tasks = Object.keys(e.taskQty).length;
  const parts = [
    ...Object.keys(e.set).map((f) => (f === 'status' ? `Mark ${String(e.set.status).toLowerCase()}` : `Change ${f.replace('_', ' ')}`)),
    ...(tasks ? [`${tasks} task quantit${tasks === 1 ? 'y' : 'ies'}`] : []),
  ];
  return parts.join(', ') || 'Ticket change';
}

export const PHOTOS_FULL = `This ticket already has ${LIMITS.imagesPerTicket} photos.`;
export const PHOTOS_FILLED_BY_OFFICE = `This ticket already has ${LIMITS.imagesPerTicket} photos — the office added some while you were offline.`;

/** Why a change will not sync, in field words (the server's own words only for other refusals). */
export function heldReason(e: OutboxEntry): string | undefined {
  if (e.state === 'gone') return 'This ticket was deleted in the office.';
  if (isPhotoOverLimit(e)) {
    // Uploaded and refused: the office filled the ticket meanwhile. Never sent: it arrived at 10 of 10.
    return e.kind === 'photo' && e.uploadedUrl ? PHOTOS_FILLED_BY_OFFICE : PHOTOS_FULL;
  }
  return e.error;
}

const when = (ms: number) => new Date(ms).toLocaleString();

/**
 * Saves held changes as files on the device, in one tap: per ticket, its notes (and other changes,
 * in words) as `linecrew-notes-<ticket>.txt`, and each photo as its own JPEG, named after the
 * pole. Then they count as saved, and may be discarded.
 */
export async function saveHeld(entries: readonly OutboxEntry[]) {
  const savable = entries.filter(isSavable);
  const byTicket = new Map<number, OutboxEntry[]>();
  for (const e of savable) byTicket.set(e.ticketId, [...(byTicket.get(e.ticketId) ?? []), e]);
  for (const [ticketId, list] of byTicket) {
    if (list.some((e) => e.kind !== 'photo')) saveFile(new Blob([heldText(list, describeTicketChange, when)], { type: 'text/plain' }), `linecrew-notes-${ticketId}.txt`);
    for (const e of list) if (e.kind === 'photo') saveFile(e.blob, heldPhotoName(e));
  }
  await outbox.markSaved(savable.map((e) => e.id));
}
