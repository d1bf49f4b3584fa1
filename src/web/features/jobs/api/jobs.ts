import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import type { JobSortColumn, JobStatusFilter } from '../../../../shared/jobs.list';
import type { JobPageReply } from '../../../../shared/jobs.schemas';
import type { SortDirection } from '../../../../shared/sorting';
import { apiFetch } from '../../../api/client';
import { queryKeys } from '../../../api/queryKeys';

/** Rows per page of the jobs list: the server sends 50 at a time (docs/product/scale.md §2). */
export const JOBS_PAGE_SIZE = 50;

/** What the list shows: the server filters, searches and sorts. */
export interface JobListView {
  status: JobStatusFilter;
  q: string;
  sort: JobSortColumn;
  dir: SortDirection;
}

/** GET /jobs?limit=: one page of the company's jobs, the next one after `cursor`. */
export function getJobPage(view: JobListView, cursor: string | null, signal?: AbortSignal) {
  const params = new URLSearchParams({ limit: String(JOBS_PAGE_SIZE), sort: view.sort, dir: view.dir });
  if (view.status !== 'All') params.set('status', view.status);
  if (view.q.trim()) params.set('q', view.q.trim());
  if (cursor) params.set('cursor', cursor);
  return apiFetch<JobPageReply>(`/jobs?${params}`, { signal });
}

/**
 * The pages of one view, fetched in turn (a keyset cursor reaches page N through N − 1): the
 * pager offers the pages read so far and the next one. A new view keeps the old rows on screen
 * until its first page arrives; without a network the pages read stay shown (the query keeps its data).
 */
export const jobPagesQuery = (view: JobListView) =>
  infiniteQueryOptions({
    queryKey: queryKeys.jobList(view),
    queryFn: ({ pageParam, signal }) => getJobPage(view, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
    placeholderData: keepPreviousData,
  });
export const useJobPages = (view: JobListView) => useInfiniteQuery(jobPagesQuery(view));
