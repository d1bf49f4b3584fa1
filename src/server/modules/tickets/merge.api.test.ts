import { and, asc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../../shared/messages';
import type { Ticket } from '../../../shared/tickets.schemas';
import { jobs, notes, tickets, ticketTasks, units, utilities, workOrders } from '../../db/schema/index';
import { createTestApp, dbKind, type TestApp } from '../../test/harness';

/**
 * PUT /tickets/merge/{id} never writes anything when it answers 4xx: both tickets are found,
 * locked and checked (company, job) before the first write. Runs on PGlite and, with
 * TEST_DATABASE_URL, on PostgreSQL, where the race with a concurrent delete is real.
 */

let t: TestApp;
const tok: Record<string, string> = {};
let company: number;
let j1: number;
let j2: number;
let ngrid: number;
let unitId: number;

beforeAll(async () => {
  t = await createTestApp();
  [tok.admin, tok.foreman, tok.other] = await t.loginAs('admin', 'foreman', 'other');
  const db = t.ctx.db;
  const demo = await t.demo();
  ({ company, ngrid } = demo);
  [j1, j2] = [demo.job['J-1001'], demo.job['J-1002']];
  unitId = (await db.select().from(units).where(and(eq(units.companyId, company), eq(units.utilityId, ngrid))).orderBy(asc(units.id)))[0].id;
});

const api = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, token: string | undefined, body?: unknown) =>
  t.request({ method, url: `/api/v1${url}`, token, body });

let poleSeq = 0;
/** A ticket on a new pole with one task, one note and one work order, in `jobId`. */
async function ticketWithChildren(jobId = j1, token = tok.admin): Promise<Ticket> {
  poleSeq += 1;
  const created = await api('POST', '/poles/', token, { pole_name: `MG-${poleSeq}`, line_name: 'L', utility: ngrid, job_id: jobId });
  expect(created.statusCode, created.body).toBe(200);
  const ticket = created.json().ticket as Ticket;
  const saved = await api('PUT', '/tickets/', token, {
    ticket: { ...ticket, tasks: [{ task_id: unitId, init_qty: 2, additional_qty: 0 }], notes: [{ note_text: 'keep me' }], work_orders: [`WO-${poleSeq}`] },
  });
  expect(saved.statusCode, saved.body).toBe(200);
  return saved.json().ticket as Ticket;
}

/** What the database holds of a ticket: its row and its child rows. */
async function stored(id: number) {
  const db = t.ctx.db;
  return {
    row: (await db.select().from(tickets).where(eq(tickets.id, id)))[0],
    tasks: (await db.select().from(ticketTasks).where(eq(ticketTasks.ticketId, id))).length,
    notes: (await db.select().from(notes).where(eq(notes.ticketId, id))).length,
    workOrders: (await db.select().from(workOrders).where(eq(workOrders.ticketId, id))).length,
  };
}

describe('PUT /tickets/merge/{id}: a refused merge writes nothing', () => {
  it('requires authentication', async () => {
    expect((await api('PUT', '/tickets/merge/1', undefined, { secondary_ticket: 2 })).statusCode).toBe(401);
  });

  it('a secondary that does not exist answers 404 and the ticket keeps everything', async () => {
    const primary = await ticketWithChildren();
    const before = await stored(primary.id);
    // Ids above and below the primary's: rows are locked in id order, both orders must hold.
    for (const missing of [2_000_000_000, 1]) {
      await t.ctx.db.delete(tickets).where(eq(tickets.id, missing));
      const res = await api('PUT', `/tickets/merge/${primary.id}`, tok.admin, { secondary_ticket: missing });
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toMatch(/ticket/i);
      expect(await stored(primary.id)).toEqual(before);
    }
  });

  it('a secondary just deleted answers 404 and the ticket keeps everything', async () => {
    const older = await ticketWithChildren();
    const primary = await ticketWithChildren();
    const newer = await ticketWithChildren();
    const before = await stored(primary.id);
    for (const secondary of [older, newer]) {
      expect((await api('DELETE', `/tickets/${secondary.id}`, tok.admin)).statusCode).toBe(200);
      // The client still holds the whole secondary object it read before the delete.
      const res = await api('PUT', `/tickets/merge/${primary.id}`, tok.admin, { secondary_ticket: secondary });
      expect(res.statusCode).toBe(404);
      expect(await stored(primary.id)).toEqual(before);
    }
  });

  it('a secondary of another company answers 404; both tickets stay as they were', async () => {
    const primary = await ticketWithChildren();
    // "Other Line Co" has a job but no ticket in the seed: its admin adds one.
    const [theirUtility] = await t.ctx.db.select().from(utilities).where(eq(utilities.code, 'OTHERPOWER'));
    const [theirJob] = await t.ctx.db.select().from(jobs).where(eq(jobs.companyId, theirUtility.companyId));
    const made = await api('POST', '/poles/', tok.other, { pole_name: 'X-1', line_name: 'X', utility: theirUtility.id, job_id: theirJob.id });
    expect(made.statusCode, made.body).toBe(200);
    const otherTicket = made.json().ticket as Ticket;
    const beforeMine = await stored(primary.id);
    const beforeTheirs = await stored(otherTicket.id);
    const res = await api('PUT', `/tickets/merge/${primary.id}`, tok.admin, { secondary_ticket: otherTicket.id });
    expect(res.statusCode).toBe(404);
    expect(await stored(primary.id)).toEqual(beforeMine);
    expect(await stored(otherTicket.id)).toEqual(beforeTheirs);
    // And the other way round: their admin cannot merge our ticket into theirs.
    const back = await api('PUT', `/tickets/merge/${otherTicket.id}`, tok.other, { secondary_ticket: primary.id });
    expect(back.statusCode).toBe(404);
    expect(await stored(primary.id)).toEqual(beforeMine);
    expect(await stored(otherTicket.id)).toEqual(beforeTheirs);
  });

  it('a primary that does not exist answers 404 and the secondary keeps everything', async () => {
    const secondary = await ticketWithChildren();
    const before = await stored(secondary.id);
    for (const missing of [2_000_000_000, 1]) {
      await t.ctx.db.delete(tickets).where(eq(tickets.id, missing));
      const res = await api('PUT', `/tickets/merge/${missing}`, tok.admin, { secondary_ticket: secondary.id });
      expect(res.statusCode).toBe(404);
      expect(await stored(secondary.id)).toEqual(before);
    }
  });

  it('a ticket merged with itself is a 400 and stays', async () => {
    const primary = await ticketWithChildren();
    const before = await stored(primary.id);
    const res = await api('PUT', `/tickets/merge/${primary.id}`, tok.admin, { secondary_ticket: primary.id });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe(MSG.mergeSameTicket);
    expect(await stored(primary.id)).toEqual(before);
  });

  it('tickets of different jobs are not merged (docs/product/rules.md §2.4: a merge joins two tickets of one job on one pole): 400, both stay', async () => {
    const primary = await ticketWithChildren(j1);
    const secondary = await ticketWithChildren(j2);
    const [a, b] = [await stored(primary.id), await stored(secondary.id)];
    const res = await api('PUT', `/tickets/merge/${primary.id}`, tok.admin, { secondary_ticket: secondary.id });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe(MSG.mergeOtherJob);
    expect(await stored(primary.id)).toEqual(a);
    expect(await stored(secondary.id)).toEqual(b);
  });
});

describe('PUT /tickets/merge/{id} racing DELETE /tickets/{id}', () => {
  // PGlite runs one transaction at a time, so there the two requests only interleave between
  // statements; on PostgreSQL they really overlap and the row locks decide.
  const rounds = dbKind === 'postgres' ? 8 : 3;

  it('deleting the secondary while merging it: either the merge won or it answered 404; the primary is never lost', async () => {
    for (let i = 0; i < rounds; i++) {
      const primary = await ticketWithChildren();
      const secondary = await ticketWithChildren();
      const [merge, del] = await Promise.all([
        api('PUT', `/tickets/merge/${primary.id}`, tok.foreman, { secondary_ticket: secondary.id }),
        api('DELETE', `/tickets/${secondary.id}`, tok.admin),
      ]);
      const p = await stored(primary.id);
      const s = await stored(secondary.id);
      expect(p.row, `round ${i}: the primary must survive`).toBeDefined();
      expect(s.row).toBeUndefined();
      if (merge.statusCode === 200) {
        // The merge committed first: the delete then found nothing, and the primary has both sets.
        expect(del.statusCode).toBe(404);
        expect(p).toMatchObject({ tasks: 2, notes: 2, workOrders: 2 });
      } else {
        expect(merge.statusCode, merge.body).toBe(404);
        expect(del.statusCode).toBe(200);
        expect(p).toMatchObject({ tasks: 1, notes: 1, workOrders: 1 });
        expect(p.row.version).toBe(primary.version);
      }
    }
  });

  it('deleting the primary while merging into it: never a half-merged state', async () => {
    for (let i = 0; i < rounds; i++) {
      const primary = await ticketWithChildren();
      const secondary = await ticketWithChildren();
      const [merge, del] = await Promise.all([
        api('PUT', `/tickets/merge/${primary.id}`, tok.foreman, { secondary_ticket: secondary.id }),
        api('DELETE', `/tickets/${primary.id}`, tok.admin),
      ]);
      expect(del.statusCode).toBe(200);
      const p = await stored(primary.id);
      const s = await stored(secondary.id);
      expect(p.row).toBeUndefined();
      if (merge.statusCode === 200) {
        // Merged, then the merged ticket deleted: both are gone, with no stray child rows.
        expect(s.row).toBeUndefined();
      } else {
        expect(merge.statusCode, merge.body).toBe(404);
        expect(s).toMatchObject({ tasks: 1, notes: 1, workOrders: 1 });
        expect(s.row).toBeDefined();
      }
    }
  });
});
