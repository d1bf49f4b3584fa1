import { useQuery } from '@tanstack/react-query';
import type { Ticket } from '../../../../shared/tickets.schemas';
import { apiFetch } from '../../../api/client';
import { queryKeys } from '../../../api/queryKeys';

/**
 * GET /jobs/tickets/{id}: every ticket of the job in full (pole, tasks, notes, work orders), which
 * only the CSV export needs; the job page itself reads the lighter rows of GET /jobs/{id}.
 * Always fetched afresh when asked for, so an export has what was saved a second ago.
 */
export const getJobTickets = (id: number, signal?: AbortSignal) => apiFetch<Ticket[]>(`/jobs/tickets/${id}`, { signal });
export const useJobTickets = (id: number, enabled: boolean) =>
  useQuery({ queryKey: queryKeys.jobTickets(id), queryFn: ({ signal }) => getJobTickets(id, signal), enabled, staleTime: 0, gcTime: 0 });
