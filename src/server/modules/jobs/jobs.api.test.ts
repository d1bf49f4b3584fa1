import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { z } from 'zod';
import { countsAsEvidence } from '../../../shared/evidence';
import { beforeAll, describe, expect, it } from 'vitest';
import { and, count, eq, inArray, sql } from 'drizzle-orm';
import { MSG } from '../../../shared/messages';
import { defaultMappings } from '../../../shared/excel';
import { jobListItemSchema, jobSchema, type Job, type JobListItem, type JobSaveInput } from '../../../shared/jobs.schemas';
import { ticketRowSchema, ticketSchema } from '../../../shared/tickets.schemas';
import { queryStats } from '../../db/client';
import { companies, images, jobs, notes, permits, poles, tickets, ticketTasks, units, users, utilities, workOrders } from '../../db/schema/index';
import { makeStorageKey } from '../../storage/keys';
import { fixture } from '../../test/files';
import { createTestApp } from '../../test/harness';
import { loadTicket, loadTicketsOfJob } from '../tickets/tickets.service';

const t = await createTestApp();
const API = '/api/v1';
const db = t.ctx.db;

let admin: string, office: string, foreman: string, wforeman: string, lineman: string, apprentice: string, otherAdmin: string;
let demoId: number, otherId: number, ngrid: number, eversource: number, otherUtility: number;
const userIds: Record<string, number> = {};

beforeAll(async () => {
  [admin, office, foreman, wforeman, lineman, apprentice, otherAdmin] = await t.loginAs('admin', 'office', 'foreman', 'wforeman', 'lineman', 'apprentice', 'other');
  for (const u of await db.select().from(users)) userIds[u.email.toLowerCase()] = u.id;
  demoId = (await db.select().from(companies).where(eq(companies.name, 'Demo Line Co')))[0].id;
  otherId = (await db.select().from(companies).where(eq(companies.name, 'Other Line Co')))[0].id;
  const utils = await db.select().from(utilities);
  ngrid = utils.find((u) => u.companyId === demoId && u.code === 'NGRID')!.id;
  eversource = utils.find((u) => u.companyId === demoId && u.code === 'EVERSOURCE')!.id;
  otherUtility = utils.find((u) => u.companyId === otherId)!.id;
});

let seq = 0;
const uniqueNumber = (prefix = 'T') => `${prefix}-${Date.now().toString(36)}-${++seq}`;

async function newJob(over: Partial<JobSaveInput> = {}): Promise<JobSaveInput> {
  const packet = await t.storeFile(demoId, 'work_packet', 'packet.pdf');
  return {
    job_number: uniqueNumber(),
    job_type: 0,
    due_date: '12/31/2027',
    selected_utility_id: ngrid,
    foreman_id: userIds['foreman@example.com'],
    work_packet_url: packet.url,
    work_packet_name: 'Packet 4711.pdf',
    work_contact_phone: '6175550100',
    hospital_name: 'Mercy',
    hospital_address: '1 Hospital Way',
    ...over,
  };
}

const put = (token: string | undefined, job: unknown) => t.request({ method: 'PUT', url: `${API}/jobs/`, token, body: { job } });
const get = (token: string | undefined, url: string) => t.request({ method: 'GET', url: `${API}${url}`, token });
const fullTickets = (res: { statusCode: number; json: () => unknown }) => {
  expect(res.statusCode).toBe(200);
  return z.array(ticketSchema).parse(res.json());
};
const demoJob = async (number: string) => (await db.select().from(jobs).where(and(eq(jobs.companyId, demoId), eq(jobs.jobNumber, number))))[0];

const drafts = (p = 'NP') => [
  {
    pole: { pole_name: `${p}-1`, line_name: 'NL-1', geo_lat: 42.123456789, geo_lon: -71.5, street_address: '1 New St' },
    work_orders: ['WO-1', 'WO-2'],
    tasks: [
      { code: 'NEW-A', init_qty: 2 },
      { code: 'NEW-B', init_qty: 1, description: 'B on pole 1' },
    ],
    due_date: '01/15/2028',
  },
  // Same pole + line in other case and spacing: merged into the ticket above.
  { pole: { pole_name: ` ${p.toLowerCase()}-1 `, line_name: 'nl-1' }, work_orders: ['WO-2', 'WO-3'], tasks: [{ code: 'new-a', init_qty: 3 }] },
  { pole: { pole_name: `${p}-2`, line_name: 'NL-1' }, work_orders: [], tasks: [{ code: 'NEW-B', init_qty: 0 }] },
];
const newUnits = [
  { code: 'NEW-A', description: 'New unit A', family: 'Fam', type: 'Install', action: 'Set', uom: 'EA', notes: '' },
  { code: 'NEW-B', description: 'New unit B', family: 'Fam', type: 'Install', action: 'Set', uom: 'EA', notes: 'n' },
];

const rowCounts = async () => {
  const [[j], [tk], [ts], [wo], [u], [p]] = await Promise.all([
    db.select({ n: count() }).from(jobs),
    db.select({ n: count() }).from(tickets),
    db.select({ n: count() }).from(ticketTasks),
    db.select({ n: count() }).from(workOrders),
    db.select({ n: count() }).from(units),
    db.select({ n: count() }).from(poles),
  ]);
  return { jobs: j.n, tickets: tk.n, tasks: ts.n, workOrders: wo.n, units: u.n, poles: p.n };
};

describe('GET /jobs', () => {
  it('requires authentication', async () => {
    expect((await get(undefined, '/jobs')).statusCode).toBe(401);
  });

  it("lists the caller's company's jobs with every derived field, for every role", async () => {
    for (const token of [admin, lineman, apprentice, wforeman]) {
      const res = await get(token, '/jobs');
      expect(res.statusCode).toBe(200);
      const list = res.json() as JobListItem[];
      const byNumber = Object.fromEntries(list.map((j) => [j.job_number, j]));
      expect(byNumber['J-1001']).toMatchObject({
        job_type: 0,
        status: 'In Progress',
        ticket_count: 5,
        created_name: expect.any(String),
        selected_utility_name: 'NGRID',
        selected_utility_id: ngrid,
        date_completed: null,
        hospital_name: 'Baystate Medical Center',
      });
      expect(byNumber['J-1002'].status).toBe('In Estimation');
      expect(byNumber['J-1003']).toMatchObject({ status: 'Complete', ticket_count: 2, selected_utility_name: 'EVERSOURCE' });
      // Only Demo Line Co's three seeded jobs (+ what other tests created), never Other Line Co's.
      const otherJobs = await db.select({ id: jobs.id }).from(jobs).where(eq(jobs.companyId, otherId));
      expect(list.map((j) => j.id)).not.toContain(otherJobs[0].id);
    }
  });

  it('names the creator and the foreman', async () => {
    const list = (await get(admin, '/jobs')).json() as JobListItem[];
    const j1 = list.find((j) => j.job_number === 'J-1001')!;
    const [creator] = await db.select().from(users).where(eq(users.id, j1.created_by!));
    const [fm] = await db.select().from(users).where(eq(users.id, j1.foreman_id!));
    expect(j1.created_name).toBe(`${creator.firstName} ${creator.lastName}`);
    expect(j1.foreman_name).toBe(`${fm.firstName} ${fm.lastName}`);
  });

  it('Complete jobs carry the latest ticket completion as date_completed', async () => {
    const j3 = await demoJob('J-1003');
    const [{ last }] = await db
      .select({ last: sql<string>`max(${tickets.actualCompletionDate})` })
      .from(tickets)
      .where(eq(tickets.jobId, j3.id));
    const item = ((await get(admin, '/jobs')).json() as JobListItem[]).find((j) => j.id === j3.id)!;
    expect(new Date(item.date_completed!).getTime()).toBe(new Date(last).getTime());
  });
});

describe('job status derivation (docs/product/roles-and-statuses.md §5)', () => {
  it('In Progress without tickets, In Progress with a pending ticket, Complete when all are, In Estimation for type 1', async () => {
    const created = (await put(office, await newJob({ newTickets: drafts(), newUnits }))).json().job as JobListItem;
    expect(created).toMatchObject({ status: 'In Progress', ticket_count: 2, date_completed: null });
    const empty = (await put(office, await newJob())).json().job as JobListItem;
    expect(empty).toMatchObject({ status: 'In Progress', ticket_count: 0 });

    const ticketRows = await db.select().from(tickets).where(eq(tickets.jobId, created.id));
    await db.update(tickets).set({ actualCompletionDate: new Date('2027-03-01T10:00:00Z') }).where(eq(tickets.id, ticketRows[0].id));
    let job = (await get(admin, `/jobs/${created.id}`)).json() as Job;
    expect(job.status).toBe('In Progress');
    expect(job.date_completed).toBeNull();

    await db.update(tickets).set({ actualCompletionDate: new Date('2027-03-05T12:30:00Z') }).where(eq(tickets.id, ticketRows[1].id));
    job = (await get(admin, `/jobs/${created.id}`)).json() as Job;
    expect(job.status).toBe('Complete');
    expect(job.date_completed).toBe('2027-03-05T12:30:00.000Z');
    expect(job.tickets.map((x) => x.status)).toEqual(['Complete', 'Complete']);

    const saved = await put(office, { ...job, job_type: 1 });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().job).toMatchObject({ status: 'In Estimation', date_completed: null, version: 2 });
  });
});

describe('GET /jobs/{id}', () => {
  it('requires authentication', async () => {
    expect((await get(undefined, '/jobs/1')).statusCode).toBe(401);
  });

  it('returns the job with its ticket-table rows and the company time zone; GET /jobs/tickets/{id} the full tickets', async () => {
    const j1 = await demoJob('J-1001');
    const res = await get(lineman, `/jobs/${j1.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const job = jobSchema.strict().parse(res.json());
    expect(job).toMatchObject({ id: j1.id, job_number: 'J-1001', ticket_count: 5, company_time_zone: 'America/New_York', version: 1 });
    expect(job.tickets).toHaveLength(5);
    for (const row of job.tickets) expect(Object.keys(row).sort()).toEqual(Object.keys(ticketRowSchema.shape).sort());

    const full = fullTickets(await get(lineman, `/jobs/tickets/${j1.id}`));
    // A row is exactly the full ticket's fields of the same name.
    expect(job.tickets).toEqual(
      full.map((x) => ({
        ...ticketRowSchema.omit({ task_count: true, photo_count: true, note_count: true, unit_codes: true, evidence_photo_count: true }).parse(x),
        task_count: x.tasks.length,
        photo_count: x.images.length,
        evidence_photo_count: x.images.filter((i) => countsAsEvidence(i.flags)).length,
        note_count: x.notes.length,
        // The searchable work orders and unit codes (docs/product/rules.md §4.1), in their order of entry.
        unit_codes: x.tasks.map((k) => k.code),
      })),
    );
    expect(job.tickets[0].work_orders).toEqual(['WO-5000']);
    expect(job.tickets[0].unit_codes).toHaveLength(2);
    const first = full[0];
    expect(first.pole).toMatchObject({ pole_name: expect.any(String), line_name: expect.any(String), utility_name: 'NGRID' });
    expect(first.pole_name).toBe(first.pole!.pole_name);
    expect(first.tasks).toHaveLength(2);
    expect(first.tasks[0]).toMatchObject({ ticket_task_id: expect.any(Number), task_id: expect.any(Number), code: expect.any(String), init_qty: 1 });
    expect(first.notes[0]).toMatchObject({ author: expect.stringMatching(/\S+ \S+/), note_text: expect.any(String) });
    expect(first.work_orders).toEqual(['WO-5000']);
    expect(first.assigned_to_name).toEqual(expect.any(String));
    expect(first.status).toBe('Pending');
    expect(job.tickets.find((x) => x.actual_completion_date)?.status).toBe('Complete');
  });

  it('answers 304 to a matching If-None-Match, a new ETag after any change, and br or gzip when asked', async () => {
    const j2 = await demoJob('J-1002');
    const first = await get(lineman, `/jobs/${j2.id}`);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/".+"$/);
    expect(first.headers['cache-control']).toBe('private, no-cache');
    const again = await t.request({ method: 'GET', url: `${API}/jobs/${j2.id}`, token: lineman, headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    // Another company's user gets 404, never the cached reply or a 304.
    const foreign = await t.request({ method: 'GET', url: `${API}/jobs/${j2.id}`, token: otherAdmin, headers: { 'if-none-match': etag } });
    expect(foreign.statusCode).toBe(404);

    const zipped = await t.request({ method: 'GET', url: `${API}/jobs/${j2.id}`, token: lineman, headers: { 'accept-encoding': 'gzip, deflate' } });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(zipped.rawPayload).toString('utf8'))).toEqual(first.json());
    const br = await t.request({ method: 'GET', url: `${API}/jobs/${j2.id}`, token: lineman, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString('utf8'))).toEqual(first.json());
    const refused = await t.request({ method: 'GET', url: `${API}/jobs/${j2.id}`, token: lineman, headers: { 'accept-encoding': 'gzip;q=0' } });
    expect(refused.headers['content-encoding']).toBeUndefined();

    const [tk] = await db.select().from(tickets).where(eq(tickets.jobId, j2.id)).orderBy(tickets.id).limit(1);
    await db.update(tickets).set({ streetAddress: '99 Changed Rd' }).where(eq(tickets.id, tk.id));
    const changed = await t.request({ method: 'GET', url: `${API}/jobs/${j2.id}`, token: lineman, headers: { 'if-none-match': etag } });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect((changed.json() as Job).tickets.find((x) => x.id === tk.id)?.street_address).toBe('99 Changed Rd');
  });

  it('shows every write to what it reads at once: ticket, pole, assignee, utility, time zone, deletes', async () => {
    const job = (await put(office, await newJob({ newTickets: drafts('FP'), newUnits }))).json().job as JobListItem;
    const read = async () => (await get(lineman, `/jobs/${job.id}`)).json() as Job;
    let seen = await read();
    const [a, b] = seen.tickets;

    await db.update(poles).set({ poleName: 'FP-RENAMED' }).where(eq(poles.id, a.pole_id!));
    seen = await read();
    expect(seen.tickets[0].pole_name).toBe('FP-RENAMED');

    const wf = userIds['wforeman@example.com'];
    await db.update(tickets).set({ assignedTo: wf }).where(eq(tickets.id, b.id));
    seen = await read();
    const name = seen.tickets[1].assigned_to_name;
    expect(name).toEqual(expect.any(String));
    const [before] = await db.select().from(users).where(eq(users.id, wf));
    await db.update(users).set({ firstName: 'Renamed' }).where(eq(users.id, wf));
    seen = await read();
    expect(seen.tickets[1].assigned_to_name).toBe(`Renamed ${before.lastName}`);
    await db.update(users).set({ firstName: before.firstName }).where(eq(users.id, wf));

    await db.update(utilities).set({ code: 'NGRID-X' }).where(eq(utilities.id, ngrid));
    expect((await read()).selected_utility_name).toBe('NGRID-X');
    await db.update(utilities).set({ code: 'NGRID' }).where(eq(utilities.id, ngrid));

    await db.update(companies).set({ timeZone: 'America/Chicago' }).where(eq(companies.id, demoId));
    expect((await read()).company_time_zone).toBe('America/Chicago');
    await db.update(companies).set({ timeZone: 'America/New_York' }).where(eq(companies.id, demoId));

    expect((await t.request({ method: 'DELETE', url: `${API}/tickets/${b.id}`, token: office })).statusCode).toBe(200);
    seen = await read();
    expect(seen.tickets.map((x) => x.id)).toEqual([a.id]);
    expect(seen.ticket_count).toBe(1);

    expect((await t.request({ method: 'DELETE', url: `${API}/jobs/${job.id}`, token: office })).statusCode).toBe(200);
    expect((await get(lineman, `/jobs/${job.id}`)).statusCode).toBe(404);
  });

  it("answers 404 for another company's job and 400 for a non-numeric id", async () => {
    const [other] = await db.select().from(jobs).where(eq(jobs.companyId, otherId));
    expect((await get(admin, `/jobs/${other.id}`)).statusCode).toBe(404);
    expect((await get(otherAdmin, `/jobs/${other.id}`)).statusCode).toBe(200);
    expect((await get(admin, '/jobs/abc')).statusCode).toBe(400);
    expect((await get(admin, '/jobs/999999')).statusCode).toBe(404);
  });
});

describe('GET /jobs/{id}/header', () => {
  it('requires authentication', async () => {
    expect((await get(undefined, '/jobs/1/header')).statusCode).toBe(401);
  });

  it('answers the job without its tickets, for every role: what a crew needs before climbing (docs/product/field-mode.md §2)', async () => {
    const created = (await put(admin, await newJob({ ehasp_override: 'EHASP-9', arc_rating_override: '12 cal/cm²' }))).json().job as JobListItem;
    for (const token of [lineman, apprentice, wforeman]) {
      const res = await get(token, `/jobs/${created.id}/header`);
      expect(res.statusCode).toBe(200);
      const header = jobListItemSchema.strict().parse(res.json());
      expect(header).toMatchObject({
        id: created.id,
        hospital_name: 'Mercy',
        hospital_address: '1 Hospital Way',
        work_contact_phone: '6175550100',
        work_packet_name: 'Packet 4711.pdf',
        ehasp_override: 'EHASP-9',
        arc_rating_override: '12 cal/cm²',
      });
      expect(header.work_packet_url).toMatch(/^\/files\//);
    }
  });

  it("answers 404 for another company's job and 400 for a non-numeric id", async () => {
    const [other] = await db.select().from(jobs).where(eq(jobs.companyId, otherId));
    expect((await get(admin, `/jobs/${other.id}/header`)).statusCode).toBe(404);
    expect((await get(otherAdmin, `/jobs/${other.id}/header`)).statusCode).toBe(200);
    expect((await get(admin, '/jobs/abc/header')).statusCode).toBe(400);
    expect((await get(admin, '/jobs/999999/header')).statusCode).toBe(404);
  });
});

describe('batched ticket loaders', () => {
  it('use the same number of statements for 5 tickets and for 60 (no N+1)', async () => {
    const j1 = await demoJob('J-1001');
    const many = Array.from({ length: 60 }, (_, i) => ({ pole: { pole_name: `B-${i}`, line_name: 'BL' }, work_orders: [`W${i}`], tasks: [{ code: 'NEW-A', init_qty: 1 }] }));
    const big = (await put(office, await newJob({ newTickets: many, newUnits }))).json().job as JobListItem;
    expect(big.ticket_count).toBe(60);

    let before = queryStats.count;
    const small = await loadTicketsOfJob(db, demoId, j1.id);
    const smallCount = queryStats.count - before;
    before = queryStats.count;
    const large = await loadTicketsOfJob(db, demoId, big.id);
    const largeCount = queryStats.count - before;
    expect(small).toHaveLength(5);
    expect(large).toHaveLength(60);
    expect(largeCount).toBe(smallCount);
    expect(largeCount).toBe(6);
  });

  it("loadTicket returns one ticket, null for another company's", async () => {
    const [tk] = await db.select().from(tickets).where(eq(tickets.companyId, demoId)).limit(1);
    expect((await loadTicket(db, demoId, tk.id))?.id).toBe(tk.id);
    expect(await loadTicket(db, otherId, tk.id)).toBeNull();
    expect(await loadTicketsOfJob(db, otherId, tk.jobId)).toEqual([]);
  });
});

describe('GET /jobs/tickets/{id}', () => {
  it('requires authentication', async () => {
    expect((await get(undefined, '/jobs/tickets/1')).statusCode).toBe(401);
  });
  it("lists the job's tickets; 404 for another company's job", async () => {
    const j2 = await demoJob('J-1002');
    const res = await get(apprentice, `/jobs/tickets/${j2.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toHaveLength(2);
    expect(res.json()[0].job_id).toBe(j2.id);
    const [other] = await db.select().from(jobs).where(eq(jobs.companyId, otherId));
    expect((await get(admin, `/jobs/tickets/${other.id}`)).statusCode).toBe(404);
  });
});

describe('GET /jobs/job_exists/{number}', () => {
  it('requires authentication', async () => {
    expect((await get(undefined, '/jobs/job_exists/J-1001')).statusCode).toBe(401);
  });
  it("answers a non-empty list for a number of the caller's company only", async () => {
    const res = await get(foreman, '/jobs/job_exists/J-1001');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([{ id: (await demoJob('J-1001')).id, job_number: 'J-1001' }]);
    expect((await get(foreman, '/jobs/job_exists/NO-SUCH-JOB')).json()).toEqual([]);
    await db.insert(jobs).values({ companyId: otherId, jobNumber: 'OTHER ONLY/7', dueDate: '2027-01-01', utilityId: otherUtility });
    expect((await get(admin, `/jobs/job_exists/${encodeURIComponent('OTHER ONLY/7')}`)).json()).toEqual([]);
    expect((await get(otherAdmin, `/jobs/job_exists/${encodeURIComponent('OTHER ONLY/7')}`)).json()).toHaveLength(1);
  });
});

describe('GET /utilities', () => {
  it('requires authentication', async () => {
    expect((await get(undefined, '/utilities')).statusCode).toBe(401);
  });
  it("lists the company's utilities as id and code", async () => {
    const res = await get(lineman, '/utilities');
    expect(res.statusCode).toBe(200);
    expect(res.json().map((u: { code: string }) => u.code)).toEqual(['EVERSOURCE', 'NGRID', 'UNITIL']);
    expect(res.json()[0]).toEqual({ id: eversource, code: 'EVERSOURCE' });
    expect((await get(otherAdmin, '/utilities')).json().map((u: { id: number }) => u.id)).toEqual([otherUtility]);
  });
});

describe('PUT /jobs/ create', () => {
  it('requires authentication', async () => {
    expect((await put(undefined, await newJob())).statusCode).toBe(401);
  });

  it('refuses working foremen, linemen and apprentices with 403, whatever they send', async () => {
    for (const token of [wforeman, lineman, apprentice]) {
      expect((await put(token, await newJob())).statusCode).toBe(403);
      expect((await put(token, { nonsense: true })).statusCode).toBe(403);
    }
  });

  it('creates a job for admin, office and foreman: normalised due date, creator, version 1', async () => {
    for (const [token, email] of [
      [admin, 'admin@example.com'],
      [office, 'office@example.com'],
      [foreman, 'foreman@example.com'],
    ] as const) {
      const input = await newJob();
      const res = await put(token, input);
      expect(res.statusCode).toBe(200);
      const job = res.json().job as JobListItem;
      expect(job).toMatchObject({
        job_number: input.job_number,
        due_date: '2027-12-31',
        version: 1,
        status: 'In Progress',
        ticket_count: 0,
        created_by: userIds[email],
        selected_utility_name: 'NGRID',
        work_packet_name: 'Packet 4711.pdf',
        work_packet_type: 'application/pdf',
        work_packet_size: 13,
        hospital_name: 'Mercy',
      });
      const [row] = await db.select().from(jobs).where(eq(jobs.id, job.id));
      expect(row.companyId).toBe(demoId);
      expect(row.dueDate).toBe('2027-12-31');
    }
  });

  it('accepts a job without a foreman (optional) and an ISO due date', async () => {
    const res = await put(admin, await newJob({ foreman_id: null, due_date: '2028-02-29' }));
    expect(res.statusCode).toBe(200);
    expect(res.json().job).toMatchObject({ foreman_id: null, foreman_name: null, due_date: '2028-02-29' });
  });

  it('enforces the docs/product/rules.md §1.2 job save rules', async () => {
    const cases: [Partial<JobSaveInput>, string][] = [
      [{ job_number: '  ' }, MSG.jobNumberRequired],
      [{ due_date: '' }, MSG.jobDueDateRequired],
      [{ due_date: '02/30/2027' }, MSG.jobDueDateRequired],
      [{ due_date: undefined }, MSG.jobDueDateRequired],
      [{ selected_utility_id: -1 }, MSG.jobUtilityRequired],
      [{ work_packet_url: '' }, MSG.jobPacketRequired],
    ];
    for (const [over, message] of cases) {
      const res = await put(admin, await newJob(over));
      expect(res.statusCode, JSON.stringify(over)).toBe(400);
      expect(res.json().error).toContain(message);
    }
  });

  it("refuses another company's utility, a non-foreman as foreman, and packets that are not the company's uploads", async () => {
    let res = await put(admin, await newJob({ selected_utility_id: otherUtility }));
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe(MSG.jobUtilityInvalid);
    res = await put(admin, await newJob({ foreman_id: userIds['lineman@example.com'] }));
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe(MSG.jobForemanInvalid);
    res = await put(admin, await newJob({ foreman_id: userIds['admin@other.example.com'] }));
    expect(res.statusCode).toBe(400);

    const foreign = await t.storeFile(otherId, 'work_packet', 'theirs.pdf');
    for (const url of [foreign.url, 'https://evil.example.com/packet.pdf', t.ctx.storage.urlFor(makeStorageKey(demoId, 'work_packet', 'never-uploaded.pdf'))]) {
      res = await put(admin, await newJob({ work_packet_url: url }));
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error).toMatch(/work packet/);
    }
    const excel = await t.storeFile(demoId, 'excel', 'book.xlsx');
    expect((await put(admin, await newJob({ work_packet_url: excel.url }))).statusCode).toBe(400);
  });

  it('answers 409 for a duplicate job number in the same company, enforced by the unique index', async () => {
    const res = await put(admin, await newJob({ job_number: 'J-1001' }));
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe(MSG.jobNumberExists);
    // The same number in another company is fine (Other Line Co also has J-1001).
    const number = uniqueNumber('DUP');
    const saves = await Promise.all([put(admin, await newJob({ job_number: number })), put(office, await newJob({ job_number: number }))]);
    expect(saves.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(await db.select().from(jobs).where(eq(jobs.jobNumber, number))).toHaveLength(1);
  });

  it('a duplicate number with tickets writes nothing', async () => {
    const before = await rowCounts();
    const res = await put(admin, await newJob({ job_number: 'J-1002', newTickets: drafts(), newUnits }));
    expect(res.statusCode).toBe(409);
    expect(await rowCounts()).toEqual(before);
  });
});

describe('PUT /jobs/ create with newTickets', () => {
  it('stores tickets (grouped by pole + line), tasks, work orders, poles and unit-library rows in one save', async () => {
    const before = await rowCounts();
    const unitsThere = await db.select().from(units).where(and(eq(units.companyId, demoId), eq(units.utilityId, ngrid), inArray(units.code, ['NEW-A', 'NEW-B'])));
    const input = await newJob({ newTickets: drafts('FRESH'), newUnits, ehasp_override: 'EHASP-9', primary_voltage_override: '34.5kV' });
    const res = await put(foreman, input);
    expect(res.statusCode).toBe(200);
    const { job, imported } = res.json();
    expect(imported).toEqual({ tickets: 2, tasks: 4, workOrders: 3, units: 2, poles: 2 });
    expect(job.ticket_count).toBe(2);
    expect(await rowCounts()).toEqual({
      jobs: before.jobs + 1,
      tickets: before.tickets + 2,
      tasks: before.tasks + 4,
      workOrders: before.workOrders + 3,
      units: before.units + 2 - unitsThere.length,
      poles: before.poles + 2,
    });

    const full = fullTickets(await get(lineman, `/jobs/tickets/${job.id}`));
    const p1 = full.find((x) => x.pole_name === 'FRESH-1')!;
    expect(p1.line_name).toBe('NL-1');
    expect(p1.work_orders).toEqual(['WO-1', 'WO-2', 'WO-3']);
    // A task's own description (docs/product/imports.md §12), else the library's.
    expect(p1.tasks.map((k) => [k.code, k.init_qty, k.description])).toEqual([
      ['NEW-A', 2, 'New unit A'],
      ['NEW-B', 1, 'B on pole 1'],
      ['NEW-A', 3, 'New unit A'],
    ]);
    expect(p1).toMatchObject({ geo_lat: 42.123456, geo_lon: -71.5, street_address: '1 New St', due_date: '2028-01-15', ehasp: 'EHASP-9', status: 'Pending' });
    expect(p1.pole).toMatchObject({ utility_id_owning_pole: ngrid, utility_name: 'NGRID', geo_lat: 42.123456, primary_voltage: '34.5kV' });
    const [unitA] = await db.select().from(units).where(and(eq(units.companyId, demoId), eq(units.utilityId, ngrid), eq(units.code, 'NEW-A')));
    expect(unitA).toMatchObject({ description: 'New unit A', family: 'Fam', uom: 'EA' });
  });

  it('reuses an existing pole of the utility and upserts library rows by code', async () => {
    const [seedPole] = await db.select().from(poles).where(and(eq(poles.companyId, demoId), eq(poles.utilityId, ngrid))).limit(1);
    const [seedUnit] = await db.select().from(units).where(and(eq(units.companyId, demoId), eq(units.utilityId, ngrid))).limit(1);
    const before = await rowCounts();
    const res = await put(admin, await newJob({
      newTickets: [{ pole: { pole_name: seedPole.poleName.toLowerCase(), line_name: seedPole.lineName }, tasks: [{ code: seedUnit.code, init_qty: 4 }] }],
      newUnits: [{ code: seedUnit.code, description: 'Updated by import', family: '', type: '', action: '', uom: '', notes: '' }],
    }));
    expect(res.statusCode).toBe(200);
    expect(res.json().imported).toMatchObject({ tickets: 1, tasks: 1, poles: 0, units: 1 });
    expect((await rowCounts()).poles).toBe(before.poles);
    expect((await rowCounts()).units).toBe(before.units);
    const [ticket] = await db.select().from(tickets).where(eq(tickets.jobId, res.json().job.id));
    expect(ticket.poleId).toBe(seedPole.id);
    const [unit] = await db.select().from(units).where(eq(units.id, seedUnit.id));
    // The non-blank cell replaced the description; blank cells kept what the library had.
    expect(unit).toMatchObject({ description: 'Updated by import', family: seedUnit.family, uom: seedUnit.uom });
  });

  it('a bad row rejects the whole save with a 400 naming the row, and nothing is stored', async () => {
    const before = await rowCounts();
    const number = uniqueNumber('BAD');
    const bad = [...drafts(), { row: 17, pole: { pole_name: '', line_name: 'NL-1' }, tasks: [{ code: 'NEW-A', init_qty: 1 }] }];
    let res = await put(admin, await newJob({ job_number: number, newTickets: bad, newUnits }));
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('Row 17: Pole name is missing');

    res = await put(admin, await newJob({ job_number: number, newTickets: [...drafts(), { pole: { pole_name: 'X', line_name: '' }, tasks: [{ code: 'NOPE-1', init_qty: 1 }] }], newUnits }));
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe(MSG.importUnknownUnit('Ticket 4', 'NOPE-1'));

    res = await put(admin, await newJob({ job_number: number, newTickets: [{ pole: { pole_name: 'X' }, tasks: [{ code: 'NEW-A', init_qty: -1, row: 9 }] }], newUnits }));
    expect(res.statusCode).toBe(400);

    res = await put(admin, await newJob({ job_number: number, newTickets: [{ pole: { pole_name: 'X' }, tasks: [{ code: 'NEW-A', init_qty: 1, additional_qty: -2, row: 9 }] }], newUnits }));
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe(MSG.importBadQty('Row 9'));

    expect(await rowCounts()).toEqual(before);
    expect(await db.select().from(jobs).where(eq(jobs.jobNumber, number))).toEqual([]);
  });
});

describe('PUT /jobs/ create with ticketsFile (a workbook written by openpyxl)', () => {
  const mappingsFor = async (url: string) => {
    const cols = await get(admin, `/jobs/excel/getColumns?url=${encodeURIComponent(url)}`);
    expect(cols.statusCode).toBe(200);
    return defaultMappings(cols.json());
  };

  it('reads the workbook from storage and imports it with the job', async () => {
    const book = await t.storeFile(demoId, 'excel', 'good.xlsx', { body: fixture('good.xlsx') });
    const m = await mappingsFor(book.url);
    const res = await put(office, await newJob({
      selected_utility_id: eversource,
      ticketsFile: { ticket_file_url: book.url, ticket_file_name: 'good.xlsx', ticketsMappings: m.ticketsMappings, libraryMappings: m.libraryMappings },
    }));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().imported).toMatchObject({ tickets: 3, tasks: 5 });
    const p1 = fullTickets(await get(admin, `/jobs/tickets/${res.json().job.id}`)).find((x) => x.pole_name === 'P-1')!;
    expect(p1.tasks.map((k) => k.code)).toEqual(['U-100', 'U-200', 'U-300']);
    expect(p1.work_orders).toEqual(['WO-100', 'WO-101']);
    // 'Last one wins' for the duplicated library code U-300.
    expect(p1.tasks[2].description).toBe('Crossarm 10 ft');
  });

  it('a bad row of the workbook answers 400 naming the row; nothing is stored', async () => {
    const book = await t.storeFile(demoId, 'excel', 'bad-row.xlsx', { body: fixture('bad-row.xlsx') });
    const m = await mappingsFor(book.url);
    const before = await rowCounts();
    const res = await put(office, await newJob({
      ticketsFile: { ticket_file_url: book.url, ticket_file_name: 'bad-row.xlsx', ticketsMappings: m.ticketsMappings, libraryMappings: m.libraryMappings },
    }));
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/Row 14/);
    expect(await rowCounts()).toEqual(before);
  });
});

describe('PUT /jobs/ update', () => {
  it('updates with the current version, answers 409 to a stale one and 400 without one', async () => {
    const created = (await put(office, await newJob())).json().job as JobListItem;
    let res = await put(office, { ...created, hospital_name: 'St. Vincent', tickets: [] });
    expect(res.statusCode).toBe(200);
    expect(res.json().job).toMatchObject({ id: created.id, hospital_name: 'St. Vincent', version: 2 });

    res = await put(admin, { ...created, hospital_name: 'Stale' });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe(MSG.staleVersion);
    expect((await db.select().from(jobs).where(eq(jobs.id, created.id)))[0].hospitalName).toBe('St. Vincent');

    const { version: _v, ...noVersion } = created;
    res = await put(admin, noVersion);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe(MSG.jobVersionRequired);
  });

  it('removing the packet is refused (packet url is required); a new packet must be an upload', async () => {
    const created = (await put(office, await newJob())).json().job as JobListItem;
    expect((await put(office, { ...created, work_packet_url: null, work_packet_name: null })).statusCode).toBe(400);
    const next = await t.storeFile(demoId, 'work_packet', 'v2.pdf', { body: Buffer.from('%PDF-1.7 second') });
    const res = await put(office, { ...created, work_packet_url: next.url, work_packet_name: 'v2.pdf' });
    expect(res.statusCode).toBe(200);
    expect(res.json().job).toMatchObject({ work_packet_url: next.url, work_packet_size: 15 });
    // The replaced packet is gone from storage; a packet another job still shows is kept.
    expect(await t.ctx.storage.head(t.ctx.storage.keyFromUrl(created.work_packet_url!)!)).toBeNull();
    const shared = await t.storeFile(demoId, 'work_packet', 'shared-packet.pdf');
    const one = (await put(office, await newJob({ work_packet_url: shared.url }))).json().job as JobListItem;
    await put(office, await newJob({ work_packet_url: shared.url }));
    const third = await t.storeFile(demoId, 'work_packet', 'third.pdf');
    expect((await put(office, { ...one, work_packet_url: third.url })).statusCode).toBe(200);
    expect(await t.ctx.storage.head(shared.key)).not.toBeNull();
  });

  it("keeps an unchanged foreman even if no longer valid; 404 for another company's job; 409 for a taken number", async () => {
    const created = (await put(office, await newJob())).json().job as JobListItem;
    const [other] = await db.select().from(jobs).where(eq(jobs.companyId, otherId));
    expect((await put(admin, { ...created, id: other.id })).statusCode).toBe(404);
    const res = await put(admin, { ...created, job_number: 'J-1003' });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe(MSG.jobNumberExists);
    expect((await put(lineman, { ...created, hospital_name: 'x' })).statusCode).toBe(403);
  });
});

describe('DELETE /jobs/{id} and GET /jobs/delete/{id}', () => {
  it('require authentication and jobs.write', async () => {
    const j1 = await demoJob('J-1001');
    expect((await t.request({ method: 'DELETE', url: `${API}/jobs/${j1.id}` })).statusCode).toBe(401);
    expect((await get(undefined, `/jobs/delete/${j1.id}`)).statusCode).toBe(401);
    for (const token of [wforeman, lineman, apprentice]) {
      expect((await t.request({ method: 'DELETE', url: `${API}/jobs/${j1.id}`, token })).statusCode).toBe(403);
      expect((await get(token, `/jobs/delete/${j1.id}`)).statusCode).toBe(403);
    }
    expect((await demoJob('J-1001')).id).toBe(j1.id);
  });

  it("answers 404 for another company's job and leaves it", async () => {
    const [other] = await db.select().from(jobs).where(eq(jobs.companyId, otherId));
    expect((await t.request({ method: 'DELETE', url: `${API}/jobs/${other.id}`, token: admin })).statusCode).toBe(404);
    expect((await get(admin, `/jobs/delete/${other.id}`)).statusCode).toBe(404);
    expect(await db.select().from(jobs).where(eq(jobs.id, other.id))).toHaveLength(1);
  });

  it("removes the job's tickets, tasks, notes, work orders, permits, images and files, and nothing of other jobs", async () => {
    const a = (await put(office, await newJob({ newTickets: drafts(), newUnits }))).json().job as JobListItem;
    const keepFile = await t.storeFile(demoId, 'work_packet', 'shared.pdf');
    const b = (await put(office, await newJob({ newTickets: drafts(), newUnits, work_packet_url: keepFile.url }))).json().job as JobListItem;
    const aTickets = await db.select().from(tickets).where(eq(tickets.jobId, a.id));
    const bTickets = await db.select().from(tickets).where(eq(tickets.jobId, b.id));

    const img = await t.storeFile(demoId, 'media', 'a.jpg');
    const thumb = await t.storeFile(demoId, 'thumbnail', 'a-thumb.jpg');
    const dig = await t.storeFile(demoId, 'dig_file', 'dig.pdf');
    const permit = await t.storeFile(demoId, 'permit', 'permit.pdf');
    const bImg = await t.storeFile(demoId, 'media', 'b.jpg');
    await db.insert(images).values([
      { companyId: demoId, ticketId: aTickets[0].id, url: img.url, thumbnailUrl: thumb.url },
      { companyId: demoId, ticketId: bTickets[0].id, url: bImg.url, thumbnailUrl: bImg.url },
      // Job A also shows the file job B's packet is: it must survive.
      { companyId: demoId, ticketId: aTickets[1].id, url: keepFile.url, thumbnailUrl: keepFile.url },
    ]);
    await db.update(tickets).set({ digSafeUrl: dig.url, digSafeRequired: 1 }).where(eq(tickets.id, aTickets[0].id));
    await db.insert(permits).values({ companyId: demoId, ticketId: aTickets[1].id, permitUrl: permit.url, permitName: 'Permit' });
    await db.insert(notes).values([
      { companyId: demoId, ticketId: aTickets[0].id, noteText: 'a note' },
      { companyId: demoId, ticketId: bTickets[0].id, noteText: 'b note' },
    ]);
    const [aPacket] = await db.select({ u: jobs.workPacketUrl }).from(jobs).where(eq(jobs.id, a.id));
    const polesBefore = (await rowCounts()).poles;

    const res = await t.request({ method: 'DELETE', url: `${API}/jobs/${a.id}`, token: foreman });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, id: a.id });

    const aIds = aTickets.map((x) => x.id);
    expect(await db.select().from(jobs).where(eq(jobs.id, a.id))).toEqual([]);
    expect(await db.select().from(tickets).where(inArray(tickets.id, aIds))).toEqual([]);
    for (const table of [ticketTasks, workOrders, notes, permits, images] as const) {
      expect(await db.select().from(table).where(inArray(table.ticketId, aIds)), table === notes ? 'notes' : '').toEqual([]);
    }
    for (const f of [img, thumb, dig, permit]) expect(await t.ctx.storage.head(f.key)).toBeNull();
    expect(await t.ctx.storage.head(t.ctx.storage.keyFromUrl(aPacket.u!)!)).toBeNull();

    // Job B, its rows and files, the shared file, and the poles are all still there.
    const ticketsB = fullTickets(await get(admin, `/jobs/tickets/${b.id}`));
    expect(ticketsB).toHaveLength(2);
    expect(ticketsB[0].tasks.length + ticketsB[1].tasks.length).toBe(4);
    expect(ticketsB.flatMap((x) => x.notes.map((n) => n.note_text))).toEqual(['b note']);
    expect(await t.ctx.storage.head(bImg.key)).not.toBeNull();
    expect(await t.ctx.storage.head(keepFile.key)).not.toBeNull();
    expect((await rowCounts()).poles).toBe(polesBefore);

    expect((await get(admin, `/jobs/${a.id}`)).statusCode).toBe(404);
    expect((await t.request({ method: 'DELETE', url: `${API}/jobs/${a.id}`, token: admin })).statusCode).toBe(404);
  });

  it('GET /jobs/delete/{id} deletes too', async () => {
    const a = (await put(admin, await newJob())).json().job as JobListItem;
    const res = await get(admin, `/jobs/delete/${a.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().success).toBe(true);
    expect(await db.select().from(jobs).where(eq(jobs.id, a.id))).toEqual([]);
  });
});
