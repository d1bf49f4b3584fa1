import { addDays, dayInZone, lastWeekStarts } from '../../../shared/dashboard';
import type { DashboardForeman, DashboardJob, DashboardQuery, DashboardReply } from '../../../shared/dashboard.schemas';
import { money, sumMoney, ZERO } from '../../../shared/money';
import { fullName } from '../../../shared/names';
import { computeProduction, percentComplete, type ProductionTask } from '../../../shared/production';
import type { AppContext } from '../../context';
import type { CurrentUser } from '../../plugins/auth';
import * as repo from './dashboard.repository';

/**
 * GET /dashboard (docs/product/billing.md §6, decisions 026 and 059). Every amount follows
 * computeProduction's rules, the one place of production figures: per job from the sums kept by
 * migration 0030 (amounts rounded per unit code, as computeProduction rounds them; its
 * percentComplete), per week through computeProduction itself: so a job's unbilled completed
 * amount here is, to the cent, the one its production view shows.
 *
 * Who sees what: roles 1–3 (billing.read, checked by the route) see every job of the company,
 * as they do in production; `foreman_id` narrows to one foreman's jobs.
 */
export async function dashboard(ctx: AppContext, me: CurrentUser, query: DashboardQuery, now = new Date()): Promise<DashboardReply> {
  const scope: repo.DashboardScope = { companyId: me.companyId, foremanId: query.foreman_id };
  const { timeZone, currency } = await repo.companyCalendar(ctx.db, me.companyId);
  const today = dayInZone(now, timeZone);
  const weeks = lastWeekStarts(today);
  const weekStart = weeks[weeks.length - 1]!;
  const weekEnd = addDays(weekStart, 6);

  const figures = await repo.jobFigures(ctx.db, scope, { today, weekStart, weekEnd });
  const weekSums = await repo.completedTaskSumsByWeek(ctx.db, scope, { from: weeks[0]!, to: weekEnd });

  // Per job: its production figures from the sums kept for it, by computeProduction's rules.
  const allJobs: DashboardJob[] = figures.map((c) => ({
    job_id: c.job_id,
    job_number: c.job_number,
    foreman_name: c.foreman_id === null ? null : fullName(c.first_name, c.last_name),
    open: c.open,
    overdue: c.overdue,
    completed_this_week: c.completed_this_week,
    unbilled_completed_amount: c.unbilled_amount === null ? ZERO : money(c.unbilled_amount),
    percent_complete:
      c.priced === null
        ? 0
        : percentComplete({ priced: c.priced, completedAmount: c.completed_amount!, actualAmount: c.actual_amount!, completedQty: c.completed_qty!, actualQty: c.actual_qty! }),
  }));
  const foremanOf = new Map(figures.map((c) => [c.job_id, c.foreman_id]));

  // Per week: the completed amount of the tickets completed that week, unit by unit (keyed by
  // the unit's id: two utilities' units may share a code at different prices).
  const byWeek = groupBy(weekSums, (r) => r.week);
  const weekly = weeks.map((w) => {
    const rows = byWeek.get(w) ?? [];
    const tasks = rows.map((r) => toTask({ code: String(r.unit_id), unit_price: r.unit_price, qty: r.qty, complete: true, billed: false }));
    return { week_start: w, completed_amount: computeProduction(tasks).totals.completed_amount };
  });

  return {
    currency,
    today,
    totals: sumFigures(allJobs),
    // A job with nothing open, nothing done this week and nothing to bill has nothing to show.
    by_job: allJobs
      .filter((j) => j.open > 0 || j.completed_this_week > 0 || j.unbilled_completed_amount !== ZERO)
      .sort((a, b) => b.overdue - a.overdue || b.open - a.open || a.job_number.localeCompare(b.job_number)),
    by_foreman: [...groupBy(allJobs, (j) => foremanOf.get(j.job_id) ?? null)]
      .map(([foremanId, jobs]): DashboardForeman => ({ foreman_id: foremanId, name: jobs[0]!.foreman_name, ...sumFigures(jobs) }))
      .filter((f) => f.open > 0 || f.completed_this_week > 0 || f.unbilled_completed_amount !== ZERO)
      .sort((a, b) => (a.name === null ? 1 : b.name === null ? -1 : a.name.localeCompare(b.name))),
    weekly,
  };
}

/** One summed row as computeProduction's task: its quantity is the group's actual quantity. */
function toTask(r: { code: string; unit_price: string | null; qty: string; complete: boolean; billed: boolean }): ProductionTask {
  return {
    code: r.code,
    description: '',
    uom: '',
    unit_price: r.unit_price,
    // The exact numeric sum read back as a number: exact for up to 15 significant digits.
    init_qty: Number(r.qty),
    additional_qty: 0,
    complete: r.complete,
    billed: r.billed,
  };
}

function sumFigures(jobs: DashboardJob[]) {
  return {
    open: jobs.reduce((n, j) => n + j.open, 0),
    overdue: jobs.reduce((n, j) => n + j.overdue, 0),
    completed_this_week: jobs.reduce((n, j) => n + j.completed_this_week, 0),
    unbilled_completed_amount: sumMoney(jobs.map((j) => j.unbilled_completed_amount)),
  };
}

function groupBy<T, K>(items: readonly T[], key: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = groups.get(k);
    if (list) list.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}
