import { sql, type SQL } from 'drizzle-orm';
import { rowsOf, type DbOrTx } from '../../db/client';

/**
 * The dashboard's SQL (docs/product/billing.md §6). A handful of grouped aggregates over the company's jobs,
 * whatever their number: one row per job, one per job × unit × state, one per completion day ×
 * unit — never a statement per job. Every statement is scoped by the caller's company.
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

export interface JobCountsRow {
  job_id: number;
  job_number: string;
  /** The job's foreman when he is a member of the company, else null. */
  foreman_id: number | null;
  first_name: string | null;
  last_name: string | null;
  open: number;
  overdue: number;
  completed_this_week: number;
}

/**
 * Ticket counts per job. Open = no completion date (Pending); overdue = open with a due date
 * before `today` (ticket-state.ts's rule, on the company's calendar); completed this week = the
 * completion instant's day, on the company's calendar, within [weekStart, weekEnd].
 */
export async function jobTicketCounts(
  db: DbOrTx,
  scope: DashboardScope,
  cal: { timeZone: string; today: string; weekStart: string; weekEnd: string },
): Promise<JobCountsRow[]> {
  const result = await db.execute(sql`
    select j.id as job_id, j.job_number, u.id as foreman_id, u.first_name, u.last_name,
      (count(t.id) filter (where t.actual_completion_date is null))::int as open,
      (count(t.id) filter (where t.actual_completion_date is null and t.due_date < ${cal.today}::date))::int as overdue,
      (count(t.id) filter (where (t.actual_completion_date at time zone ${cal.timeZone}::text)::date
                              between ${cal.weekStart}::date and ${cal.weekEnd}::date))::int as completed_this_week
    from jobs j
    left join tickets t on t.job_id = j.id and t.company_id = j.company_id
    left join users u on u.id = j.foreman_id and u.company_id = j.company_id
    where ${jobsInScope(scope)}
    group by j.id, u.id`);
  return rowsOf<JobCountsRow>(result);
}

/** Quantities of one unit on one job in one state, summed exactly (numeric, as text). */
export interface TaskSumRow {
  job_id: number;
  code: string;
  unit_price: string | null;
  complete: boolean;
  billed: boolean;
  /** Σ (init_qty + additional_qty): the actual quantity, all production's amounts need here. */
  qty: string;
}

/**
 * Every task of the jobs in scope, summed per job × unit × (complete, billed): what
 * computeProduction needs, in as many rows as a job has units (not tasks). Quantities are
 * summed as numeric, so 0.1 + 0.2 is 0.3 as in computeProduction's big.js sums; billed = the
 * ticket is in billed_tickets (on an invoice, unlocked or not).
 */
export async function jobTaskSums(db: DbOrTx, scope: DashboardScope): Promise<TaskSumRow[]> {
  const result = await db.execute(sql`
    select t.job_id, un.code, un.unit_price::text as unit_price,
      (t.actual_completion_date is not null) as complete, (b.ticket_id is not null) as billed,
      sum(tt.init_qty::numeric + tt.additional_qty::numeric)::text as qty
    from ticket_tasks tt
    join tickets t on t.id = tt.ticket_id and t.company_id = tt.company_id
    join jobs j on j.id = t.job_id and j.company_id = t.company_id
    join units un on un.id = tt.unit_id
    left join billed_tickets b on b.ticket_id = t.id
    where ${jobsInScope(scope)}
    group by t.job_id, un.id, (t.actual_completion_date is not null), (b.ticket_id is not null)
    order by t.job_id, un.id`);
  return rowsOf<TaskSumRow>(result);
}

export interface CompletedDaySumRow {
  /** The completion day on the company's calendar. */
  day: string;
  unit_id: number;
  unit_price: string | null;
  qty: string;
}

/**
 * Actual quantities (init + additional) of tickets completed between `from` and `to` (days on
 * the company's calendar), summed per day × unit: a few hundred rows for 12 weeks, whatever the
 * number of jobs. The bounds are turned into instants once, so each ticket is compared as stored.
 */
export async function completedTaskSumsByDay(db: DbOrTx, scope: DashboardScope, cal: { timeZone: string; from: string; to: string }): Promise<CompletedDaySumRow[]> {
  const result = await db.execute(sql`
    select to_char((t.actual_completion_date at time zone ${cal.timeZone}::text)::date, 'YYYY-MM-DD') as day,
      un.id as unit_id, un.unit_price::text as unit_price,
      sum(tt.init_qty::numeric + tt.additional_qty::numeric)::text as qty
    from ticket_tasks tt
    join tickets t on t.id = tt.ticket_id and t.company_id = tt.company_id
    join jobs j on j.id = t.job_id and j.company_id = t.company_id
    join units un on un.id = tt.unit_id
    where ${jobsInScope(scope)}
      and t.actual_completion_date >= (${cal.from}::date::timestamp at time zone ${cal.timeZone}::text)
      and t.actual_completion_date < ((${cal.to}::date + 1)::timestamp at time zone ${cal.timeZone}::text)
    group by 1, un.id
    order by 1, un.id`);
  return rowsOf<CompletedDaySumRow>(result);
}
