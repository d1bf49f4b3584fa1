import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ForemanOption } from '../../shared/crew.schemas';
import { apiFetch } from './client';
import { queryKeys } from './queryKeys';

/**
 * GET /crew/foremen: the active foremen, whom a job is assigned to and a crew member is put
 * under. Cached for a minute: a crew save invalidates every crew query at once.
 */
export const getForemen = () => apiFetch<ForemanOption[]>('/crew/foremen');
export const foremenQuery = () => queryOptions({ queryKey: queryKeys.foremen, queryFn: getForemen, staleTime: 60_000 });
export const useForemen = (enabled = true) => useQuery({ ...foremenQuery(), enabled });
