import type { JobListItem } from '../../../shared/jobs.schemas';
import type { TicketRow } from '../../../shared/tickets.schemas';
import type { BuiltReply } from '../../plugins/reply-cache';
import type { TicketVersion } from './jobs.repository';

/**
 * The bytes of GET /jobs/{id} put together from one JSON fragment per ticket row, so that a change
 * to a few tickets re-reads and re-serialises only those (decision 028). The bytes are exactly
 * `JSON.stringify({ ...header, tickets, company_time_zone })`, as a build from scratch makes them.
 */

/** Where each ticket's row lies in a kept reply's bytes, in the reply's (id) order, with its xmin. */
export interface TicketSlices {
  ids: Int32Array;
  xmins: Uint32Array;
  starts: Uint32Array;
  ends: Uint32Array;
}

/** One ticket row of a reply being put together: freshly serialised, or a slice of the kept bytes. */
export interface PageTicket {
  id: number;
  xmin: number;
  json: Buffer;
}

/**
 * Past this share of changed tickets (an import, a bulk status change) one read of the whole job
 * costs less than picking the tickets out by id.
 */
const MAX_STALE_SHARE = 0.2;

const COMMA = Buffer.from(',');

/** A ticket row read with its xmin, serialised. */
export const freshTicket = ({ row, xmin }: { row: TicketRow; xmin: number }): PageTicket => ({ id: row.id, xmin, json: Buffer.from(JSON.stringify(row)) });

/**
 * The tickets to read again: new ones and those whose xmin is not the kept one. null means read
 * the whole job: nothing kept, or too much changed.
 */
export function staleTickets(kept: TicketSlices | undefined, now: readonly TicketVersion[]): number[] | null {
  if (!kept) return null;
  const keptXmin = new Map<number, number>();
  kept.ids.forEach((id, i) => keptXmin.set(id, kept.xmins[i]));
  const stale = now.filter((t) => keptXmin.get(t.id) !== t.xmin).map((t) => t.id);
  return stale.length > now.length * MAX_STALE_SHARE ? null : stale;
}

/**
 * The job's tickets in the order of `now` (by id): the re-read ones from `fresh`, the others as
 * slices of the kept reply. A ticket re-read but not found was deleted since `now` was read: it
 * is left out (the reply may be newer than its fingerprint, never older; decision 013).
 */
export function mergeTickets(kept: BuiltReply<TicketSlices>, now: readonly TicketVersion[], fresh: readonly PageTicket[]): PageTicket[] {
  const freshById = new Map(fresh.map((t) => [t.id, t]));
  const { ids, xmins, starts, ends } = kept.state;
  const keptAt = new Map<number, number>();
  ids.forEach((id, i) => keptAt.set(id, i));
  const out: PageTicket[] = [];
  for (const t of now) {
    const f = freshById.get(t.id);
    if (f) {
      out.push(f);
      continue;
    }
    const i = keptAt.get(t.id);
    if (i !== undefined && xmins[i] === t.xmin) out.push({ id: t.id, xmin: t.xmin, json: kept.json.subarray(starts[i], ends[i]) });
  }
  return out;
}

/** The reply's bytes (Buffer.concat of the header, the rows and the time zone) and where each row lies in them. */
export function assembleJobPage(header: JobListItem, timeZone: string, evidencePhotosRequired: number, tickets: readonly PageTicket[]): BuiltReply<TicketSlices> {
  const head = JSON.stringify(header);
  const pieces: Buffer[] = [Buffer.from(`${head.slice(0, -1)},"tickets":[`)];
  const n = tickets.length;
  const state: TicketSlices = { ids: new Int32Array(n), xmins: new Uint32Array(n), starts: new Uint32Array(n), ends: new Uint32Array(n) };
  let at = pieces[0].length;
  tickets.forEach((t, i) => {
    if (i > 0) {
      pieces.push(COMMA);
      at += COMMA.length;
    }
    pieces.push(t.json);
    state.ids[i] = t.id;
    state.xmins[i] = t.xmin;
    state.starts[i] = at;
    at += t.json.length;
    state.ends[i] = at;
  });
  const tail = Buffer.from(`],"company_time_zone":${JSON.stringify(timeZone)},"evidence_photos_required":${JSON.stringify(evidencePhotosRequired)}}`);
  pieces.push(tail);
  // The kept slices point into the new bytes only, so the old reply is freed once replaced.
  return { json: Buffer.concat(pieces, at + tail.length), state };
}
