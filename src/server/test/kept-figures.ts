import { sql } from 'drizzle-orm';
import { rowsOf, type DbOrTx } from '../db/client';

/**
 * The kept production figures (migrations 0030 and 0032, decision 059) against the same sums made from
 * scratch over tickets, tasks and billed_tickets: the rows of each kept table that the scratch
 * sum lacks or differs in, and those the table lacks. Empty when the triggers kept them right.
 * Written here apart from the migration's rebuild, so a mistake in one is not copied into the other.
 * Every test file's app checks it when it closes (harness.ts), so every write path the tests
 * take is checked.
 */
const SCRATCH = {
  job_unit_figures: sql`
    select t.company_id, t.job_id, tt.unit_id, t.actual_completion_date is not null as complete,
      exists (select 1 from billed_tickets b where b.ticket_id = t.id) as invoiced,
      t.billed_at is not null as marked_billed, coalesce(t.assigned_to, 0) as assigned_to,
      sum(tt.init_qty::numeric) as bid_qty, sum(tt.init_qty::numeric + tt.additional_qty::numeric) as actual_qty, count(*)::int as tasks
    from ticket_tasks tt join tickets t on t.id = tt.ticket_id
    group by 1, 2, 3, 4, 5, 6, 7`,
  job_ticket_days: sql`
    select t.company_id, t.job_id, t.actual_completion_date is null as open,
      coalesce(case when t.actual_completion_date is null then t.due_date end,
               (t.actual_completion_date at time zone c.time_zone)::date) as day,
      count(*)::int as tickets
    from tickets t join companies c on c.id = t.company_id
    group by 1, 2, 3, 4`,
  job_unit_days: sql`
    select t.company_id, t.job_id, (t.actual_completion_date at time zone c.time_zone)::date as day, tt.unit_id,
      sum(tt.init_qty::numeric + tt.additional_qty::numeric) as actual_qty, count(*)::int as tasks
    from ticket_tasks tt join tickets t on t.id = tt.ticket_id join companies c on c.id = t.company_id
    where t.actual_completion_date is not null
    group by 1, 2, 3, 4`,
  company_unit_weeks: sql`
    select t.company_id, date_trunc('week', t.actual_completion_date at time zone c.time_zone)::date as week, tt.unit_id,
      sum(tt.init_qty::numeric + tt.additional_qty::numeric) as actual_qty, count(*)::int as tasks
    from ticket_tasks tt join tickets t on t.id = tt.ticket_id join companies c on c.id = t.company_id
    where t.actual_completion_date is not null
    group by 1, 2, 3`,
  // computeProduction's totals per job: per unit code, the price of its first unit (lowest id).
  job_figures: sql`
    select job_id, company_id, bool_or(price is not null) as priced, sum(actual) as actual_qty, sum(completed) as completed_qty,
      coalesce(sum(round(actual * price, 2)), 0) as actual_amount, coalesce(sum(round(completed * price, 2)), 0) as completed_amount,
      coalesce(sum(round(unbilled * price, 2)), 0) as unbilled_amount
    from (
      select t.job_id, t.company_id, u.code,
        (select u2.unit_price from units u2 where u2.id = min(u.id)) as price,
        sum(tt.init_qty::numeric + tt.additional_qty::numeric) as actual,
        coalesce(sum(tt.init_qty::numeric + tt.additional_qty::numeric) filter (where t.actual_completion_date is not null), 0) as completed,
        coalesce(sum(tt.init_qty::numeric + tt.additional_qty::numeric) filter (
          where t.actual_completion_date is not null and not exists (select 1 from billed_tickets b where b.ticket_id = t.id)), 0) as unbilled
      from ticket_tasks tt join tickets t on t.id = tt.ticket_id join units u on u.id = tt.unit_id
      group by t.job_id, t.company_id, u.code
    ) per_code
    group by job_id, company_id`,
  // Migration 0032: per job its open tickets and unbilled completed amount (as job_figures above,
  // 0 without tasks); per company its published jobs.
  job_dashboard: sql`
    select j.id as job_id, j.company_id, not j.import_pending as published, j.foreman_id, linecrew_text_key(j.job_number) collate "C" as number_key,
      (select count(*) from tickets t where t.job_id = j.id and t.actual_completion_date is null)::int as open,
      coalesce((select sum(round(per_code.unbilled * per_code.price, 2)) from (
        select (select u2.unit_price from units u2 where u2.id = min(u.id)) as price,
          coalesce(sum(tt.init_qty::numeric + tt.additional_qty::numeric) filter (
            where t.actual_completion_date is not null and not exists (select 1 from billed_tickets b where b.ticket_id = t.id)), 0) as unbilled
        from ticket_tasks tt join tickets t on t.id = tt.ticket_id join units u on u.id = tt.unit_id
        where t.job_id = j.id group by u.code) per_code), 0) as unbilled_amount
    from jobs j`,
  company_job_counts: sql`select company_id, count(*)::int as published from jobs where not import_pending group by company_id`,
};

const COLUMNS = {
  job_unit_figures: sql`company_id, job_id, unit_id, complete, invoiced, marked_billed, assigned_to, bid_qty, actual_qty, tasks`,
  job_ticket_days: sql`company_id, job_id, open, day, tickets`,
  job_unit_days: sql`company_id, job_id, day, unit_id, actual_qty, tasks`,
  company_unit_weeks: sql`company_id, week, unit_id, actual_qty, tasks`,
  job_figures: sql`job_id, company_id, priced, actual_qty, completed_qty, actual_amount, completed_amount, unbilled_amount`,
  job_dashboard: sql`job_id, company_id, published, foreman_id, number_key, open, unbilled_amount`,
  company_job_counts: sql`company_id, published`,
};

export type KeptTable = keyof typeof SCRATCH;

/** Per kept table, the rows that differ from the scratch sum (`kept` not in scratch, `scratch` not kept). */
export async function keptFiguresDiff(db: DbOrTx): Promise<Record<string, { kept: unknown[]; scratch: unknown[] }>> {
  const out: Record<string, { kept: unknown[]; scratch: unknown[] }> = {};
  for (const table of Object.keys(SCRATCH) as KeptTable[]) {
    const kept = sql`select ${COLUMNS[table]} from ${sql.identifier(table)}`;
    const scratch = sql`select ${COLUMNS[table]} from (${SCRATCH[table]}) s`;
    const extra = rowsOf(await db.execute(sql`${kept} except all ${scratch} limit 5`));
    const missing = rowsOf(await db.execute(sql`${scratch} except all ${kept} limit 5`));
    if (extra.length > 0 || missing.length > 0) out[table] = { kept: extra, scratch: missing };
  }
  return out;
}

/** Every kept table's rows, in a fixed order: to compare before and after a rolled-back write. */
export async function keptFiguresSnapshot(db: DbOrTx): Promise<unknown[][]> {
  const all: unknown[][] = [];
  for (const table of Object.keys(SCRATCH) as KeptTable[]) {
    all.push(rowsOf(await db.execute(sql`select row(${COLUMNS[table]})::text as r from ${sql.identifier(table)} order by 1`)));
  }
  return all;
}
