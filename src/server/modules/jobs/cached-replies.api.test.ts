import { gunzipSync } from 'node:zlib';
import { and, eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { jobListRowSchema, type JobListItem, type JobListRow, type JobSaveInput } from '../../../shared/jobs.schemas';
import { productionReply, type ProductionReply } from '../../../shared/production.schemas';
import type { Ticket } from '../../../shared/tickets.schemas';
import { companies, invoiceLines, invoices, jobs, tickets, ticketTasks, units, users, utilities } from '../../db/schema/index';
import { SEEDED_USERS } from '../../test/seeded-users';
import { createTestApp } from '../../test/harness';

/**
 * GET /jobs and GET /jobs/{id}/production are kept as bytes and served again while their
 * fingerprint is unchanged (plugins/reply-cache.ts). Each test reads a reply FIRST, so that it is kept,
 * then changes one thing the reply shows (through the API, or straight in the database as
 * another process would) and checks the next read shows it; unchanged, the ETag holds and
 * If-None-Match answers 304.
 */
const t = await createTestApp();
const API = '/api/v1';
const db = t.ctx.db;

let admin: string, office: string, foreman: string, wforeman: string, lineman: string, apprentice: string, otherAdmin: string;
let demoId: number, ngrid: number;
const stamp = Date.now().toString(36);
let seq = 0;

const get = (url: string, token = admin, headers: Record<string, string> = {}) => t.request({ method: 'GET', url: `${API}${url}`, token, headers });

const list = async (token = admin): Promise<JobListRow[]> => {
  const res = await get('/jobs', token);
  expect(res.statusCode, res.body).toBe(200);
  return jobListRowSchema.strict().array().parse(res.json());
};
const listed = async (jobId: number, token = admin) => (await list(token)).find((r) => r.id === jobId);
const production = async (jobId: number): Promise<ProductionReply> => {
  const res = await get(`/jobs/${jobId}/production`);
  expect(res.statusCode, res.body).toBe(200);
  return productionReply.strict().parse(res.json());
};

const createJob = (newTickets: NonNullable<JobSaveInput['newTickets']>): Promise<JobListItem> =>
  t.createJob(admin, demoId, {
    job_number: `KEPT-${stamp}-${++seq}`,
    selected_utility_id: ngrid,
    newTickets,
    newUnits: ['KPT-A', 'KPT-B'].map((code) => ({ code, description: `Unit ${code}`, uom: 'EA' })),
  });
/** A job of two tickets: K-1 with 4 × KPT-A (10.00), K-2 with 6 × KPT-A. */
const twoTicketJob = () =>
  createJob(['K-1', 'K-2'].map((pole_name, i) => ({ pole: { pole_name, line_name: 'L' }, work_orders: [], tasks: [{ code: 'KPT-A', init_qty: i === 0 ? 4 : 6 }] })));

const ticketsOf = async (jobId: number): Promise<Ticket[]> => (await get(`/jobs/tickets/${jobId}`)).json();
const byPole = (list: Ticket[], name: string) => list.find((x) => x.pole_name === name)!;
async function saveTicket(ticket: Ticket, changes: Record<string, unknown>) {
  const res = await t.request({ method: 'PUT', url: `${API}/tickets/`, token: admin, body: { ticket: { id: ticket.id, version: ticket.version, ...changes } } });
  expect(res.statusCode, res.body).toBe(200);
}
const unitId = async (code: string) => (await db.select().from(units).where(and(eq(units.companyId, demoId), eq(units.code, code))))[0].id;

beforeAll(async () => {
  [admin, office, foreman, wforeman, lineman, apprentice, otherAdmin] = await t.loginAs('admin', 'office', 'foreman', 'wforeman', 'lineman', 'apprentice', 'other');
  demoId = (await db.select().from(companies).where(eq(companies.name, 'Demo Line Co')))[0].id;
  ngrid = (await db.select().from(utilities).where(and(eq(utilities.companyId, demoId), eq(utilities.code, 'NGRID'))))[0].id;
  await twoTicketJob(); // makes the units
  const res = await t.request({ method: 'PUT', url: `${API}/units/${await unitId('KPT-A')}`, token: office, body: { unit: { unit_price: '10.00' } } });
  expect(res.statusCode).toBe(200);
});

describe('GET /jobs/{id}/production, kept', () => {
  it('unchanged: the same ETag, and If-None-Match answers 304 with no body', async () => {
    const job = await twoTicketJob();
    const first = await get(`/jobs/${job.id}/production`);
    expect(first.statusCode).toBe(200);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/"/);
    const again = await get(`/jobs/${job.id}/production`);
    expect(again.headers.etag).toBe(etag);
    expect(again.body).toBe(first.body);
    const notModified = await get(`/jobs/${job.id}/production`, admin, { 'if-none-match': etag });
    expect(notModified.statusCode).toBe(304);
    expect(notModified.body).toBe('');
    // Compressed as the client accepts, the same reply.
    const gz = await get(`/jobs/${job.id}/production`, admin, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(first.json());
  });

  it('a ticket completed through the API shows at once', async () => {
    const job = await twoTicketJob();
    expect((await production(job.id)).totals.completed_amount).toBe('0.00');
    await saveTicket(byPole(await ticketsOf(job.id), 'K-1'), { status: 'Complete' });
    expect((await production(job.id)).totals).toMatchObject({ completed_amount: '40.00', percent_complete: 40 });
  });

  it("a task's quantity changed through the API, or in the database by another process, shows at once", async () => {
    const job = await twoTicketJob();
    expect((await production(job.id)).units[0].actual_qty).toBe(10);
    const k1 = byPole(await ticketsOf(job.id), 'K-1');
    const task = k1.tasks[0];
    await saveTicket(k1, { tasks: [{ ticket_task_id: task.ticket_task_id, task_id: task.task_id, init_qty: 4, additional_qty: 2 }] });
    expect((await production(job.id)).units[0].actual_qty).toBe(12);
    // Plain SQL on the task alone: the ticket row is not touched.
    await db.update(ticketTasks).set({ additionalQty: 5 }).where(eq(ticketTasks.id, task.ticket_task_id));
    expect((await production(job.id)).units[0].actual_qty).toBe(15);
  });

  it('a unit price changed through PUT /units/{id} or in the database shows at once', async () => {
    const job = await createJob([{ pole: { pole_name: 'UP-1', line_name: 'L' }, work_orders: [], tasks: [{ code: 'KPT-B', init_qty: 3 }] }]);
    expect((await production(job.id)).units[0]).toMatchObject({ unit_price: null, bid_amount: '0.00' });
    const id = await unitId('KPT-B');
    expect((await t.request({ method: 'PUT', url: `${API}/units/${id}`, token: office, body: { unit: { unit_price: '2.50' } } })).statusCode).toBe(200);
    expect((await production(job.id)).units[0]).toMatchObject({ unit_price: '2.50', bid_amount: '7.50' });
    await db.update(units).set({ unitPrice: '3.00' }).where(eq(units.id, id));
    expect((await production(job.id)).units[0]).toMatchObject({ unit_price: '3.00', bid_amount: '9.00' });
    await db.update(units).set({ unitPrice: null }).where(eq(units.id, id));
  });

  it('an invoice created shows at once; a line changed in the database too', async () => {
    const job = await twoTicketJob();
    await saveTicket(byPole(await ticketsOf(job.id), 'K-1'), { status: 'Complete' });
    expect((await production(job.id)).totals).toMatchObject({ billed_amount: '0.00', unbilled_completed_amount: '40.00' });
    const res = await t.request({ method: 'POST', url: `${API}/jobs/${job.id}/invoices`, token: admin, body: {} });
    expect(res.statusCode, res.body).toBe(201);
    expect((await production(job.id)).totals).toMatchObject({ billed_amount: '40.00', unbilled_completed_amount: '0.00' });
    const [invoice] = await db.select().from(invoices).where(eq(invoices.jobId, job.id));
    await db.update(invoiceLines).set({ amount: '41.00' }).where(eq(invoiceLines.invoiceId, invoice.id));
    expect((await production(job.id)).totals.billed_amount).toBe('41.00');
  });

  it('a ticket imported into the job shows at once', async () => {
    const job = await twoTicketJob();
    expect((await production(job.id)).units[0].actual_qty).toBe(10);
    const res = await t.request({
      method: 'PUT',
      url: `${API}/jobs/`,
      token: admin,
      body: {
        job: {
          id: job.id,
          version: job.version,
          job_number: job.job_number,
          job_type: 0,
          due_date: '12/31/2027',
          selected_utility_id: ngrid,
          work_packet_url: job.work_packet_url,
          newTickets: [{ pole: { pole_name: 'K-3', line_name: 'L' }, work_orders: [], tasks: [{ code: 'KPT-A', init_qty: 5 }] }],
        },
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await production(job.id)).units[0].actual_qty).toBe(15);
  });

  it("the job's foreman renamed in the database shows at once (the by-foreman group's name)", async () => {
    const job = await twoTicketJob();
    const [fm] = await db.select().from(users).where(eq(users.email, SEEDED_USERS.foreman));
    await db.update(jobs).set({ foremanId: fm.id }).where(eq(jobs.id, job.id));
    expect((await production(job.id)).by_foreman.map((f) => f.name)).toEqual([`${fm.firstName} ${fm.lastName}`]);
    await db.update(users).set({ lastName: 'Renamed' }).where(eq(users.id, fm.id));
    try {
      expect((await production(job.id)).by_foreman.map((f) => f.name)).toEqual([`${fm.firstName} Renamed`]);
    } finally {
      await db.update(users).set({ lastName: fm.lastName }).where(eq(users.id, fm.id));
    }
  });

  it("another company's job is 404 (also once kept), roles 4–6 are 403, a deleted job 404", async () => {
    const job = await twoTicketJob();
    await production(job.id);
    const other = await get(`/jobs/${job.id}/production`, otherAdmin);
    expect(other.statusCode).toBe(404);
    expect(other.body).not.toContain('KPT-A');
    for (const token of [admin, office, foreman]) expect((await get(`/jobs/${job.id}/production`, token)).statusCode).toBe(200);
    for (const token of [wforeman, lineman, apprentice]) expect((await get(`/jobs/${job.id}/production`, token)).statusCode).toBe(403);
    expect((await t.request({ method: 'DELETE', url: `${API}/jobs/${job.id}`, token: admin })).statusCode).toBe(200);
    expect((await get(`/jobs/${job.id}/production`)).statusCode).toBe(404);
  });
});

describe('GET /jobs, kept', () => {
  it('unchanged: the same ETag for every role of the company, If-None-Match answers 304; another company has its own list', async () => {
    await twoTicketJob();
    const first = await get('/jobs');
    expect(first.statusCode).toBe(200);
    const etag = first.headers.etag as string;
    for (const token of [office, lineman, apprentice]) {
      const res = await get('/jobs', token);
      expect(res.headers.etag).toBe(etag);
      expect(res.body).toBe(first.body);
    }
    const notModified = await get('/jobs', lineman, { 'if-none-match': etag });
    expect(notModified.statusCode).toBe(304);
    expect(notModified.body).toBe('');
    const other = await get('/jobs', otherAdmin);
    expect(other.statusCode).toBe(200);
    expect(other.headers.etag).not.toBe(etag);
    const ours = new Set((first.json() as JobListRow[]).map((r) => r.id));
    expect((other.json() as JobListRow[]).some((r) => ours.has(r.id))).toBe(false);
  });

  it('a ticket completed, and a task quantity changed in the database, move "% Complete" and the status at once', async () => {
    const job = await twoTicketJob();
    expect(await listed(job.id)).toMatchObject({ percent_complete: 0, status: 'In Progress' });
    const list1 = await ticketsOf(job.id);
    await saveTicket(byPole(list1, 'K-1'), { status: 'Complete' });
    expect((await listed(job.id))!.percent_complete).toBe(40);
    const k2 = byPole(list1, 'K-2');
    await db.update(ticketTasks).set({ initQty: 1 }).where(eq(ticketTasks.id, k2.tasks[0].ticket_task_id));
    expect((await listed(job.id))!.percent_complete).toBe(80);
    await saveTicket(k2, { status: 'Complete' });
    expect(await listed(job.id)).toMatchObject({ percent_complete: 100, status: 'Complete' });
  });

  it('a unit price changed in the database moves "% Complete" at once', async () => {
    // KPT-A 10.00 done, KPT-B unpriced pending: 100 % by amount; with a price for B, 50 %.
    const job = await createJob([
      { pole: { pole_name: 'PB-1', line_name: 'L' }, work_orders: [], tasks: [{ code: 'KPT-A', init_qty: 1 }] },
      { pole: { pole_name: 'PB-2', line_name: 'L' }, work_orders: [], tasks: [{ code: 'KPT-B', init_qty: 1 }] },
    ]);
    await saveTicket(byPole(await ticketsOf(job.id), 'PB-1'), { status: 'Complete' });
    expect((await listed(job.id))!.percent_complete).toBe(100);
    await db.update(units).set({ unitPrice: '10.00' }).where(eq(units.id, await unitId('KPT-B')));
    expect((await listed(job.id))!.percent_complete).toBe(50);
    await db.update(units).set({ unitPrice: null }).where(eq(units.id, await unitId('KPT-B')));
  });

  it('a job edited, created, imported into or deleted shows at once', async () => {
    const job = await twoTicketJob();
    expect((await listed(job.id))!.ticket_count).toBe(2);
    const save = (changes: Partial<JobSaveInput>, version: number) =>
      t.request({
        method: 'PUT',
        url: `${API}/jobs/`,
        token: admin,
        body: { job: { id: job.id, version, job_number: job.job_number, job_type: 0, due_date: '12/31/2027', selected_utility_id: ngrid, work_packet_url: job.work_packet_url, ...changes } },
      });
    let res = await save({ hospital_name: 'Mercy' }, job.version);
    expect(res.statusCode, res.body).toBe(200);
    expect((await listed(job.id))!.hospital_name).toBe('Mercy');
    res = await save({ newTickets: [{ pole: { pole_name: 'K-9', line_name: 'L' }, work_orders: [], tasks: [] }] }, res.json().job.version);
    expect(res.statusCode, res.body).toBe(200);
    expect((await listed(job.id))!.ticket_count).toBe(3);
    const created = await twoTicketJob();
    expect(await listed(created.id)).toBeDefined();
    expect((await t.request({ method: 'DELETE', url: `${API}/jobs/${created.id}`, token: admin })).statusCode).toBe(200);
    expect(await listed(created.id)).toBeUndefined();
  });

  it('a foreman or a utility renamed in the database shows at once', async () => {
    const job = await twoTicketJob();
    const [fm] = await db.select().from(users).where(eq(users.email, SEEDED_USERS.foreman));
    await db.update(jobs).set({ foremanId: fm.id }).where(eq(jobs.id, job.id));
    expect(await listed(job.id)).toMatchObject({ foreman_name: `${fm.firstName} ${fm.lastName}`, selected_utility_name: 'NGRID' });
    await db.update(users).set({ firstName: 'Renamed' }).where(eq(users.id, fm.id));
    await db.update(utilities).set({ code: 'NGRID-X' }).where(eq(utilities.id, ngrid));
    try {
      expect(await listed(job.id)).toMatchObject({ foreman_name: `Renamed ${fm.lastName}`, selected_utility_name: 'NGRID-X' });
    } finally {
      await db.update(users).set({ firstName: fm.firstName }).where(eq(users.id, fm.id));
      await db.update(utilities).set({ code: 'NGRID' }).where(eq(utilities.id, ngrid));
    }
  });

  it('tickets deleted in the database by another process show at once', async () => {
    const job = await twoTicketJob();
    expect((await listed(job.id))!.ticket_count).toBe(2);
    const ids = (await ticketsOf(job.id)).map((x) => x.id);
    await db.delete(tickets).where(inArray(tickets.id, ids.slice(0, 1)));
    expect((await listed(job.id))!.ticket_count).toBe(1);
  });
});
