import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { HistoryEntry, HistoryReply } from '../../../shared/history.schemas';
import type { Ticket } from '../../../shared/tickets.schemas';
import { queryStats } from '../../db/client';
import { permitTypes, tickets } from '../../db/schema/index';
import { createTestApp, type TestApp } from '../../test/harness';
import { diffViews } from '../history/history.service';
import { ticketView } from './ticket-history.service';
import { loadTicket } from './ticket-reads.repository';

/**
 * A ticket save's history (docs/product/records.md §1, docs/decisions/051-history-from-what-the-save-holds.md):
 * recorded from what the save already holds — the row it locked, the lists it compared — not from
 * a second read of the whole ticket (decision 051: recording costs ≤ 20 % of the save), and the same
 * entries as a diff of the whole ticket before and after.
 */

let t: TestApp;
let admin: string;
let company: number;
let ngrid: number;
let j1: number;
let unitIds: number[];
let me: Record<string, number>;

beforeAll(async () => {
  t = await createTestApp();
  [admin] = await t.loginAs('admin');
  const demo = await t.demo();
  ({ company, ngrid, ngridUnits: unitIds, person: me } = demo);
  j1 = demo.job['J-1001'];
});

const api = (method: 'GET' | 'PUT' | 'POST', url: string, body?: unknown) => t.request({ method, url: `/api/v1${url}`, token: admin, body });
const read = async (id: number): Promise<Ticket> => (await api('GET', `/tickets/${id}`)).json();
const save = async (ticket: unknown) => {
  const res = await api('PUT', '/tickets/', { ticket });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().ticket as Ticket;
};
const ticketHistory = async (id: number): Promise<HistoryEntry[]> => {
  const res = await api('GET', `/tickets/${id}/history?limit=200`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as HistoryReply).entries;
};
/** The entries a change added: those newer than the newest one before it. */
async function entriesOf(of: () => Promise<HistoryEntry[]>, change: () => Promise<unknown>): Promise<HistoryEntry[]> {
  const newest = (await of())[0]?.id ?? 0;
  await change();
  return (await of()).filter((e) => e.id > newest);
}
async function newTicket(name: string): Promise<Ticket> {
  const res = await api('POST', '/poles/', { pole_name: name, line_name: 'H', utility: ngrid, job_id: j1 });
  expect(res.statusCode).toBe(200);
  return res.json().ticket;
}

describe('a ticket save records its history from what it holds (decision 051: ≤ 20 % of the save)', () => {
  /** The SELECT statements a request runs, as sent to the database. */
  async function selectsOf(work: () => Promise<unknown>): Promise<string[]> {
    const seen: string[] = [];
    queryStats.onQuery = (q) => {
      if (/^\s*select/i.test(q)) seen.push(q);
    };
    try {
      await work();
    } finally {
      queryStats.onQuery = undefined;
    }
    return seen;
  }
  const reading = (table: string) => (qs: string[]) => qs.filter((q) => q.includes(`from "${table}"`)).length;

  it('reads the ticket once, for its reply: no second read of the whole ticket before the change', async () => {
    const tk = await newTicket('H-S1');
    const withTask = await save({ ...tk, tasks: [{ task_id: unitIds[0], init_qty: 2, additional_qty: 0 }] });
    // A field edit: the photos (only the read model reads them) are read once, for the reply.
    const field = await selectsOf(() => save({ id: tk.id, version: withTask.version, description: 'one read' }));
    expect(reading('images')(field)).toBe(1);
    // A task edit: the stored tasks once for the comparison (its "before"), once for the reply.
    const cur = await read(tk.id);
    const task = await selectsOf(() => save({ id: tk.id, version: cur.version, tasks: [{ ...cur.tasks[0], additional_qty: 1 }] }));
    expect(reading('ticket_tasks')(task)).toBe(2);
    expect(reading('images')(task)).toBe(1);
    expect((await ticketHistory(tk.id))[0]).toMatchObject({ field: 'tasks', old: [`${cur.tasks[0].code}: bid 2, change +0`], new: [`${cur.tasks[0].code}: bid 2, change +1`] });
  });

  it('records what a diff of the whole ticket before and after records, for a save that changes every part at once', async () => {
    const tk = await newTicket('H-S2');
    const [type] = await t.ctx.db.select().from(permitTypes).where(eq(permitTypes.companyId, company)).limit(1);
    const ds = await t.storeFile(company, 'dig_file', 'ds-s2.pdf');
    const nra = await t.storeFile(company, 'nra_file', 'nra-s2.pdf');
    const p1 = await t.storeFile(company, 'permit', 'road-s2.pdf');
    const p2 = await t.storeFile(company, 'permit', 'rail-s2.pdf');
    const full = await save({
      ...tk,
      assigned_to: me.wforeman,
      street_address: '1 Main St',
      geo_lat: 42.1,
      geo_lon: -71.2,
      description: 'Full ticket',
      ehasp: 'EHASP text',
      ambulance_meetup: 'Corner lot',
      dig_safe_url: ds.url,
      dig_safe_name: 'Dig safe S2',
      dig_safe_number: 'DS-1',
      dig_safe_valid_from: '2027-01-01',
      dig_safe_expires_on: '2027-02-01',
      nra_url: nra.url,
      work_orders: ['WO-1', 'WO-2'],
      notes: [{ note_text: 'First note' }],
      tasks: [
        { task_id: unitIds[0], init_qty: 2, additional_qty: 0 },
        { task_id: unitIds[1], init_qty: 1, additional_qty: 1 },
      ],
      permits: [
        { permit_url: p1.url, permit_name: 'Road', permit_type: type?.id ?? null, number: 'R-1', valid_from: '2027-01-01', expires_on: '2027-03-01' },
        { permit_url: p2.url, filename: 'rail-s2.pdf' },
      ],
    });
    // A photo, and billed then unlocked (the billing field reads both).
    const jpeg = await sharp({ create: { width: 20, height: 20, channels: 3, background: { r: 9, g: 9, b: 9 } } }).jpeg().toBuffer();
    const photo = await t.storeFile(company, 'media', 'pole-s2.jpg', { body: jpeg });
    const up = await t.request({
      method: 'POST',
      url: '/api/v1/media_upload/s3-upload-complete',
      token: admin,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ ticketId: String(tk.id), url: photo.url, thumbUrl: '', isVideo: 'false' }).toString(),
    });
    expect(up.statusCode, up.body).toBe(200);
    await t.ctx.db
      .update(tickets)
      .set({ billedAt: new Date(), invoiceNumber: 'INV-S2', unlockedAt: new Date(), unlockedBy: me.admin, unlockReason: 'Fix qty' })
      .where(eq(tickets.id, tk.id));

    const before = (await loadTicket(t.ctx.db, company, tk.id))!;
    expect(before.images).toHaveLength(1);
    // Only a description: exactly one entry (nothing read from the row differs from the read model).
    const one = await entriesOf(() => ticketHistory(tk.id), () => save({ id: tk.id, version: before.version, description: 'Full ticket, edited' }));
    expect(one.map((e) => [e.field, e.old, e.new])).toEqual([['description', 'Full ticket', 'Full ticket, edited']]);

    const cur = (await loadTicket(t.ctx.db, company, tk.id))!;
    const everything = await entriesOf(
      () => ticketHistory(tk.id),
      () =>
        save({
          id: tk.id,
          version: cur.version,
          pole: { pole_name: 'H-S2b', line_name: 'H', utility_id_owning_pole: ngrid },
          assigned_to: null,
          status: 'Complete',
          due_date: '2027-05-05',
          street_address: '2 Main St',
          geo_lat: 42.2,
          description: 'Changed',
          ehasp: '',
          ambulance_meetup: 'Gas station',
          dig_safe_number: 'DS-2',
          dig_safe_expires_on: '2027-02-15',
          nra_url: null,
          work_orders: ['WO-2', 'WO-3'],
          notes: [...full.notes, { note_text: 'Second note' }],
          tasks: [{ ...cur.tasks[0], additional_qty: 3 }, { task_id: unitIds[2], init_qty: 4, additional_qty: 0 }],
          permits: [{ ...cur.permits[0], number: 'R-2' }],
        }),
    );
    const after = (await loadTicket(t.ctx.db, company, tk.id))!;
    const asRows = (list: { field?: string | null; old?: unknown; new?: unknown }[]) => list.map((e) => JSON.stringify([e.field, e.old, e.new])).sort();
    expect(asRows(everything)).toEqual(asRows(diffViews(ticketView(cur), ticketView(after))));
    expect(everything.map((e) => e.field).sort()).toEqual(
      ['ambulance_meetup', 'assigned_to', 'completed', 'description', 'dig_safe_expires_on', 'dig_safe_number', 'due_date', 'ehasp', 'geo_lat', 'notes', 'nra_required', 'nra_url', 'permits', 'pole', 'status', 'street_address', 'tasks', 'work_orders'].sort(),
    );
    expect(everything.find((e) => e.field === 'pole')).toMatchObject({ old: 'H-S2 / H', new: 'H-S2b / H' });
    expect(everything.find((e) => e.field === 'assigned_to')).toMatchObject({ old: expect.any(String), new: null });
    expect(everything.find((e) => e.field === 'nra_url')).toMatchObject({ old: 'nra-s2.pdf', new: null });
    expect(everything.find((e) => e.field === 'notes')).toMatchObject({ old: [], new: ['Second note'] });

    // Complete now: the completion record read with the locked row (who, where) equals the read
    // model's, so a description alone is still exactly one entry.
    expect(after.completed_by_name).toEqual(expect.any(String));
    const again = await entriesOf(() => ticketHistory(tk.id), () => save({ id: tk.id, version: after.version, description: 'Changed again' }));
    expect(again.map((e) => [e.field, e.old, e.new])).toEqual([['description', 'Changed', 'Changed again']]);
  });
});
