import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { JobDeleteReply } from '../../../../shared/jobs.schemas';
import { apiFetch } from '../../../api/client';
import { queryKeys } from '../../../api/queryKeys';

/** DELETE /jobs/{id}: the job with its tickets, tasks, notes, images and documents. */
export const deleteJob = (id: number) => apiFetch<JobDeleteReply>(`/jobs/${id}`, { method: 'DELETE' });

export function useDeleteJob() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: deleteJob,
    onSuccess: (_reply, id) => {
      qc.removeQueries({ queryKey: queryKeys.job(id) });
      return qc.invalidateQueries({ queryKey: queryKeys.jobs });
    },
  });
}
