import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PermitType } from '../../../../shared/poles.schemas';
import { apiFetch } from '../../../api/client';
import { queryKeys, REFERENCE_STALE_TIME } from '../../../api/queryKeys';

/** GET /permits/types: the kinds of permit a ticket's document can be. */
export const getPermitTypes = () => apiFetch<PermitType[]>('/permits/types');
export const permitTypesQuery = () => queryOptions({ queryKey: queryKeys.permitTypes, queryFn: getPermitTypes, staleTime: REFERENCE_STALE_TIME });
export const usePermitTypes = () => useQuery(permitTypesQuery());
