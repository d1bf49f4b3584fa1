import { sql, type SQL } from 'drizzle-orm';
import { rowsOf, type DbOrTx } from '../../db/client';

/**
 * The dashboard's SQL (docs/product/billing.md §6). Two statements over the figures kept by the
 * triggers of migration 0030 (decision 059), whatever the number of jobs and tasks: one row per job
 * with something to show, one per week × unit — never a statement per job, never a sum
 * over the tasks. Every statement is scoped by the caller's company.
 */

/** Which jobs count: the company's, or only those of one foreman of that company. */
export interface DashboardScope {
  companyId: number;
  foremanId?: number;
}

/**
 * The jobs in scope, as a condition on `j` (jobs). A foreman id of another company matches
 * nothing, even on a job that (by bad data) names him.
 */
function jobsInScope({ companyId, foremanId }: DashboardScope): SQL {
  // A job whose import is still being written is not there yet (decision 027).
  if (foremanId === undefined) return sql`j.company_id = ${companyId} and not j.import_pending`;
  return sql`j.company_id = ${companyId} and not j.import_pending and j.foreman_id = ${foremanId}
    and exists (select 1 from users fu where fu.id = ${foremanId} and fu.company_id = ${companyId})`;
}

export async function companyCalendar(db: DbOrTx, companyId: number): Promise<{ timeZone: string; currency: string }> {
  const rows = rowsOf<{ time_zone: string; currency: string }>(await db.execute(sql`select time_zone, currency from companies where id = ${companyId}`));
  return { timeZone: rows[0]?.time_zone ?? 'UTC', currency: rows[0]?.currency ?? 'USD' };
}

export interface JobFiguresRow {
  job_id: number;
  job_number: string;
  /** The job's foreman when he is a member of the company, else null. */
  foreman_id: number | null;
  first_name: string | null;
  last_name: string | null;
  open: number;
  overdue: number;
  completed_this_week: number;
  /** The job's kept production sums (job_figures, exact decimals as text); null when it has no tasks. */
  priced: boolean | null;
  actual_qty: string | null;
  completed_qty: string | null;
  actual_amount: string | null;
  completed_amount: string | null;
  unbilled_amount: string | null;
}

/**
 * The jobs in scope with something to show — an open ticket, one completed this week, or
 * completed work not on an invoice — with their ticket counts and production sums, read from the
 * figures kept by migration 0030's triggers (decision 059): a few rows per job, not its tickets
 * and tasks. A job without any of the three adds 0 to every total and is shown nowhere, so
 * leaving it out changes nothing in the reply. Open = no completion date (Pending); overdue = open
 * with a due date before `today` (ticket-state.ts's rule, on the company's calendar); completed
 * this week = the completion day, on the company's calendar, within [weekStart, weekEnd].
 */
export async function jobFigures(
  db: DbOrTx,
  scope: DashboardScope,
  cal: { today: string; weekStart: string; weekEnd: string },
): Promise<JobFiguresRow[]> {
  const week = sql`k.day between ${cal.weekStart}::date and ${cal.weekEnd}::date`;
  const result = await db.execute(sql`
    select j.id as job_id, j.job_number, u.id as foreman_id, u.first_name, u.last_name,
      coalesce(k.open, 0) as open, coalesce(k.overdue, 0) as overdue, coalesce(k.completed_this_week, 0) as completed_this_week,
      f.priced, f.actual_qty::text as actual_qty, f.completed_qty::text as completed_qty,
      f.actual_amount::text as actual_amount, f.completed_amount::text as completed_amount, f.unbilled_amount::text as unbilled_amount
    from jobs j
    left join (
      select k.job_id,
        (coalesce(sum(k.tickets) filter (where k.open), 0))::int as open,
        (coalesce(sum(k.tickets) filter (where k.open and k.day < ${cal.today}::date), 0))::int as overdue,
        (coalesce(sum(k.tickets) filter (where not k.open), 0))::int as completed_this_week
      from job_ticket_days k
      where k.company_id = ${scope.companyId} and (k.open or (not k.open and ${week}))
      group by k.job_id
    ) k on k.job_id = j.id
    left join job_figures f on f.job_id = j.id and f.company_id = j.company_id
    left join users u on u.id = j.foreman_id and u.company_id = j.company_id
    where ${jobsInScope(scope)} and (k.job_id is not null or f.unbilled_amount <> 0)
    order by j.id`);
  return rowsOf<JobFiguresRow>(result);
}

export interface CompletedWeekSumRow {
  /** The week's Monday on the company's calendar. */
  week: string;
  unit_id: number;
  unit_price: string | null;
  qty: string;
}

/**
 * Actual quantities (init + additional) of tickets completed in the weeks from `from` (a Monday)
 * to `to` (a Sunday), on the company's calendar, summed per week × unit from the figures kept by
 * migration 0030 (decision 059): for the whole company its weeks (company_unit_weeks: 12 weeks ×
 * its units) less what jobs still being imported hold (job_unit_days, decision 027: not there
 * yet); for one foreman his jobs' days (job_unit_days).
 */
export async function completedTaskSumsByWeek(db: DbOrTx, scope: DashboardScope, cal: { from: string; to: string }): Promise<CompletedWeekSumRow[]> {
  const week = sql`date_trunc('week', d.day::timestamp)::date`;
  const rows =
    scope.foremanId === undefined
      ? sql`
        select w.week, w.unit_id, w.actual_qty as qty from company_unit_weeks w
        where w.company_id = ${scope.companyId} and w.week between ${cal.from}::date and ${cal.to}::date
        union all
        select ${week}, d.unit_id, -d.actual_qty from job_unit_days d join jobs j on j.id = d.job_id and j.company_id = d.company_id
        where d.company_id = ${scope.companyId} and j.import_pending and d.day between ${cal.from}::date and ${cal.to}::date`
      : sql`
        select ${week} as week, d.unit_id, d.actual_qty as qty from job_unit_days d join jobs j on j.id = d.job_id and j.company_id = d.company_id
        where d.company_id = ${scope.companyId} and ${jobsInScope(scope)} and d.day between ${cal.from}::date and ${cal.to}::date`;
  const result = await db.execute(sql`
    select to_char(r.week, 'YYYY-MM-DD') as week, un.id as unit_id, un.unit_price::text as unit_price, sum(r.qty)::text as qty
    from (${rows}) r join units un on un.id = r.unit_id
    group by r.week, un.id
    order by 1, un.id`);
  return rowsOf<CompletedWeekSumRow>(result);
}
