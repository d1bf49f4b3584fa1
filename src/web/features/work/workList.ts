import { isOverdue } from '../../../shared/ticket-state';
import type { WorkItem } from './api/work';

export interface WorkGroup {
  jobId: number;
  jobNumber: string;
  tickets: WorkItem[];
  overdue: number;
}

const norm = (s: string | null | undefined) => (s ?? '').toLowerCase();

/**
 * My Work's list (DESIGN §7.1): the tickets matching the search (pole, line, street or job
 * number, every word somewhere), grouped by job, in the server's work order (soonest due first:
 * src/shared/work.list.ts sortWorkTickets, the one place of that rule).
 */
export function groupWork(items: readonly WorkItem[], search: string, today: string): WorkGroup[] {
  const words = norm(search).split(/\s+/).filter(Boolean);
  const groups = new Map<number, WorkGroup>();
  for (const t of items) {
    const text = [t.pole_name, t.line_name, t.street_address, t.job_number].map(norm).join(' ');
    if (!words.every((w) => text.includes(w))) continue;
    const g = groups.get(t.job_id) ?? { jobId: t.job_id, jobNumber: t.job_number, tickets: [], overdue: 0 };
    g.tickets.push(t);
    if (isOverdue(t, today)) g.overdue += 1;
    groups.set(t.job_id, g);
  }
  return [...groups.values()];
}
