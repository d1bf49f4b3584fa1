import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TicketReply } from '../../../../shared/tickets.schemas';
import { apiFetch } from '../../../api/client';
import { queryKeys } from '../../../api/queryKeys';

/**
 * PUT /tickets/merge/{id} {secondary_ticket}: ticket {id} stays and receives the secondary's
 * tasks, notes, work orders, permits, documents and images; the secondary is deleted.
 */
export const mergeTickets = ({ primaryId, secondaryId }: { primaryId: number; secondaryId: number; jobId: number }) =>
  apiFetch<TicketReply>(`/tickets/merge/${primaryId}`, { method: 'PUT', body: { secondary_ticket: { id: secondaryId } } }).then((b) => b.ticket);

export function useMergeTickets() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: mergeTickets,
    onSuccess: (_t, { primaryId, secondaryId, jobId }) => {
      qc.removeQueries({ queryKey: queryKeys.ticket(secondaryId) });
      void qc.invalidateQueries({ queryKey: queryKeys.ticket(primaryId) });
      void qc.invalidateQueries({ queryKey: queryKeys.job(jobId) });
      void qc.invalidateQueries({ queryKey: queryKeys.jobLists });
    },
  });
}
