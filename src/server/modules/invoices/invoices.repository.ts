import { and, asc, desc, eq, sql, type SQL } from 'drizzle-orm';
import { rowsOf, type DbOrTx } from '../../db/client';
import { billedTickets, companies, invoiceLines, invoices, jobs, users, utilities } from '../../db/schema/index';

/** The only SQL of invoices (docs/product/billing.md §4). Every statement is scoped by the caller's company. */

/** `expr` is one of the ids of `list`, sent as ONE JSON parameter however long the list. */
const inIds = (expr: SQL, list: readonly number[]) =>
  sql`${expr} in (select v::int from jsonb_array_elements_text(${JSON.stringify(list)}::jsonb) as v)`;

/** A ticket that may go on an invoice, as locked for it. */
export interface CandidateTicket {
  id: number;
  pole_name: string | null;
  line_name: string | null;
  complete: boolean;
  invoice_number: string | null;
}

/**
 * The job's tickets to bill, their rows LOCKED until the transaction ends (FOR UPDATE). With
 * `ticketIds`, exactly those of the job (the caller checks each); otherwise every Complete,
 * unbilled ticket, completed on or before `throughDate` in the company's time zone when given.
 *
 * Why this is race-free: a second invoicer of the same tickets waits here for the first to
 * commit; PostgreSQL then re-checks this WHERE against the rows' new versions, whose `billed_at`
 * the first set, so it finds them billed (and the billed_tickets key would refuse them anyway).
 * A ticket reopened meanwhile is likewise re-checked as not Complete.
 */
export async function lockCandidates(
  db: DbOrTx,
  companyId: number,
  jobId: number,
  pick: { ticketIds?: readonly number[]; throughDate?: string; timeZone: string },
): Promise<CandidateTicket[]> {
  let filter: SQL;
  if (pick.ticketIds) filter = inIds(sql`t.id`, pick.ticketIds);
  else {
    filter = sql`t.actual_completion_date is not null and t.billed_at is null`;
    if (pick.throughDate) filter = sql`${filter} and (t.actual_completion_date at time zone ${pick.timeZone})::date <= ${pick.throughDate}::date`;
  }
  const result = await db.execute(sql`
    select t.id, p.pole_name, p.line_name, t.actual_completion_date is not null as complete, t.invoice_number
    from tickets t left join poles p on p.id = t.pole_id and p.company_id = t.company_id
    where t.company_id = ${companyId} and t.job_id = ${jobId} and ${filter}
    order by t.id
    for update of t`);
  return rowsOf<CandidateTicket>(result).map((r) => ({ ...r, id: Number(r.id), complete: r.complete === true || String(r.complete) === 't' }));
}

/** One task to freeze into a line, with what the line shows. */
export interface LineSource {
  ticket_id: number;
  task_id: number;
  pole_name: string;
  line_name: string;
  work_order: string;
  code: string;
  description: string;
  uom: string;
  unit_price: string | null;
  init_qty: number;
  additional_qty: number;
}

/**
 * Every task of these tickets as invoice lines read it, in ONE statement per 2,000 tickets:
 * pole and line, the ticket's work orders joined, the unit's code, description, uom and price;
 * ordered by ticket and task (the service puts them in the invoice's natural order). JSON text back, since PGlite
 * hands over one value far faster than thousands of rows (see jobs.repository).
 */
export async function lineSources(db: DbOrTx, companyId: number, ticketIds: readonly number[]): Promise<LineSource[]> {
  const out: LineSource[] = [];
  for (let i = 0; i < ticketIds.length; i += 2000) {
    const part = ticketIds.slice(i, i + 2000);
    const result = await db.execute(sql`
      select coalesce(json_agg(r order by r.ticket_id, r.task_id), '[]')::text as rows from (
        select tt.ticket_id, tt.id as task_id, coalesce(p.pole_name, '') as pole_name, coalesce(p.line_name, '') as line_name,
          coalesce(w.list, '') as work_order, u.code, u.description, u.uom, u.unit_price::text as unit_price,
          tt.init_qty, tt.additional_qty
        from ticket_tasks tt
        join tickets t on t.id = tt.ticket_id and t.company_id = tt.company_id
        join units u on u.id = tt.unit_id
        left join poles p on p.id = t.pole_id and p.company_id = t.company_id
        left join (
          select wo.ticket_id, string_agg(wo.work_order, ', ' order by wo.id) as list
          from work_orders wo where wo.company_id = ${companyId} and ${inIds(sql`wo.ticket_id`, part)}
          group by wo.ticket_id
        ) w on w.ticket_id = t.id
        where tt.company_id = ${companyId} and ${inIds(sql`tt.ticket_id`, part)}
      ) r`);
    out.push(...(JSON.parse(rowsOf<{ rows: string }>(result)[0]?.rows ?? '[]') as LineSource[]));
  }
  return out;
}

/**
 * The company's next invoice number: the counter incremented and read in one statement. The row
 * stays locked until the transaction ends, so two invoicers of one company take turns here and
 * never get the same number (the unique index would refuse a duplicate anyway).
 */
export async function nextInvoiceNumber(db: DbOrTx, companyId: number): Promise<{ n: number; currency: string }> {
  const [row] = await db
    .update(companies)
    .set({ lastInvoiceNumber: sql`${companies.lastInvoiceNumber} + 1` })
    .where(eq(companies.id, companyId))
    .returning({ n: companies.lastInvoiceNumber, currency: companies.currency });
  return row;
}

export const companyBilling = async (db: DbOrTx, companyId: number) =>
  (await db.select({ name: companies.name, timeZone: companies.timeZone, currency: companies.currency }).from(companies).where(eq(companies.id, companyId)))[0];

/** The code of the job's utility (a preview's bill-to). */
export const utilityOfJob = async (db: DbOrTx, companyId: number, jobId: number) =>
  (
    await db
      .select({ code: utilities.code })
      .from(jobs)
      .innerJoin(utilities, eq(utilities.id, jobs.utilityId))
      .where(and(eq(jobs.companyId, companyId), eq(jobs.id, jobId)))
  )[0]?.code ?? '';

export const insertInvoice = async (db: DbOrTx, values: typeof invoices.$inferInsert) =>
  (await db.insert(invoices).values(values).returning({ id: invoices.id, createdAt: invoices.createdAt }))[0];

/** The frozen lines, 2,000 rows per statement as ONE JSON parameter (no 65,535-parameter limit). */
export async function insertLines(db: DbOrTx, companyId: number, invoiceId: number, lines: readonly (Omit<LineSource, 'init_qty' | 'additional_qty' | 'task_id'> & { quantity: number; amount: string })[]) {
  for (let i = 0; i < lines.length; i += 2000) {
    const part = lines.slice(i, i + 2000);
    await db.execute(sql`
      insert into invoice_lines (company_id, invoice_id, ticket_id, pole_name, line_name, work_order, code, description, uom, quantity, unit_price, amount)
      select ${companyId}, ${invoiceId}, (e.v->>'ticket_id')::int, e.v->>'pole_name', e.v->>'line_name', e.v->>'work_order', e.v->>'code',
        e.v->>'description', e.v->>'uom', (e.v->>'quantity')::float8, (e.v->>'unit_price')::numeric, (e.v->>'amount')::numeric
      from jsonb_array_elements(${JSON.stringify(part)}::jsonb) with ordinality as e(v, ord)
      order by e.ord`);
  }
}

/**
 * Marks the tickets billed: a billed_tickets row each (its key is the ticket, so a ticket already
 * on an invoice makes this statement fail: the database, not a check, refuses a second billing),
 * then billed_at and invoice_number on the tickets (what the lock, the badge and the job page's
 * fingerprint read).
 */
export async function markBilled(db: DbOrTx, companyId: number, invoiceId: number, number: string, ticketIds: readonly number[]) {
  for (let i = 0; i < ticketIds.length; i += 5000) {
    const part = ticketIds.slice(i, i + 5000);
    await db.execute(sql`
      insert into billed_tickets (ticket_id, company_id, invoice_id)
      select v::int, ${companyId}, ${invoiceId} from jsonb_array_elements_text(${JSON.stringify(part)}::jsonb) as v`);
    await db.execute(sql`
      update tickets set billed_at = now(), invoice_number = ${number}
      where company_id = ${companyId} and ${inIds(sql`id`, part)}`);
  }
}

const creator = sql<string | null>`case when ${users.id} is null then null else trim(${users.firstName} || ' ' || ${users.lastName}) end`;

const summaryColumns = {
  id: invoices.id,
  number: invoices.number,
  job_id: invoices.jobId,
  job_number: jobs.jobNumber,
  currency: invoices.currency,
  total: sql<string>`${invoices.total}::text`,
  created_at: invoices.createdAt,
  // The company's calendar day of the invoice, made by the database from the company's zone: the
  // one date every reader shows (docs/product/billing.md §4).
  invoice_date: sql<string>`to_char(${invoices.createdAt} at time zone ${companies.timeZone}, 'YYYY-MM-DD')`,
  /** The job's utility (the invoice's bill-to). */
  utility: utilities.code,
  created_by_name: creator,
  through_date: invoices.throughDate,
  ticket_count: sql<number>`(select count(*) from ${billedTickets} where ${billedTickets.invoiceId} = ${invoices.id})`.mapWith(Number),
  line_count: sql<number>`(select count(*) from ${invoiceLines} where ${invoiceLines.invoiceId} = ${invoices.id})`.mapWith(Number),
};

const selectSummaries = (db: DbOrTx) =>
  db
    .select(summaryColumns)
    .from(invoices)
    .innerJoin(jobs, eq(jobs.id, invoices.jobId))
    .innerJoin(companies, eq(companies.id, invoices.companyId))
    .innerJoin(utilities, eq(utilities.id, jobs.utilityId))
    .leftJoin(users, eq(users.id, invoices.createdBy))
    .$dynamic();

export const invoicesOfJob = (db: DbOrTx, companyId: number, jobId: number) =>
  selectSummaries(db)
    .where(and(eq(invoices.companyId, companyId), eq(invoices.jobId, jobId)))
    .orderBy(desc(invoices.createdAt), desc(invoices.id));

export const findInvoice = async (db: DbOrTx, companyId: number, id: number) =>
  (await selectSummaries(db).where(and(eq(invoices.companyId, companyId), eq(invoices.id, id))))[0];
export type InvoiceSummaryRow = NonNullable<Awaited<ReturnType<typeof findInvoice>>>;

export const linesOf = (db: DbOrTx, companyId: number, invoiceId: number) =>
  db
    .select({
      ticket_id: invoiceLines.ticketId,
      pole_name: invoiceLines.poleName,
      line_name: invoiceLines.lineName,
      work_order: invoiceLines.workOrder,
      code: invoiceLines.code,
      description: invoiceLines.description,
      uom: invoiceLines.uom,
      quantity: invoiceLines.quantity,
      unit_price: sql<string | null>`${invoiceLines.unitPrice}::text`,
      amount: sql<string>`${invoiceLines.amount}::text`,
    })
    .from(invoiceLines)
    .where(and(eq(invoiceLines.companyId, companyId), eq(invoiceLines.invoiceId, invoiceId)))
    .orderBy(asc(invoiceLines.id));

export const billedTicketIds = async (db: DbOrTx, companyId: number, invoiceId: number) =>
  (
    await db
      .select({ id: billedTickets.ticketId })
      .from(billedTickets)
      .where(and(eq(billedTickets.companyId, companyId), eq(billedTickets.invoiceId, invoiceId)))
      .orderBy(asc(billedTickets.ticketId))
  ).map((r) => r.id);

export const jobHasInvoices = async (db: DbOrTx, companyId: number, jobId: number) =>
  (await db.select({ id: invoices.id }).from(invoices).where(and(eq(invoices.companyId, companyId), eq(invoices.jobId, jobId))).limit(1)).length > 0;

/** A billed ticket's completion record and photos, as the invoice check reads them (evidenceOf). */
export interface EvidenceSource {
  ticket_id: number;
  pole_name: string | null;
  line_name: string | null;
  actual_completion_date: string | null;
  completed_by_name: string | null;
  completed_lat: number | null;
  completed_lon: number | null;
  completed_accuracy_m: number | null;
  qty_changed_after_completion: boolean;
  photos: { id: number; thumbnailurl: string; taken_at: string | null; distance_m: number | null; flags: string[] }[];
}

/**
 * The evidence of these tickets (docs/product/records.md §9), ONE statement per 2,000 tickets:
 * the completion record with the completer's name, whether a task's quantity was set after the
 * completion, and every photo with its checks, in the order they were taken. JSON text back, as lineSources.
 */
export async function evidenceSources(db: DbOrTx, companyId: number, ticketIds: readonly number[]): Promise<EvidenceSource[]> {
  const out: EvidenceSource[] = [];
  for (let i = 0; i < ticketIds.length; i += 2000) {
    const part = ticketIds.slice(i, i + 2000);
    const result = await db.execute(sql`
      select coalesce(json_agg(r order by r.ticket_id), '[]')::text as rows from (
        select t.id as ticket_id, p.pole_name, p.line_name,
          to_char(t.actual_completion_date at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as actual_completion_date,
          case when u.id is null then null else trim(u.first_name || ' ' || u.last_name) end as completed_by_name,
          t.completed_lat, t.completed_lon, t.completed_accuracy_m,
          exists (select 1 from ticket_tasks tt where tt.ticket_id = t.id and tt.qty_changed_at > t.actual_completion_date) as qty_changed_after_completion,
          coalesce((select json_agg(json_build_object(
              'id', i.id, 'thumbnailurl', i.thumbnail_url, 'distance_m', i.distance_m, 'flags', i.flags,
              'taken_at', to_char(i.taken_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
            order by i.taken_at nulls last, i.id)
            from images i where i.ticket_id = t.id and i.company_id = t.company_id), '[]') as photos
        from tickets t
        left join poles p on p.id = t.pole_id and p.company_id = t.company_id
        left join users u on u.id = t.completed_by and u.company_id = t.company_id
        where t.company_id = ${companyId} and ${inIds(sql`t.id`, part)}
      ) r`);
    out.push(...(JSON.parse(rowsOf<{ rows: string }>(result)[0]?.rows ?? '[]') as EvidenceSource[]));
  }
  return out;
}
