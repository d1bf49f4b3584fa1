import { isOverdue } from '../../../shared/ticket-state';
import { searchWords, ticketMatches } from '../../../shared/ticket-search';
import type { WorkItem } from './api/work';

export interface WorkGroup {
  jobId: number;
  jobNumber: string;
  tickets: WorkItem[];
  overdue: number;
}

/**
 * My Work's list (docs/product/field-mode.md §1): the tickets matching the search (the job page's rule,
 * src/shared/ticket-search.ts: pole, line, street, work orders, unit codes and job number, every
 * word somewhere), grouped by job, in the server's work order (soonest due first:
 * src/shared/work.list.ts sortWorkTickets, the one place of that rule).
 */
export function groupWork(items: readonly WorkItem[], search: string, today: string): WorkGroup[] {
  const words = searchWords(search);
  const groups = new Map<number, WorkGroup>();
  for (const t of items) {
    if (!ticketMatches(t, words)) continue;
    const g = groups.get(t.job_id) ?? { jobId: t.job_id, jobNumber: t.job_number, tickets: [], overdue: 0 };
    g.tickets.push(t);
    if (isOverdue(t, today)) g.overdue += 1;
    groups.set(t.job_id, g);
  }
  return [...groups.values()];
}
