import { queryOptions, useQuery } from '@tanstack/react-query';
import type { JobListItem } from '../../../../shared/jobs.schemas';
import { apiFetch } from '../../../api/client';
import { queryKeys } from '../../../api/queryKeys';

/** GET /jobs: every job of the company, without tickets. */
export const getJobs = (signal?: AbortSignal) => apiFetch<JobListItem[]>('/jobs', { signal });
export const jobsQuery = () => queryOptions({ queryKey: queryKeys.jobs, queryFn: ({ signal }) => getJobs(signal) });
export const useJobs = () => useQuery(jobsQuery());
