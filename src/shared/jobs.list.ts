import { JOB_STATUS, JOB_TYPE } from './constants';
import type { JobListItem } from './jobs.schemas';
import type { SortDirection } from './sorting';
import { textKey } from './sorting';

/**
 * The jobs list's table rules (docs/product/screens.md §3 Jobs list, §5 Search and sorting, §9 sort storage):
 * status filter, search and sortable columns. The database applies them (GET /jobs?limit=,
 * jobs-page.repository.ts); these functions state them, and the API test holds the SQL to them.
 */

export type JobStatusFilter = 'All' | (typeof JOB_STATUS)[keyof typeof JOB_STATUS];
export const JOB_STATUS_FILTERS: readonly JobStatusFilter[] = ['All', JOB_STATUS.ESTIMATION, JOB_STATUS.IN_PROGRESS, JOB_STATUS.COMPLETE];

/** Sortable columns, keyed by the field they sort on (docs/product/screens.md). */
export const JOB_SORT_COLUMNS = [
  'job_number',
  'selected_utility_name',
  'job_type',
  'status',
  'ticket_count',
  'created_name',
  'due_date',
  'date_completed',
  'percent_complete',
  'unevidenced_count',
] as const;
export type JobSortColumn = (typeof JOB_SORT_COLUMNS)[number];

/** docs/product/rules.md §4.5: the jobs list keeps its sort in browser storage; defaults job_number, desc. */
export const JOB_SORT_STORAGE = { column: 'jobSortColumn', direction: 'jobSortDirection' } as const;
export const JOB_SORT_DEFAULT: { column: JobSortColumn; direction: SortDirection } = { column: 'job_number', direction: 'desc' };

export const jobTypeLabel = (jobType: number) => (jobType === JOB_TYPE.ESTIMATION ? 'Estimation' : 'Normal');

type ListJob = Pick<
  JobListItem,
  'id' | 'job_number' | 'selected_utility_name' | 'job_type' | 'status' | 'ticket_count' | 'created_name' | 'foreman_name' | 'due_date' | 'date_completed'
> & {
  /** GET /jobs's "% Complete" (docs/product/billing.md §3); absent counts as 0. */
  percent_complete?: number;
  /** Complete tickets not evidenced (docs/product/records.md §8); absent counts as 0. */
  unevidenced_count?: number;
};

export function matchesStatus(job: Pick<ListJob, 'status'>, filter: JobStatusFilter): boolean {
  return filter === 'All' || job.status === filter;
}

/** The most jobs one page of GET /jobs?limit= carries (docs/product/scale.md §2). */
export const JOB_PAGE_MAX = 200;

/**
 * The paged list's `q` (docs/product/scale.md §2): case-insensitive "contains" over the job number,
 * the utility and the foreman, nothing else, so that the database answers it from indexes
 * (jobs-page.repository.ts) and this function is what its test holds it to.
 */
export function matchesJobQuery(job: Pick<ListJob, 'job_number' | 'selected_utility_name' | 'foreman_name'>, q: string): boolean {
  const needle = q.trim().toLowerCase();
  if (!needle) return true;
  return [job.job_number, job.selected_utility_name, job.foreman_name ?? ''].some((v) => v.toLowerCase().includes(needle));
}

/** Columns compared as numbers (docs/product/rules.md: job type and # Tickets; docs/product/billing.md §3: % Complete). */
const NUMERIC_JOB_COLUMNS: ReadonlySet<JobSortColumn> = new Set(['job_type', 'ticket_count', 'percent_complete', 'unevidenced_count']);

/**
 * docs/product/imports.md §3: job type, # Tickets and % Complete numerically, every other column as case-insensitive text;
 * ties by id. A sorted copy. Keys are computed once per row (textKey: lower case, digit runs padded), so
 * 5,000 jobs re-sort in a few milliseconds rather than ~70 ms of collator comparisons.
 */
export function sortJobs<T extends ListJob>(list: readonly T[], column: JobSortColumn, direction: SortDirection): T[] {
  const flip = direction === 'asc' ? 1 : -1;
  const numeric = NUMERIC_JOB_COLUMNS.has(column);
  const keyed = list.map((job) => ({ job, key: numeric ? Number(job[column]) || 0 : textKey(job[column]) }));
  keyed.sort((a, b) => (a.key < b.key ? -flip : a.key > b.key ? flip : a.job.id - b.job.id));
  return keyed.map((k) => k.job);
}
