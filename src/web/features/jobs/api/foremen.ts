import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ForemanOption } from '../../../../shared/crew.schemas';
import { apiFetch } from '../../../api/client';
import { queryKeys } from '../../../api/queryKeys';

/** GET /crew/foremen: the foremen a job can be assigned to. */
export const getForemen = () => apiFetch<ForemanOption[]>('/crew/foremen');
export const foremenQuery = () => queryOptions({ queryKey: queryKeys.foremen, queryFn: getForemen, staleTime: 60_000 });
export const useForemen = (enabled = true) => useQuery({ ...foremenQuery(), enabled });
