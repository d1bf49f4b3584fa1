import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TicketRow } from '../../../../shared/tickets.schemas';
import { apiFetch } from '../../../api/client';
import { queryKeys } from '../../../api/queryKeys';

/** One of My Work's tickets: a job-page ticket row plus its job (DESIGN §7.1). */
export type WorkItem = TicketRow & { job_id: number; job_number: string };

/** GET /work: the open tickets that concern me. */
export const workQuery = () =>
  queryOptions({ queryKey: queryKeys.work, queryFn: ({ signal }) => apiFetch<{ tickets: WorkItem[] }>('/work', { signal }) });
export const useWork = () => useQuery(workQuery());
