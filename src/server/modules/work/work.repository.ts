import { and, desc, eq, inArray, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import { workTicketSchema, type WorkTicket } from '../../../shared/work.schemas';
import { rowsOf, type DbOrTx } from '../../db/client';
import { inShapeOrder } from '../../plugins/routes';
import { jobs, poles, tickets, users } from '../../db/schema/index';
import { jobIsPublished } from '../../db/sql';
import { companyDaySql, evidencePhotoCountOf, selectTicketRows, toTicketRow } from '../tickets/tickets.service';

/** My Work's SQL (docs/product/field-mode.md §1). Every statement is scoped by the caller's company. */

const inWorkTicketOrder = inShapeOrder(workTicketSchema);
/**
 * A ticket-table row with its job's number, its keys in workTicketSchema's order: the route sends
 * the reply as text (work.routes.ts), byte for byte what the schema's serializer would.
 */
const toWorkTicket = (r: Parameters<typeof toTicketRow>[0], today: string, jobNumber: string): WorkTicket =>
  inWorkTicketOrder(Object.assign(toTicketRow(r, today), { job_number: jobNumber }));

/** Whose tickets: the rule of which tickets concern a role is the service's (work.service.ts). */
export type WorkScope =
  /** Every open ticket of the company (office roles). */
  | { kind: 'company' }
  /** The tickets of the jobs this foreman runs. */
  | { kind: 'foreman'; foremanId: number }
  /** The tickets of the jobs of this member's crew foreman (users.foreman_id), and with `assigned`, the tickets assigned to the member. */
  | { kind: 'crew'; userId: number; assigned: boolean };

function scopeWhere(companyId: number, scope: WorkScope): SQL | undefined {
  if (scope.kind === 'company') return undefined;
  if (scope.kind === 'foreman') return eq(jobs.foremanId, scope.foremanId);
  // Read in the same statement (an InitPlan, evaluated once); a member without a crew foreman
  // compares with null and matches no job.
  const crewForeman = sql`(select ${users.foremanId} from ${users} where ${users.id} = ${scope.userId} and ${users.companyId} = ${companyId})`;
  const ofCrewJobs = eq(jobs.foremanId, crewForeman);
  return scope.assigned ? or(eq(tickets.assignedTo, scope.userId), ofCrewJobs) : ofCrewJobs;
}

/** What the work order (work.list.ts `sortWorkTickets`) reads of a ticket: enough to pick the first N. */
export type WorkKey = Pick<WorkTicket, 'id' | 'job_id' | 'job_number' | 'due_date' | 'pole_name'>;

/**
 * The Complete, not yet billed tickets in scope with fewer photos that count as evidence than
 * `required` (docs/product/records.md §8: the crew still can add them), newest completion first,
 * at most `limit`. ONE statement. The service applies the shared rule to what it reads.
 */
export async function unevidencedTicketRows(db: DbOrTx, companyId: number, scope: WorkScope, required: number, limit: number, foremanId?: number): Promise<WorkTicket[]> {
  if (required <= 0) return [];
  const rows = await selectTicketRows(db, { jobNumber: jobs.jobNumber, today: companyDaySql(companyId) })
    .innerJoin(jobs, and(eq(jobs.id, tickets.jobId), eq(jobs.companyId, tickets.companyId)))
    .where(
      and(
        eq(tickets.companyId, companyId),
        isNotNull(tickets.actualCompletionDate),
        isNull(tickets.billedAt),
        sql`${evidencePhotoCountOf} < ${required}`,
        jobIsPublished,
        scopeWhere(companyId, scope),
        foremanId === undefined ? undefined : eq(jobs.foremanId, foremanId),
      ),
    )
    .orderBy(desc(tickets.actualCompletionDate), desc(tickets.id))
    .limit(limit);
  return rows.map((r) => toWorkTicket(r, r.today, r.jobNumber));
}

/**
 * The sort keys of every open (Pending: no completion date) ticket in scope, in ONE statement,
 * unordered: a few narrow columns, so a foreman's thousands of open tickets cost milliseconds
 * (the partial index tickets_open_job_idx finds them by job). `foremanId` narrows to the jobs of
 * that foreman.
 */
export async function openTicketKeys(db: DbOrTx, companyId: number, scope: WorkScope, foremanId?: number): Promise<WorkKey[]> {
  return db
    .select({ id: tickets.id, job_id: tickets.jobId, job_number: jobs.jobNumber, due_date: tickets.dueDate, pole_name: sql<string>`coalesce(${poles.poleName}, '')` })
    .from(tickets)
    .innerJoin(jobs, and(eq(jobs.id, tickets.jobId), eq(jobs.companyId, tickets.companyId)))
    .leftJoin(poles, and(eq(poles.id, tickets.poleId), eq(poles.companyId, tickets.companyId)))
    .where(
      and(
        eq(tickets.companyId, companyId),
        isNull(tickets.actualCompletionDate),
        jobIsPublished,
        scopeWhere(companyId, scope),
        foremanId === undefined ? undefined : eq(jobs.foremanId, foremanId),
      ),
    );
}

/**
 * Those tickets (ids from openTicketKeys) as ticket-table rows with their job's number, in ONE
 * statement, unordered. Still scoped by company and open: a ticket completed in between drops out.
 */
export async function openTicketRows(db: DbOrTx, companyId: number, ids: number[]): Promise<WorkTicket[]> {
  if (ids.length === 0) return [];
  const rows = await selectTicketRows(db, { jobNumber: jobs.jobNumber, today: companyDaySql(companyId) })
    .innerJoin(jobs, and(eq(jobs.id, tickets.jobId), eq(jobs.companyId, tickets.companyId)))
    .where(and(eq(tickets.companyId, companyId), inArray(tickets.id, ids), isNull(tickets.actualCompletionDate), jobIsPublished));
  return rows.map((r) => toWorkTicket(r, r.today, r.jobNumber));
}

/**
 * A fingerprint of every row GET /work reads for this scope, in ONE statement: the method of
 * job-record.repository `jobFingerprint` (per set of rows its count and Σ xmin, so ANY committed
 * write by any process changes it; nothing has to remember to invalidate). Its sets:
 * - the jobs in scope (their number, foreman and publication): count and Σ xmin, so a job that
 *   moves to or from the scope, or is renamed, changes it;
 * - their open tickets and their Complete, not yet billed ones (needs_photos), through the two
 *   partial indexes of exactly those tickets. A ticket's pole, assignee, counts of tasks, photos
 *   and notes, photo checks and permits touch the ticket (migrations 0002, 0004, 0009, 0010, 0021,
 *   0024), as for the job page;
 * - for a working foreman, the tickets assigned to him (of any job) and their jobs' xmin;
 * - the company (time zone, photos required) and the member's own row (his crew foreman).
 * `day`: the company's calendar day (Clear to dig depends on it), read in the same statement.
 * A few thousand index entries for a foreman with 2,000 open tickets, where the reply reads and
 * serialises them all (docs/product/scale.md §3, decision 054).
 */
export async function workFingerprint(db: DbOrTx, companyId: number, userId: number, scope: WorkScope, foremanId?: number): Promise<{ fingerprint: string; day: string }> {
  const ofForeman = foremanId === undefined ? sql`` : sql` and j.foreman_id = ${foremanId}`;
  const crewForeman = sql`(select m.foreman_id from users m where m.id = ${userId} and m.company_id = ${companyId})`;
  const ofScope = scope.kind === 'company' ? sql`` : scope.kind === 'foreman' ? sql` and j.foreman_id = ${scope.foremanId}` : sql` and j.foreman_id = ${crewForeman}`;
  const assigned =
    scope.kind === 'crew' && scope.assigned
      ? sql`
      union all
      select t.xmin::text::bigint + j.xmin::text::bigint from tickets t
      join jobs j on j.id = t.job_id and j.company_id = t.company_id and not j.import_pending${ofForeman}
      where t.company_id = ${companyId} and t.assigned_to = ${scope.userId} and (t.actual_completion_date is null or t.billed_at is null)`
      : sql``;
  const result = await db.execute(sql`
    with j as materialized (
      select j.id, j.xmin::text::bigint as x from jobs j
      where j.company_id = ${companyId} and not j.import_pending${ofScope}${ofForeman}
    ), t as (
      select t.xmin::text::bigint as x from j join tickets t on t.company_id = ${companyId} and t.job_id = j.id and t.actual_completion_date is null
      union all
      select t.xmin::text::bigint from j join tickets t on t.company_id = ${companyId} and t.job_id = j.id and t.actual_completion_date is not null and t.billed_at is null${assigned}
    )
    -- concat, not concat_ws: a null (no rows) stays in its place.
    select concat(c.xmin, '.', (select m.xmin from users m where m.id = ${userId}), '.', (select count(*) from j), '.', (select sum(x) from j), '.', (select count(*) from t), '.', (select sum(x) from t)) as fp,
      ((now() at time zone c.time_zone)::date)::text as day
    from companies c where c.id = ${companyId}`);
  const [row] = rowsOf<{ fp: string; day: string }>(result);
  return { fingerprint: row.fp, day: row.day };
}
