import { dateValue, textKey } from './sorting';
import type { WorkTicket } from './work.schemas';

/**
 * The order of My Work (docs/product/field-mode.md §1: grouped by job, soonest due first). Jobs come in the order
 * of their soonest-due open ticket, then by job number; within a job, tickets by due date, then
 * by pole name as the job page's table sorts it (case-insensitive, 'P-2' before 'P-10'), then
 * id. A ticket without a due date comes after every dated one, and a job with no dated ticket
 * after every job with one. The server answers in this order; the web may re-sort with it.
 */
type WorkSortRow = Pick<WorkTicket, 'id' | 'job_id' | 'job_number' | 'due_date' | 'pole_name'>;

/** Ascending, with null (no or invalid date) last. */
const byDate = (a: number | null, b: number | null) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : a - b);
const byText = (a: string, b: string) => (a === b ? 0 : a < b ? -1 : 1);

export function sortWorkTickets<T extends WorkSortRow>(rows: readonly T[]): T[] {
  // Keys once per row (and per job), not once per comparison.
  const soonestOfJob = new Map<number, number | null>();
  const keyed = rows.map((r) => {
    const due = dateValue(r.due_date);
    const soonest = soonestOfJob.get(r.job_id);
    if (!soonestOfJob.has(r.job_id) || byDate(due, soonest ?? null) < 0) soonestOfJob.set(r.job_id, due);
    return { r, due, job: textKey(r.job_number), pole: textKey(r.pole_name) };
  });
  keyed.sort(
    (a, b) =>
      byDate(soonestOfJob.get(a.r.job_id) ?? null, soonestOfJob.get(b.r.job_id) ?? null) ||
      byText(a.job, b.job) ||
      a.r.job_id - b.r.job_id ||
      byDate(a.due, b.due) ||
      byText(a.pole, b.pole) ||
      a.r.id - b.r.id,
  );
  return keyed.map((k) => k.r);
}
