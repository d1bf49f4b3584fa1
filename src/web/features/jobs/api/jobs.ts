import { queryOptions, useQuery } from '@tanstack/react-query';
import type { JobListRow } from '../../../../shared/jobs.schemas';
import { apiFetch } from '../../../api/client';
import { queryKeys } from '../../../api/queryKeys';

/** GET /jobs: every job of the company, without tickets, with its % Complete. */
export const getJobs = (signal?: AbortSignal) => apiFetch<JobListRow[]>('/jobs', { signal });
export const jobsQuery = () => queryOptions({ queryKey: queryKeys.jobs, queryFn: ({ signal }) => getJobs(signal) });
export const useJobs = () => useQuery(jobsQuery());
