import { performance } from 'node:perf_hooks';
import { beforeAll, describe, expect, it } from 'vitest';
import { and, count, eq, inArray } from 'drizzle-orm';
import { defaultMappings } from '../../../shared/excel';
import { queryStats } from '../../db/client';
import { companies, jobs, poles, tickets, ticketTasks, units, users, utilities, workOrders } from '../../db/schema/index';
import { AppError } from '../../errors';
import { createTestApp, dbKind } from '../../test/harness';
import { workbookToImport } from './convert';
import { generateTicketWorkbook } from '../../test/generate-workbook';
import { parseWorkbook } from './read/workbook';
import { importTickets } from './reimport';
import type { ImportTicket, ImportUnit } from './types';

const t = await createTestApp();
const db = t.ctx.db;
let companyId: number, utilityId: number, userId: number;

beforeAll(async () => {
  companyId = (await db.select().from(companies).where(eq(companies.name, 'Demo Line Co')))[0].id;
  utilityId = (await db.select().from(utilities).where(and(eq(utilities.companyId, companyId), eq(utilities.code, 'UNITIL'))))[0].id;
  userId = (await db.select().from(users).where(eq(users.email, 'admin@example.com')))[0].id;
});

let seq = 0;
async function emptyJob(utility = utilityId) {
  const [job] = await db
    .insert(jobs)
    .values({ companyId, jobNumber: `IMP-${Date.now()}-${++seq}`, dueDate: '2027-06-01', utilityId: utility, createdBy: userId })
    .returning();
  return job;
}

const pole = (pole_name: string, line_name: string) => ({
  pole_name,
  line_name,
  pole_id: null,
  line_id: null,
  street_address: null,
  geo_lat: null,
  geo_lon: null,
  primary_voltage: null,
  secondary_voltage: null,
  arc_rating: null,
});
const draft = (p: string, l: string, codes: string[], wos: string[] = [], row?: number): ImportTicket => ({
  row,
  pole: pole(p, l),
  street_address: null,
  geo_lat: null,
  geo_lon: null,
  due_date: null,
  ehasp: null,
  work_orders: wos,
  tasks: codes.map((code, i) => ({ code, description: '', qty: i + 1 })),
});
const unit = (code: string, description = `Unit ${code}`): ImportUnit => ({ code, description, family: 'F', type: 'T', action: 'A', uom: 'EA', notes: '' });

const tasksOf = (ticketIds: number[]) =>
  db
    .select({ ticketId: ticketTasks.ticketId, code: units.code, qty: ticketTasks.initQty })
    .from(ticketTasks)
    .innerJoin(units, eq(units.id, ticketTasks.unitId))
    .where(inArray(ticketTasks.ticketId, ticketIds))
    .orderBy(ticketTasks.id);

describe('importTickets', () => {
  it('merges drafts for a pole already ticketed in the job into that ticket; work orders are not duplicated', async () => {
    const job = await emptyJob();
    const scope = { companyId, jobId: job.id, utilityId, userId };
    const first = await db.transaction((tx) => importTickets(tx, scope, [draft('M-1', 'ML', ['MU-1'], ['WO-A'])], [unit('MU-1'), unit('MU-2')]));
    expect(first).toEqual({ tickets: 1, tasks: 1, workOrders: 1, units: 2, poles: 1 });

    const second = await db.transaction((tx) =>
      importTickets(tx, scope, [draft(' m-1 ', 'ml', ['mu-2'], ['WO-A', 'WO-B']), draft('M-2', 'ML', ['MU-1'])]),
    );
    expect(second).toEqual({ tickets: 1, tasks: 2, workOrders: 1, units: 0, poles: 1 });
    const rows = await db.select().from(tickets).where(eq(tickets.jobId, job.id)).orderBy(tickets.id);
    expect(rows).toHaveLength(2);
    const wos = await db.select({ wo: workOrders.workOrder }).from(workOrders).where(eq(workOrders.ticketId, rows[0].id)).orderBy(workOrders.id);
    expect(wos.map((w) => w.wo)).toEqual(['WO-A', 'WO-B']);
    // The lower-case code found the library's 'MU-2'.
    expect((await tasksOf([rows[0].id])).map((k) => k.code)).toEqual(['MU-1', 'MU-2']);
  });

  it('finds poles of the same utility only; another utility gets its own pole', async () => {
    const other = (await db.select().from(utilities).where(and(eq(utilities.companyId, companyId), eq(utilities.code, 'NGRID'))))[0].id;
    const a = await emptyJob();
    const b = await emptyJob(other);
    await db.transaction((tx) => importTickets(tx, { companyId, jobId: a.id, utilityId, userId }, [draft('SHARED-1', 'S', ['SU-1'])], [unit('SU-1')]));
    const res = await db.transaction((tx) =>
      importTickets(tx, { companyId, jobId: b.id, utilityId: other, userId }, [draft('SHARED-1', 'S', ['SU-1'])], [unit('SU-1')]),
    );
    expect(res.poles).toBe(1);
    const found = await db.select().from(poles).where(and(eq(poles.companyId, companyId), eq(poles.poleName, 'SHARED-1')));
    expect(found.map((p) => p.utilityId).sort()).toEqual([utilityId, other].sort());
  });

  it('upserts a library code listed twice (last row wins) and keeps existing values for blank cells', async () => {
    const job = await emptyJob();
    const scope = { companyId, jobId: job.id, utilityId, userId };
    await db.transaction((tx) => importTickets(tx, scope, [], [unit('DUP-1', 'first'), { ...unit('DUP-1', 'second'), family: 'Fam2' }]));
    let [u] = await db.select().from(units).where(and(eq(units.utilityId, utilityId), eq(units.code, 'DUP-1')));
    expect(u).toMatchObject({ description: 'second', family: 'Fam2' });
    await db.transaction((tx) => importTickets(tx, scope, [], [{ ...unit('DUP-1', ''), family: '' }]));
    [u] = await db.select().from(units).where(and(eq(units.utilityId, utilityId), eq(units.code, 'DUP-1')));
    expect(u).toMatchObject({ description: 'second', family: 'Fam2' });
  });

  it('rejects a bad draft with a 400 naming its row before writing anything', async () => {
    const job = await emptyJob();
    const scope = { companyId, jobId: job.id, utilityId, userId };
    const [{ n: before }] = await db.select({ n: count() }).from(units);
    const attempt = (drafts: ImportTicket[]) => db.transaction((tx) => importTickets(tx, scope, drafts, [unit('NEWCODE-1')]));
    await expect(attempt([draft('OK', 'L', ['NEWCODE-1']), draft('', 'L', ['NEWCODE-1'], [], 12)])).rejects.toMatchObject({
      statusCode: 400,
      message: 'Row 12: Pole name is missing',
    });
    await expect(attempt([draft('OK', 'L', ['NOT-IN-LIBRARY'], [], 5)])).rejects.toThrow(AppError);
    await expect(attempt([draft('OK', 'L', ['NOT-IN-LIBRARY'], [], 5)])).rejects.toThrow(/Row 5: Unit\/task code 'NOT-IN-LIBRARY'/);
    expect(await db.select().from(tickets).where(eq(tickets.jobId, job.id))).toEqual([]);
    expect((await db.select({ n: count() }).from(units))[0].n).toBe(before);
  });

  it('imports 2,500 tickets with a number of statements that does not grow per row', async () => {
    const job = await emptyJob();
    const library = Array.from({ length: 50 }, (_, i) => unit(`BULK-${i}`));
    const drafts = Array.from({ length: 2500 }, (_, i) => draft(`BP-${i}`, `BL-${i % 7}`, [`BULK-${i % 50}`, `BULK-${(i + 1) % 50}`], [`WO-${i % 40}`]));
    const before = queryStats.count;
    const res = await db.transaction((tx) => importTickets(tx, { companyId, jobId: job.id, utilityId, userId }, drafts, library));
    const statements = queryStats.count - before;
    expect(res).toEqual({ tickets: 2500, tasks: 5000, workOrders: 2500, units: 50, poles: 2500 });
    // 250-row chunks: units 1+1, poles 1+10, tickets 1+10, tasks 20, work orders 10 (+ begin/commit):
    // a statement per chunk, far below one per row.
    expect(statements).toBeLessThan(60);
    const [{ n }] = await db.select({ n: count() }).from(tickets).where(eq(tickets.jobId, job.id));
    expect(n).toBe(2500);
  });
});

describe('10,000-row workbook: measured (no timing assertion)', () => {
  it('parses, converts and imports a generated workbook of 10,000 rows', async () => {
    const buf = await generateTicketWorkbook(10_000);
    const t0 = performance.now();
    const parsed = await parseWorkbook(buf);
    const m = defaultMappings({ jobColumns: parsed.tickets.columns, libraryColumns: parsed.library?.columns ?? [] });
    const book = workbookToImport(parsed, m.ticketsMappings, m.libraryMappings);
    const t1 = performance.now();
    const job = await emptyJob();
    const before = queryStats.count;
    const counts = await db.transaction((tx) => importTickets(tx, { companyId, jobId: job.id, utilityId, userId }, book.tickets, book.library));
    const t2 = performance.now();
    expect(counts).toMatchObject({ tickets: 2500, tasks: 10_000, units: 100 });

    // The same through the API: PUT /jobs/ with ticketsFile (read from storage, parse, convert, import, reply).
    const workbook = await t.storeFile(companyId, 'excel', 'big.xlsx', { body: buf });
    const packet = await t.storeFile(companyId, 'work_packet', 'p.pdf');
    const token = await t.login('office@example.com');
    const t3 = performance.now();
    const res = await t.request({
      method: 'PUT',
      url: '/api/v1/jobs/',
      token,
      body: {
        job: {
          job_number: `BIG-${Date.now()}`,
          due_date: '2027-01-01',
          selected_utility_id: utilityId,
          work_packet_url: packet.url,
          ticketsFile: { ticket_file_url: workbook.url, ...m },
        },
      },
    });
    const t4 = performance.now();
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().imported).toMatchObject({ tickets: 2500, tasks: 10_000 });
    console.log(
      `[${dbKind}] 10,000 rows: parse+convert ${Math.round(t1 - t0)} ms, importTickets ${Math.round(t2 - t1)} ms ` +
        `(${queryStats.count - before} statements), whole PUT /jobs/ with ticketsFile ${Math.round(t4 - t3)} ms`,
    );
  }, 120_000);
});
