import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { historyCsv, historyWho, type HistoryEntry, type HistoryReply } from '../../../shared/history.schemas';
import type { JobListItem, JobSaveInput } from '../../../shared/jobs.schemas';
import type { Ticket } from '../../../shared/tickets.schemas';
import { history, jobs, users } from '../../db/schema/index';
import { createTestApp, type TestApp } from '../../test/harness';

/**
 * History (docs/product/records.md §1, decision 044): each kind of change leaves exactly one entry with the
 * right old and new values, in the change's transaction (a refused change leaves none), and the
 * history is read with the rights of the ticket or job it belongs to.
 */

let t: TestApp;
const tok: Record<string, string> = {};
let company: number;
let ngrid: number;
let j1: number;
let unitIds: number[];
let me: Record<string, number>;

beforeAll(async () => {
  t = await createTestApp();
  [tok.admin, tok.office, tok.foreman, tok.lineman, tok.other] = await t.loginAs('admin', 'office', 'foreman', 'lineman', 'other');
  const demo = await t.demo();
  ({ company, ngrid, ngridUnits: unitIds } = demo);
  j1 = demo.job['J-1001'];
  me = Object.fromEntries((await t.ctx.db.select().from(users)).map((u) => [u.email.split('@')[0] + (u.email.includes('other') ? '-other' : ''), u.id]));
});

const api = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, token: string | undefined, body?: unknown) =>
  t.request({ method, url: `/api/v1${url}`, token, body });
const read = async (id: number): Promise<Ticket> => (await api('GET', `/tickets/${id}`, tok.admin)).json();
const save = async (ticket: unknown, token = tok.admin) => {
  const res = await api('PUT', '/tickets/', token, { ticket });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().ticket as Ticket;
};
const ticketHistory = async (id: number, token = tok.admin): Promise<HistoryEntry[]> => {
  const res = await api('GET', `/tickets/${id}/history`, token);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as HistoryReply).entries;
};
const jobHistory = async (id: number, token = tok.admin): Promise<HistoryEntry[]> => {
  const res = await api('GET', `/jobs/${id}/history?limit=200`, token);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as HistoryReply).entries;
};
/** The entries a change added: those newer than the newest one before it. */
async function entriesOf(of: () => Promise<HistoryEntry[]>, change: () => Promise<unknown>): Promise<HistoryEntry[]> {
  const newest = (await of())[0]?.id ?? 0;
  await change();
  return (await of()).filter((e) => e.id > newest);
}
async function newTicket(name: string, jobId = j1): Promise<Ticket> {
  const res = await api('POST', '/poles/', tok.admin, { pole_name: name, line_name: 'H', utility: ngrid, job_id: jobId });
  expect(res.statusCode).toBe(200);
  return res.json().ticket;
}

describe('GET /tickets/{id}/history', () => {
  it('requires authentication', async () => {
    expect((await api('GET', '/tickets/1/history', undefined)).statusCode).toBe(401);
  });

  it('a new ticket has one entry: its creation, by whom', async () => {
    const tk = await newTicket('H-1');
    const entries = await ticketHistory(tk.id);
    expect(entries).toEqual([
      expect.objectContaining({ action: 'create', entity: 'ticket', entity_id: tk.id, ticket_id: tk.id, field: null, old: null, user: expect.objectContaining({ id: me.admin }) }),
    ]);
    expect((entries[0].new as Record<string, unknown>).pole).toBe('H-1 / H');
  });

  it('a field edit leaves exactly one entry with the old and new value, under the API field name', async () => {
    const tk = await newTicket('H-2');
    const added = await entriesOf(() => ticketHistory(tk.id), () => save({ ...tk, description: 'Set new pole' }));
    expect(added).toEqual([expect.objectContaining({ action: 'update', entity: 'ticket', field: 'description', old: null, new: 'Set new pole' })]);
    const again = await entriesOf(() => ticketHistory(tk.id), async () => save({ ...(await read(tk.id)), description: 'Set two poles', street_address: '9 Elm St' }));
    expect(again.map((e) => [e.field, e.old, e.new]).sort()).toEqual([
      ['description', 'Set new pole', 'Set two poles'],
      ['street_address', null, '9 Elm St'],
    ]);
  });

  it('marking complete and reopening: the status and the completion record (who, where: records.md §6), one entry each', async () => {
    const tk = await newTicket('H-3');
    const done = await entriesOf(() => ticketHistory(tk.id), () => save({ ...tk, status: 'Complete' }));
    expect(done).toEqual([
      expect.objectContaining({ field: 'completed', old: null, new: 'Avery Admin, no position' }),
      expect.objectContaining({ field: 'status', old: 'Pending', new: 'Complete' }),
    ]);
    const reopened = await entriesOf(() => ticketHistory(tk.id), async () => save({ ...(await read(tk.id)), status: 'Pending' }));
    expect(reopened).toEqual([
      expect.objectContaining({ field: 'completed', old: 'Avery Admin, no position', new: null }),
      expect.objectContaining({ field: 'status', old: 'Complete', new: 'Pending' }),
    ]);
  });

  it('tasks: one entry naming the tasks removed and added', async () => {
    const tk = await newTicket('H-4');
    const withTask = await save({ ...tk, tasks: [{ task_id: unitIds[0], init_qty: 2, additional_qty: 0 }] });
    const code = withTask.tasks[0].code;
    const changed = await entriesOf(
      () => ticketHistory(tk.id),
      () => save({ ...withTask, tasks: [{ ...withTask.tasks[0], additional_qty: 1 }] }),
    );
    expect(changed).toEqual([expect.objectContaining({ field: 'tasks', old: [`${code}: bid 2, change +0`], new: [`${code}: bid 2, change +1`] })]);
  });

  it("a lineman's note is one entry by him; he reads the ticket's history", async () => {
    const tk = await newTicket('H-5');
    const added = await entriesOf(
      () => ticketHistory(tk.id, tok.lineman),
      () => save({ id: tk.id, version: tk.version, notes: [{ note_text: 'Guy wire loose' }] }, tok.lineman),
    );
    expect(added).toEqual([expect.objectContaining({ field: 'notes', old: [], new: ['Guy wire loose'], user: { id: me.lineman, name: expect.any(String) } })]);
  });

  it('documents and permits: one entry per field changed', async () => {
    const tk = await newTicket('H-6');
    const ds = await t.storeFile(company, 'dig_file', 'digsafe.pdf');
    const up = await entriesOf(() => ticketHistory(tk.id), () => save({ ...tk, dig_safe_url: ds.url, dig_safe_name: 'digsafe.pdf' }));
    expect(up.map((e) => [e.field, e.old, e.new]).sort()).toEqual([
      ['dig_safe_required', 0, 1],
      ['dig_safe_url', null, 'digsafe.pdf'],
    ]);
    const permit = await t.storeFile(company, 'permit', 'road.pdf');
    const p = await entriesOf(() => ticketHistory(tk.id), async () => save({ ...(await read(tk.id)), permits: [{ permit_url: permit.url, permit_name: 'Road permit' }] }));
    expect(p).toEqual([expect.objectContaining({ field: 'permits', old: [], new: ['Road permit'] })]);
    // The dig-safe record's dates and a permit's number and validity are part of the record too.
    const cur = await read(tk.id);
    const dated = await entriesOf(
      () => ticketHistory(tk.id),
      () => save({ ...cur, dig_safe_number: 'DS-77', dig_safe_expires_on: '2027-03-15', permits: cur.permits.map((x) => ({ ...x, number: 'P-9', expires_on: '2027-04-01' })) }),
    );
    expect(dated.map((e) => [e.field, e.old, e.new]).sort()).toEqual([
      ['dig_safe_expires_on', null, '2027-03-15'],
      ['dig_safe_number', null, 'DS-77'],
      ['permits', ['Road permit'], ['Road permit, no. P-9, … to 2027-04-01']],
    ]);
  });

  it('a photo added and deleted: one entry each', async () => {
    const tk = await newTicket('H-7');
    const jpeg = await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 1, g: 2, b: 3 } } }).jpeg().toBuffer();
    const file = await t.storeFile(company, 'media', 'pole7.jpg', { body: jpeg });
    let imageId = 0;
    const added = await entriesOf(
      () => ticketHistory(tk.id),
      async () => {
        const res = await t.request({
          method: 'POST',
          url: '/api/v1/media_upload/s3-upload-complete',
          token: tok.lineman,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: new URLSearchParams({ ticketId: String(tk.id), url: file.url, thumbUrl: '', isVideo: 'false' }).toString(),
        });
        expect(res.statusCode, res.body).toBe(200);
        imageId = res.json().id;
      },
    );
    expect(added).toEqual([expect.objectContaining({ field: 'images', old: [], new: [expect.stringMatching(/pole7.*\.jpg$/)], user: expect.objectContaining({ id: me.lineman }) })]);
    const removed = await entriesOf(() => ticketHistory(tk.id), async () => expect((await api('DELETE', `/tickets/images/${imageId}`, tok.admin)).statusCode).toBe(200));
    expect(removed).toEqual([expect.objectContaining({ field: 'images', old: added[0].new, new: [] })]);
  });

  it('a refused change leaves no entry (stale version, a bad task, a lineman editing fields)', async () => {
    const tk = await newTicket('H-8');
    const before = await ticketHistory(tk.id);
    await save({ ...tk, description: 'first' });
    expect((await api('PUT', '/tickets/', tok.admin, { ticket: { ...tk, description: 'stale' } })).statusCode).toBe(409);
    const cur = await read(tk.id);
    // The description is valid, the task's unit is not: the whole save rolls back.
    expect((await api('PUT', '/tickets/', tok.admin, { ticket: { ...cur, description: 'rolled back', tasks: [{ task_id: 99999999, init_qty: 1 }] } })).statusCode).toBe(400);
    expect((await api('PUT', '/tickets/', tok.lineman, { ticket: { ...cur, description: 'not his' } })).statusCode).toBe(403);
    const after = await ticketHistory(tk.id);
    expect(after).toHaveLength(before.length + 1);
    expect(after[0]).toMatchObject({ field: 'description', new: 'first' });
  });

  it("another company's ticket answers 404, and so does an unknown one", async () => {
    const tk = await newTicket('H-9');
    expect((await api('GET', `/tickets/${tk.id}/history`, tok.other)).statusCode).toBe(404);
    expect((await api('GET', '/tickets/99999999/history', tok.admin)).statusCode).toBe(404);
  });

  it('pages newest first with limit and cursor', async () => {
    const tk = await newTicket('H-10');
    let cur = tk;
    for (const d of ['a', 'b', 'c']) cur = await save({ ...cur, description: d });
    const first = (await api('GET', `/tickets/${tk.id}/history?limit=2`, tok.admin)).json() as HistoryReply;
    expect(first.entries.map((e) => e.new)).toEqual(['c', 'b']);
    expect(first.next_cursor).toBe(first.entries[1].id);
    const second = (await api('GET', `/tickets/${tk.id}/history?limit=2&cursor=${first.next_cursor}`, tok.admin)).json() as HistoryReply;
    expect(second.entries.map((e) => e.new)).toEqual(['a', expect.objectContaining({ pole: 'H-10 / H' })]);
    expect(second.next_cursor).toBeNull();
    expect((await api('GET', `/tickets/${tk.id}/history?limit=500`, tok.admin)).statusCode).toBe(400);
  });
});

describe('billing, merge and delete', () => {
  it('an invoice bills each ticket (one entry each) and records its creation; an unlock is one entry', async () => {
    const job = await t.createJob(tok.office, company, { job_number: 'H-BILL', selected_utility_id: ngrid });
    const a = await newTicket('HB-1', job.id);
    await save({ ...a, tasks: [{ task_id: unitIds[0], init_qty: 1, additional_qty: 0 }], status: 'Complete' });
    const added = await entriesOf(() => jobHistory(job.id), async () => {
      const res = await api('POST', `/jobs/${job.id}/invoices`, tok.office, {});
      expect(res.statusCode, res.body).toBe(201);
    });
    const number = (added.find((e) => e.entity === 'invoice')!.new as { number: string }).number;
    expect(added.map((e) => [e.entity, e.action, e.ticket_id, e.field])).toEqual(
      expect.arrayContaining([
        ['invoice', 'create', null, null],
        ['ticket', 'bill', a.id, 'billing'],
      ]),
    );
    expect(added).toHaveLength(2);
    expect(added.find((e) => e.entity === 'ticket')).toMatchObject({ old: null, new: `Billed on ${number}` });
    const unlocked = await entriesOf(() => ticketHistory(a.id), async () => expect((await api('POST', `/tickets/${a.id}/unlock`, tok.office, { reason: 'Wrong qty' })).statusCode).toBe(200));
    expect(unlocked).toEqual([expect.objectContaining({ field: 'billing', old: `Billed on ${number}`, new: `Billed on ${number}, unlocked: Wrong qty` })]);
  });

  it('a merge is one entry on the ticket that stays; a delete is one entry in the job history', async () => {
    const job = await t.createJob(tok.office, company, { job_number: 'H-MERGE', selected_utility_id: ngrid });
    const a = await newTicket('HM-1', job.id);
    const b = await newTicket('HM-2', job.id);
    const merged = await entriesOf(() => ticketHistory(a.id), async () => expect((await api('PUT', `/tickets/merge/${a.id}`, tok.admin, { secondary_ticket: b.id })).statusCode).toBe(200));
    expect(merged).toEqual([expect.objectContaining({ action: 'merge', field: null, new: expect.objectContaining({ ticket_id: b.id, pole: 'HM-2 / H' }) })]);
    const deleted = await entriesOf(() => jobHistory(job.id), async () => expect((await api('DELETE', `/tickets/${a.id}`, tok.admin)).statusCode).toBe(200));
    expect(deleted).toEqual([expect.objectContaining({ action: 'delete', entity: 'ticket', entity_id: a.id, old: expect.objectContaining({ pole: 'HM-1 / H' }), new: null })]);
    expect((await api('GET', `/tickets/${a.id}/history`, tok.admin)).statusCode).toBe(404);
  });
});

describe('GET /jobs/{id}/history', () => {
  it('requires authentication', async () => {
    expect((await api('GET', `/jobs/${j1}/history`, undefined)).statusCode).toBe(401);
  });

  const jobInput = (j: JobListItem, over: Partial<JobSaveInput>): JobSaveInput => ({
    id: j.id,
    version: j.version,
    job_number: j.job_number,
    job_type: j.job_type as 0 | 1,
    due_date: j.due_date,
    selected_utility_id: j.selected_utility_id,
    foreman_id: j.foreman_id,
    work_packet_url: j.work_packet_url!,
    work_packet_name: j.work_packet_name,
    hospital_name: j.hospital_name,
    ...over,
  });

  it('a created job has one entry; a field edit one more, old and new', async () => {
    const job = await t.createJob(tok.office, company, { job_number: 'H-JOB', selected_utility_id: ngrid, hospital_name: 'Mercy' });
    const created = await jobHistory(job.id);
    expect(created).toEqual([expect.objectContaining({ action: 'create', entity: 'job', entity_id: job.id, ticket_id: null, user: expect.objectContaining({ id: me.office }) })]);
    expect(created[0].new).toMatchObject({ job_number: 'H-JOB', hospital_name: 'Mercy' });
    const edited = await entriesOf(() => jobHistory(job.id), async () => {
      const res = await api('PUT', '/jobs/', tok.office, { job: jobInput(job, { hospital_name: 'St. Luke' }) });
      expect(res.statusCode, res.body).toBe(200);
    });
    expect(edited).toEqual([expect.objectContaining({ action: 'update', entity: 'job', field: 'hospital_name', old: 'Mercy', new: 'St. Luke' })]);
    // A stale version changes nothing and records nothing.
    expect((await api('PUT', '/jobs/', tok.office, { job: jobInput(job, { hospital_name: 'Stale' }) })).statusCode).toBe(409);
    expect(await jobHistory(job.id)).toHaveLength(2);
  });

  it('an import is summarised per ticket: one entry per ticket created, none per task or row', async () => {
    const newUnits = [{ code: 'HX-A', description: 'A', family: '', type: '', action: '', uom: 'EA', notes: '' }];
    const newTickets = [1, 2, 3].map((n) => ({ pole: { pole_name: `HX-${n}`, line_name: 'L' }, work_orders: ['WO-1'], tasks: [{ code: 'HX-A', init_qty: n }, { code: 'HX-A', init_qty: 1 }] }));
    const job = await t.createJob(tok.office, company, { job_number: 'H-IMPORT', selected_utility_id: ngrid, newTickets, newUnits });
    const entries = await jobHistory(job.id);
    const imports = entries.filter((e) => e.action === 'import');
    expect(imports).toHaveLength(3);
    expect(imports.every((e) => e.entity === 'ticket' && e.field === 'tasks' && e.old === null)).toBe(true);
    expect(imports.map((e) => e.new)).toEqual(expect.arrayContaining([{ tasks: 2, bid: 2 }, { tasks: 2, bid: 3 }, { tasks: 2, bid: 4 }]));
    expect(entries.filter((e) => e.entity === 'job')).toHaveLength(1);

    // Rows added to one of its tickets: one entry for that ticket, from its tasks before.
    const more = await entriesOf(() => jobHistory(job.id), async () => {
      const res = await api('PUT', '/jobs/', tok.office, {
        job: {
          ...jobInput(job, {}),
          newUnits: [{ ...newUnits[0], code: 'HX-B' }],
          newTickets: [{ pole: { pole_name: 'HX-1', line_name: 'L' }, work_orders: [], tasks: [{ code: 'HX-B', init_qty: 5 }] }],
        },
      });
      expect(res.statusCode, res.body).toBe(200);
    });
    expect(more).toEqual([expect.objectContaining({ action: 'import', field: 'tasks', old: { tasks: 2, bid: 2 }, new: { tasks: 3, bid: 7 } })]);
  });

  it('a refused import leaves no entry, not even the job it would have created', async () => {
    const before = await t.ctx.db.select().from(history).where(eq(history.companyId, company));
    const res = await api('PUT', '/jobs/', tok.office, {
      job: { ...(await jobDraft('H-BAD')), newTickets: [{ pole: { pole_name: 'HY-1', line_name: 'L' }, work_orders: [], tasks: [{ code: 'NO-SUCH-UNIT', init_qty: 1 }] }] },
    });
    expect(res.statusCode).toBe(400);
    expect(await t.ctx.db.select().from(jobs).where(eq(jobs.jobNumber, 'H-BAD'))).toEqual([]);
    expect(await t.ctx.db.select().from(history).where(eq(history.companyId, company))).toHaveLength(before.length);
  });

  async function jobDraft(number: string) {
    const packet = await t.storeFile(company, 'work_packet', 'p.pdf');
    return { job_number: number, job_type: 0, due_date: '12/31/2027', selected_utility_id: ngrid, work_packet_url: packet.url };
  }

  it("lists the job's tickets' entries too; a lineman reads it; another company's job is 404", async () => {
    const job = await t.createJob(tok.office, company, { job_number: 'H-READ', selected_utility_id: ngrid });
    const tk = await newTicket('HR-1', job.id);
    const entries = await jobHistory(job.id, tok.lineman);
    expect(entries.map((e) => [e.entity, e.action, e.ticket_id])).toEqual([
      ['ticket', 'create', tk.id],
      ['job', 'create', null],
    ]);
    expect((await api('GET', `/jobs/${job.id}/history`, tok.other)).statusCode).toBe(404);
  });

  it('a deleted job keeps its record (read in the table: the job is gone)', async () => {
    const job = await t.createJob(tok.office, company, { job_number: 'H-DEL', selected_utility_id: ngrid });
    expect((await api('DELETE', `/jobs/${job.id}`, tok.office)).statusCode).toBe(200);
    expect((await api('GET', `/jobs/${job.id}/history`, tok.office)).statusCode).toBe(404);
    const rows = await t.ctx.db.select().from(history).where(and(eq(history.jobId, job.id), eq(history.entity, 'job')));
    expect(rows.map((r) => r.action)).toEqual(['create', 'delete']);
    expect(rows[1]).toMatchObject({ userId: me.office, old: expect.objectContaining({ job_number: 'H-DEL' }), new: null });
  });
});

describe('crew members', () => {
  it('an edit of name, role and status leaves one entry per field; a new member one entry', async () => {
    const created = await t.request({
      method: 'POST',
      url: '/api/v1/crew',
      token: tok.admin,
      body: { crew: { first_name: 'Hal', last_name: 'Story', email: 'hal.story@example.com', phone_number: '', role_id: 2, crew_status: 1 } },
    });
    expect(created.statusCode, created.body).toBe(200);
    const id = created.json().crew.id as number;
    const rows = () => t.ctx.db.select().from(history).where(and(eq(history.entity, 'crew'), eq(history.entityId, id))).orderBy(history.id);
    expect((await rows()).map((r) => [r.action, r.userId])).toEqual([['create', me.admin]]);
    const res = await t.request({
      method: 'PUT',
      url: `/api/v1/crew/${id}`,
      token: tok.admin,
      body: { crew: { first_name: 'Harold', last_name: 'Story', email: 'hal.story@example.com', phone_number: '', role_id: 3, crew_status: 2 } },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await rows()).slice(1).map((r) => [r.action, r.field, r.old, r.new])).toEqual([
      ['update', 'first_name', 'Hal', 'Harold'],
      ['update', 'role_id', 2, 3],
      ['update', 'crew_status', 1, 2],
    ]);
  });
});

describe('changes made with an API token (decision 049: the token acts as its creator)', () => {
  it('name the person AND the token, in every kind of entry; the name stays after the token is revoked', async () => {
    const made = await api('POST', '/api-tokens', tok.admin, { name: 'Billing sync', role_id: 2 });
    expect(made.statusCode, made.body).toBe(200);
    const { token: item, secret } = made.json() as { token: { id: number }; secret: string };
    const viaToken = { id: item.id, name: 'Billing sync' };

    // A ticket's field edit (the ticket save) through the token.
    const tk = await newTicket('HT-1');
    const edited = await entriesOf(() => ticketHistory(tk.id), () => save({ ...tk, description: 'Set by the ERP' }, secret));
    expect(edited).toEqual([expect.objectContaining({ field: 'description', user: expect.objectContaining({ id: me.admin }), api_token: viaToken })]);
    expect(historyWho(edited[0])).toBe(`${edited[0].user.name} via API token “Billing sync”`);

    // A job created with tickets (its creation and the import's entries per ticket).
    const job = await t.createJob(secret, company, {
      job_number: 'H-TOKEN',
      selected_utility_id: ngrid,
      newUnits: [{ code: 'HT-A', description: 'A', family: '', type: '', action: '', uom: 'EA', notes: '' }],
      newTickets: [{ pole: { pole_name: 'HT-2', line_name: 'L' }, work_orders: [], tasks: [{ code: 'HT-A', init_qty: 1 }] }],
    });
    const entries = await jobHistory(job.id);
    expect(entries.map((e) => [e.action, e.entity, e.user.id, e.api_token])).toEqual([
      ['import', 'ticket', me.admin, viaToken],
      ['create', 'job', me.admin, viaToken],
    ]);

    // The same person in the app: no token named.
    const inApp = await entriesOf(() => ticketHistory(tk.id), async () => save({ ...(await read(tk.id)), description: 'Set in the app' }));
    expect(inApp).toEqual([expect.objectContaining({ user: expect.objectContaining({ id: me.admin }), api_token: null })]);
    expect(historyWho(inApp[0])).toBe(inApp[0].user.name);

    // Revoked: the token is gone, its changes still say which system made them.
    expect((await api('DELETE', `/api-tokens/${item.id}`, tok.admin)).statusCode).toBe(200);
    expect((await ticketHistory(tk.id)).find((e) => e.id === edited[0].id)?.api_token).toEqual(viaToken);
    const csv = historyCsv(entries, () => 'HT-2 / L');
    expect(csv).toContain(`via API token “Billing sync”`);
  });
});
