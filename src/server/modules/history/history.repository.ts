import { and, desc, eq, lt, sql, type SQL } from 'drizzle-orm';
import { rowsOf, type DbOrTx } from '../../db/client';
import { history, users } from '../../db/schema/index';

/** The only SQL of the history table (docs/decisions/044-history-recorded-with-each-change.md). */

export type HistoryInsert = typeof history.$inferInsert;

/** Who an entry says made the change: the user, and the API token they acted through if any. */
export const actorColumns = (companyId: number, userId: number, apiToken?: { id: number; name: string } | null) => ({
  companyId,
  userId,
  apiTokenId: apiToken?.id ?? null,
  apiTokenName: apiToken?.name ?? null,
});

/** Entries of one change, in one multi-row statement (in the caller's transaction). */
export async function insertEntries(db: DbOrTx, rows: HistoryInsert[]) {
  if (rows.length) await db.insert(history).values(rows);
}

/**
 * The tickets `where` picks (of the company), each with its tasks as an import entry states them
 * ({tasks, bid}: how many, their total bid quantity), as `ticket_tasks_of (id, tasks)`: the tasks
 * are counted in one grouped pass over the picked tickets' tasks, not by a sub-select per ticket
 * (decision 051: the import's entries over 5,000 tickets were one index look-up and aggregate each).
 */
const withTasksOf = (companyId: number, where: SQL) => sql`
  with picked as (select t.id from tickets t where t.company_id = ${companyId} and ${where}),
  ticket_tasks_of as (
    select p.id, jsonb_build_object('tasks', coalesce(k.n, 0), 'bid', coalesce(k.bid, 0)) as tasks
    from picked p
    left join (select tt.ticket_id, count(*) as n, sum(tt.init_qty) as bid
               from ticket_tasks tt join picked on picked.id = tt.ticket_id
               group by tt.ticket_id) k on k.ticket_id = p.id)`;

/** Ticket ids sent as one JSON parameter (any number of them, one statement). */
const idIn = (ids: readonly number[]) => sql`t.id in (select (x::text)::int from json_array_elements(${JSON.stringify(ids)}::json) x)`;

/**
 * One 'import' entry per ticket an import wrote (never one per row or task), in ONE statement
 * whatever their number: old is the ticket's tasks before the import (null for a ticket it
 * created: {tasks, bid}, see importTaskCounts), new its tasks now. `fromJobId` reads the tickets
 * still under a staging job (decision 032) and files them under `jobId`, where they are about to move.
 */
export async function insertImportEntries(
  db: DbOrTx,
  a: { companyId: number; userId: number; jobId: number; apiToken?: { id: number; name: string } | null },
  tickets: { fromJobId: number } | { ids: readonly number[]; before: ReadonlyMap<number, unknown> },
) {
  const where = 'fromJobId' in tickets ? sql`t.job_id = ${tickets.fromJobId}` : tickets.ids.length ? idIn(tickets.ids) : null;
  if (!where) return;
  const before = 'before' in tickets ? JSON.stringify(Object.fromEntries(tickets.before)) : '{}';
  await db.execute(sql`
    ${withTasksOf(a.companyId, where)}
    insert into history (company_id, user_id, api_token_id, api_token_name, action, entity, entity_id, ticket_id, job_id, field, old, new)
    select ${a.companyId}, ${a.userId}, ${a.apiToken?.id ?? null}::int, ${a.apiToken?.name ?? null}::text, 'import', 'ticket', w.id, w.id, ${a.jobId}, 'tasks',
           (${before}::jsonb -> (w.id::text)), w.tasks
    from ticket_tasks_of w
    order by w.id`);
}

/** The ids of the company's tickets under `jobId`, ascending (the tickets a staged import wrote there). */
export async function ticketIdsOfJob(db: DbOrTx, companyId: number, jobId: number): Promise<number[]> {
  const rows = rowsOf<{ id: number }>(await db.execute(sql`select id from tickets where company_id = ${companyId} and job_id = ${jobId} order by id`));
  return rows.map((r) => Number(r.id));
}

/** The tasks of these tickets as an import entry states them (its "before"), one statement. */
export async function taskCounts(db: DbOrTx, companyId: number, ticketIds: readonly number[]): Promise<Map<number, unknown>> {
  if (!ticketIds.length) return new Map();
  const rows = rowsOf<{ id: number; tasks: unknown }>(await db.execute(sql`${withTasksOf(companyId, idIn(ticketIds))} select id, tasks from ticket_tasks_of`));
  return new Map(rows.map((r) => [Number(r.id), typeof r.tasks === 'string' ? JSON.parse(r.tasks) : r.tasks]));
}

/** A staged import that never became visible leaves no record (decision 027: it never happened). */
export const deleteEntriesOfJob = (db: DbOrTx, companyId: number, jobId: number) =>
  db.delete(history).where(and(eq(history.companyId, companyId), eq(history.jobId, jobId)));

/** A page of one ticket's or one job's entries, newest first, with who made each. */
export async function selectEntries(db: DbOrTx, companyId: number, of: { ticketId: number } | { jobId: number }, limit: number, cursor?: number) {
  return db
    .select({
      id: history.id,
      at: history.at,
      userId: history.userId,
      apiTokenId: history.apiTokenId,
      apiTokenName: history.apiTokenName,
      firstName: users.firstName,
      lastName: users.lastName,
      action: history.action,
      entity: history.entity,
      entityId: history.entityId,
      ticketId: history.ticketId,
      field: history.field,
      old: history.old,
      new: history.new,
    })
    .from(history)
    .leftJoin(users, eq(users.id, history.userId))
    .where(
      and(
        eq(history.companyId, companyId),
        'ticketId' in of ? eq(history.ticketId, of.ticketId) : eq(history.jobId, of.jobId),
        cursor === undefined ? undefined : lt(history.id, cursor),
      ),
    )
    .orderBy(desc(history.id))
    .limit(limit);
}
