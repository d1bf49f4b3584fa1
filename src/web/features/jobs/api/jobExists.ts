import { queryOptions, useQuery } from '@tanstack/react-query';
import type { JobExistsReply } from '../../../../shared/jobs.schemas';
import { apiFetch } from '../../../api/client';
import { queryKeys } from '../../../api/queryKeys';

/** GET /jobs/job_exists/{number}: docs/product/api.md §3, a non-empty list means the number is taken. */
export async function jobNumberExists(jobNumber: string, signal?: AbortSignal): Promise<boolean> {
  const list = await apiFetch<JobExistsReply>(`/jobs/job_exists/${encodeURIComponent(jobNumber)}`, { signal });
  return Array.isArray(list) && list.length > 0;
}

/** Fetched when asked (useJobNumberCheck's run), always afresh, once, and at once even offline (the field then says it could not check). */
export const jobNumberTakenQuery = (jobNumber: string) =>
  queryOptions({
    queryKey: queryKeys.jobNumberTaken(jobNumber),
    queryFn: ({ signal }) => jobNumberExists(jobNumber, signal),
    staleTime: 0,
    retry: false,
    networkMode: 'always',
  });

/** The answer for one number as it stands (checking, taken, free, failed): read only, the check itself is run on leaving the field. */
export const useJobNumberTaken = (jobNumber: string | null) => useQuery({ ...jobNumberTakenQuery(jobNumber ?? ''), enabled: false });
