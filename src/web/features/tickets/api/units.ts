import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { UnitOption } from '../../../../shared/poles.schemas';
import { apiFetch } from '../../../api/client';
import { queryKeys } from '../../../api/queryKeys';

/** GET /units?search=&utility_id=: the company's unit library, by code or description. */
export const searchUnits = (search: string, utilityId: number | null, signal?: AbortSignal) => {
  const q = new URLSearchParams({ search: search.trim() });
  if (utilityId != null) q.set('utility_id', String(utilityId));
  return apiFetch<UnitOption[]>(`/units?${q}`, { signal });
};
export const unitSearchQuery = (search: string, utilityId: number | null) =>
  queryOptions({
    queryKey: queryKeys.units(utilityId, search),
    queryFn: ({ signal }) => searchUnits(search, utilityId, signal),
    staleTime: 60_000,
    placeholderData: keepPreviousData,
  });
export const useUnitSearch = (search: string, utilityId: number | null) => useQuery(unitSearchQuery(search, utilityId));
