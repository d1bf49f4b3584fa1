import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ForemanOption } from '../../../../shared/crew.schemas';
import { apiFetch } from '../../../api/client';
import { queryKeys, REFERENCE_STALE_TIME } from '../../../api/queryKeys';

/** GET /crew/working_foremen: who a ticket can be assigned to ('Select...' = unassigned). */
export const getWorkingForemen = () => apiFetch<ForemanOption[]>('/crew/working_foremen');
export const workingForemenQuery = () =>
  queryOptions({ queryKey: queryKeys.workingForemen, queryFn: getWorkingForemen, staleTime: REFERENCE_STALE_TIME });
export const useWorkingForemen = () => useQuery(workingForemenQuery());
