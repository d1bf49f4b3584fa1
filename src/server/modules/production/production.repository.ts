import { and, eq, isNotNull, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { rowsOf, type DbOrTx } from '../../db/client';
import { invoiceLines, invoices, jobs, tickets, users } from '../../db/schema/index';
import { evidencePhotoCountOf } from '../tickets/tickets.service';

/** Production SQL (the only place with it). Every statement is scoped by the caller's company. */

const assignee = alias(users, 'ticket_assignee');
const jobForeman = alias(users, 'job_foreman');

/** One kept group of the job's tasks (job_unit_figures, migration 0030) with what production needs of its unit and foreman. */
export interface ProductionFigureRow {
  code: string;
  description: string;
  uom: string;
  unit_price: string | null;
  /** Σ init_qty and Σ (init_qty + additional_qty) of the group's tasks: exact decimals, as text. */
  bid_qty: string;
  actual_qty: string;
  complete: boolean;
  billed: boolean;
  foreman_id: number | null;
  foreman_name: string | null;
}

/**
 * The job's tasks summed per unit × state × working foreman, as migration 0030's triggers keep
 * them (decision 059): ONE statement reading a few rows per unit, not the job's 20,000 tasks.
 * The foreman a group counts for is its tickets' assigned working foreman when he is the
 * company's, else the job's foreman (decision 024). A ticket is billed when an invoice holds it
 * (billed_tickets) or it is marked so (billed_at): either way its completed work is not
 * "unbilled" any more. Ordered by unit code, then unit id (the unit whose description and price
 * the code shows).
 */
export async function selectProductionFigures(db: DbOrTx, companyId: number, jobId: number): Promise<ProductionFigureRow[]> {
  // Raw SQL: the kept tables are the triggers' (migration 0030), not drizzle schema of their own.
  const result = await db.execute(sql`
    select un.code, un.description, un.uom, un.unit_price::text as unit_price,
      f.bid_qty::text as bid_qty, f.actual_qty::text as actual_qty, f.complete, (f.invoiced or f.marked_billed) as billed,
      coalesce(a.id, jf.id) as foreman_id,
      case when a.id is not null then trim(a.first_name || ' ' || a.last_name) when jf.id is not null then trim(jf.first_name || ' ' || jf.last_name) end as foreman_name
    from job_unit_figures f
    join jobs j on j.id = f.job_id and j.company_id = ${companyId}
    join units un on un.id = f.unit_id
    left join users a on a.id = f.assigned_to and a.company_id = ${companyId}
    left join users jf on jf.id = j.foreman_id and jf.company_id = ${companyId}
    where f.company_id = ${companyId} and f.job_id = ${jobId}
    order by un.code, un.id`);
  return rowsOf<ProductionFigureRow>(result);
}

/**
 * The job's Complete tickets with how many of their photos count as evidence and the foreman
 * each counts for (as selectProductionTasks): the evidence count of production (docs/product/records.md §8). One statement.
 */
export async function selectCompleteTicketEvidence(db: DbOrTx, companyId: number, jobId: number) {
  const rows = await db
    .select({
      foreman_id: sql<number | null>`coalesce(${assignee.id}, ${jobForeman.id})`,
      evidence_photo_count: evidencePhotoCountOf,
    })
    .from(tickets)
    .innerJoin(jobs, and(eq(jobs.id, tickets.jobId), eq(jobs.companyId, companyId)))
    .leftJoin(assignee, and(eq(assignee.id, tickets.assignedTo), eq(assignee.companyId, companyId)))
    .leftJoin(jobForeman, and(eq(jobForeman.id, jobs.foremanId), eq(jobForeman.companyId, companyId)))
    .where(and(eq(tickets.companyId, companyId), eq(tickets.jobId, jobId), isNotNull(tickets.actualCompletionDate)));
  return rows.map((r) => ({ ...r, foreman_id: r.foreman_id == null ? null : Number(r.foreman_id) }));
}

/** Σ of the amounts of the job's invoice lines ("0.00" when it has none), as an exact decimal string. */
export async function billedAmountOfJob(db: DbOrTx, companyId: number, jobId: number): Promise<string> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${invoiceLines.amount}), 0)::text` })
    .from(invoiceLines)
    .innerJoin(invoices, eq(invoices.id, invoiceLines.invoiceId))
    .where(and(eq(invoices.companyId, companyId), eq(invoices.jobId, jobId)));
  return row?.total ?? '0';
}

/**
 * The jobs list's "% Complete" of every job of the company in ONE grouped statement: the rule of
 * computeProduction's totals (src/shared/production.ts) in SQL, so 5,000 jobs cost one aggregate,
 * not 5,000 reads. Per job and unit code: actual and completed quantity (exact decimals, as
 * computeProduction sums them) and the price; then, when any unit of the job has a price,
 * Σ round(completed × price, 2) ÷ Σ round(actual × price, 2), else completed ÷ actual quantity;
 * × 100 rounded half up to one decimal; 0 when the whole is not positive. A job without tasks
 * has no row (0 %). production.api.test.ts checks it against computeProduction.
 */
export async function selectJobPercents(db: DbOrTx, companyId: number, jobIds?: readonly number[]): Promise<Map<number, number>> {
  if (jobIds?.length === 0) return new Map();
  const result = await db.execute(sql`select job_id, percent::text as percent from (${jobPercentsSql(companyId, jobIds)}) p`);
  return new Map(rowsOf<{ job_id: number; percent: string }>(result).map((r) => [Number(r.job_id), Number(r.percent)]));
}

/**
 * The statement of selectJobPercents as a sub-select `(job_id, percent numeric)`: the paged jobs
 * list joins it to sort by % Complete (jobs.repository selectJobPage). Read from the sums kept per
 * job by migration 0030 (job_figures, decision 059: amounts rounded per unit code at the price of
 * its first unit, as computeProduction prices them), percentComplete's rule in SQL: one row per
 * job, where summing a page's tasks took 22 ms of each jobs page at ten years' size. With
 * `jobIds`, only those jobs.
 */
export function jobPercentsSql(companyId: number, jobIds?: readonly number[]): SQL {
  const ofJobs = jobIds ? sql` and f.job_id in (${sql.join(jobIds.map((id) => sql`${id}`), sql`, `)})` : sql``;
  return sql`
    select f.job_id,
      case
        when f.priced then case when f.actual_amount > 0 then round(100 * f.completed_amount / f.actual_amount, 1) else 0 end
        else case when f.actual_qty > 0 then round(100 * f.completed_qty / f.actual_qty, 1) else 0 end
      end as percent
    from job_figures f
    where f.company_id = ${companyId}${ofJobs}`;
}

/**
 * A fingerprint of every row GET /jobs/{id}/production reads, in ONE statement (the method of
 * job-record.repository `jobFingerprint`: per table the count and Σ xmin, so any committed write by
 * any process changes it): the job (its foreman's renames touch it, migration 0009), its tickets
 * (status, billed_at, working foreman, whose renames touch them, 0002; and their tasks: adding,
 * removing or changing one touches its ticket, 0004 and 0009), the company's units (code,
 * description, price: a few hundred rows, cheaper than finding the job's own), and the job's
 * invoices, their lines (the billed amount) and billed_tickets. Nothing in the reply depends on
 * the date. null when the job is not the company's.
 */
export async function productionFingerprint(db: DbOrTx, companyId: number, jobId: number): Promise<string | null> {
  const result = await db.execute<{ fp: string }>(sql`
    -- concat, not concat_ws: a null (no rows) stays in its place.
    select concat(j.xmin, '.', (select c.xmin from companies c where c.id = j.company_id), '.', s.n, '.', s.t, '.', un.n, '.', un.t, '.', i.n, '.', i.t, '.', l.n, '.', l.t, '.', b.n, '.', b.t) as fp
    from jobs j
    cross join lateral (
      select count(*) as n, sum(t.xmin::text::bigint) as t from tickets t where t.company_id = j.company_id and t.job_id = j.id
    ) s
    cross join lateral (select count(*) as n, sum(u.xmin::text::bigint) as t from units u where u.company_id = j.company_id) un
    cross join lateral (
      select count(*) as n, sum(v.xmin::text::bigint) as t from invoices v where v.company_id = j.company_id and v.job_id = j.id
    ) i
    cross join lateral (
      select count(*) as n, sum(x.xmin::text::bigint) as t
      from invoice_lines x join invoices v on v.id = x.invoice_id
      where v.company_id = j.company_id and v.job_id = j.id
    ) l
    cross join lateral (
      select count(*) as n, sum(bt.xmin::text::bigint) as t
      from billed_tickets bt join invoices v on v.id = bt.invoice_id
      where v.company_id = j.company_id and v.job_id = j.id
    ) b
    where j.company_id = ${companyId} and j.id = ${jobId}`);
  return rowsOf<{ fp: string }>(result)[0]?.fp ?? null;
}
