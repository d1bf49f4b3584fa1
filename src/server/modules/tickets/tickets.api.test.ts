import { and, asc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../../shared/messages';
import type { Ticket } from '../../../shared/tickets.schemas';
import { images, jobs, notes, permits, permitTypes, poles, tickets, ticketTasks, units, users, workOrders } from '../../db/schema/index';
import { makeStorageKey } from '../../storage/keys';
import { createTestApp, type TestApp } from '../../test/harness';

let t: TestApp;
const tok: Record<string, string> = {};
let company: number;
let j1: number;
let j2: number;
let ngrid: number;
let j1Tickets: number[];
let wf: number; // working foreman Walt
let foremanId: number;
let unitIds: number[];
let otherUnit: number;

beforeAll(async () => {
  t = await createTestApp();
  [tok.admin, tok.office, tok.foreman, tok.wforeman, tok.lineman, tok.apprentice, tok.other] = await t.loginAs(
    'admin',
    'office',
    'foreman',
    'wforeman',
    'lineman',
    'apprentice',
    'other',
  );
  const db = t.ctx.db;
  const demo = await t.demo();
  ({ company, ngrid } = demo);
  [j1, j2] = [demo.job['J-1001'], demo.job['J-1002']];
  j1Tickets = (await db.select().from(tickets).where(eq(tickets.jobId, j1)).orderBy(asc(tickets.id))).map((r) => r.id);
  const us = await db.select().from(users);
  wf = us.find((x) => x.email === 'wforeman@example.com')!.id;
  foremanId = us.find((x) => x.email === 'foreman@example.com')!.id;
  unitIds = (await db.select().from(units).where(and(eq(units.companyId, company), eq(units.utilityId, ngrid))).orderBy(asc(units.id))).map((x) => x.id);
  otherUnit = (await db.select().from(units).where(eq(units.code, 'OTHER-1')))[0].id;
});

const api = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, token: string | undefined, body?: unknown) =>
  t.request({ method, url: `/api/v1${url}`, token, body });
const read = async (id: number, token = tok.admin): Promise<Ticket> => {
  const res = await api('GET', `/tickets/${id}`, token);
  expect(res.statusCode).toBe(200);
  return res.json();
};
const save = (ticket: unknown, token = tok.admin) => api('PUT', '/tickets/', token, { ticket });
/** A fresh ticket in job J-1001 on a new pole (the add-pole flow). */
async function newTicket(name: string, jobId = j1): Promise<Ticket> {
  const res = await api('POST', '/poles/', tok.admin, { pole_name: name, line_name: 'T', utility: ngrid, job_id: jobId });
  expect(res.statusCode).toBe(200);
  return res.json().ticket;
}

describe('GET /tickets/{id}', () => {
  it('requires authentication', async () => {
    expect((await api('GET', `/tickets/${j1Tickets[0]}`, undefined)).statusCode).toBe(401);
  });
  it('answers the ticket read model to every role', async () => {
    for (const role of ['admin', 'wforeman', 'lineman', 'apprentice']) {
      const ticket = await read(j1Tickets[0], tok[role]);
      expect(ticket).toMatchObject({ id: j1Tickets[0], job_id: j1, pole_name: '10', line_name: '12', status: 'Pending', version: 1 });
      expect(ticket.tasks).toHaveLength(2);
      expect(ticket.work_orders).toEqual(['WO-5000']);
    }
  });
  it('answers 404 for another company’s ticket and for unknown ids', async () => {
    expect((await api('GET', `/tickets/${j1Tickets[0]}`, tok.other)).statusCode).toBe(404);
    expect((await api('GET', '/tickets/99999999', tok.admin)).statusCode).toBe(404);
    expect((await api('GET', '/tickets/abc', tok.admin)).statusCode).toBe(400);
  });
});

describe('PUT /tickets/ (update)', () => {
  it('requires authentication', async () => {
    expect((await api('PUT', '/tickets/', undefined, { ticket: { id: j1Tickets[0], version: 1 } })).statusCode).toBe(401);
  });

  it('saves the ticket fields, bumps the version and answers the fresh ticket', async () => {
    const before = await newTicket('U-1');
    const res = await save({
      ...before,
      street_address: '9 Elm St',
      geo_lat: 42.12345678,
      geo_lon: -72.12345699,
      description: 'Replace crossarm',
      assigned_to: wf,
      due_date: '07/04/2031',
      ehasp: 'EHASP-7',
      ambulance_meetup: 'Corner of Elm and Main',
      dig_safe_required: 1,
      work_orders: ['WO-1', ' WO-2 ', '', 'WO-1'],
    });
    expect(res.statusCode).toBe(200);
    const { ticket } = res.json();
    expect(ticket).toMatchObject({
      street_address: '9 Elm St',
      geo_lat: 42.123456,
      geo_lon: -72.123456,
      description: 'Replace crossarm',
      assigned_to: wf,
      assigned_to_name: 'Walt Working',
      due_date: '2031-07-04',
      ehasp: 'EHASP-7',
      ambulance_meetup: 'Corner of Elm and Main',
      dig_safe_required: 1,
      work_orders: ['WO-1', 'WO-2'],
      version: before.version + 1,
    });
    expect(res.json().notifyMergeRequired).toBeUndefined();
  });

  it('a stale version gets 409 with the message, and nothing of the first save is lost', async () => {
    const opened = await newTicket('U-2');
    const first = await save({ ...opened, description: 'first person' });
    expect(first.statusCode).toBe(200);
    const second = await save({ ...opened, description: 'second person', work_orders: ['WO-X'] });
    expect(second.statusCode).toBe(409);
    expect(second.json().error).toBe(MSG.staleVersion);
    const now = await read(opened.id);
    expect(now.description).toBe('first person');
    expect(now.work_orders).toEqual([]);
    // After a reload the second person's save goes through.
    expect((await save({ ...now, description: 'second person' })).statusCode).toBe(200);
  });

  it('an update without a version is refused', async () => {
    const res = await save({ id: j1Tickets[0], description: 'x' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe(MSG.ticketVersionRequired);
  });

  it('marking complete sets actual_completion_date; back to Pending clears it', async () => {
    const t0 = await newTicket('U-3');
    const done = (await save({ ...t0, status: 'Complete' })).json().ticket;
    expect(done.status).toBe('Complete');
    expect(Date.now() - new Date(done.actual_completion_date).getTime()).toBeLessThan(60_000);
    const [row] = await t.ctx.db.select().from(tickets).where(eq(tickets.id, t0.id));
    expect(row.actualCompletionDate).not.toBeNull();
    const pending = (await save({ ...done, status: 'Pending' })).json().ticket;
    expect(pending.status).toBe('Pending');
    expect(pending.actual_completion_date).toBeNull();
  });

  it('the job’s status follows its tickets’ completion (docs/product/roles-and-statuses.md §5)', async () => {
    const j3 = (await t.ctx.db.select().from(jobs).where(eq(jobs.jobNumber, 'J-1003')).orderBy(asc(jobs.id)))[0].id;
    const jobStatus = async () => (await api('GET', `/jobs/${j3}`, tok.admin)).json().status;
    expect(await jobStatus()).toBe('Complete');
    const [first] = (await t.ctx.db.select().from(tickets).where(eq(tickets.jobId, j3)).orderBy(asc(tickets.id))).map((r) => r.id);
    const reopened = (await save({ ...(await read(first)), status: 'Pending' })).json().ticket;
    expect(await jobStatus()).toBe('In Progress');
    await save({ ...reopened, status: 'Complete' });
    expect(await jobStatus()).toBe('Complete');
  });

  it('assigns only active working foremen of the company, or nobody', async () => {
    const t0 = await newTicket('U-4');
    const bad = await save({ ...t0, assigned_to: foremanId });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe(MSG.ticketAssignWorkingForeman);
    const otherAdmin = (await t.ctx.db.select().from(users).where(eq(users.email, 'admin@other.example.com')))[0].id;
    expect((await save({ ...t0, assigned_to: otherAdmin })).statusCode).toBe(400);
    const ok = (await save({ ...t0, assigned_to: wf })).json().ticket;
    expect(ok.assigned_to).toBe(wf);
    const none = (await save({ ...ok, assigned_to: null })).json().ticket;
    expect(none.assigned_to).toBeNull();
    expect(none.assigned_to_name).toBeNull();
    // An inactive working foreman is not assignable.
    await t.ctx.db.update(users).set({ crewStatus: 2 }).where(eq(users.email, 'wendy@example.com'));
    const wendy = (await t.ctx.db.select().from(users).where(eq(users.email, 'wendy@example.com')))[0].id;
    expect((await save({ ...none, assigned_to: wendy })).statusCode).toBe(400);
    await t.ctx.db.update(users).set({ crewStatus: 1 }).where(eq(users.email, 'wendy@example.com'));
  });

  it('adds, updates and removes tasks, clamping additional_qty to -init_qty', async () => {
    const t0 = await newTicket('U-5');
    const added = (
      await save({
        ...t0,
        tasks: [
          { task_id: unitIds[0], init_qty: 2, additional_qty: 1 },
          { task_id: unitIds[1], init_qty: 3, additional_qty: -10 },
        ],
      })
    ).json().ticket as Ticket;
    expect(added.tasks.map((x) => [x.task_id, x.init_qty, x.additional_qty])).toEqual([
      [unitIds[0], 2, 1],
      [unitIds[1], 3, -3],
    ]);
    expect(added.tasks[0]).toMatchObject({ code: 'P40-2', description: 'Pole, wood, 40 ft class 2', uom: 'EA' });
    const changed = (
      await save({
        ...added,
        tasks: [{ ...added.tasks[1], additional_qty: 4 }],
      })
    ).json().ticket as Ticket;
    expect(changed.tasks).toHaveLength(1);
    expect(changed.tasks[0]).toMatchObject({ ticket_task_id: added.tasks[1].ticket_task_id, init_qty: 3, additional_qty: 4 });
    // A unit of another company's library is refused.
    const bad = await save({ ...changed, tasks: [...changed.tasks, { task_id: otherUnit, init_qty: 1, additional_qty: 1 }] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe(MSG.ticketUnitInvalid);
    expect(await t.ctx.db.select().from(ticketTasks).where(eq(ticketTasks.ticketId, t0.id))).toHaveLength(1);
    // A negative bid is refused.
    expect((await save({ ...changed, tasks: [{ task_id: unitIds[0], init_qty: -1, additional_qty: 0 }] })).statusCode).toBe(400);
  });

  it('a task says who last set its quantities and when; a save that leaves a task as it was keeps its stamp (decision 037)', async () => {
    const t0 = await newTicket('U-STAMP');
    const added = (await save({ ...t0, tasks: [{ task_id: unitIds[0], init_qty: 2, additional_qty: 0 }, { task_id: unitIds[1], init_qty: 1, additional_qty: 0 }] })).json()
      .ticket as Ticket;
    expect(added.tasks.map((x) => x.qty_changed_by_name)).toEqual(['Avery Admin', 'Avery Admin']);
    const [first, second] = added.tasks;
    expect(Date.parse(first.qty_changed_at!)).not.toBeNaN();
    // The office changes the first task only, and a foreman then adds a note.
    const changed = (await save({ id: t0.id, version: added.version, tasks: [{ ...first, additional_qty: 3 }, second] }, tok.office)).json().ticket as Ticket;
    const noted = (await save({ id: t0.id, version: changed.version, notes: [{ note_text: 'Guy wire loose' }] }, tok.foreman)).json().ticket as Ticket;
    expect(noted.tasks.map((x) => [x.additional_qty, x.qty_changed_by_name])).toEqual([
      [3, 'Olivia Office'],
      [0, 'Avery Admin'],
    ]);
    expect(noted.tasks[1].qty_changed_at).toBe(second.qty_changed_at);
    expect(Date.parse(noted.tasks[0].qty_changed_at!)).toBeGreaterThanOrEqual(Date.parse(first.qty_changed_at!));
    expect((await read(t0.id, tok.lineman)).tasks[0].qty_changed_by_name).toBe('Olivia Office');
  });

  it('appends notes with the caller as author and never edits old ones', async () => {
    const t0 = await newTicket('U-6');
    const one = (await save({ ...t0, notes: [{ note_text: 'First note' }] })).json().ticket as Ticket;
    const two = (await save({ ...one, notes: [{ ...one.notes[0], note_text: 'changed?' }, { note_text: '  Second note ' }, { note_text: '   ' }] }, tok.foreman)).json()
      .ticket as Ticket;
    expect(two.notes).toHaveLength(2);
    const byText = Object.fromEntries(two.notes.map((n) => [n.note_text, n.author]));
    expect(byText).toEqual({ 'First note': 'Avery Admin', 'Second note': 'Frank Foreman' });
  });

  it('adds, updates and removes permits; a permit document must be this company’s upload', async () => {
    const t0 = await newTicket('U-7');
    const [type1, type2] = await t.ctx.db.select().from(permitTypes).where(eq(permitTypes.companyId, company)).orderBy(asc(permitTypes.id));
    const file = await t.storeFile(company, 'permit', 'town.pdf');
    const one = (
      await save({ ...t0, permits: [{ permit_type: type1.id, permit_url: file.url, permit_name: 'town.pdf', filename: 'town.pdf', permit_file_type: 'application/pdf' }, { permit_type: type2.id }] })
    ).json().ticket as Ticket;
    expect(one.permits.map((p) => [p.permit_type_title, p.permit_name])).toEqual([
      ['Town / City', 'town.pdf'],
      ['State DOT', null],
    ]);
    // Remove the document of the first (url, name and type cleared), drop the second.
    const two = (await save({ ...one, permits: [{ ...one.permits[0], permit_url: null, permit_name: null, permit_type: null, filename: null }] })).json()
      .ticket as Ticket;
    expect(two.permits).toEqual([expect.objectContaining({ id: one.permits[0].id, permit_url: null, permit_name: null, permit_type: null })]);
    expect(await t.ctx.storage.head(file.key)).toBeNull(); // the removed document's file is gone
    const foreign = await t.storeFile(company + 1, 'permit', 'foreign.pdf');
    expect((await save({ ...two, permits: [{ permit_url: foreign.url }] })).statusCode).toBe(400);
    expect((await save({ ...two, permits: [{ permit_url: 'https://evil.example.com/x.pdf' }] })).statusCode).toBe(400);
    expect((await save({ ...two, permits: [{ permit_type: 999999 }] })).json().error).toBe(MSG.ticketPermitTypeInvalid);
  });

  it('uploading a dig-safe or NRA document sets its flag to 1; removing it sets 0 and clears url and name', async () => {
    const t0 = await newTicket('U-8');
    const ds = await t.storeFile(company, 'dig_file', 'digsafe.pdf');
    const nra = await t.storeFile(company, 'nra_file', 'nra.pdf');
    const up = (await save({ ...t0, dig_safe_url: ds.url, dig_safe_name: 'digsafe.pdf', nra_url: nra.url })).json().ticket as Ticket;
    expect(up).toMatchObject({ dig_safe_required: 1, dig_safe_url: ds.url, dig_safe_name: 'digsafe.pdf', nra_required: 1, nra_url: nra.url, nra_name: 'nra.pdf' });
    const down = (await save({ ...up, dig_safe_url: null })).json().ticket as Ticket;
    expect(down).toMatchObject({ dig_safe_required: 0, dig_safe_url: null, dig_safe_name: null, nra_required: 1 });
    expect(await t.ctx.storage.head(ds.key)).toBeNull();
    expect(await t.ctx.storage.head(nra.key)).not.toBeNull();
    const missing = makeStorageKey(company, 'dig_file', 'never-uploaded.pdf');
    expect((await save({ ...down, dig_safe_url: t.ctx.storage.urlFor(missing) })).statusCode).toBe(400);
  });

  it('answers 404 for another company’s ticket (even with its own job id)', async () => {
    const res = await save({ id: j1Tickets[0], version: 1, description: 'hijack' }, tok.other);
    expect(res.statusCode).toBe(404);
    expect((await read(j1Tickets[0])).description).not.toBe('hijack');
  });

  it('refuses bad input with 400, never 500', async () => {
    for (const body of [
      { id: j1Tickets[0], version: 1, geo_lat: 'north' },
      { id: j1Tickets[0], version: 1, dig_safe_required: 2 },
      { id: j1Tickets[0], version: 1, status: 'Done' },
      { id: j1Tickets[0], version: 1, description: 'x'.repeat(20_000) },
      { id: j1Tickets[0], version: 1, due_date: 'not a date' },
      { id: j1Tickets[0], version: 1, tasks: [{ task_id: 'x' }] },
    ]) {
      const res = await save(body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
    }
  });
});

describe('PUT /tickets/ (create)', () => {
  it('creates a ticket on an existing pole of the job’s company and flags a pole another ticket holds', async () => {
    const heldPole = (await read(j1Tickets[0])).pole_id!;
    const res = await save({ job_id: j1, pole: { id: heldPole }, description: 'second on pole 10', due_date: '2031-01-02' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.ticket).toMatchObject({ job_id: j1, pole_id: heldPole, description: 'second on pole 10', due_date: '2031-01-02' });
    expect(body.notifyMergeRequired).toBe(true);
    expect(body.ticketIdToMerge).toBe(j1Tickets[0]);
    await api('DELETE', `/tickets/${body.ticket.id}`, tok.admin);
  });

  it('creates a ticket with a new pole, refusing a pole and line the job already has', async () => {
    const res = await save({ job_id: j2, pole: { pole_name: 'C-1', line_name: 'C', utility_id_owning_pole: ngrid }, tasks: [{ task_id: unitIds[2], init_qty: 1, additional_qty: 1 }] });
    expect(res.statusCode).toBe(200);
    expect(res.json().ticket).toMatchObject({ pole_name: 'C-1', line_name: 'C' });
    expect(res.json().ticket.tasks).toHaveLength(1);
    const dup = await save({ job_id: j2, pole: { pole_name: 'c-1', line_name: 'c', utility_id_owning_pole: ngrid } });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().error).toBe(MSG.addPoleDuplicate);
    const missing = await save({ job_id: j2, pole: { pole_name: 'C-2', line_name: '' } });
    expect(missing.json().error).toBe(MSG.addPoleMissing);
  });

  it('needs tickets.write and a job of the caller’s company', async () => {
    const pole = (await read(j1Tickets[0])).pole_id!;
    expect((await save({ job_id: j1, pole_id: pole }, tok.wforeman)).statusCode).toBe(403);
    expect((await save({ job_id: j1, pole_id: pole }, tok.lineman)).statusCode).toBe(403);
    expect((await save({ job_id: j1, pole_id: pole }, tok.other)).statusCode).toBe(404);
    const otherPole = (await t.ctx.db.select().from(poles).where(eq(poles.companyId, company + 1)))[0].id;
    expect((await save({ job_id: j1, pole_id: otherPole })).statusCode).toBe(404);
  });
});

describe('role matrix of a ticket save (docs/product/roles-and-statuses.md §2)', () => {
  it('a lineman or apprentice may add a note, sending the whole ticket back', async () => {
    for (const role of ['lineman', 'apprentice']) {
      const cur = await read(j1Tickets[3], tok[role]);
      const res = await save({ ...cur, notes: [...cur.notes, { note_text: `note by ${role}` }] }, tok[role]);
      expect(res.statusCode).toBe(200);
      expect(res.json().ticket.notes.map((n: { note_text: string }) => n.note_text)).toContain(`note by ${role}`);
    }
  });

  it('a lineman may add a note to a ticket whose coordinates have more than 6 decimals stored', async () => {
    await t.ctx.db.update(tickets).set({ geoLat: 42.10489999999999, geoLon: -72.5901000000001 }).where(eq(tickets.id, j1Tickets[1]));
    const cur = await read(j1Tickets[1], tok.lineman);
    const res = await save({ ...cur, notes: [{ note_text: 'geo note' }] }, tok.lineman);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().ticket.geo_lat).toBe(42.10489999999999); // untouched
    expect((await save({ ...res.json().ticket, geo_lat: 42.2 }, tok.lineman)).statusCode).toBe(403);
  });

  it('a lineman cannot change the description, tasks, status or assignment (403, nothing saved)', async () => {
    const cur = await read(j1Tickets[3], tok.lineman);
    for (const change of [
      { description: 'lineman edit' },
      { status: 'Complete' },
      { assigned_to: wf },
      { tasks: [] },
      { work_orders: ['WO-L'] },
      { description: 'lineman edit', notes: [{ note_text: 'and a note' }] },
    ]) {
      const res = await save({ ...cur, ...change }, tok.lineman);
      expect(res.statusCode, JSON.stringify(change)).toBe(403);
      expect(res.json().error).toBe(MSG.ticketNotesAndImagesOnly);
    }
    const after = await read(j1Tickets[3]);
    expect(after.description).toBe(cur.description);
    expect(after.version).toBe(cur.version);
    expect(after.notes.map((n) => n.note_text)).not.toContain('and a note');
  });

  it('a working foreman may edit tasks, documents and status but not move the ticket to another pole', async () => {
    const cur = await read(j1Tickets[3], tok.wforeman);
    const ok = await save({ ...cur, description: 'wf edit', status: 'Complete' }, tok.wforeman);
    expect(ok.statusCode).toBe(200);
    const next = ok.json().ticket;
    const otherPole = (await read(j1Tickets[4])).pole_id;
    expect((await save({ ...next, pole_id: otherPole }, tok.wforeman)).statusCode).toBe(403);
    expect((await save({ ...next, status: 'Pending' }, tok.wforeman)).statusCode).toBe(200);
  });

  it('a lineman cannot delete or merge tickets', async () => {
    expect((await api('DELETE', `/tickets/${j1Tickets[3]}`, tok.lineman)).statusCode).toBe(403);
    expect((await api('DELETE', `/tickets/${j1Tickets[3]}`, tok.wforeman)).statusCode).toBe(403);
    expect((await api('PUT', `/tickets/merge/${j1Tickets[3]}`, tok.lineman, { secondary_ticket: j1Tickets[4] })).statusCode).toBe(403);
    expect(await t.ctx.db.select().from(tickets).where(eq(tickets.id, j1Tickets[3]))).toHaveLength(1);
  });
});

describe('GET /tickets/needsMerge/{jobId}', () => {
  it('lists the job’s tickets on the pole, optionally leaving one out', async () => {
    const pole = (await read(j1Tickets[1])).pole_id!;
    expect((await api('GET', `/tickets/needsMerge/${j1}?pole_id=${pole}`, tok.lineman)).json()).toEqual({ ticket_ids: [j1Tickets[1]] });
    expect((await api('GET', `/tickets/needsMerge/${j1}?pole_id=${pole}&ticket_id=${j1Tickets[1]}`, tok.admin)).json()).toEqual({ ticket_ids: [] });
    expect((await api('GET', `/tickets/needsMerge/${j2}?pole_id=${pole}`, tok.admin)).json()).toEqual({ ticket_ids: [] });
  });
  it('answers 404 for another company’s job and 400 without pole_id', async () => {
    expect((await api('GET', `/tickets/needsMerge/${j1}?pole_id=1`, tok.other)).statusCode).toBe(404);
    expect((await api('GET', `/tickets/needsMerge/${j1}`, tok.admin)).statusCode).toBe(400);
  });
});

describe('PUT /tickets/merge/{id}', () => {
  it('moves tasks, notes, work orders, permits, documents and images into the ticket and deletes the other, in one go', async () => {
    const primary = await read(j1Tickets[0]); // digsafe required, no document, 2 tasks, WO-5000, 1 note
    const pole = primary.pole_id!;
    // A second ticket on the same pole with a bit of everything.
    const created = (await save({ job_id: j1, pole_id: pole })).json();
    expect(created.notifyMergeRequired).toBe(true);
    const ds = await t.storeFile(company, 'dig_file', 'm-digsafe.pdf');
    const permitFile = await t.storeFile(company, 'permit', 'm-permit.pdf');
    const [ptype] = await t.ctx.db.select().from(permitTypes).where(eq(permitTypes.companyId, company));
    const secondary = (
      await save({
        ...created.ticket,
        description: 'from secondary',
        work_orders: ['WO-5000', 'WO-NEW'],
        notes: [{ note_text: 'secondary note' }],
        tasks: [{ task_id: unitIds[5], init_qty: 4, additional_qty: 1 }],
        permits: [{ permit_type: ptype.id, permit_url: permitFile.url, permit_name: 'm-permit.pdf' }],
        dig_safe_url: ds.url,
        nra_required: 1,
      })
    ).json().ticket as Ticket;
    const img = await t.storeFile(company, 'media', 'photo.jpg');
    await t.ctx.db.insert(images).values({ companyId: company, ticketId: secondary.id, url: img.url, thumbnailUrl: img.url });

    const res = await api('PUT', `/tickets/merge/${primary.id}`, tok.foreman, { secondary_ticket: secondary });
    expect(res.statusCode).toBe(200);
    const merged = res.json().ticket as Ticket;
    expect(merged.id).toBe(primary.id);
    expect(merged.tasks.map((x) => x.ticket_task_id).sort()).toEqual([...primary.tasks.map((x) => x.ticket_task_id), secondary.tasks[0].ticket_task_id].sort());
    expect(merged.notes.map((n) => n.note_text).sort()).toEqual([...primary.notes.map((n) => n.note_text), 'secondary note'].sort());
    expect(merged.work_orders).toEqual(['WO-5000', 'WO-NEW']);
    expect(merged.permits.map((p) => p.permit_name)).toEqual(['m-permit.pdf']);
    expect(merged.images.map((i) => i.url)).toEqual([img.url]);
    expect(merged).toMatchObject({ dig_safe_url: ds.url, dig_safe_required: 1, nra_required: 1, version: primary.version + 1 });
    expect(merged.description).toBe(primary.description); // the primary's own text wins
    expect(await t.ctx.db.select().from(tickets).where(eq(tickets.id, secondary.id))).toEqual([]);
    for (const table of [ticketTasks, notes, permits, images, workOrders]) {
      expect(await t.ctx.db.select().from(table).where(eq(table.ticketId, secondary.id))).toEqual([]);
    }
    expect(await t.ctx.storage.head(ds.key)).not.toBeNull(); // moved, not deleted
    expect((await api('GET', `/tickets/${secondary.id}`, tok.admin)).statusCode).toBe(404);
  });

  it('accepts the secondary as an id; refuses itself, another job’s ticket and another company’s ticket', async () => {
    const a = await newTicket('M-A');
    const b = await newTicket('M-B');
    expect((await api('PUT', `/tickets/merge/${a.id}`, tok.admin, { secondary_ticket: a.id })).json().error).toBe(MSG.mergeSameTicket);
    const inJ2 = await newTicket('M-C', j2);
    const other = await api('PUT', `/tickets/merge/${a.id}`, tok.admin, { secondary_ticket: inJ2.id });
    expect(other.statusCode).toBe(400);
    expect(other.json().error).toBe(MSG.mergeOtherJob);
    expect((await api('PUT', `/tickets/merge/${a.id}`, tok.other, { secondary_ticket: b.id })).statusCode).toBe(404);
    const ok = await api('PUT', `/tickets/merge/${a.id}`, tok.admin, { secondary_ticket: b.id });
    expect(ok.statusCode).toBe(200);
    expect((await api('GET', `/tickets/${b.id}`, tok.admin)).statusCode).toBe(404);
  });
});

describe('DELETE /tickets/{id}', () => {
  it('requires authentication', async () => {
    expect((await api('DELETE', `/tickets/${j1Tickets[2]}`, undefined)).statusCode).toBe(401);
  });
  it('deletes the ticket, its rows and its stored files', async () => {
    const t0 = await newTicket('D-1');
    const ds = await t.storeFile(company, 'dig_file', 'd.pdf');
    const img = await t.storeFile(company, 'media', 'd.jpg');
    const thumb = await t.storeFile(company, 'media', 'd-thumb.jpg');
    await save({ ...t0, dig_safe_url: ds.url, notes: [{ note_text: 'bye' }] });
    await t.ctx.db.insert(images).values({ companyId: company, ticketId: t0.id, url: img.url, thumbnailUrl: thumb.url });
    const res = await api('DELETE', `/tickets/${t0.id}`, tok.office);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
    expect(await t.ctx.db.select().from(tickets).where(eq(tickets.id, t0.id))).toEqual([]);
    expect(await t.ctx.db.select().from(notes).where(eq(notes.ticketId, t0.id))).toEqual([]);
    for (const f of [ds, img, thumb]) expect(await t.ctx.storage.head(f.key)).toBeNull();
  });
  it('answers 404 for another company’s ticket and leaves it', async () => {
    expect((await api('DELETE', `/tickets/${j1Tickets[2]}`, tok.other)).statusCode).toBe(404);
    expect(await t.ctx.db.select().from(tickets).where(eq(tickets.id, j1Tickets[2]))).toHaveLength(1);
  });
});
