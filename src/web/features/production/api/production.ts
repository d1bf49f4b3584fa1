import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ProductionReply } from '../../../../shared/production.schemas';
import { apiFetch } from '../../../api/client';
import { queryKeys } from '../../../api/queryKeys';

/** GET /jobs/{id}/production (docs/product/billing.md §3, roles 1–3): per-unit figures, totals, per-foreman totals. */
export const getProduction = (jobId: number, signal?: AbortSignal) => apiFetch<ProductionReply>(`/jobs/${jobId}/production`, { signal });
export const productionQuery = (jobId: number) =>
  queryOptions({ queryKey: queryKeys.jobProduction(jobId), queryFn: ({ signal }) => getProduction(jobId, signal) });
export const useProduction = (jobId: number, enabled = true) => useQuery({ ...productionQuery(jobId), enabled });
