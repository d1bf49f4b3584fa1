import { queryOptions, useQuery } from '@tanstack/react-query';
import type { RoleOption } from '../../../../shared/auth.schemas';
import { apiFetch } from '../../../api/client';
import { queryKeys, REFERENCE_STALE_TIME } from '../../../api/queryKeys';

/** GET /crew/configurableRoles: the roles this user may give (an Admin sees Admin too). */
export const getConfigurableRoles = () => apiFetch<RoleOption[]>('/crew/configurableRoles');

export const configurableRolesQuery = () =>
  queryOptions({ queryKey: queryKeys.configurableRoles, queryFn: getConfigurableRoles, staleTime: REFERENCE_STALE_TIME });
export const useConfigurableRoles = (enabled = true) => useQuery({ ...configurableRolesQuery(), enabled });
