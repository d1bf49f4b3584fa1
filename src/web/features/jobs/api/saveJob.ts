import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { JobSaveBody, JobSaveReply } from '../../../../shared/jobs.schemas';
import { apiFetch } from '../../../api/client';
import { queryKeys } from '../../../api/queryKeys';

/** PUT /jobs/ with {job}: no id creates (with ticketsFile: imports the workbook); with id updates. */
export const saveJob = (job: JobSaveBody['job']) => apiFetch<JobSaveReply>('/jobs/', { method: 'PUT', body: { job } });

/** Refreshes the list and every open job (queryKeys.job(id) lives under queryKeys.jobs). */
export function useSaveJob() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: saveJob,
    onSuccess: () => qc.invalidateQueries({ queryKey: queryKeys.jobs }),
  });
}
