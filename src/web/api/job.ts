import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Job } from '../../shared/jobs.schemas';
import { apiFetch } from './client';
import { queryKeys } from './queryKeys';

/**
 * GET /jobs/{id}: the job with its ticket-table rows. Shared by the jobs feature (header, edit)
 * and the tickets feature (table), which read the same query, and by the /job route's loader,
 * which starts the request while the page's code is still loading.
 */
export const getJob = (id: number, signal?: AbortSignal) => apiFetch<Job>(`/jobs/${id}`, { signal, keepBytes: true });
export const jobQuery = (id: number) => queryOptions({ queryKey: queryKeys.job(id), queryFn: ({ signal }) => getJob(id, signal) });
export const useJob = (id: number) => useQuery(jobQuery(id));
