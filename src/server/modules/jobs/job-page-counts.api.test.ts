import { eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { jobSchema } from '../../../shared/jobs.schemas';
import type { Ticket, TicketRow } from '../../../shared/tickets.schemas';
import { queryStats, rowsOf } from '../../db/client';
import { jobs, tickets, ticketTasks, units } from '../../db/schema/index';
import { createTestApp } from '../../test/harness';

/**
 * The ticket rows of GET /jobs/{id} carry how many tasks, photos and notes each
 * ticket has (the phone's ticket cards show them), and the kept reply (decision 013) changes as
 * soon as any of them does, whichever way it was written.
 */
const t = await createTestApp();
const API = '/api/v1';
let admin: string, lineman: string;
let company: number, ngrid: number, jobId: number;

beforeAll(async () => {
  [admin, lineman] = await t.loginAs('admin', 'lineman');
  const demo = await t.demo();
  ({ company, ngrid } = demo);
  jobId = demo.job['J-1001'];
});

const jobPage = async (id = jobId) => {
  const res = await t.request({ method: 'GET', url: `${API}/jobs/${id}`, token: lineman });
  expect(res.statusCode).toBe(200);
  return jobSchema.strict().parse(res.json());
};
const rowOf = async (ticketId: number): Promise<TicketRow> => (await jobPage()).tickets.find((r) => r.id === ticketId)!;

async function newTicket(name: string): Promise<number> {
  const res = await t.request({ method: 'POST', url: `${API}/poles/`, token: admin, body: { pole_name: name, line_name: 'CNT', utility: ngrid, job_id: jobId } });
  expect(res.statusCode).toBe(200);
  return res.json().ticket.id;
}

async function addPhoto(ticketId: number): Promise<number> {
  const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 10, g: 120, b: 200 } } }).jpeg().toBuffer();
  const photo = await t.storeFile(company, 'media', `count-${ticketId}-${Date.now()}.jpg`, { body: jpeg });
  const res = await t.request({
    method: 'POST',
    url: `${API}/media_upload/s3-upload-complete`,
    token: lineman,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ ticketId: String(ticketId), url: photo.url, thumbUrl: '', isVideo: 'false' }).toString(),
  });
  expect(res.statusCode).toBe(200);
  return res.json().id;
}

describe('GET /jobs/{id}: ticket counts', () => {
  it('each row counts the full ticket\'s tasks, photos and notes', async () => {
    const page = await jobPage();
    const full = (await t.request({ method: 'GET', url: `${API}/jobs/tickets/${jobId}`, token: lineman })).json() as Ticket[];
    expect(page.tickets.length).toBeGreaterThan(0);
    for (const row of page.tickets) {
      const ticket = full.find((x) => x.id === row.id)!;
      expect({ id: row.id, tasks: row.task_count, photos: row.photo_count, notes: row.note_count }).toEqual({
        id: row.id,
        tasks: ticket.tasks.length,
        photos: ticket.images.length,
        notes: ticket.notes.length,
      });
    }
    expect(page.tickets.some((r) => r.task_count > 0 && r.note_count > 0)).toBe(true);
  });

  it('a photo added or deleted, a note added, or a task written without touching the ticket shows at once', async () => {
    const id = await newTicket('CNT-1');
    expect(await rowOf(id)).toMatchObject({ task_count: 0, photo_count: 0, note_count: 0 });
    // Read once more: the reply is now kept, and only the fingerprint can tell it changed.
    expect((await rowOf(id)).photo_count).toBe(0);

    const imageId = await addPhoto(id);
    expect((await rowOf(id)).photo_count).toBe(1);

    const ticket = (await t.request({ method: 'GET', url: `${API}/tickets/${id}`, token: lineman })).json() as Ticket;
    const saved = await t.request({ method: 'PUT', url: `${API}/tickets/`, token: lineman, body: { ticket: { id, version: ticket.version, notes: [{ note_text: 'Guy wire loose' }] } } });
    expect(saved.statusCode).toBe(200);
    expect((await rowOf(id)).note_count).toBe(1);

    // A path that writes tasks without updating the ticket row (an import, plain SQL) is seen too.
    const [unit] = await t.ctx.db.select().from(units).where(eq(units.companyId, company)).limit(1);
    await t.ctx.db.insert(ticketTasks).values({ companyId: company, ticketId: id, unitId: unit.id, initQty: 2, additionalQty: 1 });
    expect((await rowOf(id)).task_count).toBe(1);

    const del = await t.request({ method: 'DELETE', url: `${API}/tickets/images/${imageId}`, token: lineman });
    expect(del.statusCode).toBe(200);
    expect(await rowOf(id)).toMatchObject({ task_count: 1, photo_count: 0, note_count: 1 });
  });

  it('a task added under a job whose import is still pending leaves its ticket as it is; once published, a task touches it', async () => {
    const job = await t.createJob(admin, company, { job_number: 'CNT-PENDING', selected_utility_id: ngrid, newTickets: [{ pole: { pole_name: 'CNT-P1', line_name: 'CNT' }, tasks: [] }] });
    const [ticket] = await t.ctx.db.select({ id: tickets.id }).from(tickets).where(eq(tickets.jobId, job.id));
    const xmin = async () => rowsOf<{ x: string }>(await t.ctx.db.execute(sql`select xmin::text as x from tickets where id = ${ticket.id}`))[0].x;
    const [unit] = await t.ctx.db.select().from(units).where(eq(units.companyId, company)).limit(1);
    const addTask = () => t.ctx.db.insert(ticketTasks).values({ companyId: company, ticketId: ticket.id, unitId: unit.id, initQty: 1 });

    // As a staged import's tasks are written (decision 027): nobody can read the job yet.
    await t.ctx.db.update(jobs).set({ importPending: true }).where(eq(jobs.id, job.id));
    const before = await xmin();
    await addTask();
    expect(await xmin()).toBe(before);

    await t.ctx.db.update(jobs).set({ importPending: false }).where(eq(jobs.id, job.id));
    await addTask();
    expect(await xmin()).not.toBe(before);
    expect((await jobPage(job.id)).tickets.find((r) => r.id === ticket.id)!.task_count).toBe(2);
  });

  it('takes the same number of SQL statements for a job of 5 tickets and one of 40 (no N+1), built or rebuilt', async () => {
    const packet = await t.storeFile(company, 'work_packet', 'packet.pdf');
    const newJob = async (tickets: number) => {
      const res = await t.request({
        method: 'PUT',
        url: `${API}/jobs/`,
        token: admin,
        body: {
          job: {
            job_number: `CNT-${tickets}-${Date.now()}`,
            job_type: 0,
            due_date: '12/31/2030',
            selected_utility_id: ngrid,
            work_packet_url: packet.url,
            newTickets: Array.from({ length: tickets }, (_, i) => ({ pole: { pole_name: `N-${i}`, line_name: 'NL' } })),
          },
        },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().job.id as number;
    };
    const [smallId, bigId] = [await newJob(5), await newJob(40)];

    const count = async (id: number) => {
      const before = queryStats.count;
      const res = await t.request({ method: 'GET', url: `${API}/jobs/${id}`, token: admin });
      expect(res.statusCode).toBe(200);
      return queryStats.count - before;
    };
    const both = async () => [await count(smallId), await count(bigId)];
    const ticketOf = async (id: number) => (await t.ctx.db.select({ id: tickets.id }).from(tickets).where(eq(tickets.jobId, id)).limit(1))[0].id;
    const someTicket = [await ticketOf(smallId), await ticketOf(bigId)];
    const touch = async (what: 'header' | 'ticket') => {
      for (const [i, id] of [smallId, bigId].entries()) {
        if (what === 'header') await t.ctx.db.update(jobs).set({ hospitalName: `h-${Date.now()}` }).where(eq(jobs.id, id));
        else await t.ctx.db.update(tickets).set({ description: `d-${Date.now()}` }).where(eq(tickets.id, someTicket[i]));
      }
    };

    // Built from scratch (nothing kept): session, fingerprint, ticket versions, header, rows.
    expect(await both()).toEqual([5, 5]);
    // Unchanged: session and fingerprint.
    expect(await both()).toEqual([2, 2]);
    // One ticket saved: the same statements, the rows read being only the changed one.
    await touch('ticket');
    expect(await both()).toEqual([5, 5]);
    // Only the job's header changed: no ticket row is read.
    await touch('header');
    expect(await both()).toEqual([4, 4]);
    expect((await jobPage(bigId)).tickets).toHaveLength(40);
  });
});
