import { beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { JOB_SORT_COLUMNS, JOB_STATUS_FILTERS, matchesJobQuery, matchesStatus, sortJobs, type JobStatusFilter } from '../../../shared/jobs.list';
import { jobListRowSchema, jobPageReply, type JobListRow, type JobPageReply } from '../../../shared/jobs.schemas';
import { MSG } from '../../../shared/messages';
import { textKey } from '../../../shared/sorting';
import { rowsOf } from '../../db/client';
import { companies, images, jobs, tickets, ticketTasks, units, users, utilities } from '../../db/schema/index';
import { createTestApp } from '../../test/harness';

/**
 * GET /jobs?limit= (docs/product/scale.md §2): the database pages, filters, searches and sorts the
 * list exactly as the shared rules do (sortJobs, matchesStatus, matchesJobQuery), held to them on
 * random data in a company of its own; and it refuses what it cannot read with a clear 400.
 */
const t = await createTestApp();
const API = '/api/v1';
const db = t.ctx.db;

// A seeded generator: a failure names its seed, and JOBS_PAGE_SEED=<n> replays it.
const seed = Number(process.env.JOBS_PAGE_SEED ?? Date.now() % 1_000_000);
let state = seed;
const random = () => {
  state = (state + 0x6d2b79f5) | 0;
  let r = Math.imul(state ^ (state >>> 15), 1 | state);
  r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
  return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
};
const pick = <T,>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
/** Text with what the order must get right: case, digit runs (leading zeros, 9 < 10, long ones), accents, spaces. */
const randomText = (pieces: readonly string[], parts = int(1, 4)) => Array.from({ length: parts }, () => (random() < 0.45 ? String(int(0, 120)).padStart(int(1, 4), '0') : pick(pieces))).join('');

let other: string, demoAdmin: string;
let otherCompany: number;
let list: JobListRow[]; // GET /jobs without limit: the spec's list, the oracle's input

const get = (token: string, url: string) => t.request({ method: 'GET', url: `${API}${url}`, token });
async function page(token: string, query: string): Promise<JobPageReply> {
  const res = await get(token, `/jobs?${query}`);
  expect(res.statusCode, `seed ${seed}: ${query} → ${res.body}`).toBe(200);
  return jobPageReply.parse(res.json());
}
/** Every page in turn, following next_cursor; the ids in order and each page's total. */
async function allPages(token: string, query: string, limit: number): Promise<{ ids: number[]; totals: Set<number>; pages: number }> {
  const ids: number[] = [];
  const totals = new Set<number>();
  let cursor: string | null = null;
  let pages = 0;
  do {
    const reply: JobPageReply = await page(token, `${query}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(reply.jobs.length, `seed ${seed}`).toBeLessThanOrEqual(limit);
    ids.push(...reply.jobs.map((j) => j.id));
    totals.add(reply.total);
    cursor = reply.next_cursor;
    if (++pages > 200) throw new Error('the cursor does not move on');
  } while (cursor);
  return { ids, totals, pages };
}

beforeAll(async () => {
  [other, demoAdmin] = await t.loginAs('other', 'admin');
  const [company] = await db.select().from(companies).where(eq(companies.name, 'Other Line Co'));
  otherCompany = company.id;

  // Utilities, people and priced units of the second company, named to test the text order.
  const utilityRows = await db
    .insert(utilities)
    .values(['ngrid', 'NGRID 10', 'Ngrid 9', 'Éversource', 'unitil'].map((code) => ({ companyId: otherCompany, code })))
    .returning({ id: utilities.id });
  const people = await db
    .insert(users)
    .values(
      ['Ann 2', 'ann 10', 'Bob Öster', 'bob oster', 'Cy 007', 'Dee'].map((first, i) => ({
        companyId: otherCompany,
        roleId: 3,
        firstName: first,
        lastName: i % 2 ? 'Smith' : 'smith',
        email: `page-${seed}-${i}@other.example.com`,
      })),
    )
    .returning({ id: users.id });
  const unitRows = await db
    .insert(units)
    .values([0, 1, 2, 3].map((i) => ({ companyId: otherCompany, utilityId: utilityRows[0].id, code: `PU-${i}`, unitPrice: i === 0 ? null : `${int(1, 999)}.${int(10, 99)}` })))
    .returning({ id: units.id });

  // ~150 jobs: numbers that tie by textKey ('J-1' / 'j-01'), estimation and normal, 0–4 tickets
  // each, some complete (sharing completion instants, to the millisecond and within one), tasks.
  const numbers = new Set<string>();
  while (numbers.size < 150) numbers.add(randomText(['J-', 'j-', 'WO ', 'wo-', 'É', 'é', 'x', '-', 'A', 'a']));
  const instants = Array.from({ length: 6 }, () => new Date(Date.UTC(int(2019, 2026), int(0, 11), int(1, 28), int(0, 23), int(0, 59), int(0, 59), int(0, 999))));
  // Three statements (jobs, tickets, tasks) rather than one per row: PGlite is slow per statement.
  const numberList = [...numbers];
  const jobIds = await db
    .insert(jobs)
    .values(
      numberList.map((number) => ({
        companyId: otherCompany,
        jobNumber: number,
        jobType: random() < 0.2 ? 1 : 0,
        createdBy: random() < 0.15 ? null : pick(people).id,
        foremanId: random() < 0.3 ? null : pick(people).id,
        dueDate: `${int(2020, 2030)}-${String(int(1, 12)).padStart(2, '0')}-${String(int(1, 28)).padStart(2, '0')}`,
        utilityId: pick(utilityRows).id,
      })),
    )
    .returning({ id: jobs.id });
  const ticketValues = jobIds.flatMap(({ id }) => {
    const allDone = random() < 0.4;
    return Array.from({ length: int(0, 4) }, () => {
      const at = allDone || random() < 0.5 ? pick(instants) : null;
      // Within one millisecond too: the list's ISO text keeps milliseconds only.
      return { companyId: otherCompany, jobId: id, actualCompletionDate: at ? sql`${at.toISOString()}::timestamptz + ${`${int(0, 900)} microseconds`}::interval` : null };
    });
  });
  const ticketIds = await db.insert(tickets).values(ticketValues).returning({ id: tickets.id });
  const taskValues = ticketIds.flatMap(({ id }) =>
    Array.from({ length: int(0, 2) }, () => ({ companyId: otherCompany, ticketId: id, unitId: pick(unitRows).id, initQty: int(0, 5), additionalQty: int(-1, 3) * 0.5 })),
  );
  if (taskValues.length) await db.insert(ticketTasks).values(taskValues);
  // Photos on some tickets, placed and timed at random: their checks (flags, written by the
  // database) make some complete tickets evidenced and others not, for unevidenced_count.
  const imageValues = ticketIds.flatMap(({ id }) =>
    Array.from({ length: random() < 0.5 ? 0 : int(1, 3) }, (_, i) => ({
      companyId: otherCompany,
      ticketId: id,
      url: `/files/p-${id}-${i}.jpg`,
      thumbnailUrl: `/files/t-${id}-${i}.jpg`,
      takenAt: random() < 0.3 ? new Date(Date.UTC(2001, 0, 1)) : random() < 0.5 ? null : new Date(),
      geoLat: random() < 0.5 ? null : 42 + random(),
      geoLon: random() < 0.5 ? null : -71 + random(),
    })),
  );
  if (imageValues.length) await db.insert(images).values(imageValues);
  await db.update(companies).set({ evidencePhotosRequired: 1 }).where(eq(companies.id, otherCompany));
  const res = await get(other, '/jobs');
  expect(res.statusCode).toBe(200);
  list = (res.json() as unknown[]).map((row) => jobListRowSchema.parse(row));
  expect(list.length).toBeGreaterThanOrEqual(150);
  // The evidence sort has something to order: jobs with 0, 1 and more unevidenced tickets.
  expect(new Set(list.map((j) => Math.min(j.unevidenced_count, 2)))).toEqual(new Set([0, 1, 2]));
});

describe('GET /jobs?limit= orders as the shared comparators (random data)', () => {
  it('linecrew_text_key is textKey', async () => {
    const samples = [...list.flatMap((j) => [j.job_number, j.selected_utility_name, j.created_name]), '', '000', 'a0b00', '12345678901234567890', '00012345678901234567x', '1234567890123456'];
    const values = sql.join(samples.map((v) => sql`(${v}::text)`), sql`, `);
    const result = await db.execute(sql`select s, linecrew_text_key(s) as k from (values ${values}) v(s)`);
    const mismatches = rowsOf<{ s: string; k: string }>(result).filter((r) => r.k !== textKey(r.s));
    expect(mismatches, `seed ${seed}`).toEqual([]);
  });

  for (const column of JOB_SORT_COLUMNS) {
    it(`every page in turn sorted by ${column}, both directions, equals sortJobs`, async () => {
      for (const dir of ['asc', 'desc'] as const) {
        const { ids, totals, pages } = await allPages(other, `sort=${column}&dir=${dir}`, int(7, 40));
        expect(ids, `seed ${seed}: ${column} ${dir}`).toEqual(sortJobs(list, column, dir).map((j) => j.id));
        expect([...totals]).toEqual([list.length]);
        expect(pages).toBeGreaterThan(1);
      }
    });
  }

  it('status and q filter as matchesStatus and matchesJobQuery, and total counts the matches', async () => {
    const queries = ['j-', 'É', 'ngrid', 'ngrid 1', 'smith', 'ann 1', 'bob ö', '0', 'nothing-like-it'];
    for (const status of JOB_STATUS_FILTERS) {
      for (const q of [pick(queries), pick(queries), '']) {
        const column = pick(JOB_SORT_COLUMNS);
        const dir = pick(['asc', 'desc'] as const);
        const expected = sortJobs(
          list.filter((j) => matchesStatus(j, status as JobStatusFilter) && matchesJobQuery(j, q)),
          column,
          dir,
        ).map((j) => j.id);
        const { ids, totals } = await allPages(other, `status=${encodeURIComponent(status)}&q=${encodeURIComponent(q)}&sort=${column}&dir=${dir}`, int(5, 30));
        expect(ids, `seed ${seed}: ${status} "${q}" ${column} ${dir}`).toEqual(expected);
        expect([...totals]).toEqual([expected.length]);
      }
    }
  });

  it('the rows of a page are the rows of the whole list', async () => {
    const reply = await page(other, 'limit=25&sort=percent_complete&dir=desc');
    const byId = new Map(list.map((j) => [j.id, j]));
    for (const job of reply.jobs) expect(job).toEqual(byId.get(job.id));
  });

  it("is sent as the schema's serializer would send it: the same bytes, keys in its order", async () => {
    // The route sends a page as JSON text, not through the zod serializer (decision 063).
    for (const query of ['limit=25&sort=percent_complete&dir=desc', 'limit=200&status=Complete', 'limit=5&q=zzz-none']) {
      const res = await get(other, `/jobs?${query}`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.body, query).toBe(JSON.stringify(jobPageReply.parse(res.json())));
    }
  });
});

describe('GET /jobs?limit= search, defaults and tenancy', () => {
  it('defaults to the jobs page order (job number, descending) and says there is more', async () => {
    const reply = await page(other, 'limit=10');
    expect(reply.jobs.map((j) => j.id)).toEqual(sortJobs(list, 'job_number', 'desc').slice(0, 10).map((j) => j.id));
    expect(reply.total).toBe(list.length);
    expect(reply.next_cursor).toEqual(expect.any(String));
  });

  it('reads % and _ in q as text, not as wildcards', async () => {
    const job = await t.createJob(demoAdmin, (await t.demo()).company, { job_number: 'PCT-10%_A', selected_utility_id: (await t.demo()).ngrid });
    const hits = await page(demoAdmin, `limit=50&q=${encodeURIComponent('10%_')}`);
    expect(hits.jobs.map((j) => j.id)).toEqual([job.id]);
    expect((await page(demoAdmin, `limit=50&q=${encodeURIComponent('T-1_%')}`)).total).toBe(0);
  });

  it("never shows another company's jobs, and refuses its cursor", async () => {
    const demoPage = await page(demoAdmin, 'limit=200');
    const otherIds = new Set(list.map((j) => j.id));
    expect(demoPage.jobs.some((j) => otherIds.has(j.id))).toBe(false);
    const someNumber = list[0].job_number;
    expect((await page(demoAdmin, `limit=50&q=${encodeURIComponent(someNumber)}`)).jobs.every((j) => !otherIds.has(j.id))).toBe(true);

    const foreign = (await page(other, 'limit=5')).next_cursor!;
    const res = await get(demoAdmin, `/jobs?limit=5&cursor=${encodeURIComponent(foreign)}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe(MSG.jobsPageCursor);
  });

  it('every role reads it', async () => {
    const [lineman] = await t.loginAs('lineman');
    expect((await get(lineman, '/jobs?limit=5')).statusCode).toBe(200);
  });
});

describe('GET /jobs?limit= refuses what it cannot read (400, a message to act on)', () => {
  it.each([
    ['limit=0', MSG.jobsPageLimit],
    ['limit=201', MSG.jobsPageLimit],
    ['limit=ten', MSG.jobsPageLimit],
    ['limit=2.5', MSG.jobsPageLimit],
    ['limit=5&sort=pole_name', MSG.jobsPageSort],
    ['limit=5&dir=up', MSG.jobsPageDir],
    ['limit=5&status=Done', MSG.jobsPageStatus],
    ['limit=5&cursor=not-a-cursor', MSG.jobsPageCursor],
    ['limit=5&cursor=' + Buffer.from('{"c":1,"s":"job_number","d":"desc","k":5,"i":1}').toString('base64url'), MSG.jobsPageCursor],
    ['q=J-1', MSG.jobsPageNeedsLimit('q')],
    ['sort=status', MSG.jobsPageNeedsLimit('sort')],
  ])('%s', async (query, message) => {
    const res = await get(other, `/jobs?${query}`);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error).toContain(message);
  });

  it("a cursor of another sort or direction is refused, not misread", async () => {
    const cursor = (await page(other, 'limit=5&sort=ticket_count&dir=asc')).next_cursor!;
    for (const query of ['sort=ticket_count&dir=desc', 'sort=job_number&dir=asc']) {
      const res = await get(other, `/jobs?limit=5&${query}&cursor=${encodeURIComponent(cursor)}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe(MSG.jobsPageCursor);
    }
  });
});
