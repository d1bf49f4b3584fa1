import { queryOptions, useQuery } from '@tanstack/react-query';
import type { WorkReply, WorkTicket } from '../../../../shared/work.schemas';
import { apiFetch } from '../../../api/client';
import { queryKeys } from '../../../api/queryKeys';

export type WorkItem = WorkTicket;

/** GET /work: the open tickets that concern me, in work order (docs/product/field-mode.md §1); office roles may narrow to one foreman. */
export const workQuery = (foremanId: number | null) =>
  queryOptions({
    queryKey: queryKeys.workOf(foremanId),
    queryFn: ({ signal }) => apiFetch<WorkReply>(foremanId == null ? '/work' : `/work?foreman_id=${foremanId}`, { signal }),
  });
export const useWork = (foremanId: number | null) => useQuery(workQuery(foremanId));
