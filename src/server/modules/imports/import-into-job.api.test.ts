import { beforeAll, describe, expect, it } from 'vitest';
import { and, asc, count, eq, like } from 'drizzle-orm';
import { queryStats } from '../../db/client';
import { companies, jobs, poles, tickets, ticketTasks, units, users, utilities, workOrders } from '../../db/schema/index';
import { createTestApp } from '../../test/harness';
import { countOf, importFootprint } from '../../test/import-footprint';
import { importIntoJob } from './import-into-job';
import type { ImportTicket, ImportUnit } from './types';

/**
 * An import into an existing job that creates many tickets is staged (decision 032): written in
 * short statements under a hidden job, then moved into the job in one short transaction. These
 * tests hold it to the promises of the import it replaces: the same job at the end, all or
 * nothing, nothing visible before publication, and a job changed meanwhile imported whole.
 */

const t = await createTestApp();
const API = '/api/v1';
const db = t.ctx.db;
let companyId: number, utilityId: number, userId: number, office: string;

beforeAll(async () => {
  companyId = (await db.select().from(companies).where(eq(companies.name, 'Demo Line Co')))[0].id;
  utilityId = (await db.select().from(utilities).where(and(eq(utilities.companyId, companyId), eq(utilities.code, 'NGRID'))))[0].id;
  userId = (await db.select().from(users).where(eq(users.email, 'office@example.com')))[0].id;
  [office] = await t.loginAs('office');
});

let seq = 0;
const uniqueNumber = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++seq}`;

/** Drafts on poles `${prefix}-i` for i in [from, to): two tasks of `codes` (quantity `qty`) and a work order each. */
const drafts = (prefix: string, from: number, to: number, codes: string[], qty = 1): ImportTicket[] =>
  Array.from({ length: to - from }, (_, k) => {
    const i = from + k;
    return {
      row: k + 2,
      pole: { pole_name: `${prefix}-${i}`, line_name: 'SL', pole_id: null, line_id: null, street_address: `${i} Main St`, geo_lat: null, geo_lon: null, primary_voltage: null, secondary_voltage: null, arc_rating: null },
      street_address: null,
      geo_lat: null,
      geo_lon: null,
      due_date: null,
      ehasp: null,
      work_orders: [`WO-${i}`],
      tasks: [codes[i % codes.length], codes[(i + 1) % codes.length]].map((code) => ({ code, description: '', qty })),
    };
  });
const unit = (code: string): ImportUnit => ({ code, description: `Unit ${code}`, family: 'F', type: 'T', action: 'A', uom: 'EA', notes: '', unit_price: '2.50' });

async function newJob(prefix: string) {
  const [job] = await db.insert(jobs).values({ companyId, jobNumber: uniqueNumber(prefix), dueDate: '2027-06-01', utilityId, createdBy: userId }).returning();
  return job;
}

/** A job's tickets as a crew sees them, pole names without their prefix: pole, address, work orders, tasks (unit, bid). */
async function contents(jobId: number, prefix: string) {
  const rows = await db
    .select({ id: tickets.id, pole: poles.poleName, address: tickets.streetAddress })
    .from(tickets)
    .leftJoin(poles, eq(poles.id, tickets.poleId))
    .where(eq(tickets.jobId, jobId))
    .orderBy(asc(poles.poleName));
  const out = [];
  for (const r of rows) {
    const tasks = await db.select({ code: units.code, qty: ticketTasks.initQty }).from(ticketTasks).innerJoin(units, eq(units.id, ticketTasks.unitId)).where(eq(ticketTasks.ticketId, r.id));
    const wos = await db.select({ n: workOrders.workOrder }).from(workOrders).where(eq(workOrders.ticketId, r.id));
    out.push({
      pole: r.pole!.slice(prefix.length),
      address: r.address,
      workOrders: wos.map((w) => w.n).sort(),
      tasks: tasks.map((x) => `${x.code.slice(prefix.length)} ${Number(x.qty)}`).sort(),
    });
  }
  return out;
}

const footprint = () => importFootprint(db);
const pendingJobs = () => countOf(db.select({ n: count() }).from(jobs).where(eq(jobs.importPending, true)));

describe('an import into an existing job, staged', () => {
  it('writes the same job as the import in one transaction: new tickets, rows merged into its tickets, changed bids', async () => {
    const results = [];
    for (const [prefix, stageFrom] of [['IJS', 1], ['IJW', Infinity]] as const) {
      const codes = ['A', 'B', 'C'].map((c) => `${prefix}${c}`);
      const job = await newJob(prefix);
      const scope = { companyId, jobId: job.id, utilityId, userId };
      // The job has 40 tickets already; the file brings 300 new poles and 40 rows on its poles with new bids.
      await importIntoJob(db, scope, drafts(prefix, 0, 40, codes), codes.map(unit), { stageFrom: Infinity });
      const file = [...drafts(prefix, 0, 40, codes, 3), ...drafts(prefix, 40, 340, codes)];
      let staged = false;
      queryStats.onQuery = (query) => void (staged ||= /^insert into jobs .*import into job/is.test(query));
      let result;
      try {
        result = await importIntoJob(db, scope, file, codes.map(unit), { mode: 'update_quantities', stageFrom });
      } finally {
        queryStats.onQuery = undefined;
      }
      expect(staged).toBe(stageFrom === 1);
      results.push({ counts: result.counts, updated: result.updated, plan: { ...result.plan, token: undefined, changed: result.plan.changed.length }, job: await contents(job.id, prefix) });
    }
    const [staged, whole] = results;
    expect(staged.counts).toEqual({ tickets: 300, tasks: 600, workOrders: 300, units: 3, poles: 300 });
    expect(staged).toEqual(whole);
    expect(staged.job).toHaveLength(340);
    expect(staged.job.find((x) => x.pole === '-5')).toEqual({ pole: '-5', address: '5 Main St', workOrders: ['WO-5'], tasks: ['C 3', 'A 3'].sort() });
    expect(await pendingJobs()).toBe(0);
  }, 60_000);

  it('keeps GET /health answering and the job as it was until the import is published', async () => {
    const codes = ['IJR-A'];
    const job = await newJob('IJR');
    const scope = { companyId, jobId: job.id, utilityId, userId };
    await importIntoJob(db, scope, drafts('IJR', 0, 5, codes), codes.map(unit));
    const events: string[] = [];
    let probes: Promise<void> | undefined;
    queryStats.onQuery = (query) => {
      if (probes || !/^insert into tickets/i.test(query)) return;
      probes = Promise.all([
        t.request({ method: 'GET', url: `${API}/health` }).then((r) => void events.push(`health ${r.statusCode}`)),
        t.request({ method: 'GET', url: `${API}/jobs/${job.id}`, token: office }).then((r) => void events.push(`job ${r.statusCode} ${r.json().tickets.length} tickets`)),
      ]).then(() => undefined);
    };
    try {
      const result = await importIntoJob(db, scope, drafts('IJR', 0, 600, codes), [], { stageFrom: 1 });
      events.push(`import ${result.counts.tickets}`);
      await probes;
    } finally {
      queryStats.onQuery = undefined;
    }
    expect(events.slice(0, 2).sort()).toEqual(['health 200', 'job 200 5 tickets']);
    expect(events[2]).toBe('import 595');
    const page = await t.request({ method: 'GET', url: `${API}/jobs/${job.id}`, token: office });
    expect(page.json().tickets).toHaveLength(600);
  }, 60_000);

  it('imports again, whole, a job that changed before publication: one ticket per pole, nothing staged left', async () => {
    const codes = ['IJC-A', 'IJC-B'];
    const job = await newJob('IJC');
    const scope = { companyId, jobId: job.id, utilityId, userId };
    // Pole IJC-7 is the company's already, on no ticket of this job.
    const [pole7] = await db.insert(poles).values({ companyId, utilityId, poleName: 'IJC-7', lineName: 'SL' }).returning();
    let other: Promise<{ id: number }[]> | undefined;
    // While the big import stages its tickets, someone gives the job a ticket on that pole.
    queryStats.onQuery = (query) => {
      if (other || !/^insert into tickets/i.test(query)) return;
      // .then starts it now (a drizzle query runs when awaited).
      other = db.insert(tickets).values({ companyId, jobId: job.id, poleId: pole7.id }).returning({ id: tickets.id }).then((rows) => rows);
    };
    let result;
    try {
      result = await importIntoJob(db, scope, drafts('IJC', 0, 300, codes), codes.map(unit), { stageFrom: 1 });
    } finally {
      queryStats.onQuery = undefined;
    }
    const [theirs] = await other!;
    const job_ = await contents(job.id, 'IJC');
    expect(job_).toHaveLength(300);
    expect(new Set(job_.map((x) => x.pole)).size).toBe(300);
    // The import, planned again, merged pole 7's row into that ticket instead of making a second one.
    expect(result.counts.tickets).toBe(299);
    expect(job_.find((x) => x.pole === '-7')).toMatchObject({ workOrders: ['WO-7'], tasks: ['-A 1', '-B 1'] });
    expect(await countOf(db.select({ n: count() }).from(tickets).where(eq(tickets.poleId, pole7.id)))).toBe(1);
    expect((await db.select().from(tickets).where(eq(tickets.poleId, pole7.id)))[0].id).toBe(theirs.id);
    expect(await pendingJobs()).toBe(0);
    expect(await countOf(db.select({ n: count() }).from(poles).where(like(poles.poleName, 'IJC-%')))).toBe(300);
  }, 60_000);
});

describe('PUT /jobs/ with an id and many new tickets', () => {
  const newTickets = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => ({ pole: { pole_name: `${prefix}-${i}`, line_name: 'SL' }, work_orders: [`W${i}`], tasks: [{ code: `${prefix}-U`, init_qty: 1 }] }));

  it('saves the job and its 300 tickets together; a stale version answers 409 and writes nothing', async () => {
    const packet = await t.storeFile(companyId, 'work_packet', 'p.pdf');
    const number = uniqueNumber('IJP');
    const created = await t.request({ method: 'PUT', url: `${API}/jobs/`, token: office, body: { job: { job_number: number, due_date: '2027-06-01', selected_utility_id: utilityId, work_packet_url: packet.url } } });
    expect(created.statusCode).toBe(200);
    const job = created.json().job;
    const save = (version: number, hospital: string) => ({
      job: { id: job.id, version, job_number: number, due_date: '2027-06-01', selected_utility_id: utilityId, work_packet_url: packet.url, hospital_name: hospital, newTickets: newTickets('IJP', 300), newUnits: [{ code: 'IJP-U' }] },
    });

    const before = await footprint();
    const stale = await t.request({ method: 'PUT', url: `${API}/jobs/`, token: office, body: save(job.version + 1, 'Stale General') });
    expect(stale.statusCode).toBe(409);
    expect(await footprint()).toEqual(before);
    expect((await db.select().from(jobs).where(eq(jobs.id, job.id)))[0]).toMatchObject({ hospitalName: null, version: job.version });

    const res = await t.request({ method: 'PUT', url: `${API}/jobs/`, token: office, body: save(job.version, 'Baystate') });
    expect(res.statusCode).toBe(200);
    expect(res.json().imported).toMatchObject({ tickets: 300, tasks: 300, workOrders: 300, units: 1 });
    expect(res.json().job).toMatchObject({ hospital_name: 'Baystate', ticket_count: 300, version: job.version + 1 });
    expect(await footprint()).toMatchObject({ jobs: before.jobs, tickets: before.tickets + 300, units: before.units + 1 });
  }, 60_000);
});
