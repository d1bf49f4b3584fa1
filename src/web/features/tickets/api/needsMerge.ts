import { useCallback } from 'react';
import { queryOptions, useQueryClient } from '@tanstack/react-query';
import type { NeedsMergeReply } from '../../../../shared/tickets.schemas';
import { apiFetch } from '../../../api/client';
import { queryKeys } from '../../../api/queryKeys';

/** GET /tickets/needsMerge/{jobId}?pole_id=: the tickets of this job that already hold the pole. */
export const getNeedsMerge = (jobId: number, poleId: number) =>
  apiFetch<NeedsMergeReply>(`/tickets/needsMerge/${jobId}?pole_id=${poleId}`).then((b) => b.ticket_ids);

/** Asked afresh (staleTime 0) and at once (networkMode 'always'); a failure means "no merge needed" to the caller. */
export const needsMergeQuery = (jobId: number, poleId: number) =>
  queryOptions({ queryKey: queryKeys.needsMerge(jobId, poleId), queryFn: () => getNeedsMerge(jobId, poleId), staleTime: 0, retry: false, networkMode: 'always' });

/** The check run when a pole is chosen in the ticket window: which tickets of the job already hold it. */
export function useNeedsMerge(jobId: number) {
  const qc = useQueryClient();
  return useCallback((poleId: number) => qc.fetchQuery(needsMergeQuery(jobId, poleId)), [qc, jobId]);
}
