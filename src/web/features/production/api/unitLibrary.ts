import { queryOptions, useQuery } from '@tanstack/react-query';
import type { UnitLibraryItem } from '../../../../shared/production.schemas';
import { apiFetch } from '../../../api/client';
import { queryKeys } from '../../../api/queryKeys';

/** The most units the page reads at once (the server's UNIT_LIBRARY_LIMIT). */
export const UNIT_LIBRARY_PAGE = 5000;

/** GET /units?utility_id=&limit=: one utility's whole library, with prices for roles 1–3. */
export const getUnitLibrary = (utilityId: number, signal?: AbortSignal) =>
  apiFetch<UnitLibraryItem[]>(`/units?utility_id=${utilityId}&limit=${UNIT_LIBRARY_PAGE}`, { signal });
export const unitLibraryQuery = (utilityId: number) =>
  queryOptions({ queryKey: queryKeys.unitLibrary(utilityId), queryFn: ({ signal }) => getUnitLibrary(utilityId, signal) });
export const useUnitLibrary = (utilityId: number | null) => useQuery({ ...unitLibraryQuery(utilityId ?? 0), enabled: utilityId != null });
