import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Job } from '../../../../shared/jobs.schemas';
import { apiFetch } from '../../../api/client';
import { queryKeys } from '../../../api/queryKeys';

/** GET /jobs/{id}: the job with its tickets (the tickets feature reads the same key). */
export const getJob = (id: number, signal?: AbortSignal) => apiFetch<Job>(`/jobs/${id}`, { signal });
export const jobQuery = (id: number) => queryOptions({ queryKey: queryKeys.job(id), queryFn: ({ signal }) => getJob(id, signal) });
export const useJob = (id: number) => useQuery(jobQuery(id));
