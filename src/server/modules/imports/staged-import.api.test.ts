import { beforeAll, describe, expect, it } from 'vitest';
import { and, asc, count, eq, inArray, like } from 'drizzle-orm';
import { defaultMappings } from '../../../shared/excel';
import { queryStats, type DbOrTx } from '../../db/client';
import { companies, history, jobs, poles, tickets, ticketTasks, units, users, utilities, workOrders } from '../../db/schema/index';
import { recordImportInParts } from '../history/history.service';
import { createTestApp } from '../../test/harness';
import { countOf, importFootprint } from '../../test/import-footprint';
import { importTicketsStaged, writeStagedImport } from './staged-write';
import type { ImportTicket, ImportUnit } from './types';
import { discardAbandonedImports, discardStagedImport } from './staged-import.repository';
import { generateTicketWorkbook } from '../../test/generate-workbook';
import { columnsOf, parseWorkbook } from './read/workbook';
import { workbookImportOf } from './worker/convert-workbook';

/**
 * A new job's import is staged (decision 027): written in short statements under a job marked
 * import_pending, published in one short transaction. These tests hold it to its promises: all
 * or nothing, nothing visible before publication, and other requests answered meanwhile.
 */

const t = await createTestApp();
const API = '/api/v1';
const db = t.ctx.db;
let companyId: number, utilityId: number, utilityCode: string, userId: number, office: string;

beforeAll(async () => {
  companyId = (await db.select().from(companies).where(eq(companies.name, 'Demo Line Co')))[0].id;
  const [u] = await db.select().from(utilities).where(and(eq(utilities.companyId, companyId), eq(utilities.code, 'NGRID')));
  [utilityId, utilityCode] = [u.id, u.code];
  userId = (await db.select().from(users).where(eq(users.email, 'office@example.com')))[0].id;
  [office] = await t.loginAs('office');
});

let seq = 0;
const uniqueNumber = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++seq}`;

/** `n` drafts on poles `${prefix}-i`, each with two tasks of `codes` and a work order. */
const drafts = (prefix: string, n: number, codes: string[]): ImportTicket[] =>
  Array.from({ length: n }, (_, i) => ({
    row: i + 2,
    pole: { pole_name: `${prefix}-${i}`, line_name: 'SL', pole_id: null, line_id: null, street_address: null, geo_lat: null, geo_lon: null, primary_voltage: null, secondary_voltage: null, arc_rating: null },
    street_address: null,
    geo_lat: null,
    geo_lon: null,
    due_date: null,
    ehasp: null,
    work_orders: [`WO-${i}`],
    tasks: [codes[i % codes.length], codes[(i + 1) % codes.length]].map((code) => ({ code, description: '', qty: 1 })),
  }));
const unit = (code: string, unit_price: string | null = null): ImportUnit => ({ code, description: `Unit ${code}`, family: 'F', type: 'T', action: 'A', uom: 'EA', notes: '', unit_price });

/** A job row as saveJob makes it for a staged import. */
async function pendingJob(prefix: string) {
  const [job] = await db.insert(jobs).values({ companyId, jobNumber: uniqueNumber(prefix), dueDate: '2027-06-01', utilityId, createdBy: userId, importPending: true }).returning();
  return job;
}

/** Rows of every table an import writes, and the rows of this prefix / these codes. */
async function footprint(prefix: string, codes: string[]) {
  return {
    ...(await importFootprint(db)),
    polesOfPrefix: await countOf(db.select({ n: count() }).from(poles).where(like(poles.poleName, `${prefix}-%`))),
    unitsOfCodes: await countOf(db.select({ n: count() }).from(units).where(and(eq(units.companyId, companyId), inArray(units.code, codes)))),
  };
}

describe('a staged import that fails leaves nothing behind', () => {
  it('a database failure at publication (after every row was staged) removes the job, tickets, tasks, work orders, poles and units', async () => {
    const codes = ['STF-A', 'STF-B', 'STF-C'];
    const before = await footprint('STF', codes);
    const job = await pendingJob('STF');
    // numeric(14,2) overflows (the library upsert fails): the library's fields are written at publication, so this fails
    // after 1,200 tickets, 2,400 tasks and 1,200 work orders were written in chunks.
    const library = [unit('STF-A'), unit('STF-B'), unit('STF-C', '1e20')];
    const scope = { companyId, jobId: job.id, utilityId, userId };
    await expect(importTicketsStaged(db, scope, [{ tickets: drafts('STF', 1200, codes), library }])).rejects.toThrow(/insert into units/);
    expect(await footprint('STF', codes)).toEqual({ ...before, polesOfPrefix: 0, unitsOfCodes: 0 });
    expect(await db.select().from(jobs).where(eq(jobs.id, job.id))).toEqual([]);
  });

  it('PUT /jobs/ whose last draft is bad answers 400 naming it, keeps nothing, and the job number stays free', async () => {
    const codes = ['STB-A', 'STB-B'];
    const before = await footprint('STB', codes);
    const packet = await t.storeFile(companyId, 'work_packet', 'p.pdf');
    const job = { job_number: uniqueNumber('STB'), due_date: '2027-06-01', selected_utility_id: utilityId, work_packet_url: packet.url };
    const newTickets = Array.from({ length: 1500 }, (_, i) => ({ pole: { pole_name: `STB-${i}`, line_name: 'SL' }, work_orders: [`W${i}`], tasks: [{ code: codes[i % 2], init_qty: 1 }] }));
    newTickets.push({ pole: { pole_name: 'STB-LAST', line_name: 'SL' }, work_orders: [], tasks: [{ code: 'NOT-IN-LIBRARY', init_qty: 1 }] });
    const newUnits = codes.map((code) => ({ code, description: code }));
    const bad = await t.request({ method: 'PUT', url: `${API}/jobs/`, token: office, body: { job: { ...job, newTickets, newUnits } } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatch(/Ticket 1501: Unit\/task code 'NOT-IN-LIBRARY'/);
    expect(await footprint('STB', codes)).toEqual({ ...before, polesOfPrefix: 0, unitsOfCodes: 0 });
    // The same number again, fixed: the failed attempt left no job holding it.
    const good = await t.request({ method: 'PUT', url: `${API}/jobs/`, token: office, body: { job: { ...job, newTickets: newTickets.slice(0, -1), newUnits } } });
    expect(good.statusCode, good.body).toBe(200);
    expect(good.json().imported).toMatchObject({ tickets: 1500, tasks: 1500, workOrders: 1500, poles: 1500 });
  });
});

describe('before publication', () => {
  it('readers do not see a staged job, its tickets, poles or units; the next start discards it', async () => {
    const codes = ['STV-A', 'STV-B'];
    const before = await footprint('STV', codes);
    const job = await pendingJob('STV');
    // Everything staged, then the process "stops" just before publishing.
    const stop = async () => {
      throw new Error('stopped before publishing');
    };
    await expect(writeStagedImport(db, { companyId, jobId: job.id, utilityId, userId }, [{ tickets: drafts('STV', 300, codes), library: codes.map((c) => unit(c)) }], stop)).rejects.toThrow(/stopped/);
    expect((await db.select({ n: count() }).from(tickets).where(eq(tickets.jobId, job.id)))[0].n).toBe(300);

    const list = await t.request({ method: 'GET', url: `${API}/jobs`, token: office });
    expect(list.statusCode).toBe(200);
    expect((list.json() as { job_number: string }[]).map((j) => j.job_number)).not.toContain(job.jobNumber);
    expect((await t.request({ method: 'GET', url: `${API}/jobs/${job.id}`, token: office })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: `${API}/jobs/job_exists/${encodeURIComponent(job.jobNumber)}`, token: office })).json()).toEqual([]);
    const polesFound = await t.request({ method: 'GET', url: `${API}/poles/byUtility?utility=${utilityCode}&pole=STV-&line=`, token: office });
    expect(polesFound.statusCode).toBe(200);
    expect(polesFound.json()).toEqual({ poles: [] });
    const unitsFound = await t.request({ method: 'GET', url: `${API}/units?search=STV-&utility_id=${utilityId}`, token: office });
    expect(unitsFound.statusCode).toBe(200);
    expect(unitsFound.json()).toEqual([]);
    const work = await t.request({ method: 'GET', url: `${API}/work`, token: office });
    expect(work.statusCode).toBe(200);
    expect(JSON.stringify(work.json())).not.toContain(job.jobNumber);

    expect(await discardAbandonedImports(db, 0)).toBeGreaterThanOrEqual(1);
    expect(await footprint('STV', codes)).toEqual({ ...before, polesOfPrefix: 0, unitsOfCodes: 0 });
  });
});

describe('while a new job is imported', () => {
  it('GET /health answers 200 and GET /jobs leaves the job out before the import finishes', async () => {
    const packet = await t.storeFile(companyId, 'work_packet', 'p.pdf');
    const number = uniqueNumber('STH');
    const newTickets = Array.from({ length: 3000 }, (_, i) => ({ pole: { pole_name: `STH-${i}`, line_name: 'SL' }, work_orders: [`W${i}`], tasks: [{ code: 'STH-A', init_qty: 1 }] }));
    const events: string[] = [];
    let probes: Promise<void> | undefined;
    // Once the import writes its first tickets, ask for /health and the jobs list.
    queryStats.onQuery = (query) => {
      if (probes || !/^insert into tickets/i.test(query)) return;
      probes = Promise.all([
        t.request({ method: 'GET', url: `${API}/health` }).then((r) => {
          events.push(`health ${r.statusCode}`);
        }),
        t.request({ method: 'GET', url: `${API}/jobs`, token: office }).then((r) => {
          const listed = (r.json() as { job_number: string }[]).some((j) => j.job_number === number);
          events.push(`jobs ${r.statusCode} ${listed ? 'listed' : 'not listed'}`);
        }),
      ]).then(() => undefined);
    };
    try {
      const res = await t.request({
        method: 'PUT',
        url: `${API}/jobs/`,
        token: office,
        body: { job: { job_number: number, due_date: '2027-06-01', selected_utility_id: utilityId, work_packet_url: packet.url, newTickets, newUnits: [{ code: 'STH-A' }] } },
      });
      events.push(`import ${res.statusCode}`);
      expect(res.json().imported).toMatchObject({ tickets: 3000, tasks: 3000 });
      await probes;
    } finally {
      queryStats.onQuery = undefined;
    }
    expect(events.slice(0, 2).sort()).toEqual(['health 200', 'jobs 200 not listed']);
    expect(events[2]).toBe('import 200');
  }, 60_000);
});

describe('a new job’s workbook, written while the worker reads it', () => {
  // 1,200 rows on 300 poles, a pole's four rows 300 rows apart (generateTicketWorkbook spread):
  // each ticket is written from its first row, and its later rows add work orders and tasks and
  // fill its Pole ID, street and due date, batches later.
  const spreadBook = (edit?: (i: number, cells: unknown[]) => void) => generateTicketWorkbook(1200, { spread: true, edit });
  const ticketsFileOf = async (buf: Buffer) => {
    const stored = await t.storeFile(companyId, 'excel', 'spread.xlsx', { body: buf });
    const m = defaultMappings(columnsOf(await parseWorkbook(buf)));
    return { ticket_file_url: stored.url, ticket_file_name: 'spread.xlsx', ticketsMappings: m.ticketsMappings, libraryMappings: m.libraryMappings };
  };
  const jobWith = async (ticketsFile: unknown, number = uniqueNumber('STW')) => {
    const packet = await t.storeFile(companyId, 'work_packet', 'p.pdf');
    return { job: { job_number: number, due_date: '2027-06-01', selected_utility_id: utilityId, work_packet_url: packet.url, ticketsFile } };
  };

  /** What the job holds, ticket by ticket in id order: its pole's fields, its own, its work orders and tasks in order. */
  async function stored(jobId: number) {
    const ts = await db
      .select({ id: tickets.id, pole: poles.poleName, line: poles.lineName, poleId: poles.poleId, poleStreet: poles.streetAddress, street: tickets.streetAddress, due: tickets.dueDate, lat: tickets.geoLat })
      .from(tickets)
      .innerJoin(poles, eq(poles.id, tickets.poleId))
      .where(eq(tickets.jobId, jobId))
      .orderBy(asc(tickets.id));
    const ids = ts.map((x) => x.id);
    const tasks = await db.select({ ticketId: ticketTasks.ticketId, code: units.code, qty: ticketTasks.initQty }).from(ticketTasks).innerJoin(units, eq(units.id, ticketTasks.unitId)).where(inArray(ticketTasks.ticketId, ids)).orderBy(asc(ticketTasks.id));
    const wos = await db.select({ ticketId: workOrders.ticketId, wo: workOrders.workOrder }).from(workOrders).where(inArray(workOrders.ticketId, ids)).orderBy(asc(workOrders.id));
    return ts.map(({ id, ...x }) => ({ ...x, workOrders: wos.filter((w) => w.ticketId === id).map((w) => w.wo), tasks: tasks.filter((k) => k.ticketId === id).map((k) => [k.code, k.qty]) }));
  }

  it('answers the file’s own bad row (422 → 400) over a unit the library lacks in an earlier batch, and keeps nothing', async () => {
    const before = await footprint('P-', ['U-1']);
    const buf = await spreadBook((i, cells) => {
      if (i === 3) cells[12] = 'NOT-IN-LIBRARY';
      if (i === 1000) cells[14] = 'lots';
    });
    const number = uniqueNumber('STE');
    const res = await t.request({ method: 'PUT', url: `${API}/jobs/`, token: office, body: await jobWith(await ticketsFileOf(buf), number) });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/^Row 1003: /);
    expect(await footprint('P-', ['U-1'])).toEqual(before);
    expect(await db.select().from(jobs).where(eq(jobs.jobNumber, number))).toEqual([]);
  }, 60_000);

  it('names the first unknown unit of the whole file when only the server can tell, after batches were written', async () => {
    const before = await footprint('P-', ['U-1']);
    const buf = await spreadBook((i, cells) => {
      if (i === 1100 || i === 1150) cells[12] = `NOPE-${i}`;
    });
    const res = await t.request({ method: 'PUT', url: `${API}/jobs/`, token: office, body: await jobWith(await ticketsFileOf(buf)) });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/^Row 1103: Unit\/task code 'NOPE-1100'/);
    expect(await footprint('P-', ['U-1'])).toEqual(before);
  }, 60_000);

  it('answers a taken job number with 409 and writes nothing; a bad file with the same number answers its own 400', async () => {
    const taken = (await pendingJob('STN')).jobNumber;
    await db.update(jobs).set({ importPending: false }).where(eq(jobs.jobNumber, taken));
    const before = await footprint('P-', ['U-1']);
    const good = await t.request({ method: 'PUT', url: `${API}/jobs/`, token: office, body: await jobWith(await ticketsFileOf(await spreadBook()), taken) });
    expect(good.statusCode).toBe(409);
    const bad = await t.request({ method: 'PUT', url: `${API}/jobs/`, token: office, body: await jobWith(await ticketsFileOf(await spreadBook((i, c) => i === 5 && (c[14] = 'x'))), taken) });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatch(/^Row 8: /);
    expect(await footprint('P-', ['U-1'])).toEqual(before);
  }, 60_000);
  // Last: the failures above must not find these poles already there.
  it('holds exactly what the whole conversion says, fields filled by later rows included', async () => {
    const buf = await spreadBook();
    const res = await t.request({ method: 'PUT', url: `${API}/jobs/`, token: office, body: await jobWith(await ticketsFileOf(buf)) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().imported).toMatchObject({ tickets: 300, tasks: 1200, workOrders: 1200 });
    const m = defaultMappings(columnsOf(await parseWorkbook(buf)));
    const whole = await workbookImportOf(buf, { ticketsMappings: m.ticketsMappings, libraryMappings: m.libraryMappings });
    const got = await stored(res.json().job.id);
    expect(got).toEqual(
      whole.tickets.map((d) => ({
        pole: d.pole.pole_name,
        line: d.pole.line_name,
        poleId: d.pole.pole_id,
        poleStreet: d.pole.street_address,
        street: d.street_address,
        due: d.due_date,
        lat: d.geo_lat,
        workOrders: d.work_orders,
        tasks: d.tasks.map((k) => [k.code, k.qty]),
      })),
    );
    expect(got[7]).toMatchObject({ poleId: 'NG-7', street: '7 Main St', due: '2027-08-08', workOrders: ['WO-7-0', 'WO-7-1', 'WO-7-2', 'WO-7-3'] });
  }, 60_000);
});

describe('writeStagedImport, batch by batch', () => {
  const draft = (pole: string, over: Partial<ImportTicket> = {}, codes = ['STR-A']): ImportTicket => ({
    ...drafts(pole, 1, codes)[0],
    key: `${pole.toLowerCase()}-0\u0000sl`,
    ...over,
  });
  const library = [unit('STR-A'), unit('STR-B')];

  it('fills the blanks a continuation brings on the ticket and on the pole it created, never on a pole someone else had', async () => {
    // A pole the utility already has, without a street: the import may use it but not change it.
    await db.insert(poles).values({ companyId, utilityId, poleName: 'STR-OLD-0', lineName: 'SL' });
    const job = await pendingJob('STR');
    const scope = { companyId, jobId: job.id, utilityId, userId };
    const filled = { street_address: '9 Elm', due_date: '2027-03-04', pole: { ...draft('STR-NEW').pole, street_address: '9 Elm', pole_id: 'NG-9' } };
    const counts = await writeStagedImport(
      db,
      scope,
      [
        { tickets: [draft('STR-NEW'), draft('STR-OLD')], library },
        { tickets: [{ ...draft('STR-NEW', filled, ['STR-B']), continued: true, work_orders: ['WO-9'] }, { ...draft('STR-OLD', { ...filled, pole: { ...filled.pole, pole_name: 'STR-OLD-0' } }), continued: true, work_orders: [] }] },
      ],
      async () => {},
    );
    expect(counts).toMatchObject({ tickets: 2, tasks: 8, workOrders: 3, poles: 1 });
    const rows = await db
      .select({ pole: poles.poleName, poleStreet: poles.streetAddress, poleId: poles.poleId, street: tickets.streetAddress, due: tickets.dueDate })
      .from(tickets)
      .innerJoin(poles, eq(poles.id, tickets.poleId))
      .where(eq(tickets.jobId, job.id))
      .orderBy(asc(tickets.id));
    expect(rows).toEqual([
      { pole: 'STR-NEW-0', poleStreet: '9 Elm', poleId: 'NG-9', street: '9 Elm', due: '2027-03-04' },
      { pole: 'STR-OLD-0', poleStreet: null, poleId: null, street: '9 Elm', due: '2027-03-04' },
    ]);
  });

  it('on `restart`, removes what it wrote and holds only the drafts that follow', async () => {
    const codes = ['STR-A', 'STR-B'];
    const job = await pendingJob('STS');
    const scope = { companyId, jobId: job.id, utilityId, userId };
    const counts = await writeStagedImport(
      db,
      scope,
      [
        { tickets: drafts('STS', 400, codes), library },
        { tickets: drafts('STT', 10, codes) },
        { restart: true, tickets: drafts('STS', 3, codes), library },
      ],
      async () => {},
    );
    expect(counts).toMatchObject({ tickets: 3, tasks: 6, workOrders: 3, poles: 3 });
    const names = await db.select({ pole: poles.poleName }).from(tickets).innerJoin(poles, eq(poles.id, tickets.poleId)).where(eq(tickets.jobId, job.id)).orderBy(asc(tickets.id));
    expect(names.map((n) => n.pole)).toEqual(['STS-0', 'STS-1', 'STS-2']);
    // The poles of the voided batches are gone with their tickets.
    expect((await db.select({ n: count() }).from(poles).where(and(eq(poles.importJobId, job.id))))[0].n).toBe(3);
    expect((await db.select({ n: count() }).from(poles).where(like(poles.poleName, 'STT-%')))[0].n).toBe(0);
  });
});

describe('its history', () => {
  it('one import entry per ticket, in ticket order, written in parts before the publication and published with the job', async () => {
    const codes = ['STH-A', 'STH-B'];
    const job = await pendingJob('STH');
    const scope = { companyId, jobId: job.id, utilityId, userId };
    // 300 tickets: two statements of entries (250 a statement).
    let atPublication = -1;
    await importTicketsStaged(db, scope, [{ tickets: drafts('STH', 300, codes), library: codes.map((c) => unit(c)) }]);
    const ids = (await db.select({ id: tickets.id }).from(tickets).where(eq(tickets.jobId, job.id)).orderBy(asc(tickets.id))).map((r) => r.id);
    const entries = await db
      .select({ id: history.id, action: history.action, entity: history.entity, entityId: history.entityId, ticketId: history.ticketId, jobId: history.jobId, field: history.field, old: history.old, new: history.new, userId: history.userId })
      .from(history)
      .where(and(eq(history.jobId, job.id), eq(history.action, 'import')))
      .orderBy(asc(history.id));
    expect(ids).toHaveLength(300);
    expect(entries.map((e) => e.ticketId)).toEqual(ids);
    expect(entries.every((e) => e.entity === 'ticket' && e.entityId === e.ticketId && e.field === 'tasks' && e.old === null && e.userId === userId)).toBe(true);
    expect(entries.map((e) => e.new)).toEqual(ids.map(() => ({ tasks: 2, bid: 2 })));

    // The entries are written before the publishing transaction; one that fails takes them with the job.
    const failing = await pendingJob('STI');
    const stop = async (tx: DbOrTx) => {
      atPublication = await countOf(tx.select({ n: count() }).from(history).where(eq(history.jobId, failing.id)));
      throw new Error('publication failed');
    };
    await expect(
      writeStagedImport(db, { ...scope, jobId: failing.id }, [{ tickets: drafts('STI', 20, codes), library: codes.map((c) => unit(c)) }], stop, () => recordImportInParts(db, { ...scope, jobId: failing.id }, async () => {})),
    ).rejects.toThrow(/publication failed/);
    expect(atPublication).toBe(20);
    await discardStagedImport(db, companyId, failing.id);
    expect(await countOf(db.select({ n: count() }).from(history).where(eq(history.jobId, failing.id)))).toBe(0);
  }, 120_000);
});
