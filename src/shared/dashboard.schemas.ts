import { z } from 'zod';

/**
 * The dashboard (docs/product/billing.md §6): GET /api/v1/dashboard. Used by the server's dashboard module
 * (src/server/modules/dashboard/) and the web's Dashboard page. Types are z.infer: never re-declare them.
 */

/** An exact amount on the wire: a decimal string with two decimals ("1234.50"), never a float. */
const amount = z.string().regex(/^-?\d+\.\d{2}$/);
const count = z.number().int().nonnegative();
const isoDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

/** The by-job table's columns, each sortable on the server (docs/product/billing.md §6). */
export const DASHBOARD_JOB_SORTS = ['job_number', 'foreman_name', 'open', 'overdue', 'completed_this_week', 'unbilled_completed_amount', 'percent_complete'] as const;
export type DashboardJobSort = (typeof DASHBOARD_JOB_SORTS)[number];
/** The dashboard's first order: the most overdue jobs first. */
export const DASHBOARD_JOB_SORT_DEFAULT = { column: 'overdue', direction: 'desc' } as const;
/** Jobs per page of by_job, unless job_limit says otherwise. */
export const DASHBOARD_JOB_PAGE = 100;

/**
 * ?foreman_id= narrows every figure to the jobs of that foreman. by_job is one page of the jobs
 * with something to show (a company has tens of thousands after ten years, docs/product/scale.md
 * §5): `job_sort`/`job_dir` order them, `job_offset` skips that many, `job_limit` (≤ 500) takes
 * that many.
 */
export const dashboardQuery = z.object({
  foreman_id: z.coerce.number().int().positive().max(2_147_483_647).optional(),
  job_sort: z.enum(DASHBOARD_JOB_SORTS).default(DASHBOARD_JOB_SORT_DEFAULT.column),
  job_dir: z.enum(['asc', 'desc']).default(DASHBOARD_JOB_SORT_DEFAULT.direction),
  job_offset: z.coerce.number().int().min(0).max(10_000_000).default(0),
  job_limit: z.coerce.number().int().min(1).max(500).default(DASHBOARD_JOB_PAGE),
});
export type DashboardQuery = z.infer<typeof dashboardQuery>;

export const dashboardFiguresSchema = z.object({
  /** Pending tickets (no completion date). */
  open: count,
  /** Pending tickets whose due date is before today on the company's calendar. */
  overdue: count,
  /** Tickets completed in the current week (Monday to Sunday, company's calendar). */
  completed_this_week: count,
  /** Σ (init_qty + additional_qty) × unit_price over Complete tickets not on an invoice; unpriced units count 0. */
  unbilled_completed_amount: amount,
});

export const dashboardJobSchema = dashboardFiguresSchema.extend({
  job_id: z.number().int(),
  job_number: z.string(),
  /** The job's foreman (jobs.foreman_id), or null when it has none. */
  foreman_name: z.string().nullable(),
  /** As the job's production view: completed ÷ actual amount, 0–100, one decimal. */
  percent_complete: z.number(),
});
export type DashboardJob = z.infer<typeof dashboardJobSchema>;

export const dashboardForemanSchema = dashboardFiguresSchema.extend({
  /** null: the jobs that have no foreman, together. */
  foreman_id: z.number().int().nullable(),
  name: z.string().nullable(),
});
export type DashboardForeman = z.infer<typeof dashboardForemanSchema>;

export const dashboardReply = z.object({
  /** ISO 4217 code of every amount (the company's). */
  currency: z.string(),
  /** Today on the company's calendar: what "overdue" and "this week" were read against. */
  today: isoDay,
  totals: dashboardFiguresSchema,
  /**
   * One page of the jobs with something to show (open tickets, completed this week or unbilled
   * work), in the order asked: by the column (text as textKey, numbers and amounts by value; in
   * SQL linecrew_text_key), ties by most open, then job number, then id. Default: most overdue first.
   */
  by_job: z.array(dashboardJobSchema),
  /** How many jobs have something to show: by_job's pages hold them all. */
  by_job_total: count,
  by_foreman: z.array(dashboardForemanSchema),
  /** The last 12 weeks, oldest first; `week_start` is a Monday. */
  weekly: z.array(z.object({ week_start: isoDay, completed_amount: amount })),
});
export type DashboardReply = z.infer<typeof dashboardReply>;
