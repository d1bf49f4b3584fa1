import { sql, type SQL } from 'drizzle-orm';
import type { DashboardJobSort } from '../../../shared/dashboard.schemas';
import { rowsOf, type DbOrTx } from '../../db/client';
import { jobPercentsSql } from '../production/production.service';

/**
 * The dashboard's SQL (docs/product/billing.md §6). A few statements over the figures kept by the
 * triggers of migrations 0030 and 0032 (decision 059), whatever the number of jobs and tasks:
 * figures per foreman, one page of jobs, one row per week × unit — never a statement per job,
 * never a sum over the tasks, never every job's row sent. Every statement is scoped by the
 * caller's company.
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

/**
 * What GET /dashboard's kept reply is valid for (decision 062), in one statement of a few rows:
 * the company's row (time zone, currency) by its xmin, and the write stamps of migration 0034
 * (dashboard_stamps: Σ writes grows with every committed write to what the dashboard reads,
 * however made; Σ xmin changes when the database is restored). Read BEFORE the reply is built:
 * a reply may show a write committed in between (newer than its fingerprint, so the next request
 * rebuilds it), never miss one. `timeZone`: the company's calendar, for the key's day.
 */
export async function dashboardFingerprint(db: DbOrTx, companyId: number): Promise<{ fingerprint: string; timeZone: string }> {
  const rows = rowsOf<{ fp: string; time_zone: string }>(
    await db.execute(sql`
      select concat(c.xmin, '.', s.writes, '.', s.xmins, '.', s.n) as fp, c.time_zone
      from companies c,
        lateral (select coalesce(sum(writes), 0) as writes, coalesce(sum(xmin::text::bigint), 0) as xmins, count(*) as n
                 from dashboard_stamps where company_id = c.id) s
      where c.id = ${companyId}`),
  );
  return { fingerprint: rows[0]?.fp ?? 'none', timeZone: rows[0]?.time_zone ?? 'UTC' };
}

export async function companyCalendar(db: DbOrTx, companyId: number): Promise<{ timeZone: string; currency: string }> {
  const rows = rowsOf<{ time_zone: string; currency: string }>(await db.execute(sql`select time_zone, currency from companies where id = ${companyId}`));
  return { timeZone: rows[0]?.time_zone ?? 'UTC', currency: rows[0]?.currency ?? 'USD' };
}

/** The calendar the figures are read against (the company's days, decision 026). */
export interface DashboardDays {
  today: string;
  weekStart: string;
  weekEnd: string;
}

/** The kept per-job rows in scope (migration 0032's job_dashboard, `d`). */
function keptInScope({ companyId, foremanId }: DashboardScope): SQL {
  if (foremanId === undefined) return sql`d.company_id = ${companyId} and d.published`;
  return sql`d.company_id = ${companyId} and d.published and d.foreman_id = ${foremanId}
    and exists (select 1 from users fu where fu.id = ${foremanId} and fu.company_id = ${companyId})`;
}

/** A foreman's (or a job's) name and counts of tickets, as both the per-foreman and per-job rows carry them. */
interface ForemanCounts {
  /** The foreman when he is a member of the company, else null (with the jobs without one). */
  foreman_id: number | null;
  first_name: string | null;
  last_name: string | null;
  open: number;
  overdue: number;
  completed_this_week: number;
}

export interface ForemanFiguresRow extends ForemanCounts {
  /** Exact decimal as text. */
  unbilled: string;
}

/**
 * Open, overdue, completed this week and unbilled completed amount per foreman, over the jobs in
 * scope, from the figures kept per job (job_dashboard, migration 0032): the jobs with open
 * tickets or unbilled work from one small index, the open tickets not overdue yet (due today or
 * later, or never: a few against ten years of overdue ones) and those completed this week from
 * job_ticket_days' day indexes. Overdue = open − not overdue yet. Never a sum over every job's
 * tickets: ~36,000 rows at ten years' size, not 1,000,000.
 */
export async function foremanFigures(db: DbOrTx, scope: DashboardScope, days: DashboardDays): Promise<ForemanFiguresRow[]> {
  const result = await db.execute(sql`
    select u.id as foreman_id, u.first_name, u.last_name,
      sum(x.open)::int as open, (sum(x.open) - sum(x.not_yet))::int as overdue, sum(x.done)::int as completed_this_week,
      sum(x.unbilled)::text as unbilled
    from (
      select d.foreman_id, sum(d.open) as open, 0 as not_yet, 0 as done, sum(d.unbilled_amount) as unbilled
      from job_dashboard d where ${keptInScope(scope)} and (d.open > 0 or d.unbilled_amount <> 0)
      group by d.foreman_id
      union all
      -- A few thousand rows, each its job's row by key (a lateral with limit: never a hash of
      -- every job, which the planner chose for a join).
      select d.foreman_id, 0, sum(k.tickets), 0, 0 from job_ticket_days k
      cross join lateral (select d.foreman_id from job_dashboard d where d.job_id = k.job_id and ${keptInScope(scope)} limit 1) d
      where k.company_id = ${scope.companyId} and k.open and (k.day >= ${days.today}::date or k.day is null)
      group by d.foreman_id
      union all
      select d.foreman_id, 0, 0, sum(k.tickets), 0 from job_ticket_days k
      cross join lateral (select d.foreman_id from job_dashboard d where d.job_id = k.job_id and ${keptInScope(scope)} limit 1) d
      where k.company_id = ${scope.companyId} and not k.open and k.day between ${days.weekStart}::date and ${days.weekEnd}::date
      group by d.foreman_id
    ) x
    left join users u on u.id = x.foreman_id and u.company_id = ${scope.companyId}
    group by u.id, u.first_name, u.last_name`);
  return rowsOf<ForemanFiguresRow>(result).map((r) => ({
    ...r,
    foreman_id: r.foreman_id === null ? null : Number(r.foreman_id),
    open: Number(r.open),
    overdue: Number(r.overdue),
    completed_this_week: Number(r.completed_this_week),
  }));
}

export interface JobPageOrder {
  sort: DashboardJobSort;
  dir: 'asc' | 'desc';
  offset: number;
  limit: number;
}

/**
 * One page of the ids of the jobs with something to show, in the order asked (the column; ties
 * by most open, job number key, id), and how many there are.
 *
 * The dashboard's first order (most overdue first) for the whole company is read from indexes:
 * a job with no open ticket due today or later (nearly all, after ten years) has every open
 * ticket overdue, so its place is its kept open count, read in job_dashboard_open_idx's order
 * (open desc, number key) until the page is full; the few others are counted exactly and merged
 * in. Jobs with nothing open (work to bill, or completed this week) come after all of those, by
 * number. Any other order, or one foreman's jobs, ranks every job in scope in one statement.
 */
export async function jobPageIds(db: DbOrTx, scope: DashboardScope, days: DashboardDays, order: JobPageOrder): Promise<{ ids: number[]; total: number }> {
  if (scope.foremanId === undefined && order.sort === 'overdue' && order.dir === 'desc') return firstOrderPage(db, scope.companyId, days, order);
  const key = sortKeyOf(order.sort, scope.companyId);
  const dir = sql.raw(order.dir);
  const result = await db.execute(sql`
    select c.job_id, count(*) over () as total from (
      select d.job_id, d.foreman_id, d.number_key, d.unbilled_amount, coalesce(k.open, 0) as open, coalesce(k.overdue, 0) as overdue,
        coalesce(k.done, 0) as completed_this_week
      from job_dashboard d
      left join (
        select k.job_id,
          sum(k.tickets) filter (where k.open) as open,
          sum(k.tickets) filter (where k.open and k.day < ${days.today}::date) as overdue,
          sum(k.tickets) filter (where not k.open) as done
        from job_ticket_days k
        where k.company_id = ${scope.companyId} and (k.open or (not k.open and k.day between ${days.weekStart}::date and ${days.weekEnd}::date))
        group by k.job_id
      ) k on k.job_id = d.job_id
      where ${keptInScope(scope)} and (k.job_id is not null or d.unbilled_amount <> 0)
    ) c
    ${key.join ?? sql``}
    order by ${key.key} ${dir}, c.open desc, c.number_key, c.job_id
    offset ${order.offset} limit ${order.limit}`);
  const rows = rowsOf<{ job_id: number; total: number }>(result);
  // Past the last page: no row to carry the total, so count them.
  const total = rows.length > 0 ? Number(rows[0]!.total) : order.offset > 0 ? (await jobPageIds(db, scope, days, { ...order, offset: 0, limit: 1 })).total : 0;
  return { ids: rows.map((r) => Number(r.job_id)), total };
}

/** What `c` (a job with something to show) is ordered by, per column. */
function sortKeyOf(column: DashboardJobSort, companyId: number): { key: SQL; join?: SQL } {
  switch (column) {
    case 'job_number':
      return { key: sql`c.number_key` };
    case 'foreman_name':
      // The name as fullName writes it, keyed as textKey, once per person (offset 0 keeps it so);
      // no foreman (or one of another company) last.
      return {
        key: sql`fk.k`,
        join: sql`left join (select id, linecrew_text_key(trim(first_name || ' ' || last_name)) collate "C" as k
          from users where company_id = ${companyId} offset 0) fk on fk.id = c.foreman_id`,
      };
    case 'open':
    case 'overdue':
    case 'completed_this_week':
      return { key: sql.raw(`c.${column}`) };
    case 'unbilled_completed_amount':
      return { key: sql`c.unbilled_amount` };
    case 'percent_complete':
      // percentComplete's rule (src/shared/production.ts) on the kept sums, as the jobs list sorts.
      return { key: sql`coalesce(pc.percent, 0)`, join: sql`left join (${jobPercentsSql(companyId)}) pc on pc.job_id = c.job_id` };
  }
}

async function firstOrderPage(db: DbOrTx, companyId: number, days: DashboardDays, order: JobPageOrder): Promise<{ ids: number[]; total: number }> {
  const end = order.offset + order.limit;
  const [opened, counts] = await Promise.all([
    db.execute(sql`
      with not_yet as materialized (
        select k.job_id, sum(k.tickets)::int as n from job_ticket_days k
        where k.company_id = ${companyId} and k.open and (k.day >= ${days.today}::date or k.day is null)
        group by k.job_id
      )
      select x.job_id from (
        (select d.job_id, d.open, d.open as overdue, d.number_key from job_dashboard d
         where d.company_id = ${companyId} and d.published and d.open > 0 and d.job_id not in (select job_id from not_yet)
         order by d.open desc, d.number_key, d.job_id limit ${end})
        union all
        select d.job_id, d.open, d.open - n.n, d.number_key from not_yet n join job_dashboard d on d.job_id = n.job_id
        where d.company_id = ${companyId} and d.published and d.open > 0
      ) x
      order by x.overdue desc, x.open desc, x.number_key, x.job_id
      offset ${order.offset} limit ${order.limit}`),
    // Each count from its own partial index: work to bill, or only a ticket completed this week.
    db.execute(sql`
      select (select count(*) from job_dashboard d where d.company_id = ${companyId} and d.published and d.open > 0)::int as opened,
        ((select count(*) from job_dashboard d where d.company_id = ${companyId} and d.published and d.open = 0 and d.unbilled_amount <> 0)
         + (select count(*) from (select distinct k.job_id from job_ticket_days k
              where k.company_id = ${companyId} and not k.open and k.day between ${days.weekStart}::date and ${days.weekEnd}::date) w
            cross join lateral (select 1 from job_dashboard d where d.job_id = w.job_id and d.company_id = ${companyId} and d.published
              and d.open = 0 and d.unbilled_amount = 0 limit 1) d))::int as closed`),
  ]);
  const ids = rowsOf<{ job_id: number }>(opened).map((r) => Number(r.job_id));
  const { opened: withOpen, closed } = rowsOf<{ opened: number; closed: number }>(counts)[0]!;
  const total = Number(withOpen) + Number(closed);
  if (ids.length < order.limit && end > Number(withOpen)) {
    // The page reaches past the jobs with open tickets: the rest, by number.
    const rest = await db.execute(sql`
      select d.job_id from job_dashboard d where ${closedWithWork(companyId, days)}
      order by d.number_key, d.job_id
      offset ${Math.max(0, order.offset - Number(withOpen))} limit ${order.limit - ids.length}`);
    ids.push(...rowsOf<{ job_id: number }>(rest).map((r) => Number(r.job_id)));
  }
  return { ids, total };
}

/** A published job with nothing open and unbilled work or a ticket completed this week. */
function closedWithWork(companyId: number, days: DashboardDays): SQL {
  return sql`d.company_id = ${companyId} and d.published and d.open = 0 and (d.unbilled_amount <> 0 or d.job_id in (
    select k.job_id from job_ticket_days k
    where k.company_id = ${companyId} and not k.open and k.day between ${days.weekStart}::date and ${days.weekEnd}::date))`;
}

export interface JobRow extends ForemanCounts {
  job_id: number;
  job_number: string;
  /** The job's kept production sums (job_figures, exact decimals as text); null when it has no tasks. */
  priced: boolean | null;
  actual_qty: string | null;
  completed_qty: string | null;
  actual_amount: string | null;
  completed_amount: string | null;
  unbilled_amount: string;
}

/** The page's jobs (the company's, by id): their counts, names and kept production sums. */
export async function jobRows(db: DbOrTx, companyId: number, days: DashboardDays, ids: readonly number[]): Promise<JobRow[]> {
  if (ids.length === 0) return [];
  const result = await db.execute(sql`
    select d.job_id, j.job_number, u.id as foreman_id, u.first_name, u.last_name,
      coalesce(k.open, 0)::int as open, coalesce(k.overdue, 0)::int as overdue, coalesce(k.done, 0)::int as completed_this_week,
      f.priced, f.actual_qty::text as actual_qty, f.completed_qty::text as completed_qty,
      f.actual_amount::text as actual_amount, f.completed_amount::text as completed_amount, d.unbilled_amount::text as unbilled_amount
    from job_dashboard d
    join jobs j on j.id = d.job_id
    left join (
      select k.job_id,
        sum(k.tickets) filter (where k.open) as open,
        sum(k.tickets) filter (where k.open and k.day < ${days.today}::date) as overdue,
        sum(k.tickets) filter (where not k.open and k.day between ${days.weekStart}::date and ${days.weekEnd}::date) as done
      from job_ticket_days k where k.job_id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})
      group by k.job_id
    ) k on k.job_id = d.job_id
    left join job_figures f on f.job_id = d.job_id
    left join users u on u.id = d.foreman_id and u.company_id = d.company_id
    where d.company_id = ${companyId} and d.job_id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})`);
  return rowsOf<JobRow>(result).map((r) => ({ ...r, job_id: Number(r.job_id), foreman_id: r.foreman_id === null ? null : Number(r.foreman_id) }));
}

/**
 * The completed amount of each week from `from` (a Monday) to `to` (a Sunday), on the company's
 * calendar: the actual quantities (init + additional) of the tickets completed that week, summed
 * per unit from the figures kept by migration 0030 (decision 059) — for the whole company its
 * weeks (company_unit_weeks: 12 weeks × its units) less what jobs still being imported hold
 * (job_unit_days, decision 027: not there yet); for one foreman his jobs' days (job_unit_days) —
 * then priced as computeProduction prices a unit (quantity × price rounded to the cent, half away
 * from zero as big.js's roundHalfUp; unpriced 0) and added up: one row per week, where sending
 * 12 weeks × 2,500 units to be priced here took 300 ms at ten years' size. Weeks with nothing
 * completed have no row.
 */
export async function completedAmountByWeek(db: DbOrTx, scope: DashboardScope, cal: { from: string; to: string }): Promise<{ week: string; amount: string }[]> {
  const week = sql`date_trunc('week', d.day::timestamp)::date`;
  // Per week × unit, its quantity: one kept row each for the company (less the few of jobs being
  // imported, joined by key: no regrouping of 30,000 rows); his jobs' days summed for a foreman.
  const perUnit =
    scope.foremanId === undefined
      ? sql`
        select w.week, w.unit_id, w.actual_qty - coalesce(p.qty, 0) as qty from company_unit_weeks w
        left join (
          select ${week} as week, d.unit_id, sum(d.actual_qty) as qty from job_unit_days d join jobs j on j.id = d.job_id and j.company_id = d.company_id
          where d.company_id = ${scope.companyId} and j.import_pending and d.day between ${cal.from}::date and ${cal.to}::date
          group by 1, 2
        ) p on p.week = w.week and p.unit_id = w.unit_id
        where w.company_id = ${scope.companyId} and w.week between ${cal.from}::date and ${cal.to}::date`
      : sql`
        select ${week} as week, d.unit_id, sum(d.actual_qty) as qty from job_unit_days d join jobs j on j.id = d.job_id and j.company_id = d.company_id
        where d.company_id = ${scope.companyId} and ${jobsInScope(scope)} and d.day between ${cal.from}::date and ${cal.to}::date
        group by 1, 2`;
  const result = await db.execute(sql`
    select to_char(p.week, 'YYYY-MM-DD') as week, sum(round(p.qty * un.unit_price, 2))::text as amount
    from (${perUnit}) p join units un on un.id = p.unit_id
    group by p.week
    order by 1`);
  return rowsOf<{ week: string; amount: string | null }>(result).map((r) => ({ week: r.week, amount: r.amount ?? '0' }));
}
