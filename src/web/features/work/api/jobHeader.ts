import { queryOptions, useQuery } from '@tanstack/react-query';
import type { JobListItem } from '../../../../shared/jobs.schemas';
import { apiFetch } from '../../../api/client';
import { queryKeys } from '../../../api/queryKeys';

/**
 * GET /jobs/{id}/header: the job without its tickets — hospital, packet, overrides — for the phone
 * ticket view's "Before you climb" (decision 039). Kept on the device with the ticket (offline/copies.ts).
 */
export const jobHeaderQuery = (id: number) =>
  queryOptions({ queryKey: queryKeys.jobHeader(id), queryFn: ({ signal }) => apiFetch<JobListItem>(`/jobs/${id}/header`, { signal }) });
export const useJobHeader = (id: number | null) => useQuery({ ...jobHeaderQuery(id ?? 0), enabled: id != null && id > 0 });
