import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Ticket } from '../../../../shared/tickets.schemas';
import { apiFetch } from '../../../api/client';
import { queryKeys } from '../../../api/queryKeys';

/** POST /tickets/{id}/unlock {reason}: a billed ticket's tasks and status may change again (roles 1–2). */
export const unlockTicket = (id: number, reason: string) =>
  apiFetch<{ ticket: Ticket }>(`/tickets/${id}/unlock`, { method: 'POST', body: { reason } }).then((b) => b.ticket);

export function useUnlockTicket() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, reason }: { id: number; reason: string }) => unlockTicket(id, reason),
    onSuccess: (ticket) => {
      qc.setQueryData(queryKeys.ticket(ticket.id), ticket);
      void qc.invalidateQueries({ queryKey: queryKeys.job(ticket.job_id) });
    },
  });
}
