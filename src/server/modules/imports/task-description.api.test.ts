import { beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { defaultMappings } from '../../../shared/excel';
import { ticketSchema, type Ticket } from '../../../shared/tickets.schemas';
import { tickets, ticketTasks, units, users } from '../../db/schema/index';
import { fixture, multipart } from '../../test/files';
import { createTestApp } from '../../test/harness';
import { importIntoJob } from './import-into-job';
import type { ImportTicket } from './types';

/**
 * docs/product/imports.md §12: the ticket sheet's mapped Description is the task's description,
 * what the crew reads; a blank one falls back to the unit library's. good.xlsx (scripts/make-fixtures.py)
 * has, on pole P-1 / line L-10, U-100 'Set pole' (library: 'Set wood pole'), U-200 'Transfer wires'
 * (library: 'Transfer conductors') and U-300 with a blank Description (library: 'Crossarm 10 ft').
 */

const t = await createTestApp();
const API = '/api/v1';
const db = t.ctx.db;
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

let admin: string, office: string, foreman: string;
let companyId: number, ngrid: number, userId: number;

beforeAll(async () => {
  [admin, office, foreman] = await t.loginAs('admin', 'office', 'foreman');
  const demo = await t.demo();
  companyId = demo.company;
  ngrid = demo.ngrid;
  userId = (await db.select().from(users).where(eq(users.email, 'office@example.com')))[0].id;
});

let seq = 0;
const uniqueNumber = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++seq}`;

const get = (token: string, url: string) => t.request({ method: 'GET', url: `${API}${url}`, token });
const oneTicket = async (id: number): Promise<Ticket> => {
  const res = await get(office, `/tickets/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  return ticketSchema.parse(res.json());
};
const jobTickets = async (jobId: number): Promise<Ticket[]> => {
  const res = await get(office, `/jobs/tickets/${jobId}`);
  expect(res.statusCode, res.body).toBe(200);
  return z.array(ticketSchema).parse(res.json());
};
const onPole = (list: Ticket[], pole: string) => list.find((x) => x.pole_name === pole)!;
/** A ticket's tasks as [unit code, description], in task order. */
const described = (ticket: Ticket) => ticket.tasks.map((k) => [k.code, k.description]);
/** What the rows store, by unit code: the row's text or null (then the library's is shown). */
async function stored(ticketId: number) {
  const rows = await db
    .select({ code: units.code, description: ticketTasks.description })
    .from(ticketTasks)
    .innerJoin(units, eq(units.id, ticketTasks.unitId))
    .where(eq(ticketTasks.ticketId, ticketId))
    .orderBy(asc(ticketTasks.id));
  return rows.map((r) => [r.code, r.description]);
}

const P1_FROM_GOOD = [
  ['U-100', 'Set pole'],
  ['U-200', 'Transfer wires'],
  ['U-300', 'Crossarm 10 ft'],
];

function upload(jobId: number, file: { name: string; content: Buffer; type?: string }, fields: Record<string, string> = {}) {
  const body = multipart({ job_id: String(jobId), ...fields }, { field: 'file', name: file.name, type: file.type ?? XLSX, content: file.content });
  return t.request({ method: 'POST', url: `${API}/tickets/xls-upload`, token: office, headers: body.headers, payload: body.payload });
}

/** A CSV of the fixtures' ticket columns, one line per [pole, line, unit, description, qty]. */
function ticketsCsv(rows: [string, string, string, string, number][]) {
  const head = 'Work Order,POLE,Line,Pole ID,Line ID,Due Date,Lat,Long,Primary Voltage,Secondary Voltage,Arc Rating,Street,Unit,Description,Quantity';
  const quote = (s: string) => `"${s.replace(/"/g, '""')}"`;
  return Buffer.from([head, ...rows.map(([pole, line, code, desc, qty]) => `WO-9,${pole},${line},,,,,,,,,,${code},${quote(desc)},${qty}`)].join('\r\n'));
}

describe('a new job from a workbook (PUT /jobs/ with ticketsFile, staged)', () => {
  it("shows each task's own Description and the library's for a blank one, in every read of the ticket", async () => {
    const book = await t.storeFile(companyId, 'excel', 'good.xlsx', { body: fixture('good.xlsx') });
    const cols = await get(admin, `/jobs/excel/getColumns?url=${encodeURIComponent(book.url)}`);
    expect(cols.statusCode, cols.body).toBe(200);
    const m = defaultMappings(cols.json());
    const job = await t.createJob(office, companyId, {
      job_number: uniqueNumber('DESC'),
      selected_utility_id: ngrid,
      ticketsFile: { ticket_file_url: book.url, ticket_file_name: 'good.xlsx', ticketsMappings: m.ticketsMappings, libraryMappings: m.libraryMappings },
    });

    const all = await jobTickets(job.id);
    const p1 = onPole(all, 'P-1');
    expect(described(p1)).toEqual(P1_FROM_GOOD);
    expect(described(onPole(all, 'P-2'))).toEqual([['U-100', 'Set pole']]);
    // The ticket window (GET /tickets/{id}) reads the same.
    expect(described(await oneTicket(p1.id))).toEqual(P1_FROM_GOOD);
    // Stored: the rows' text; the blank one null, so a later change of the library shows.
    expect(await stored(p1.id)).toEqual([
      ['U-100', 'Set pole'],
      ['U-200', 'Transfer wires'],
      ['U-300', null],
    ]);
    const [u300] = await db.select().from(units).where(and(eq(units.companyId, companyId), eq(units.utilityId, ngrid), eq(units.code, 'U-300')));
    await db.update(units).set({ description: 'Crossarm, 10 ft, fiberglass' }).where(eq(units.id, u300.id));
    expect(described(await oneTicket(p1.id))[2]).toEqual(['U-300', 'Crossarm, 10 ft, fiberglass']);
    await db.update(units).set({ description: u300.description }).where(eq(units.id, u300.id));
  });

  it('newTickets keep their tasks’ descriptions too; a blank one is stored as null', async () => {
    const job = await t.createJob(office, companyId, {
      job_number: uniqueNumber('DESC-NEW'),
      selected_utility_id: ngrid,
      newUnits: [{ code: 'DN-1', description: 'Library text', family: '', type: '', action: '', uom: 'EA' }],
      newTickets: [
        {
          pole: { pole_name: 'DN-P1', line_name: 'DN-L' },
          work_orders: [],
          tasks: [
            { code: 'DN-1', init_qty: 1, additional_qty: 0, description: '  Set it deeper  ' },
            { code: 'DN-1', init_qty: 2, additional_qty: 0, description: '   ' },
            { code: 'DN-1', init_qty: 3, additional_qty: 0 },
          ],
        },
      ],
    });
    const [ticket] = await jobTickets(job.id);
    expect(described(ticket)).toEqual([
      ['DN-1', 'Set it deeper'],
      ['DN-1', 'Library text'],
      ['DN-1', 'Library text'],
    ]);
    expect((await stored(ticket.id)).map(([, d]) => d)).toEqual(['Set it deeper', null, null]);
  });
});

describe('an import into an existing job', () => {
  it('POST /tickets/xls-upload stores the rows’ descriptions; a re-import keeps a matched task’s and adds new tasks with theirs', async () => {
    const job = await t.createJob(office, companyId, { job_number: uniqueNumber('DESC-UP'), selected_utility_id: ngrid });
    const res = await upload(job.id, { name: 'good.xlsx', content: fixture('good.xlsx') });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ tickets: 3, tasks: 5 });
    const p1 = onPole(await jobTickets(job.id), 'P-1');
    expect(described(p1)).toEqual(P1_FROM_GOOD);
    expect(described(await oneTicket(p1.id))).toEqual(P1_FROM_GOOD);

    // Again, with another text for a matched unit (U-100, also a changed bid), one for the blank
    // matched U-300, and a unit P-1 lacks (U-400): the matched tasks keep what they had, in both
    // modes (decision 018: a matched row only ever changes the bid); the new task has its row's.
    const again = ticketsCsv([
      ['P-1', 'L-10', 'U-100', 'Set pole, class 1', 4],
      ['P-1', 'L-10', 'U-300', 'Crossarm, steel', 2],
      ['P-1', 'L-10', 'U-400', 'Pull the old stub', 1],
    ]);
    for (const mode of ['add_new', 'update_quantities']) {
      const r = await upload(job.id, { name: 'again.csv', content: again, type: 'text/csv' }, { mode });
      expect(r.statusCode, r.body).toBe(200);
    }
    const after = await oneTicket(p1.id);
    expect(described(after)).toEqual([...P1_FROM_GOOD, ['U-400', 'Pull the old stub']]);
    expect(after.tasks.map((k) => k.init_qty)).toEqual([4, 3, 2, 1]);
  });

  it('PUT /jobs/ with an id imports newTickets with their descriptions', async () => {
    const job = await t.createJob(office, companyId, {
      job_number: uniqueNumber('DESC-SAVE'),
      selected_utility_id: ngrid,
      newUnits: [{ code: 'DS-1', description: 'Library DS-1', family: '', type: '', action: '', uom: 'EA' }],
    });
    const [row] = await db.select().from(tickets).where(eq(tickets.jobId, job.id));
    expect(row).toBeUndefined();
    const packet = await t.storeFile(companyId, 'work_packet', 'packet.pdf');
    const res = await t.request({
      method: 'PUT',
      url: `${API}/jobs/`,
      token: foreman,
      body: {
        job: {
          id: job.id,
          version: job.version,
          job_number: job.job_number,
          job_type: 0,
          due_date: '12/31/2027',
          selected_utility_id: ngrid,
          work_packet_url: packet.url,
          newTickets: [{ pole: { pole_name: 'DS-P1', line_name: 'DS-L' }, tasks: [{ code: 'DS-1', init_qty: 1, description: 'Guy to the anchor' }, { code: 'DS-1', init_qty: 1 }] }],
        },
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const [ticket] = await jobTickets(job.id);
    expect(described(ticket)).toEqual([
      ['DS-1', 'Guy to the anchor'],
      ['DS-1', 'Library DS-1'],
    ]);
  });

  it('staged (many new tickets, decision 032) stores them the same way', async () => {
    const job = await t.createJob(office, companyId, { job_number: uniqueNumber('DESC-STAGED'), selected_utility_id: ngrid });
    const drafts: ImportTicket[] = [0, 1, 2].map((i) => ({
      row: i + 2,
      pole: { pole_name: `DST-${i}`, line_name: 'DST-L', pole_id: null, line_id: null, street_address: null, geo_lat: null, geo_lon: null, primary_voltage: null, secondary_voltage: null, arc_rating: null },
      street_address: null,
      geo_lat: null,
      geo_lon: null,
      due_date: null,
      ehasp: null,
      work_orders: [],
      tasks: [
        { code: 'DST-1', description: `Row text ${i}`, qty: 1, row: i + 2 },
        { code: 'DST-1', description: '', qty: 2, row: i + 2 },
      ],
    }));
    const library = [{ code: 'DST-1', description: 'Library DST-1', family: '', type: '', action: '', uom: 'EA', notes: '', unit_price: null }];
    const scope = { companyId, jobId: job.id, utilityId: ngrid, userId };
    const done = await importIntoJob(db, scope, drafts, library, { stageFrom: 1 });
    expect(done.counts).toMatchObject({ tickets: 3, tasks: 6 });
    const all = await jobTickets(job.id);
    for (const i of [0, 1, 2]) {
      expect(described(onPole(all, `DST-${i}`))).toEqual([
        ['DST-1', `Row text ${i}`],
        ['DST-1', 'Library DST-1'],
      ]);
    }
  });
});

describe('PUT /tickets/ (the ticket save) and merges', () => {
  it('keep a stored description: tasks kept by ticket_task_id keep theirs, a task added shows the library’s', async () => {
    const job = await t.createJob(office, companyId, { job_number: uniqueNumber('DESC-TS'), selected_utility_id: ngrid });
    expect((await upload(job.id, { name: 'good.xlsx', content: fixture('good.xlsx') })).statusCode).toBe(200);
    const all = await jobTickets(job.id);
    const p1 = await oneTicket(onPole(all, 'P-1').id);
    const [u400] = await db.select().from(units).where(and(eq(units.companyId, companyId), eq(units.utilityId, ngrid), eq(units.code, 'U-400')));

    // The whole read model sent back, as the ticket window does: U-200 removed, U-100's actual
    // change edited, a task added; every task's `description` as read (the server ignores it).
    const sent = p1.tasks.filter((k) => k.code !== 'U-200').map((k) => (k.code === 'U-100' ? { ...k, additional_qty: 2 } : k));
    const res = await t.request({
      method: 'PUT',
      url: `${API}/tickets/`,
      token: foreman,
      body: { ticket: { ...p1, tasks: [...sent, { ticket_task_id: null, task_id: u400.id, init_qty: 1, additional_qty: 0, description: 'Not stored' }] } },
    });
    expect(res.statusCode, res.body).toBe(200);
    const expected = [
      ['U-100', 'Set pole'],
      ['U-300', 'Crossarm 10 ft'],
      ['U-400', 'Remove pole'],
    ];
    expect(described(ticketSchema.parse(res.json().ticket))).toEqual(expected);
    const saved = await oneTicket(p1.id);
    expect(described(saved)).toEqual(expected);
    expect(saved.tasks[0].additional_qty).toBe(2);

    // A second save of the same tasks (the crew's + / − of My Work) changes nothing of them either.
    const again = await t.request({
      method: 'PUT',
      url: `${API}/tickets/`,
      token: foreman,
      body: { ticket: { id: saved.id, version: saved.version, tasks: saved.tasks.map((k) => ({ ...k, additional_qty: k.additional_qty + 1 })) } },
    });
    expect(again.statusCode, again.body).toBe(200);
    expect(described(await oneTicket(p1.id))).toEqual(expected);

    // Merging P-2 into P-1 moves P-2's task (older than the one just added) with its own description.
    const p2 = onPole(all, 'P-2');
    const merged = await t.request({ method: 'PUT', url: `${API}/tickets/merge/${p1.id}`, token: foreman, body: { secondary_ticket: p2.id } });
    expect(merged.statusCode, merged.body).toBe(200);
    expect(described(await oneTicket(p1.id))).toEqual([expected[0], expected[1], ['U-100', 'Set pole'], expected[2]]);
    expect(await db.select({ id: ticketTasks.id }).from(ticketTasks).where(eq(ticketTasks.ticketId, p2.id))).toEqual([]);
  });
});
