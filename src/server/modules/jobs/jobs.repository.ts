import { and, desc, eq, inArray, sql, type AnyColumn, type Placeholder } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { JOB_STATUS, JOB_TYPE } from '../../../shared/constants';
import { rowsOf, type DbOrTx } from '../../db/client';
import { companies, images, jobs, tickets, users, utilities } from '../../db/schema/index';
import { countsAsEvidenceSql, jobIsPublished } from '../../db/sql';

/** Jobs SQL (the only place with it). Every statement is scoped by the caller's company. */

const creator = alias(users, 'job_creator');
const foreman = alias(users, 'job_foreman');

const name = (u: { id: AnyColumn; firstName: AnyColumn; lastName: AnyColumn }) =>
  sql<string | null>`case when ${u.id} is null then null else trim(${u.firstName} || ' ' || ${u.lastName}) end`;

/**
 * GET /jobs and the header of GET /jobs/{id} in ONE statement: ticket count, status and
 * date_completed are derived in SQL (docs/product/roles-and-statuses.md) from a grouped sub-select of the tickets.
 */
export function selectJobs(db: DbOrTx, companyId: number, jobId?: number | readonly number[]) {
  return jobsQuery(db, companyId, jobId);
}
export type JobRow = Awaited<ReturnType<typeof selectJobs>>[number];

/**
 * One page of jobs by id (GET /jobs?limit=): selectJobs' statement for `ids`, built once per
 * database handle and reused with new values. Building it with drizzle's query builder (every
 * column, alias and sub-select walked again) was ~1.4 ms of CPU per page at ten clients, a
 * fixed cost beside its SQL (decision 063). `= any($ids)` is what PostgreSQL makes of the
 * `in (…)` list anyway. `prepare('')` names no statement (an empty name is the protocol's
 * unnamed statement): the database parses and plans it for its values on every call, as before.
 */
const pageQueries = new WeakMap<DbOrTx, { execute(values: { companyId: number; ids: number[] }): Promise<JobRow[]> }>();
export function selectJobPage(db: DbOrTx, companyId: number, ids: readonly number[]): Promise<JobRow[]> {
  let query = pageQueries.get(db);
  if (!query) {
    query = jobsQuery(db, sql.placeholder('companyId'), sql.placeholder('ids')).prepare('');
    pageQueries.set(db, query);
  }
  return query.execute({ companyId, ids: [...ids] });
}

function jobsQuery(db: DbOrTx, companyId: number | Placeholder, jobId?: number | readonly number[] | Placeholder) {
  // One job (its header), a page of them (GET /jobs?limit=) or all: the ticket counts read only those jobs' tickets.
  const ofJobs =
    jobId === undefined
      ? undefined
      : typeof jobId === 'number'
        ? eq(tickets.jobId, jobId)
        : isPlaceholder(jobId)
          ? sql`${tickets.jobId} = any(${jobId})`
          : inArray(tickets.jobId, [...jobId]);
  const ticketFilter = and(eq(tickets.companyId, companyId), ofJobs);
  // Each ticket's photos that count as evidence (docs/product/records.md §8), grouped once: of
  // those jobs' tickets only when the list is one job or a page.
  const goodPhoto = and(eq(images.companyId, companyId), countsAsEvidenceSql(images.flags));
  const photos = db.select({ ticketId: images.ticketId, n: sql<number>`count(*)::int`.as('good_n') }).from(images);
  const good = (ofJobs ? photos.innerJoin(tickets, and(eq(tickets.id, images.ticketId), ticketFilter)) : photos)
    .where(goodPhoto)
    .groupBy(images.ticketId)
    .as('good_photos');
  const required = sql`(select ${companies.evidencePhotosRequired} from ${companies} where ${companies.id} = ${companyId})`;
  const stats = db
    .select({
      jobId: tickets.jobId,
      total: sql<number>`count(*)::int`.as('total'),
      done: sql<number>`count(${tickets.actualCompletionDate})::int`.as('done'),
      lastDone: sql<Date | string | null>`max(${tickets.actualCompletionDate})`.as('last_done'),
      // Complete but not evidenced: src/shared/evidence.ts isEvidenced, counted in SQL over every job.
      unevidenced: sql<number>`count(*) filter (where ${tickets.actualCompletionDate} is not null and coalesce(${good.n}, 0) < ${required})::int`.as('unevidenced'),
    })
    .from(tickets)
    .leftJoin(good, eq(good.ticketId, tickets.id))
    .where(ticketFilter)
    .groupBy(tickets.jobId)
    .as('job_stats');
  const complete = sql`${jobs.jobType} <> ${JOB_TYPE.ESTIMATION} and coalesce(${stats.total}, 0) > 0 and ${stats.done} = ${stats.total}`;
  const q = db
    .select({
      id: jobs.id,
      job_number: jobs.jobNumber,
      job_type: jobs.jobType,
      status: sql<string>`case when ${jobs.jobType} = ${JOB_TYPE.ESTIMATION} then ${JOB_STATUS.ESTIMATION}
        when ${complete} then ${JOB_STATUS.COMPLETE} else ${JOB_STATUS.IN_PROGRESS} end`,
      ticket_count: sql<number>`coalesce(${stats.total}, 0)::int`,
      unevidenced_count: sql<number>`coalesce(${stats.unevidenced}, 0)::int`,
      created_name: sql<string>`coalesce(${name(creator)}, '')`,
      created_by: jobs.createdBy,
      foreman_id: jobs.foremanId,
      foreman_name: name(foreman),
      due_date: jobs.dueDate,
      date_completed: sql<Date | string | null>`case when ${complete} then ${stats.lastDone} else null end`,
      selected_utility_id: jobs.utilityId,
      selected_utility_name: utilities.code,
      work_packet_url: jobs.workPacketUrl,
      work_packet_name: jobs.workPacketName,
      work_packet_size: jobs.workPacketSize,
      work_packet_type: jobs.workPacketType,
      work_contact_phone: jobs.workContactPhone,
      hospital_name: jobs.hospitalName,
      hospital_address: jobs.hospitalAddress,
      ehasp_override: jobs.ehaspOverride,
      arc_rating_override: jobs.arcRatingOverride,
      primary_voltage_override: jobs.primaryVoltageOverride,
      secondary_voltage_override: jobs.secondaryVoltageOverride,
      version: jobs.version,
      created_at: jobs.createdAt,
    })
    .from(jobs)
    .innerJoin(utilities, eq(utilities.id, jobs.utilityId))
    .leftJoin(creator, and(eq(creator.id, jobs.createdBy), eq(creator.companyId, jobs.companyId)))
    .leftJoin(foreman, and(eq(foreman.id, jobs.foremanId), eq(foreman.companyId, jobs.companyId)))
    .leftJoin(stats, eq(stats.jobId, jobs.id));
  if (jobId === undefined) return q.where(and(eq(jobs.companyId, companyId), jobIsPublished)).orderBy(desc(jobs.jobNumber), desc(jobs.id));
  const ofIds = typeof jobId === 'number' ? eq(jobs.id, jobId) : isPlaceholder(jobId) ? sql`${jobs.id} = any(${jobId})` : inArray(jobs.id, [...jobId]);
  return q.where(and(eq(jobs.companyId, companyId), ofIds, jobIsPublished));
}

const isPlaceholder = (value: readonly number[] | Placeholder): value is Placeholder => !Array.isArray(value);

/**
 * The job's fields as its history compares them (API names; the utility's code and the foreman's
 * name rather than ids), one statement without the ticket counts. A job whose import is still
 * pending is read too: its creation is recorded when its row is written.
 */
export async function selectJobForHistory(db: DbOrTx, companyId: number, id: number) {
  const [row] = await db
    .select({
      job_number: jobs.jobNumber,
      job_type: jobs.jobType,
      due_date: jobs.dueDate,
      selected_utility_id: utilities.code,
      foreman_id: name(foreman),
      work_packet_url: jobs.workPacketName,
      work_contact_phone: jobs.workContactPhone,
      hospital_name: jobs.hospitalName,
      hospital_address: jobs.hospitalAddress,
      ehasp_override: jobs.ehaspOverride,
      arc_rating_override: jobs.arcRatingOverride,
      primary_voltage_override: jobs.primaryVoltageOverride,
      secondary_voltage_override: jobs.secondaryVoltageOverride,
    })
    .from(jobs)
    .innerJoin(utilities, eq(utilities.id, jobs.utilityId))
    .leftJoin(foreman, and(eq(foreman.id, jobs.foremanId), eq(foreman.companyId, jobs.companyId)))
    .where(and(eq(jobs.companyId, companyId), eq(jobs.id, id)));
  return row;
}

/**
 * A fingerprint of every row GET /jobs reads, in ONE statement (the method of `jobFingerprint`
 * below: per table the count and Σ xmin, so any committed write by any process changes it):
 * the company's jobs, its tickets (count, completion) and its units (prices, for "% Complete"),
 * and the company row (evidence_photos_required, for the count of tickets not evidenced).
 * What else the list shows touches those rows when it changes, whoever writes it: a task's
 * quantity its ticket (migrations 0004, 0009), a person's or a utility's new name the jobs that
 * show it (0009); scanning or joining those tables here cost more than all the rest. Nothing in
 * the list depends on the date.
 */
export async function jobListFingerprint(db: DbOrTx, companyId: number): Promise<string> {
  const result = await db.execute<{ fp: string }>(sql`
    select concat(j.n, '.', j.t, '.', s.n, '.', s.t, '.', un.n, '.', un.t, '.', c.xmin) as fp
    from (select xmin from companies where id = ${companyId}) c,
    (select count(*) as n, sum(xmin::text::bigint) as t from jobs where company_id = ${companyId}) j,
    (select count(*) as n, sum(xmin::text::bigint) as t from tickets where company_id = ${companyId}) s,
    (select count(*) as n, sum(xmin::text::bigint) as t from units where company_id = ${companyId}) un`);
  return rowsOf<{ fp: string }>(result)[0]?.fp ?? '';
}

export const jobsWithNumber = (db: DbOrTx, companyId: number, jobNumber: string) =>
  db
    .select({ id: jobs.id, job_number: jobs.jobNumber })
    .from(jobs)
    .where(and(eq(jobs.companyId, companyId), eq(jobs.jobNumber, jobNumber), jobIsPublished));

export type JobInsert = typeof jobs.$inferInsert;

export const insertJob = async (db: DbOrTx, values: JobInsert) => (await db.insert(jobs).values(values).returning({ id: jobs.id }))[0];

/** Updates only when `version` is still current; returns nothing for a stale version. */
export const updateJob = async (db: DbOrTx, companyId: number, id: number, version: number, values: Partial<JobInsert>) =>
  (
    await db
      .update(jobs)
      .set({ ...values, version: sql`${jobs.version} + 1`, updatedAt: new Date() })
      .where(and(eq(jobs.companyId, companyId), eq(jobs.id, id), eq(jobs.version, version)))
      .returning({ id: jobs.id })
  )[0];

/**
 * The stored-file urls this job's records point at (work packet, dig-safe and NRA documents,
 * permits, images and thumbnails); the caller deletes those nothing else shows once the job is
 * gone (deleteUnreferencedFiles). One statement.
 */
export async function fileUrlsOfJob(db: DbOrTx, companyId: number, jobId: number): Promise<string[]> {
  const result = await db.execute<{ u: string }>(sql`
    select work_packet_url as u from jobs where company_id = ${companyId} and id = ${jobId}
    union select dig_safe_url from tickets where company_id = ${companyId} and job_id = ${jobId}
    union select nra_url from tickets where company_id = ${companyId} and job_id = ${jobId}
    union select p.permit_url from permits p join tickets t on t.id = p.ticket_id
      where p.company_id = ${companyId} and t.job_id = ${jobId}
    union select i.url from images i join tickets t on t.id = i.ticket_id
      where i.company_id = ${companyId} and t.job_id = ${jobId}
    union select i.thumbnail_url from images i join tickets t on t.id = i.ticket_id
      where i.company_id = ${companyId} and t.job_id = ${jobId}`);
  return rowsOf<{ u: string | null }>(result)
    .map((r) => r.u)
    .filter((u): u is string => !!u);
}



/** Each ticket's id and `xmin` (the transaction that wrote its row version), ordered by id. */
export interface TicketVersion {
  id: number;
  xmin: number;
}

/**
 * Where a rebuild of GET /jobs/{id} starts (job-page-reply.ts): the company's time zone and the
 * job's tickets with their `xmin`. A ticket row of the reply changes only with a new row version of
 * its ticket (see jobFingerprint: renames, counts and moved rows touch the ticket), so the tickets
 * whose xmin is not the one kept are all that must be read again. One statement; the pairs come
 * as one text ("id:xmin,…"): PGlite hands over one value far faster than 5,000 rows.
 * null when the job is not the company's.
 */
export async function jobTicketVersions(
  db: DbOrTx,
  companyId: number,
  jobId: number,
): Promise<{ timeZone: string; evidencePhotosRequired: number; tickets: TicketVersion[] } | null> {
  const result = await db.execute<{ tz: string; req: number; v: string | null }>(sql`
    select c.time_zone as tz, c.evidence_photos_required as req,
      (select string_agg(t.id || ':' || t.xmin, ',' order by t.id) from tickets t where t.company_id = j.company_id and t.job_id = j.id) as v
    from jobs j join companies c on c.id = j.company_id
    where j.company_id = ${companyId} and j.id = ${jobId}`);
  const row = rowsOf<{ tz: string; req: number; v: string | null }>(result)[0];
  if (!row) return null;
  const tickets = row.v
    ? row.v.split(',').map((pair) => {
        const colon = pair.indexOf(':');
        return { id: Number(pair.slice(0, colon)), xmin: Number(pair.slice(colon + 1)) };
      })
    : [];
  return { timeZone: row.tz, evidencePhotosRequired: Number(row.req), tickets };
}

/** Deletes the job; tickets, tasks, notes, work orders, permits and images go by FK cascade. */
export const deleteJob = async (db: DbOrTx, companyId: number, id: number) =>
  (await db.delete(jobs).where(and(eq(jobs.companyId, companyId), eq(jobs.id, id))).returning({ id: jobs.id }))[0];

/** A ticket with both coordinates as the map exports read it (selectLocatedTickets). */
export interface LocatedTicketRow {
  id: number;
  pole_name: string | null;
  line_name: string | null;
  complete: boolean;
  due_date: string | null;
  street: string | null;
  geo_lat: number;
  geo_lon: number;
  work_orders: string[];
  units: string[];
}

/**
 * The job's tickets that have both coordinates, as the map exports read them (GET /jobs/{id}/geojson
 * and /kml), in ONE statement: the pole's name and line, the street (the ticket's, else the
 * pole's), and the work orders and the tasks' unit codes, each gathered per ticket by one grouped
 * pass over the job's rows (a sub-select per ticket was several times slower on a big job). Each
 * child table is read through its ticket_id index for the job's ticket ids (`= any(array(…))`): a
 * join with the job's tickets let PostgreSQL scan all 1 M work orders at ten years of data
 * (docs/product/scale.md §1, decision 011). The rows come
 * back as one JSON text: PGlite hands over one value far faster than thousands of rows of arrays. Ordered by ticket id; empty for another company's job.
 */
export async function selectLocatedTickets(db: DbOrTx, companyId: number, jobId: number): Promise<LocatedTicketRow[]> {
  const result = await db.execute<{ rows: string }>(sql`
    select coalesce(json_agg(r order by r.id), '[]')::text as rows from (
      select t.id, p.pole_name, p.line_name, t.actual_completion_date is not null as complete, t.due_date,
        coalesce(t.street_address, p.street_address) as street, t.geo_lat, t.geo_lon,
        coalesce(w.list, '{}') as work_orders, coalesce(u.list, '{}') as units
      from tickets t
      left join poles p on p.id = t.pole_id and p.company_id = t.company_id
      left join (
        select wo.ticket_id, array_agg(wo.work_order order by wo.id) as list
        from work_orders wo
        where wo.company_id = ${companyId} and wo.ticket_id = any(array(select x.id from tickets x where x.company_id = ${companyId} and x.job_id = ${jobId}))
        group by wo.ticket_id
      ) w on w.ticket_id = t.id
      left join (
        select tt.ticket_id, array_agg(un.code order by tt.id) as list
        from ticket_tasks tt join units un on un.id = tt.unit_id
        where tt.company_id = ${companyId} and tt.ticket_id = any(array(select x.id from tickets x where x.company_id = ${companyId} and x.job_id = ${jobId}))
        group by tt.ticket_id
      ) u on u.ticket_id = t.id
      where t.company_id = ${companyId} and t.job_id = ${jobId} and t.geo_lat is not null and t.geo_lon is not null
    ) r`);
  return JSON.parse(rowsOf<{ rows: string }>(result)[0]?.rows ?? '[]') as LocatedTicketRow[];
}
