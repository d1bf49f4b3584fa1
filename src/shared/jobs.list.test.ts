import { describe, expect, it } from 'vitest';
import { JOB_SORT_DEFAULT, JOB_STATUS_FILTERS, matchesJobQuery, sortJobs } from './jobs.list';
import type { JobListItem } from './jobs.schemas';

type Row = Parameters<typeof sortJobs>[0][number];
const job = (id: number, over: Partial<JobListItem> & { percent_complete?: number } = {}): Row => ({
  id,
  job_number: `J-${id}`,
  selected_utility_name: 'NGRID',
  job_type: 0,
  status: 'In Progress',
  ticket_count: 0,
  created_name: 'Ann Admin',
  foreman_name: null,
  due_date: '2026-01-01',
  date_completed: null,
  ...over,
});
const ids = (rows: Row[]) => rows.map((r) => r.id);

describe('jobs list rules (docs/product/screens.md §3, rules.md, rules.md §6)', () => {
  it('offers the four status filters and defaults to job_number descending', () => {
    expect(JOB_STATUS_FILTERS).toEqual(['All', 'In Estimation', 'In Progress', 'Complete']);
    expect(JOB_SORT_DEFAULT).toEqual({ column: 'job_number', direction: 'desc' });
  });

  it('sorts job type numerically', () => {
    const rows = [job(1, { job_type: 1 }), job(2, { job_type: 0 }), job(3, { job_type: 1 })];
    expect(ids(sortJobs(rows, 'job_type', 'asc'))).toEqual([2, 1, 3]);
    expect(ids(sortJobs(rows, 'job_type', 'desc'))).toEqual([1, 3, 2]);
  });

  it('sorts % Complete numerically (9.5 before 10), a job without the figure as 0', () => {
    const rows = [job(1, { percent_complete: 10 }), job(2, { percent_complete: 9.5 }), job(3), job(4, { percent_complete: 100 })];
    expect(ids(sortJobs(rows, 'percent_complete', 'asc'))).toEqual([3, 2, 1, 4]);
    expect(ids(sortJobs(rows, 'percent_complete', 'desc'))).toEqual([4, 1, 2, 3]);
  });

  it('sorts text columns case-insensitively, numbers inside text in numeric order', () => {
    const rows = [job(1, { job_number: 'b-2' }), job(2, { job_number: 'A-10' }), job(3, { job_number: 'a-9' }), job(4, { job_number: 'B-1' })];
    expect(ids(sortJobs(rows, 'job_number', 'asc'))).toEqual([3, 2, 4, 1]);
    const utils = [job(1, { selected_utility_name: 'unitil' }), job(2, { selected_utility_name: 'EVERSOURCE' }), job(3, { selected_utility_name: 'Ngrid' })];
    expect(ids(sortJobs(utils, 'selected_utility_name', 'asc'))).toEqual([2, 3, 1]);
  });

  it('keeps ties in id order whichever the direction', () => {
    const rows = [job(3, { status: 'Complete' }), job(1, { status: 'complete' as 'Complete' }), job(2, { status: 'In Progress' })];
    expect(ids(sortJobs(rows, 'status', 'asc'))).toEqual([1, 3, 2]);
    expect(ids(sortJobs(rows, 'status', 'desc'))).toEqual([2, 1, 3]);
  });

  it('sorts dates (YYYY-MM-DD and ISO instants) in calendar order, empty first ascending', () => {
    const rows = [job(1, { date_completed: '2026-03-01T10:00:00.000Z' }), job(2), job(3, { date_completed: '2025-12-31T23:00:00.000Z' })];
    expect(ids(sortJobs(rows, 'date_completed', 'asc'))).toEqual([2, 3, 1]);
    const due = [job(1, { due_date: '2026-02-01' }), job(2, { due_date: '2025-11-30' })];
    expect(ids(sortJobs(due, 'due_date', 'desc'))).toEqual([1, 2]);
  });

  it('q looks in the job number, the utility and the foreman, case-insensitively (docs/product/scale.md §2)', () => {
    const j = job(7, { job_number: 'WO-4471', foreman_name: 'Fred Foreman', selected_utility_name: 'EVERSOURCE' });
    expect(matchesJobQuery(j, 'wo-44')).toBe(true);
    expect(matchesJobQuery(j, 'fred')).toBe(true);
    expect(matchesJobQuery(j, 'eversource')).toBe(true);
    expect(matchesJobQuery(j, 'in prog')).toBe(false); // the status is a filter of its own
    expect(matchesJobQuery(j, 'nomatch')).toBe(false);
    expect(matchesJobQuery(j, '   ')).toBe(true);
    expect(matchesJobQuery({ ...j, foreman_name: null }, 'fred')).toBe(false);
  });
});
