import { discardHistoryOfJob } from '../history/history.service';
import { sql } from 'drizzle-orm';
import { rowsOf, type DbOrTx } from '../../db/client';
import { jobs } from '../../db/schema/index';
import { breathe } from './import.repository';

/**
 * The SQL of staged imports (decision 027). A new job's ticket import is written in many short
 * statements, so that on PGlite's one connection other requests get their turn, under a job row
 * marked `import_pending`; publishing clears the mark in one short transaction. Until then the
 * job and everything under it is not there for readers, and the poles and units the import
 * created (`import_job_id`) are hidden too. A failed import is discarded: the job (and by
 * cascade its tickets, tasks and work orders), then the poles and units it created. What readers
 * hide meanwhile is in db/sql.ts (jobIsPublished, notFromPendingImport).
 */

/** Makes the staged job and everything under it visible at once: its job number, or null when it is gone. */
export async function publishStagedJob(tx: DbOrTx, companyId: number, jobId: number): Promise<string | null> {
  const rows = rowsOf<{ job_number: string }>(
    await tx.execute(sql`update jobs set import_pending = false where company_id = ${companyId} and id = ${jobId} and import_pending returning job_number`),
  );
  return rows[0]?.job_number ?? null;
}

/**
 * A job row hidden from the start (`import_pending`), as the job save inserts a new job with an
 * import (the jobs module's insertJob, which this module sits below): its id. For the start-up
 * warm-up (warm-up.ts).
 */
export const insertPendingJob = async (db: DbOrTx, values: Omit<typeof jobs.$inferInsert, 'importPending'>) =>
  (await db.insert(jobs).values({ ...values, importPending: true }).returning({ id: jobs.id }))[0].id;

/** The first utility, with its company and that company's first user (whom the warm-up imports as); undefined when there is none. */
export async function firstUtilityWithUser(db: DbOrTx): Promise<{ companyId: number; utilityId: number; userId: number } | undefined> {
  const [r] = rowsOf<{ company_id: number; utility_id: number; user_id: number | null }>(
    await db.execute(sql`select u.company_id, u.id as utility_id, (select min(id) from users where company_id = u.company_id) as user_id
      from utilities u order by u.id limit 1`),
  );
  return r && r.user_id != null ? { companyId: Number(r.company_id), utilityId: Number(r.utility_id), userId: Number(r.user_id) } : undefined;
}

/**
 * A hidden job that stages an import into the company's job `jobId` (decision 032): its keys
 * copied, marked `import_pending`, under a number no one can type (a job number is trimmed text;
 * this one holds the target's id and a fresh uuid). null when the job is not the company's.
 */
export async function insertStagingJob(db: DbOrTx, companyId: number, jobId: number): Promise<number | null> {
  const rows = rowsOf<{ id: number }>(
    await db.execute(sql`insert into jobs (company_id, job_number, job_type, due_date, utility_id, created_by, import_pending)
      select company_id, 'import into job ' || id || ' ' || gen_random_uuid(), job_type, due_date, utility_id, created_by, true
      from jobs where company_id = ${companyId} and id = ${jobId} and not import_pending
      returning id`),
  );
  return rows[0]?.id ?? null;
}

/**
 * Publishes an import staged under `stagingId` into the job `jobId`: its tickets move there (their
 * tasks and work orders go with them), the poles and units it created become the job's import's,
 * and the staging job goes. Four statements, in the publishing transaction.
 */
export async function moveStagedTickets(tx: DbOrTx, companyId: number, stagingId: number, jobId: number): Promise<void> {
  await tx.execute(sql`update tickets set job_id = ${jobId} where company_id = ${companyId} and job_id = ${stagingId}`);
  await tx.execute(sql`update poles set import_job_id = ${jobId} where company_id = ${companyId} and import_job_id = ${stagingId}`);
  await tx.execute(sql`update units set import_job_id = ${jobId} where company_id = ${companyId} and import_job_id = ${stagingId}`);
  await tx.execute(sql`delete from jobs where company_id = ${companyId} and id = ${stagingId} and import_pending`);
}

/** Tickets deleted per statement when a staged import is discarded: each statement stays short. */
const DISCARD_CHUNK = 500;

/**
 * Removes what a staged import wrote: its tickets (their tasks and work orders go with them by
 * cascade) a few hundred per statement, its job, then the poles and units it created that
 * nothing else uses (another import may already have picked up a unit). PGlite runs each
 * statement on the server's thread: other requests get in between two (breathe).
 */
export async function discardStagedImport(db: DbOrTx, companyId: number, jobId: number): Promise<void> {
  const pending = rowsOf(await db.execute(sql`select 1 from jobs where company_id = ${companyId} and id = ${jobId} and import_pending`));
  if (pending.length === 0) return;
  await deleteStagedTickets(db, companyId, jobId);
  await breathe();
  // The job never became visible: neither does its creation in the history.
  await discardHistoryOfJob(db, companyId, jobId);
  await breathe();
  await db.execute(sql`delete from jobs where company_id = ${companyId} and id = ${jobId} and import_pending`);
  await breathe();
  await deleteStagedPoles(db, companyId, jobId);
  await breathe();
  await db.execute(sql`delete from units u where u.company_id = ${companyId} and u.import_job_id = ${jobId}
    and not exists (select 1 from ticket_tasks tt where tt.unit_id = u.id)`);
}

/**
 * Removes the tickets (with their tasks and work orders) and the poles a staged import wrote so
 * far, keeping its job: the import starts over (its workbook is read again from the start).
 */
export async function clearStagedRows(db: DbOrTx, companyId: number, jobId: number): Promise<void> {
  await deleteStagedTickets(db, companyId, jobId);
  await deleteStagedPoles(db, companyId, jobId);
}

async function deleteStagedTickets(db: DbOrTx, companyId: number, jobId: number) {
  for (;;) {
    await breathe();
    const gone = rowsOf(
      await db.execute(sql`delete from tickets where id in (select id from tickets where company_id = ${companyId} and job_id = ${jobId} limit ${DISCARD_CHUNK}) returning id`),
    );
    if (gone.length < DISCARD_CHUNK) break;
  }
}

const deleteStagedPoles = (db: DbOrTx, companyId: number, jobId: number) =>
  db.execute(sql`delete from poles p where p.company_id = ${companyId} and p.import_job_id = ${jobId}
    and not exists (select 1 from tickets t where t.pole_id = p.id)`);

/** A staged import older than this is abandoned (the workbook limits keep a real one far shorter). */
export const ABANDONED_IMPORT_MINUTES = 60;

/**
 * Discards the staged imports a stopped process left behind: every one on PGlite (one process
 * per data folder, so none can be running), on PostgreSQL those older than `olderThanMinutes`
 * (another process may be writing a younger one right now).
 */
export async function discardAbandonedImports(db: DbOrTx, olderThanMinutes: number): Promise<number> {
  const rows = rowsOf<{ id: number; company_id: number }>(
    await db.execute(sql`select id, company_id from jobs where import_pending and created_at < now() - make_interval(mins => ${olderThanMinutes})`),
  );
  for (const r of rows) await discardStagedImport(db, r.company_id, r.id);
  return rows.length;
}
