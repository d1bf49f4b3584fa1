/**
 * The ticket window's address: /job?id=<job>&ticket=<ticket id | new>. One
 * rule for reading and writing it, so a link texted to a crew member opens what it names.
 */
export type TicketParam = number | 'new' | null;

/** Which ticket the window shows: id null = Create Ticket; justCreated = just made by adding a pole. */
export interface WindowTarget {
  id: number | null;
  justCreated?: boolean;
}

/** What the history entry of an open ticket remembers: whether the list pushed it, and a just-made ticket. */
export interface TicketLocationState {
  fromList?: boolean;
  justCreated?: boolean;
}

export function ticketParam(search: URLSearchParams): TicketParam {
  const raw = search.get('ticket');
  if (raw === 'new') return 'new';
  const id = Number(raw);
  return raw && Number.isInteger(id) && id > 0 ? id : null;
}

/** The job page with that ticket open (null = Create Ticket), or with none (undefined). */
export function ticketHref(jobId: number, ticket: number | null | undefined): string {
  const q = new URLSearchParams({ id: String(jobId) });
  if (ticket !== undefined) q.set('ticket', ticket === null ? 'new' : String(ticket));
  return `/job?${q}`;
}
