import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DashboardReply } from '../../../../shared/dashboard.schemas';
import { apiFetch } from '../../../api/client';
import { queryKeys } from '../../../api/queryKeys';

/** GET /dashboard: the company's figures (docs/product/billing.md §6), optionally one foreman's jobs only. */
export const dashboardQuery = (foremanId: number | null) =>
  queryOptions({
    queryKey: queryKeys.dashboard(foremanId),
    queryFn: ({ signal }) => apiFetch<DashboardReply>(foremanId == null ? '/dashboard' : `/dashboard?foreman_id=${foremanId}`, { signal }),
  });
export const useDashboard = (foremanId: number | null) => useQuery(dashboardQuery(foremanId));
