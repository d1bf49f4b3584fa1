import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AccessType } from '../../../../shared/poles.schemas';
import { apiFetch } from '../../../api/client';
import { queryKeys, REFERENCE_STALE_TIME } from '../../../api/queryKeys';

/** GET /poles/accessTypes: how a pole can be reached (the Pole tab's Accessibility). */
export const getAccessTypes = () => apiFetch<AccessType[]>('/poles/accessTypes');
export const accessTypesQuery = () => queryOptions({ queryKey: queryKeys.accessTypes, queryFn: getAccessTypes, staleTime: REFERENCE_STALE_TIME });
export const useAccessTypes = () => useQuery(accessTypesQuery());
