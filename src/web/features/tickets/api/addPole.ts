import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AddPoleBody } from '../../../../shared/poles.schemas';
import type { AddPoleReply } from '../../../../shared/tickets.schemas';
import { apiFetch } from '../../../api/client';
import { queryKeys } from '../../../api/queryKeys';

/** The body of 'Add as a New Pole' (docs/product/api.md §5 POST /poles/; docs/product/api.md §1: utility is its id). */
export type AddPoleInput = AddPoleBody & { utility: number };

/** POST /poles/ with job_id: creates the pole and its ticket on the job in one go. */
export const addPole = (input: AddPoleInput) =>
  apiFetch<AddPoleReply>('/poles/', { method: 'POST', body: input }).then((b) => ({ pole: b.pole, ticket: b.ticket ?? null }));

export function useAddPole() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: addPole,
    onSuccess: (r, { job_id }) => {
      if (r.ticket) qc.setQueryData(queryKeys.ticket(r.ticket.id), r.ticket);
      void qc.invalidateQueries({ queryKey: queryKeys.poles });
      if (job_id != null) void qc.invalidateQueries({ queryKey: queryKeys.job(job_id) });
      void qc.invalidateQueries({ queryKey: queryKeys.jobLists });
    },
  });
}
