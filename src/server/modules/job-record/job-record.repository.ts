import { and, eq, sql } from 'drizzle-orm';
import { rowsOf, type DbOrTx } from '../../db/client';
import { jobs } from '../../db/schema/index';
import { jobIsPublished } from '../../db/sql';

/**
 * The job row as every module looks it up (docs/decisions/041-modules-and-layers-depend-one-way.md): found within
 * the caller's company, locked for a writer, fingerprinted. Every statement is scoped by company.
 */

/** The job's row, the one finder of the jobs table every area uses. */
export const findJob = async (db: DbOrTx, companyId: number, id: number) =>
  (await db.select().from(jobs).where(and(eq(jobs.companyId, companyId), eq(jobs.id, id), jobIsPublished)))[0];
export type JobRecord = typeof jobs.$inferSelect;

/**
 * Locks the job's row until the transaction ends: one import of a job at a time, so a second
 * one waits and then plans against what the first wrote.
 */
export const lockJob = (db: DbOrTx, companyId: number, id: number) =>
  db.select({ id: jobs.id }).from(jobs).where(and(eq(jobs.companyId, companyId), eq(jobs.id, id))).for('update');

/**
 * A fingerprint of every row GET /jobs/{id} reads: the job, its utility, creator, foreman and
 * company, and its tickets. It is built from PostgreSQL's `xmin` (the id of the transaction that
 * last wrote a row version) plus the ticket count, so ANY committed write to one of those rows,
 * by any process and any code path, changes it; nothing has to remember to invalidate. The
 * tickets' poles and assignees are covered through the tickets: renaming a pole or a person
 * touches the tickets that show the name (triggers of migration 0002), and deleting one sets the
 * tickets' reference to null. The rows' counts of tasks, photos and notes likewise: adding or
 * removing one touches its ticket (triggers of migration 0004), moving one touches both (0009 for a task, 0010 for a photo or note). Sums, because a new row
 * version's xmin is always newer: with an equal count, a changed set cannot sum the same
 * (xid wrap-around aside, which needs four billion transactions and an exact cancellation). null when the job is not the company's.
 * One statement, far cheaper than reading and serialising the tickets (docs/benchmarks.md).
 */
export async function jobFingerprint(db: DbOrTx, companyId: number, jobId: number): Promise<{ fingerprint: string; day: string } | null> {
  // `day`: the company's calendar day, read in the same statement (the rows' Clear to dig depends on it).
  const result = await db.execute<{ fp: string; day: string }>(sql`
    select concat_ws('.', j.xmin, u.xmin, cr.xmin, fm.xmin, c.xmin, s.n, s.t) as fp, ((now() at time zone c.time_zone)::date)::text as day
    from jobs j
    join companies c on c.id = j.company_id
    join utilities u on u.id = j.utility_id
    left join users cr on cr.id = j.created_by
    left join users fm on fm.id = j.foreman_id
    cross join lateral (
      select count(*) as n, sum(t.xmin::text::bigint) as t from tickets t where t.company_id = j.company_id and t.job_id = j.id
    ) s
    where j.company_id = ${companyId} and j.id = ${jobId}`);
  const row = rowsOf<{ fp: string; day: string }>(result)[0];
  return row ? { fingerprint: row.fp, day: row.day } : null;
}
