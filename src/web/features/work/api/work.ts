import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { WORK_LIMIT } from '../../../../shared/constants';
import type { WorkReply, WorkTicket } from '../../../../shared/work.schemas';
import { apiFetch } from '../../../api/client';
import { queryKeys } from '../../../api/queryKeys';

export type WorkItem = WorkTicket;

/**
 * GET /work: the first `limit` open tickets that concern me, in work order, and how many there
 * are in all (docs/product/field-mode.md §1, docs/product/scale.md §5); office roles may narrow to
 * one foreman. The first WORK_LIMIT keep the key the offline copies keep (copies.ts); more is an
 * online ask, and the list shown stays while it loads.
 */
export const workQuery = (foremanId: number | null, limit = WORK_LIMIT) => {
  const params = new URLSearchParams();
  if (foremanId != null) params.set('foreman_id', String(foremanId));
  if (limit !== WORK_LIMIT) params.set('limit', String(limit));
  const query = params.toString();
  return queryOptions({
    queryKey: limit === WORK_LIMIT ? queryKeys.workOf(foremanId) : [...queryKeys.workOf(foremanId), limit],
    queryFn: ({ signal }) => apiFetch<WorkReply>(query ? `/work?${query}` : '/work', { signal, keepBytes: true }),
    placeholderData: keepPreviousData,
  });
};
export const useWork = (foremanId: number | null, limit = WORK_LIMIT) => useQuery(workQuery(foremanId, limit));
