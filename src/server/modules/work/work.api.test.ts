import { eq, inArray, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROLE, WORK_LIMIT, WORK_LIMIT_MAX } from '../../../shared/constants';
import { jobSchema } from '../../../shared/jobs.schemas';
import { dateValue, textKey } from '../../../shared/sorting';
import { workReply, type WorkTicket } from '../../../shared/work.schemas';
import { queryStats } from '../../db/client';
import { jobs, poles, tickets, users } from '../../db/schema/index';
import { createTestApp } from '../../test/harness';
import { SEEDED_USERS, type SeededRole } from '../../test/seeded-users';

/**
 * GET /work (docs/product/field-mode.md §1 My Work): each role sees exactly the open tickets that concern it, as
 * the job page's rows plus the job number, grouped by job and soonest due first.
 *
 * The fixture adds, in the demo company: job A run by Frank (foreman@, the crew foreman of the
 * seeded working foreman, lineman and apprentice) with one complete ticket; job B run by Fiona
 * (another foreman) with one ticket assigned to Walt (wforeman@); job C with no foreman; and a
 * job of the other company. The seeded jobs stay: the expected lists are derived from the
 * database by the DESIGN rule, and the fixture's tickets are checked by name besides.
 */
const t = await createTestApp();
const API = '/api/v1';
const tokens = {} as Record<SeededRole, string>;
let company: number;
let ngrid: number;
const uid = {} as Record<'frank' | 'fiona' | 'walt' | 'liam' | 'ava' | 'otherAdmin', number>;
let otherCompany: number;
const job = {} as Record<'A' | 'B' | 'C' | 'other', number>;
/** Fixture tickets by pole name (pole names are unique across the fixture). */
const ticketId: Record<string, number> = {};

async function userId(email: string): Promise<number> {
  const [u] = await t.ctx.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  return u.id;
}

type Draft = { pole: string; due?: string };
async function createJob(as: { token: string; company: number; utility: number }, number: string, foremanId: number | null, drafts: Draft[]) {
  const { token, utility } = as;
  const packet = await t.storeFile(as.company, 'work_packet', `${number}.pdf`);
  const res = await t.request({
    method: 'PUT',
    url: `${API}/jobs/`,
    token,
    body: {
      job: {
        job_number: number,
        job_type: 0,
        due_date: '12/31/2030',
        selected_utility_id: utility,
        foreman_id: foremanId,
        work_packet_url: packet.url,
        newTickets: drafts.map((d) => ({ pole: { pole_name: d.pole, line_name: 'WRK' }, due_date: d.due ?? null })),
      },
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  const id = res.json().job.id as number;
  const rows = await t.ctx.db.select({ id: tickets.id, pole: poles.poleName }).from(tickets).innerJoin(poles, eq(poles.id, tickets.poleId)).where(eq(tickets.jobId, id));
  for (const r of rows) ticketId[r.pole] = r.id;
  return id;
}

const work = (token: string | undefined, query = '') => t.request({ method: 'GET', url: `${API}/work${query}`, token });

async function workOf(role: SeededRole, query = ''): Promise<WorkTicket[]> {
  const res = await work(tokens[role], query);
  expect(res.statusCode, res.body).toBe(200);
  // Sent as kept bytes (work.service myWorkReply): byte for byte what the schema's serializer would send.
  expect(res.body).toBe(JSON.stringify(workReply.parse(res.json())));
  return workReply.strict().parse(res.json()).tickets;
}

/** The docs/product/field-mode.md rule, applied to every ticket in the database: the open tickets that concern `userId`. */
async function expectedIds(userIdOf: number): Promise<number[]> {
  const [me] = await t.ctx.db.select().from(users).where(eq(users.id, userIdOf));
  const rows = await t.ctx.db
    .select({ id: tickets.id, jobForeman: jobs.foremanId, assignedTo: tickets.assignedTo, done: tickets.actualCompletionDate })
    .from(tickets)
    .innerJoin(jobs, eq(jobs.id, tickets.jobId))
    .where(eq(tickets.companyId, me.companyId));
  const concerns = (r: (typeof rows)[number]) => {
    switch (me.roleId) {
      case ROLE.FOREMAN:
        return r.jobForeman === me.id;
      case ROLE.WORKING_FOREMAN:
        return r.assignedTo === me.id || (me.foremanId !== null && r.jobForeman === me.foremanId);
      case ROLE.LINEMAN:
      case ROLE.APPRENTICE:
        return me.foremanId !== null && r.jobForeman === me.foremanId;
      default:
        return true;
    }
  };
  return rows.filter((r) => r.done === null && concerns(r)).map((r) => r.id).sort((a, b) => a - b);
}

const sortedIds = (list: WorkTicket[]) => list.map((w) => w.id).sort((a, b) => a - b);

beforeAll(async () => {
  const roles = Object.keys(SEEDED_USERS) as SeededRole[];
  const signed = await t.loginAs(...roles);
  roles.forEach((r, i) => (tokens[r] = signed[i]));
  ({ company, ngrid } = await t.demo());
  uid.frank = await userId(SEEDED_USERS.foreman);
  uid.fiona = await userId('fiona@example.com');
  uid.walt = await userId(SEEDED_USERS.wforeman);
  uid.liam = await userId(SEEDED_USERS.lineman);
  uid.ava = await userId(SEEDED_USERS.apprentice);
  uid.otherAdmin = await userId(SEEDED_USERS.other);
  const [other] = await t.ctx.db.select({ companyId: users.companyId }).from(users).where(eq(users.id, uid.otherAdmin));
  otherCompany = other.companyId;
  const demoAdmin = { token: tokens.admin, company, utility: ngrid };

  // Job A: due dates in a known order, one without, pole names that sort naturally, one complete.
  job.A = await createJob(demoAdmin, 'WRK-A', uid.frank, [
    { pole: 'A-P-10', due: '2030-03-01' },
    { pole: 'a-p-2', due: '2030-03-01' },
    { pole: 'A-P-1', due: '2030-03-01' },
    { pole: 'A-NODUE' },
    { pole: 'A-SOON', due: '2030-02-01' },
    { pole: 'A-DONE', due: '2030-01-01' },
  ]);
  job.B = await createJob(demoAdmin, 'WRK-B', uid.fiona, [
    { pole: 'B-WALT', due: '2030-04-01' },
    { pole: 'B-OTHER', due: '2030-01-15' },
  ]);
  job.C = await createJob(demoAdmin, 'WRK-C', null, [{ pole: 'C-1', due: '2030-05-01' }]);
  await t.ctx.db.update(tickets).set({ assignedTo: uid.walt }).where(eq(tickets.id, ticketId['B-WALT']));
  await t.ctx.db.update(tickets).set({ actualCompletionDate: new Date() }).where(eq(tickets.id, ticketId['A-DONE']));

  const otherUtility = (await t.request({ method: 'GET', url: `${API}/utilities`, token: tokens.other })).json()[0].id as number;
  job.other = await createJob({ token: tokens.other, company: otherCompany, utility: otherUtility }, 'WRK-O', null, [{ pole: 'O-1', due: '2030-01-01' }]);
});

const fixture = (list: WorkTicket[]) => list.map((w) => w.pole_name).filter((p) => p && /^(A|a|B|C|O)-/.test(p)).sort();
const OPEN_A = ['A-NODUE', 'A-P-1', 'A-P-10', 'A-SOON', 'a-p-2'].sort();

describe('GET /work', () => {
  it('requires authentication', async () => {
    expect((await work(undefined)).statusCode).toBe(401);
  });

  it('a foreman sees the open tickets of the jobs he runs', async () => {
    const list = await workOf('foreman');
    expect(sortedIds(list)).toEqual(await expectedIds(uid.frank));
    expect(fixture(list)).toEqual(OPEN_A);
  });

  it('a working foreman sees his crew foreman’s jobs and the tickets assigned to him', async () => {
    const list = await workOf('wforeman');
    expect(sortedIds(list)).toEqual(await expectedIds(uid.walt));
    expect(fixture(list)).toEqual([...OPEN_A, 'B-WALT'].sort());
  });

  it('linemen and apprentices see their crew foreman’s jobs only', async () => {
    for (const [role, id] of [['lineman', uid.liam], ['apprentice', uid.ava]] as const) {
      const list = await workOf(role);
      expect(sortedIds(list), role).toEqual(await expectedIds(id));
      expect(fixture(list), role).toEqual(OPEN_A);
    }
  });

  it('a member without a crew foreman sees only what is assigned to him', async () => {
    await t.ctx.db.update(users).set({ foremanId: null }).where(eq(users.id, uid.walt));
    try {
      const list = await workOf('wforeman');
      expect(list.map((w) => w.pole_name)).toContain('B-WALT');
      expect(list.every((w) => w.assigned_to === uid.walt)).toBe(true);
      expect(sortedIds(list)).toEqual(await expectedIds(uid.walt));
    } finally {
      await t.ctx.db.update(users).set({ foremanId: uid.frank }).where(eq(users.id, uid.walt));
    }
  });

  it('the office sees every open ticket of its company, never another company’s', async () => {
    for (const role of ['admin', 'office'] as const) {
      const list = await workOf(role);
      expect(sortedIds(list), role).toEqual(await expectedIds(await userId(SEEDED_USERS[role])));
      expect(fixture(list), role).toEqual([...OPEN_A, 'B-OTHER', 'B-WALT', 'C-1'].sort());
    }
    const other = await workOf('other');
    expect(other.map((w) => w.pole_name)).toEqual(['O-1']);
    expect(other[0].job_id).toBe(job.other);
  });

  it('office roles filter by foreman; another company’s or an unknown foreman gives an empty list', async () => {
    const fiona = await workOf('admin', `?foreman_id=${uid.fiona}`);
    const fionasJobs = (await t.ctx.db.select({ id: jobs.id }).from(jobs).where(eq(jobs.foremanId, uid.fiona))).map((j) => j.id);
    expect(fiona.length).toBeGreaterThan(0);
    expect(fiona.every((w) => fionasJobs.includes(w.job_id))).toBe(true);
    expect(fixture(fiona)).toEqual(['B-OTHER', 'B-WALT']);
    const all = await workOf('office');
    expect(sortedIds(fiona)).toEqual(sortedIds(all.filter((w) => fionasJobs.includes(w.job_id))));

    expect(fixture(await workOf('office', `?foreman_id=${uid.frank}`))).toEqual(OPEN_A);
    expect(await workOf('admin', `?foreman_id=${uid.otherAdmin}`)).toEqual([]);
    expect(await workOf('other', `?foreman_id=${uid.frank}`)).toEqual([]);
    expect(await workOf('admin', '?foreman_id=2147483647')).toEqual([]);
    // A filter narrows, never widens: a foreman asking for another foreman's jobs gets nothing.
    expect(await workOf('foreman', `?foreman_id=${uid.fiona}`)).toEqual([]);
  });

  it('refuses a foreman_id that is not a row id', async () => {
    for (const bad of ['abc', '0', '-3', '1.5', '99999999999']) {
      const res = await work(tokens.admin, `?foreman_id=${bad}`);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().fields).toHaveProperty('foreman_id');
    }
  });

  it('each item is the job page’s row of that ticket plus its job number', async () => {
    const list = await workOf('admin');
    const jobIds = [...new Set(list.map((w) => w.job_id))];
    const numbers = new Map((await t.ctx.db.select({ id: jobs.id, n: jobs.jobNumber }).from(jobs).where(inArray(jobs.id, jobIds))).map((j) => [j.id, j.n]));
    for (const id of jobIds) {
      const page = jobSchema.parse((await t.request({ method: 'GET', url: `${API}/jobs/${id}`, token: tokens.admin })).json());
      for (const item of list.filter((w) => w.job_id === id)) {
        const row = page.tickets.find((r) => r.id === item.id);
        expect(item).toEqual({ ...row, job_number: numbers.get(id) });
      }
    }
  });

  it('is grouped by job, soonest due first, then by pole name as the job page sorts it', async () => {
    const list = await workOf('admin');
    // Jobs are contiguous, ordered by their soonest due ticket (a job without one last).
    const order = list.map((w) => w.job_id).filter((id, i, all) => all.indexOf(id) === i);
    expect(list.map((w) => w.job_id)).toEqual(order.flatMap((id) => list.filter((w) => w.job_id === id).map(() => id)));
    const soonest = (id: number) => {
      const dates = list.filter((w) => w.job_id === id).map((w) => dateValue(w.due_date)).filter((d): d is number => d !== null);
      return dates.length ? Math.min(...dates) : Infinity;
    };
    for (let i = 1; i < order.length; i++) expect(soonest(order[i - 1])).toBeLessThanOrEqual(soonest(order[i]));
    // Within a job: due date (none last), then pole name, naturally ('P-2' before 'P-10').
    for (const id of order) {
      const rows = list.filter((w) => w.job_id === id);
      for (let i = 1; i < rows.length; i++) {
        const [a, b] = [rows[i - 1], rows[i]];
        const [da, db] = [dateValue(a.due_date) ?? Infinity, dateValue(b.due_date) ?? Infinity];
        expect(da <= db, `${a.pole_name} before ${b.pole_name}`).toBe(true);
        if (da === db) expect(textKey(a.pole_name) <= textKey(b.pole_name), `${a.pole_name} before ${b.pole_name}`).toBe(true);
      }
    }
    // The fixture job A spelled out: soonest first, the three of one day by pole name, no due date last.
    expect(list.filter((w) => w.job_id === job.A).map((w) => w.pole_name)).toEqual(['A-SOON', 'A-P-1', 'a-p-2', 'A-P-10', 'A-NODUE']);
    // Job B (soonest 2030-01-15) comes before job A (2030-02-01), which comes before job C (2030-05-01).
    expect(order.indexOf(job.B)).toBeLessThan(order.indexOf(job.A));
    expect(order.indexOf(job.A)).toBeLessThan(order.indexOf(job.C));
  });

  it('sends the first `limit` open tickets in work order and how many there are in all (docs/product/scale.md §5)', async () => {
    const whole = workReply.strict().parse((await work(tokens.admin, `?limit=${WORK_LIMIT_MAX}`)).json());
    const expected = await expectedIds(await userId(SEEDED_USERS.admin));
    expect(expected.length).toBeLessThan(WORK_LIMIT_MAX);
    expect(sortedIds(whole.tickets)).toEqual(expected);
    expect(whole.total).toBe(expected.length);
    // The first three are the whole list's first three, and the total still counts them all.
    const first = workReply.strict().parse((await work(tokens.admin, '?limit=3')).json());
    expect(first.tickets).toEqual(whole.tickets.slice(0, 3));
    expect(first.total).toBe(expected.length);
    // Without a limit: at most WORK_LIMIT, in the same order.
    const plain = workReply.strict().parse((await work(tokens.admin)).json());
    expect(plain.tickets).toEqual(whole.tickets.slice(0, WORK_LIMIT));
    expect(plain.total).toBe(expected.length);
  });

  it(`refuses a limit outside 1–${WORK_LIMIT_MAX} with a 400 naming it`, async () => {
    for (const bad of ['0', '-1', '1.5', 'abc', String(WORK_LIMIT_MAX + 1)]) {
      const res = await work(tokens.admin, `?limit=${bad}`);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().fields, bad).toHaveProperty('limit');
    }
  });

  it('reads its rows in a fixed number of statements, however many tickets there are', async () => {
    const count = async (role: SeededRole, url: string) => {
      const before = queryStats.count;
      const res = await t.request({ method: 'GET', url: `${API}${url}`, token: tokens[role] });
      expect(res.statusCode).toBe(200);
      return queryStats.count - before;
    };
    // GET /utilities is one statement after the session check, as is the fingerprint of a kept
    // reply of /work. A changed one costs four more: the open tickets' sort keys, the rows of the
    // first `limit`, and beside them the Complete tickets still short of evidence photos
    // (docs/product/records.md §8): the company's setting and that list.
    const baseline = await count('admin', '/utilities');
    await count('admin', '/work');
    await count('wforeman', '/work');
    const kept = { admin: await count('admin', '/work'), wforeman: await count('wforeman', '/work') };
    expect(kept).toEqual({ admin: baseline, wforeman: baseline });
    await createJob({ token: tokens.admin, company, utility: ngrid }, 'WRK-BIG', uid.frank, Array.from({ length: 40 }, (_, i) => ({ pole: `BIG-${i}`, due: '2030-06-01' })));
    const after = { admin: await count('admin', '/work'), wforeman: await count('wforeman', '/work') };
    expect(after).toEqual({ admin: baseline + 4, wforeman: baseline + 4 });
    expect((await workOf('wforeman')).filter((w) => w.pole_name?.startsWith('BIG-'))).toHaveLength(40);
  });

  it('leaves out a ticket once it is complete, and shows it again when reopened', async () => {
    const id = ticketId['A-SOON'];
    const has = async () => (await workOf('lineman')).some((w) => w.id === id);
    expect(await has()).toBe(true);
    const read = (await t.request({ method: 'GET', url: `${API}/tickets/${id}`, token: tokens.foreman })).json();
    const save = (status: string, version: number) =>
      t.request({ method: 'PUT', url: `${API}/tickets/`, token: tokens.foreman, body: { ticket: { id, version, status } } });
    const done = await save('Complete', read.version);
    expect(done.statusCode, done.body).toBe(200);
    expect(await has()).toBe(false);
    expect((await save('Pending', done.json().ticket.version)).statusCode).toBe(200);
    expect(await has()).toBe(true);
  });

  it('is company-scoped even for a ticket whose job foreman is a user of another company', async () => {
    // A foreign foreman id planted on the other company's job (bad data) shows nothing to the demo company.
    await t.ctx.db.update(jobs).set({ foremanId: uid.frank }).where(eq(jobs.id, job.other));
    try {
      expect((await workOf('foreman')).some((w) => w.job_id === job.other)).toBe(false);
      expect((await workOf('admin')).some((w) => w.job_id === job.other)).toBe(false);
    } finally {
      await t.ctx.db.update(jobs).set({ foremanId: null }).where(eq(jobs.id, job.other));
    }
  });

  describe('kept per scope, never stale (work.service myWorkReply)', () => {
    const rowOf = async (role: SeededRole, id: number) => (await workOf(role)).find((w) => w.id === id);
    const save = async (token: string, id: number, fields: Record<string, unknown>) => {
      const read = await t.request({ method: 'GET', url: `${API}/tickets/${id}`, token });
      expect(read.statusCode, read.body).toBe(200);
      const res = await t.request({ method: 'PUT', url: `${API}/tickets/`, token, body: { ticket: { id, version: read.json().version, ...fields } } });
      expect(res.statusCode, res.body).toBe(200);
    };

    it('sends the same bytes and ETag while nothing changed, and 304 to a client that holds them', async () => {
      const a = await work(tokens.foreman);
      const b = await work(tokens.foreman);
      expect(b.body).toBe(a.body);
      expect(b.headers.etag).toBe(a.headers.etag);
      const again = await t.request({ method: 'GET', url: `${API}/work`, token: tokens.foreman, headers: { 'if-none-match': String(a.headers.etag) } });
      expect(again.statusCode).toBe(304);
    });

    it('shows a ticket edit, a note and a completion at once, to the writer and to others of the scope', async () => {
      const id = ticketId['A-P-1'];
      // Warm every scope that holds job A: Frank's, his crew's, the office's.
      for (const role of ['foreman', 'lineman', 'wforeman', 'admin'] as SeededRole[]) expect(await rowOf(role, id)).toBeDefined();
      await save(tokens.foreman, id, { street_address: 'kept-1' });
      for (const role of ['foreman', 'lineman', 'wforeman', 'admin'] as SeededRole[]) expect((await rowOf(role, id))?.street_address).toBe('kept-1');
      // Another member of the same scope (a lineman of the crew) adds a note: the foreman and the crew see it.
      const notes = (await rowOf('foreman', id))!.note_count;
      await save(tokens.lineman, id, { notes: [{ note_text: 'kept note' }] });
      expect((await rowOf('foreman', id))?.note_count).toBe(notes + 1);
      expect((await rowOf('lineman', id))?.note_count).toBe(notes + 1);
      await save(tokens.admin, id, { due_date: '2029-12-01' });
      expect((await rowOf('foreman', id))?.due_date).toBe('2029-12-01');
      expect((await workOf('foreman')).findIndex((w) => w.id === id)).toBeLessThan((await workOf('foreman')).findIndex((w) => w.id === ticketId['A-SOON']));
      await save(tokens.wforeman, id, { status: 'Complete' });
      expect(await rowOf('foreman', id)).toBeUndefined();
      const needs = (await work(tokens.foreman)).json().needs_photos as WorkTicket[];
      expect(needs.some((w) => w.id === id)).toBe(true);
      await save(tokens.foreman, id, { status: 'Pending', due_date: '2030-03-01' });
      expect(await rowOf('lineman', id)).toBeDefined();
    });

    it('shows an assignment change to the member assigned and unassigned', async () => {
      const id = ticketId['C-1'];
      expect(await rowOf('wforeman', id)).toBeUndefined();
      await save(tokens.admin, id, { assigned_to: uid.walt });
      expect((await rowOf('wforeman', id))?.assigned_to).toBe(uid.walt);
      await save(tokens.admin, id, { assigned_to: null });
      expect(await rowOf('wforeman', id)).toBeUndefined();
    });

    it('shows writes made outside the API (another process): a job renamed or moved, a crew changed, the company setting', async () => {
      const id = ticketId['A-P-10'];
      expect((await rowOf('foreman', id))?.job_number).toBe('WRK-A');
      await t.ctx.db.update(jobs).set({ jobNumber: 'WRK-A2' }).where(eq(jobs.id, job.A));
      try {
        expect((await rowOf('foreman', id))?.job_number).toBe('WRK-A2');
        expect((await rowOf('lineman', id))?.job_number).toBe('WRK-A2');
      } finally {
        await t.ctx.db.update(jobs).set({ jobNumber: 'WRK-A' }).where(eq(jobs.id, job.A));
      }
      // Jobs A and B swap foremen in one statement: the same number of jobs each way.
      const swap = (a: number, b: number) =>
        t.ctx.db.update(jobs).set({ foremanId: sql`case when ${jobs.id} = ${job.A} then ${a}::int else ${b}::int end` }).where(inArray(jobs.id, [job.A, job.B]));
      await swap(uid.fiona, uid.frank);
      try {
        expect(await rowOf('foreman', id)).toBeUndefined();
        expect(await rowOf('foreman', ticketId['B-OTHER'])).toBeDefined();
      } finally {
        await swap(uid.frank, uid.fiona);
      }
      expect(await rowOf('foreman', id)).toBeDefined();
      // The lineman leaves Frank's crew.
      await t.ctx.db.update(users).set({ foremanId: null }).where(eq(users.id, uid.liam));
      try {
        expect(await rowOf('lineman', id)).toBeUndefined();
      } finally {
        await t.ctx.db.update(users).set({ foremanId: uid.frank }).where(eq(users.id, uid.liam));
      }
      expect(await rowOf('lineman', id)).toBeDefined();
      const required = (await work(tokens.foreman)).json().evidence_photos_required as number;
      const put = (n: number) => t.request({ method: 'PUT', url: `${API}/company`, token: tokens.admin, body: { evidence_photos_required: n } });
      expect((await put(required + 1)).statusCode).toBe(200);
      try {
        expect((await work(tokens.foreman)).json().evidence_photos_required).toBe(required + 1);
      } finally {
        expect((await put(required)).statusCode).toBe(200);
      }
    });
  });
});
