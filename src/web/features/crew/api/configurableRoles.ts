import { queryOptions, useQuery } from '@tanstack/react-query';
import type { RoleOption } from '../../../../shared/auth.schemas';
import { apiFetch } from '../../../api/client';
import { crewKey } from './allCrew';

export const configurableRolesKey = [...crewKey, 'configurableRoles'] as const;

/** GET /crew/configurableRoles: the roles this user may give (an Admin sees Admin too). */
export const getConfigurableRoles = () => apiFetch<RoleOption[]>('/crew/configurableRoles');

export const configurableRolesQuery = () =>
  queryOptions({ queryKey: configurableRolesKey, queryFn: getConfigurableRoles, staleTime: 5 * 60_000 });
export const useConfigurableRoles = (enabled = true) => useQuery({ ...configurableRolesQuery(), enabled });
