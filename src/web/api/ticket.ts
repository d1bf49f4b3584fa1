import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Ticket } from '../../shared/tickets.schemas';
import { apiFetch } from './client';
import { queryKeys } from './queryKeys';

/** GET /tickets/{id}: one ticket with its pole, tasks, notes, permits and images. */
export const getTicket = (id: number) => apiFetch<Ticket>(`/tickets/${id}`);

/** Always read afresh when the window opens: someone may have edited the ticket a moment ago. */
export const ticketQuery = (id: number) => queryOptions({ queryKey: queryKeys.ticket(id), queryFn: () => getTicket(id), staleTime: 0 });
export const useTicket = (id: number | null) => useQuery({ ...ticketQuery(id ?? 0), enabled: id != null && id > 0 });
