import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TicketSave, TicketSaveReply } from '../../../../shared/tickets.schemas';
import { apiFetch } from '../../../api/client';
import { queryKeys } from '../../../api/queryKeys';

/** What the window sends (src/shared/tickets.schemas.ts ticketSaveSchema); job_id names the job to refresh. */
export type TicketSaveInput = TicketSave & { job_id: number };

/** PUT /tickets/ {ticket}: no id creates, an update carries the `version` it read (409 when stale). */
export const saveTicket = (ticket: TicketSaveInput) =>
  apiFetch<TicketSaveReply>('/tickets/', { method: 'PUT', body: { ticket } }).then((b) => b.ticket);

/** Saves, then refreshes the job (its status and the table follow the ticket). */
export function useSaveTicket() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: saveTicket,
    onSuccess: (ticket, input) => {
      qc.setQueryData(queryKeys.ticket(ticket.id), ticket);
      void qc.invalidateQueries({ queryKey: queryKeys.job(ticket.job_id ?? input.job_id) });
      void qc.invalidateQueries({ queryKey: queryKeys.jobLists });
    },
  });
}
