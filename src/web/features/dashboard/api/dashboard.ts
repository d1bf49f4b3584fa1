import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { DASHBOARD_JOB_PAGE, type DashboardJobSort, type DashboardReply } from '../../../../shared/dashboard.schemas';
import type { SortState } from '../../../../shared/sorting';
import { apiFetch } from '../../../api/client';
import { queryKeys } from '../../../api/queryKeys';

/**
 * GET /dashboard (docs/product/billing.md §6): the company's figures, optionally one foreman's
 * jobs only, with one page of its jobs in the table's order. "Show more" asks for the next page
 * (job_offset): a company has tens of thousands of jobs after ten years (docs/product/scale.md §5),
 * so the table is sorted and paged by the server. The first page's figures are the ones shown.
 */
export const dashboardPagesQuery = (foremanId: number | null, sort: SortState<DashboardJobSort>) =>
  infiniteQueryOptions({
    queryKey: queryKeys.dashboard(foremanId, sort),
    queryFn: ({ pageParam, signal }) => {
      const params = new URLSearchParams({ job_sort: sort.column, job_dir: sort.direction });
      if (foremanId != null) params.set('foreman_id', String(foremanId));
      if (pageParam > 0) params.set('job_offset', String(pageParam));
      return apiFetch<DashboardReply>(`/dashboard?${params}`, { signal });
    },
    initialPageParam: 0,
    getNextPageParam: (last, _pages, offset) => (offset + DASHBOARD_JOB_PAGE < last.by_job_total ? offset + DASHBOARD_JOB_PAGE : undefined),
    // A new sort or foreman keeps the figures on screen until its first page arrives.
    placeholderData: keepPreviousData,
  });
export const useDashboardPages = (foremanId: number | null, sort: SortState<DashboardJobSort>) => useInfiniteQuery(dashboardPagesQuery(foremanId, sort));
