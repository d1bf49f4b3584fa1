import { and, desc, eq, lt, sql } from 'drizzle-orm';
import { rowsOf, type DbOrTx } from '../../db/client';
import { history, users } from '../../db/schema/index';

/** The only SQL of the history table (docs/decisions/044-hist-history.md). */

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

/** A ticket's tasks as an import entry states them: how many, and their total bid quantity. */
const TASKS_OF = (ticket: ReturnType<typeof sql>) =>
  sql`(select jsonb_build_object('tasks', count(*), 'bid', coalesce(sum(k.init_qty), 0)) from ticket_tasks k where k.ticket_id = ${ticket})`;

/**
 * One 'import' entry per ticket an import wrote (never one per row or task), in ONE statement
 * whatever their number: old is the ticket's tasks before the import (null for a ticket it
 * created: {tasks, bid}, see importTaskCounts), new its tasks now. `fromJobId` reads the tickets still under a staging job (decision
 * 032) and files them under `jobId`, where they are about to move.
 */
export async function insertImportEntries(
  db: DbOrTx,
  a: { companyId: number; userId: number; jobId: number; apiToken?: { id: number; name: string } | null },
  tickets: { fromJobId: number } | { ids: readonly number[]; before: ReadonlyMap<number, unknown> },
) {
  const where =
    'fromJobId' in tickets
      ? sql`t.job_id = ${tickets.fromJobId}`
      : tickets.ids.length
        ? sql`t.id in (select (x::text)::int from json_array_elements(${JSON.stringify(tickets.ids)}::json) x)`
        : null;
  if (!where) return;
  const before = 'before' in tickets ? JSON.stringify(Object.fromEntries(tickets.before)) : '{}';
  await db.execute(sql`
    insert into history (company_id, user_id, api_token_id, api_token_name, action, entity, entity_id, ticket_id, job_id, field, old, new)
    select ${a.companyId}, ${a.userId}, ${a.apiToken?.id ?? null}::int, ${a.apiToken?.name ?? null}::text, 'import', 'ticket', t.id, t.id, ${a.jobId}, 'tasks',
           (${before}::jsonb -> (t.id::text)),
           ${TASKS_OF(sql`t.id`)}
    from tickets t
    where t.company_id = ${a.companyId} and ${where}
    order by t.id`);
}

/** The tasks of these tickets as an import entry states them (its "before"), one statement. */
export async function taskCounts(db: DbOrTx, companyId: number, ticketIds: readonly number[]): Promise<Map<number, unknown>> {
  if (!ticketIds.length) return new Map();
  const rows = rowsOf<{ id: number; n: unknown }>(
    await db.execute(sql`
      select t.id, ${TASKS_OF(sql`t.id`)} as n
      from tickets t
      where t.company_id = ${companyId} and t.id in (select (x::text)::int from json_array_elements(${JSON.stringify(ticketIds)}::json) x)`),
  );
  return new Map(rows.map((r) => [Number(r.id), typeof r.n === 'string' ? JSON.parse(r.n) : r.n]));
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
