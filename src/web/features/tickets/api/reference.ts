import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ForemanOption } from '../../../../shared/crew.schemas';
import type { Utility } from '../../../../shared/jobs.schemas';
import { apiFetch } from '../../../api/client';
import { queryKeys } from '../../../api/queryKeys';

// Small reference lists the ticket window offers. They change rarely: cache them for a while.
const LONG = 5 * 60_000;

export interface AccessType {
  id: number;
  title: string;
}
export interface PermitType {
  id: number;
  title: string;
}
export interface SpecOption {
  spec_number: string;
}
export interface UnitOption {
  id: number;
  code: string;
  description: string;
  family: string;
  type: string;
  action: string;
  uom: string;
  utility_id?: number;
}

/** GET /utilities. */
export const getUtilities = () => apiFetch<Utility[]>('/utilities');
export const useUtilities = () => useQuery(queryOptions({ queryKey: queryKeys.utilities, queryFn: getUtilities, staleTime: LONG }));

/** GET /crew/working_foremen: who a ticket can be assigned to ('Select...' = unassigned). */
export const getWorkingForemen = () => apiFetch<ForemanOption[]>('/crew/working_foremen');
export const useWorkingForemen = () =>
  useQuery(queryOptions({ queryKey: queryKeys.workingForemen, queryFn: getWorkingForemen, staleTime: LONG }));

/** GET /poles/accessTypes. */
export const getAccessTypes = () => apiFetch<AccessType[]>('/poles/accessTypes');
export const useAccessTypes = () => useQuery(queryOptions({ queryKey: ['poles', 'accessTypes'], queryFn: getAccessTypes, staleTime: LONG }));

/** GET /permits/types. */
export const getPermitTypes = () => apiFetch<PermitType[]>('/permits/types');
export const usePermitTypes = () => useQuery(queryOptions({ queryKey: ['permits', 'types'], queryFn: getPermitTypes, staleTime: LONG }));

/** GET /specs/partial?partial=: utility spec numbers starting with / containing the text. */
export const getSpecs = (partial: string, signal?: AbortSignal) =>
  apiFetch<SpecOption[]>(`/specs/partial?partial=${encodeURIComponent(partial)}`, { signal });
export const useSpecs = (partial: string) =>
  useQuery({
    queryKey: ['specs', 'partial', partial],
    queryFn: ({ signal }) => getSpecs(partial, signal),
    staleTime: LONG,
    placeholderData: keepPreviousData,
  });

/** GET /units?search=&utility_id=: the company's unit library, by code or description. */
export const searchUnits = (search: string, utilityId: number | null, signal?: AbortSignal) => {
  const q = new URLSearchParams({ search: search.trim() });
  if (utilityId != null) q.set('utility_id', String(utilityId));
  return apiFetch<UnitOption[] | { units: UnitOption[] }>(`/units?${q}`, { signal }).then((b) => (Array.isArray(b) ? b : (b?.units ?? [])));
};
export const useUnitSearch = (search: string, utilityId: number | null) =>
  useQuery({
    queryKey: ['units', utilityId, search],
    queryFn: ({ signal }) => searchUnits(search, utilityId, signal),
    staleTime: 60_000,
    placeholderData: keepPreviousData,
  });
