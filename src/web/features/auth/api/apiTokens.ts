import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApiTokenCreate, ApiTokenCreateReply, ApiTokensReply } from '../../../../shared/api-tokens.schemas';
import type { RoleOption } from '../../../../shared/auth.schemas';
import { apiFetch } from '../../../api/client';
import { queryKeys } from '../../../api/queryKeys';

/** The company's API tokens (docs/product/integrations.md §API tokens): Admins only. */
export const useApiTokens = () => useQuery({ queryKey: queryKeys.apiTokens, queryFn: () => apiFetch<ApiTokensReply>('/api-tokens') });

/** The roles a token may have: those I may give (mine and below), with the company's names. */
export const useTokenRoles = () =>
  useQuery({ queryKey: queryKeys.apiTokenRoles, queryFn: () => apiFetch<RoleOption[]>('/crew/configurableRoles') });

export function useCreateApiToken() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: ApiTokenCreate) => apiFetch<ApiTokenCreateReply>('/api-tokens', { method: 'POST', body }),
    onSettled: () => qc.invalidateQueries({ queryKey: queryKeys.apiTokens }),
  });
}

export function useRevokeApiToken() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiFetch<{ success: true }>(`/api-tokens/${id}`, { method: 'DELETE' }),
    onSettled: () => qc.invalidateQueries({ queryKey: queryKeys.apiTokens }),
  });
}
