import { queryOptions, useQuery } from '@tanstack/react-query';
import type { WorkReply, WorkTicket } from '../../../../shared/work.schemas';
import { apiFetch } from '../../../api/client';
import { queryKeys } from '../../../api/queryKeys';

export type WorkItem = WorkTicket;

/** GET /work: the open tickets that concern me, in work order (DESIGN §7.1). */
export const workQuery = () => queryOptions({ queryKey: queryKeys.work, queryFn: ({ signal }) => apiFetch<WorkReply>('/work', { signal }) });
export const useWork = () => useQuery(workQuery());
