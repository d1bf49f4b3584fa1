import { sql, type SQL } from 'drizzle-orm';
import { JOB_STATUS, JOB_TYPE } from '../../../shared/constants';
import type { JobSortColumn, JobStatusFilter } from '../../../shared/jobs.list';
import type { SortDirection } from '../../../shared/sorting';
import { sortTextValues } from '../../../shared/sorting';
import { rowsOf, type DbOrTx } from '../../db/client';
import { countsAsEvidenceSql } from '../../db/sql';
import { jobPercentsSql } from '../production/production.service';

/**
 * The paged jobs list's SQL (GET /jobs?limit=, docs/product/scale.md §2): which jobs, in which
 * order, from where. Every sortable column is ordered here exactly as sortJobs
 * (src/shared/jobs.list.ts) orders it, ties by id ascending in both directions:
 * - text columns by linecrew_text_key (migration 0029, textKey's rule) compared byte-wise;
 * - job type, # tickets, % complete as numbers; status by the rank of its text;
 * - due date as the date ('YYYY-MM-DD' text keys compare as dates), date completed as its
 *   millisecond (what its ISO text holds), an open job's none first ascending.
 * jobs-page.api.test.ts holds each column to sortJobs on random data. Company-scoped throughout.
 */

/** What a key is: compared as text (byte order), a number, or a calendar date. */
export type KeyKind = 'text' | 'number' | 'date';

/** Where the previous page ended: its last row's sort key and id. */
export interface Keyset {
  key: string | number;
  id: number;
}

export interface JobPageOptions {
  status: JobStatusFilter;
  q: string;
  sort: JobSortColumn;
  dir: SortDirection;
  after?: Keyset;
  limit: number;
}

/** A job without a completion date, below every real one (textKey('') < any date's key). */
const NO_DATE = -1e15;

// The statuses in the text order sortJobs gives them ('Complete' < 'In Estimation' < 'In Progress').
const STATUS_RANK = new Map(sortTextValues(Object.values(JOB_STATUS)).map((status, rank) => [status, rank]));
const rank = (status: string) => sql.raw(String(STATUS_RANK.get(status)));

const ofJob = sql`t.company_id = j.company_id and t.job_id = j.id`;
const hasTickets = sql`exists (select 1 from tickets t where ${ofJob})`;
// tickets_open_job_idx: one probe of a partial index.
const hasOpenTicket = sql`exists (select 1 from tickets t where ${ofJob} and t.actual_completion_date is null)`;
const estimation = sql`j.job_type = ${JOB_TYPE.ESTIMATION}`;
/** docs/product/roles-and-statuses.md §5: a normal job whose tickets (one at least) are all complete. */
const complete = sql`(not ${estimation} and ${hasTickets} and not ${hasOpenTicket})`;

function statusFilter(status: JobStatusFilter): SQL | undefined {
  if (status === JOB_STATUS.ESTIMATION) return estimation;
  if (status === JOB_STATUS.COMPLETE) return complete;
  if (status === JOB_STATUS.IN_PROGRESS) return sql`not ${estimation} and not ${complete}`;
  return undefined;
}

/** `\`, `%` and `_` are literal in a search: a person looking for "10%" means the text. */
const likeContains = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * q: contains, case-insensitive, in the job number (trigram index), the utility's code or the
 * foreman's name. Written as the ids of three arms (a union) rather than one OR: each arm is then
 * planned on its own index (the number's trigrams; the few utilities and people matching, then their
 * jobs by jobs_utility_idx / jobs_foreman_idx), where the OR was a scan of every job of the company
 * computing linecrew_lower for each (250–600 ms for 100,000 jobs, decision 053).
 */
function searchFilter(companyId: number, q: string): SQL | undefined {
  const needle = q.trim();
  if (!needle) return undefined;
  // linecrew_lower (migration 0029): lower case as toLowerCase, whatever the database's locale.
  const pattern = sql`linecrew_lower(${likeContains(needle)})`;
  return sql`j.id in (
    select m.id from jobs m where m.company_id = ${companyId} and linecrew_lower(m.job_number) like ${pattern}
    union all
    select m.id from jobs m where m.utility_id in (select u.id from utilities u where u.company_id = ${companyId} and linecrew_lower(u.code) like ${pattern})
    union all
    select m.id from jobs m where m.foreman_id in (select f.id from users f where f.company_id = ${companyId} and linecrew_lower(trim(f.first_name || ' ' || f.last_name)) like ${pattern}))`;
}

/** The base of every statement: the company's published jobs matching status and q. */
function where(companyId: number, opts: Pick<JobPageOptions, 'status' | 'q'>): SQL {
  const parts = [sql`j.company_id = ${companyId}`, sql`not j.import_pending`, statusFilter(opts.status), searchFilter(companyId, opts.q)].filter(
    (p): p is SQL => p !== undefined,
  );
  return sql.join(parts, sql` and `);
}

/** Each column's sort key, what kind it is, and what it must join. */
export function sortKey(companyId: number, column: JobSortColumn): { key: SQL; kind: KeyKind; join?: SQL; with?: SQL } {
  switch (column) {
    case 'job_number':
      // The expression of jobs_number_key_idx, so the default page is read from the index.
      return { key: sql`linecrew_text_key(j.job_number) collate "C"`, kind: 'text' };
    case 'selected_utility_name':
      // One key per utility (offset 0 keeps it so), not one per job.
      return {
        key: sql`uk.k collate "C"`,
        kind: 'text',
        join: sql`join (select id, linecrew_text_key(code) as k from utilities where company_id = ${companyId} offset 0) uk on uk.id = j.utility_id`,
      };
    case 'created_name':
      return {
        key: sql`coalesce(ck.k, '') collate "C"`,
        kind: 'text',
        join: sql`left join (select id, linecrew_text_key(trim(first_name || ' ' || last_name)) as k from users where company_id = ${companyId} offset 0) ck on ck.id = j.created_by`,
      };
    case 'job_type':
      return { key: sql`j.job_type`, kind: 'number' };
    case 'status':
      return {
        key: sql`case when ${estimation} then ${rank(JOB_STATUS.ESTIMATION)} when ${complete} then ${rank(JOB_STATUS.COMPLETE)} else ${rank(JOB_STATUS.IN_PROGRESS)} end`,
        kind: 'number',
      };
    case 'ticket_count':
      // One grouped pass over the company's tickets (a count per job was 5× slower on 5,000 jobs, PGlite).
      return {
        key: sql`coalesce(tc.n, 0)`,
        kind: 'number',
        join: sql`left join (select job_id, count(*) as n from tickets where company_id = ${companyId} group by job_id) tc on tc.job_id = j.id`,
      };
    case 'due_date':
      return { key: sql`j.due_date`, kind: 'date' };
    case 'date_completed':
      // Milliseconds, as the reply's ISO text (isoInstant) holds the instant.
      return {
        key: sql`case when ${complete} then floor(extract(epoch from (select max(t.actual_completion_date) from tickets t where ${ofJob})) * 1000) else ${NO_DATE} end`,
        kind: 'number',
      };
    case 'unevidenced_count':
      // Complete tickets with fewer evidence photos than the company asks (records.md §8), every
      // job's once (materialized: as a plain join it was recomputed per job, 30× slower on PGlite).
      return {
        key: sql`coalesce(ue.n, 0)`,
        kind: 'number',
        with: sql`with ue as materialized (select t.job_id, count(*) as n from tickets t
          left join (select ticket_id, count(*) as g from images where company_id = ${companyId} and ${countsAsEvidenceSql(sql`flags`)} group by ticket_id) gp on gp.ticket_id = t.id
          where t.company_id = ${companyId} and t.actual_completion_date is not null
            and coalesce(gp.g, 0) < (select evidence_photos_required from companies where id = ${companyId})
          group by t.job_id)`,
        join: sql`left join ue on ue.job_id = j.id`,
      };
    case 'percent_complete':
      // Every job's percentage once (materialized: never recomputed per job), then joined.
      return { key: sql`coalesce(pc.percent, 0)`, kind: 'number', with: sql`with pc as materialized (${jobPercentsSql(companyId)})`, join: sql`left join pc on pc.job_id = j.id` };
  }
}

const param = (key: string | number, kind: KeyKind) => (kind === 'text' ? sql`(${key}::text collate "C")` : kind === 'date' ? sql`${key}::date` : sql`${key}::numeric`);

/**
 * One page's ids and sort keys, plus one row more when there is a next page. The keyset
 * `key > k or (key = k and id > i)` (`<` descending) with the bound `key >= k` the index can seek to.
 */
export async function selectJobPageKeys(db: DbOrTx, companyId: number, opts: JobPageOptions): Promise<{ id: number; k: string | number }[]> {
  const { key, kind, join, with: cte } = sortKey(companyId, opts.sort);
  const desc = opts.dir === 'desc';
  const after = opts.after
    ? sql`and (s.k ${sql.raw(desc ? '<=' : '>=')} ${param(opts.after.key, kind)})
        and (s.k ${sql.raw(desc ? '<' : '>')} ${param(opts.after.key, kind)} or s.id > ${opts.after.id})`
    : sql``;
  const result = await db.execute(sql`
    ${cte ?? sql``}
    select s.id, s.k from (
      select j.id, ${key} as k from jobs j ${join ?? sql``} where ${where(companyId, opts)}
    ) s
    where true ${after}
    order by s.k ${sql.raw(desc ? 'desc' : 'asc')}, s.id
    limit ${opts.limit}`);
  return rowsOf<{ id: number; k: string | number }>(result).map((r) => ({ id: Number(r.id), k: kind === 'number' ? Number(r.k) : String(r.k) }));
}

/**
 * How many jobs match status and q (every page says it). All of them: the count kept per company
 * by migration 0032's triggers (one row, where counting 100,000 jobs' index entries took 18 ms of
 * each page at ten years' size); a filter or a search: counted.
 */
export async function countJobPage(db: DbOrTx, companyId: number, opts: Pick<JobPageOptions, 'status' | 'q'>): Promise<number> {
  const result =
    opts.status === 'All' && !opts.q.trim()
      ? await db.execute(sql`select coalesce((select published from company_job_counts where company_id = ${companyId}), 0)::int as n`)
      : await db.execute(sql`select count(*)::int as n from jobs j where ${where(companyId, opts)}`);
  return Number(rowsOf<{ n: number }>(result)[0]?.n ?? 0);
}
