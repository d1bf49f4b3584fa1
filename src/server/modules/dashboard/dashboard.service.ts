import { addDays, dayInZone, lastWeekStarts } from '../../../shared/dashboard';
import { dashboardReply, type DashboardForeman, type DashboardJob, type DashboardQuery, type DashboardReply } from '../../../shared/dashboard.schemas';
import { money, sumMoney, ZERO } from '../../../shared/money';
import { fullName } from '../../../shared/names';
import { percentComplete } from '../../../shared/production';
import type { AppContext } from '../../context';
import type { CurrentUser } from '../../plugins/auth';
import type { CachedReply, ReplyCache } from '../../plugins/reply-cache';
import * as repo from './dashboard.repository';

/**
 * GET /dashboard as serialised bytes, kept per company, query and company day in the reply cache
 * (plugins/reply-cache.ts) as My Work and the job page are (decision 062): the office reloads the
 * dashboard all day, and at ten years' size each build reads ~75 ms of SQL where its fingerprint
 * (dashboard.repository `dashboardFingerprint`, migration 0034's write stamps) reads a few rows.
 * The reply depends on the company, never on who of roles 1–3 asks. Serialised by its schema
 * once per build, as the route's serializer would (dashboard.api.test.ts holds the bytes to it).
 */
export async function dashboardReplyOf(ctx: AppContext, me: CurrentUser, query: DashboardQuery, cache: ReplyCache, now = new Date()): Promise<CachedReply> {
  const { fingerprint, timeZone } = await repo.dashboardFingerprint(ctx.db, me.companyId);
  const { foreman_id, job_sort, job_dir, job_offset, job_limit } = query;
  const key = `dashboard:${me.companyId}:${foreman_id ?? ''}:${job_sort}:${job_dir}:${job_offset}:${job_limit}:${dayInZone(now, timeZone)}`;
  return cache.get(key, fingerprint, async () => dashboardReply.parse(await dashboard(ctx, me, query, now)));
}

/**
 * GET /dashboard (docs/product/billing.md §6, decisions 026 and 059). Every amount follows
 * computeProduction's rules: per job from the sums kept by migrations 0030 and 0032 (amounts
 * rounded per unit code, as computeProduction rounds them; its percentComplete), per week priced
 * unit by unit as it prices them: so a job's unbilled completed amount here is, to the cent, the
 * one its production view shows (kept-figures.api.test.ts compares them). The totals and
 * by_foreman cover every job in scope; by_job is one page of them (docs/product/scale.md §5).
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
  const days = { today, weekStart, weekEnd };

  const [foremen, page, weekAmounts] = await Promise.all([
    repo.foremanFigures(ctx.db, scope, days),
    repo.jobPageIds(ctx.db, scope, days, { sort: query.job_sort, dir: query.job_dir, offset: query.job_offset, limit: query.job_limit }),
    repo.completedAmountByWeek(ctx.db, scope, { from: weeks[0]!, to: weekEnd }),
  ]);
  const rows = new Map((await repo.jobRows(ctx.db, me.companyId, days, page.ids)).map((r) => [r.job_id, r]));

  // Per job: its production figures from the sums kept for it, by computeProduction's rules. A
  // job deleted between the two reads is simply not on the page.
  const byJob: DashboardJob[] = page.ids.flatMap((id) => {
    const c = rows.get(id);
    if (!c) return [];
    return [
      {
        job_id: c.job_id,
        job_number: c.job_number,
        foreman_name: c.foreman_id === null ? null : fullName(c.first_name, c.last_name),
        open: Number(c.open),
        overdue: Number(c.overdue),
        completed_this_week: Number(c.completed_this_week),
        unbilled_completed_amount: money(c.unbilled_amount),
        percent_complete:
          c.priced === null
            ? 0
            : percentComplete({ priced: c.priced, completedAmount: c.completed_amount!, actualAmount: c.actual_amount!, completedQty: c.completed_qty!, actualQty: c.actual_qty! }),
      },
    ];
  });

  // Per foreman, and their sum: every job in scope's figures, summed in SQL from the kept rows.
  const perForeman: DashboardForeman[] = foremen.map((f) => ({
    foreman_id: f.foreman_id,
    name: f.foreman_id === null ? null : fullName(f.first_name, f.last_name),
    open: f.open,
    overdue: f.overdue,
    completed_this_week: f.completed_this_week,
    unbilled_completed_amount: money(f.unbilled),
  }));

  // Per week: the completed amount of the tickets completed that week, priced unit by unit.
  const amountOf = new Map(weekAmounts.map((w) => [w.week, money(w.amount)]));
  const weekly = weeks.map((w) => ({ week_start: w, completed_amount: amountOf.get(w) ?? ZERO }));

  return {
    currency,
    today,
    totals: sumFigures(perForeman),
    by_job: byJob,
    by_job_total: page.total,
    // A foreman with nothing open, nothing done this week and nothing to bill has nothing to show.
    by_foreman: perForeman
      .filter((f) => f.open > 0 || f.completed_this_week > 0 || f.unbilled_completed_amount !== ZERO)
      .sort((a, b) => (a.name === null ? 1 : b.name === null ? -1 : a.name.localeCompare(b.name))),
    weekly,
  };
}

function sumFigures(rows: DashboardForeman[]) {
  return {
    open: rows.reduce((n, r) => n + r.open, 0),
    overdue: rows.reduce((n, r) => n + r.overdue, 0),
    completed_this_week: rows.reduce((n, r) => n + r.completed_this_week, 0),
    unbilled_completed_amount: sumMoney(rows.map((r) => r.unbilled_completed_amount)),
  };
}
