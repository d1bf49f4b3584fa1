import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TicketDeleteReply } from '../../../../shared/tickets.schemas';
import { apiFetch } from '../../../api/client';
import { queryKeys } from '../../../api/queryKeys';

/** DELETE /tickets/{id}: the ticket with its tasks, notes, permits, images and files. */
export const deleteTicket = ({ id }: { id: number; jobId: number }) =>
  apiFetch<TicketDeleteReply>(`/tickets/${id}`, { method: 'DELETE' });

export function useDeleteTicket() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: deleteTicket,
    onSuccess: (_r, { id, jobId }) => {
      qc.removeQueries({ queryKey: queryKeys.ticket(id) });
      void qc.invalidateQueries({ queryKey: queryKeys.job(jobId) });
      void qc.invalidateQueries({ queryKey: queryKeys.jobLists });
    },
  });
}
