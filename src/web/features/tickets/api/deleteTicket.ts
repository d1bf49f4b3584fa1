import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';
import { queryKeys } from '../../../api/queryKeys';

/** DELETE /tickets/{id}: answers {success}. */
export const deleteTicket = ({ id }: { id: number; jobId: number }) =>
  apiFetch<{ success: boolean }>(`/tickets/${id}`, { method: 'DELETE' });

export function useDeleteTicket() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: deleteTicket,
    onSuccess: (_r, { id, jobId }) => {
      qc.removeQueries({ queryKey: queryKeys.ticket(id) });
      void qc.invalidateQueries({ queryKey: queryKeys.job(jobId) });
      void qc.invalidateQueries({ queryKey: queryKeys.jobs, exact: true });
    },
  });
}
