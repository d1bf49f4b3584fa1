import { sql } from 'drizzle-orm';
import { rowsOf, type DbOrTx } from '../../db/client';
import { ROLE, CREW_STATUS } from '../../../shared/constants';

/** A company the scheduler looks at: its zone says when its day and its 06:00 are. */
export interface DigestCompany {
  id: number;
  name: string;
  time_zone: string;
}

export const listCompanies = async (db: DbOrTx): Promise<DigestCompany[]> =>
  rowsOf<DigestCompany>(await db.execute(sql`select id, name, time_zone from companies order by id`));

/**
 * Claims the company's digest of `day` for this process, or takes over a claim whose holder
 * stopped before finishing (claimed before `staleBefore` and never sent). One statement: the
 * primary key (company_id, day) makes a second claimer's INSERT meet the first's row, and ON
 * CONFLICT … WHERE takes that row's lock, so of any number of processes exactly one gets a row
 * back. Returns the users already sent to (a take-over skips them), or null when not claimed.
 */
export async function claimDigest(db: DbOrTx, companyId: number, day: string, now: Date, staleBefore: Date, holder: string): Promise<number[] | null> {
  const rows = rowsOf<{ sent_to: number[] }>(
    await db.execute(sql`
      insert into digest_runs (company_id, day, claimed_at, claimed_by)
      values (${companyId}, ${day}, ${now.toISOString()}::timestamptz, ${holder})
      on conflict (company_id, day) do update set claimed_at = excluded.claimed_at, claimed_by = excluded.claimed_by
        where digest_runs.sent_at is null and digest_runs.claimed_at < ${staleBefore.toISOString()}::timestamptz
      returning sent_to`),
  );
  return rows[0] ? rows[0].sent_to.map(Number) : null;
}

/** Records one recipient as sent, so that a take-over of this claim does not mail them again. */
export const markSentTo = (db: DbOrTx, companyId: number, day: string, userId: number) =>
  db.execute(sql`update digest_runs set sent_to = array_append(sent_to, ${userId}::int) where company_id = ${companyId} and day = ${day}`);

export const markDone = (db: DbOrTx, companyId: number, day: string, now: Date) =>
  db.execute(sql`update digest_runs set sent_at = ${now.toISOString()}::timestamptz where company_id = ${companyId} and day = ${day}`);

/** What one ticket contributes to a digest; `kind` says which list it goes on. */
export interface DigestRow {
  kind: 'permit' | 'dig_safe' | 'overdue';
  ticket_id: number;
  job_id: number;
  job_number: string;
  foreman_id: number | null;
  pole_name: string | null;
  line_name: string | null;
  due_date: string | null;
  /** permit: the permit's number and type; dig_safe: the dig-safe number. */
  number: string | null;
  permit_type: string | null;
  /** permit and dig_safe: expires_on; overdue: null. */
  expires_on: string | null;
  /** dig_safe: the dig-safe document's url (Clear to dig tells "no expiry date" from "no dig safe ticket"); else null. */
  document_url: string | null;
}

/**
 * The open tickets of published jobs of the company that a digest of `today` may list (DESIGN
 * §7.4): permits that have expired or expire within `horizon` (today + 7), dig-safe records of
 * tickets that need dig safe and are not clear or expire within the horizon, and tickets due
 * before today. The lists and wording are made from these rows in digest.ts; the clear-to-dig
 * test here is a pre-filter (everything that could be not clear is returned).
 */
export async function digestRows(db: DbOrTx, companyId: number, today: string, horizon: string): Promise<DigestRow[]> {
  const result = await db.execute(sql`
    with open_tickets as (
      select t.id, t.job_id, j.job_number, j.foreman_id, p.pole_name, p.line_name, t.due_date,
             t.dig_safe_required, t.dig_safe_number, t.dig_safe_expires_on, t.dig_safe_url
      from tickets t
      join jobs j on j.id = t.job_id and j.company_id = t.company_id
      left join poles p on p.id = t.pole_id
      where t.company_id = ${companyId} and not j.import_pending and t.actual_completion_date is null
    )
    select 'permit' as kind, o.id as ticket_id, o.job_id, o.job_number, o.foreman_id, o.pole_name, o.line_name, o.due_date,
           pm.number, pt.title as permit_type, pm.expires_on, null as document_url
    from open_tickets o
    join permits pm on pm.ticket_id = o.id and pm.company_id = ${companyId}
    left join permit_types pt on pt.id = pm.permit_type_id
    where pm.expires_on <= ${horizon}::date
    union all
    select 'dig_safe', o.id, o.job_id, o.job_number, o.foreman_id, o.pole_name, o.line_name, o.due_date,
           o.dig_safe_number, null, o.dig_safe_expires_on, o.dig_safe_url
    from open_tickets o
    where o.dig_safe_required = 1
      and (o.dig_safe_expires_on is null or o.dig_safe_expires_on <= ${horizon}::date or o.dig_safe_expires_on < o.due_date)
    union all
    select 'overdue', o.id, o.job_id, o.job_number, o.foreman_id, o.pole_name, o.line_name, o.due_date, null, null, null, null
    from open_tickets o
    where o.due_date < ${today}::date
    order by job_number, pole_name, line_name, ticket_id`);
  return rowsOf<DigestRow>(result);
}

/** Someone a digest may go to: the company's active office roles, and its jobs' active foremen. */
export interface DigestPerson {
  id: number;
  email: string;
  first_name: string;
  role_id: number;
}

/**
 * The company's active office staff (roles 1–2) and the active users who are foreman of one of
 * its published jobs, once each. Inactive crew members get nothing; invited ones who have not
 * set a password yet neither (they have no account to act from).
 */
export async function digestPeople(db: DbOrTx, companyId: number): Promise<DigestPerson[]> {
  const result = await db.execute(sql`
    select u.id, u.email, u.first_name, u.role_id
    from users u
    where u.company_id = ${companyId} and u.crew_status = ${CREW_STATUS.ACTIVE} and u.password_hash is not null
      and (u.role_id in (${ROLE.ADMIN}, ${ROLE.OFFICE_MANAGER})
           or exists (select 1 from jobs j where j.company_id = ${companyId} and j.foreman_id = u.id and not j.import_pending))
    order by u.id`);
  return rowsOf<DigestPerson>(result);
}
