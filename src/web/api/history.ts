import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { HISTORY_PAGE, type HistoryReply } from '../../shared/history.schemas';
import { apiFetch } from './client';
import { queryKeys } from './queryKeys';

/**
 * GET /tickets/{id}/history and GET /jobs/{id}/history (docs/product/records.md §1), page by page (newest
 * first; `next_cursor` asks for the next). Here, below the features, because the ticket window
 * (tickets), the phone ticket view (work) and the job page (jobs) all show a history.
 */
export const getHistory = (path: string, cursor: number | null, limit: number = HISTORY_PAGE.default) =>
  apiFetch<HistoryReply>(`${path}?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);

const historyQuery = (queryKey: readonly unknown[], path: string) =>
  infiniteQueryOptions({
    queryKey,
    queryFn: ({ pageParam }) => getHistory(path, pageParam),
    initialPageParam: null as number | null,
    getNextPageParam: (last) => last.next_cursor,
    // Always read afresh: the point of a history is what happened a moment ago.
    staleTime: 0,
  });

export const ticketHistoryQuery = (id: number) => historyQuery(queryKeys.ticketHistory(id), `/tickets/${id}/history`);
export const jobHistoryQuery = (id: number) => historyQuery(queryKeys.jobHistory(id), `/jobs/${id}/history`);
export const useTicketHistory = (id: number) => useInfiniteQuery(ticketHistoryQuery(id));
export const useJobHistory = (id: number, enabled = true) => useInfiniteQuery({ ...jobHistoryQuery(id), enabled });

/** Every entry of a job, page after page at the largest size (the CSV download). */
export async function allJobHistory(id: number) {
  const entries: HistoryReply['entries'] = [];
  let cursor: number | null = null;
  do {
    const page: HistoryReply = await getHistory(`/jobs/${id}/history`, cursor, HISTORY_PAGE.max);
    entries.push(...page.entries);
    cursor = page.next_cursor;
  } while (cursor);
  return entries;
}
