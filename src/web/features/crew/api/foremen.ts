import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ForemanOption } from '../../../../shared/crew.schemas';
import { apiFetch } from '../../../api/client';
import { queryKeys } from '../../../api/queryKeys';

export const foremenKey = queryKeys.foremen;

/** GET /crew/foremen: the active foremen a crew member can be put under. */
export const getForemen = () => apiFetch<ForemanOption[]>('/crew/foremen');

export const foremenQuery = () => queryOptions({ queryKey: foremenKey, queryFn: getForemen });
export const useForemen = (enabled = true) => useQuery({ ...foremenQuery(), enabled });
