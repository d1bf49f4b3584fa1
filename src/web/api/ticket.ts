import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Ticket } from '../../shared/tickets.schemas';
import { apiFetch } from './client';
import { queryKeys } from './queryKeys';

/** GET /tickets/{id}: one ticket with its pole, tasks, notes, permits and images. */
export const getTicket = (id: number) => apiFetch<Ticket | { ticket: Ticket }>(`/tickets/${id}`).then(unwrapTicket);

/** The ticket routes answer `{ticket}` (SPEC §7 "returns body.ticket"); accept a bare ticket too. */
export function unwrapTicket(body: Ticket | { ticket: Ticket }): Ticket {
  return 'ticket' in body && body.ticket && typeof body.ticket === 'object' ? body.ticket : (body as Ticket);
}

export const ticketQuery = (id: number) =>
  queryOptions({ queryKey: queryKeys.ticket(id), queryFn: () => getTicket(id), staleTime: 0 });
export const useTicket = (id: number | null) => useQuery({ ...ticketQuery(id ?? 0), enabled: id != null && id > 0 });
