import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CompanySettings, CompanyUpdate } from '../../../../shared/company.schemas';
import { apiFetch } from '../../../api/client';
import { queryKeys } from '../../../api/queryKeys';

/** GET /company: the caller's company and its time zone. */
export const useCompany = (enabled = true) =>
  useQuery({ queryKey: queryKeys.company, queryFn: async () => (await apiFetch<{ company: CompanySettings }>('/company')).company, enabled });

/** PUT /company (Admin): the company's time zone. */
export function useSaveCompany() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (body: CompanyUpdate) => (await apiFetch<{ company: CompanySettings }>('/company', { method: 'PUT', body })).company,
    onSuccess: (company) => qc.setQueryData(queryKeys.company, company),
  });
}
