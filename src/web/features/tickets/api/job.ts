import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Job } from '../../../../shared/jobs.schemas';
import { apiFetch } from '../../../api/client';
import { queryKeys } from '../../../api/queryKeys';

/** GET /jobs/{id}: the job with its tickets. Same key as the jobs header, so one fetch serves both. */
export const getJob = (id: number) => apiFetch<Job>(`/jobs/${id}`);

export const jobQuery = (id: number) => queryOptions({ queryKey: queryKeys.job(id), queryFn: () => getJob(id) });
export const useJob = (id: number) => useQuery(jobQuery(id));
