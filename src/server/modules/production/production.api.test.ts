import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { JobListItem, JobListRow, JobSaveInput } from '../../../shared/jobs.schemas';
import { computeProduction } from '../../../shared/production';
import { productionReply, type ProductionReply } from '../../../shared/production.schemas';
import type { Ticket } from '../../../shared/tickets.schemas';
import { billedTickets, companies, invoiceLines, invoices, tickets, users, utilities } from '../../db/schema/index';
import { SEEDED_USERS } from '../../test/seeded-users';
import { createTestApp } from '../../test/harness';

/**
 * GET /jobs/{id}/production (docs/product/billing.md §3) and the jobs list's percent_complete, on a job whose
 * figures are worked out by hand below.
 */
const t = await createTestApp();
const API = '/api/v1';
const db = t.ctx.db;

let admin: string, office: string, foreman: string, wforeman: string, lineman: string, apprentice: string, otherAdmin: string;
let demoId: number, ngrid: number, foremanUser: { id: number; name: string }, wforemanUser: { id: number; name: string };

const userByEmail = async (email: string) => {
  const [u] = await db.select().from(users).where(eq(users.email, email));
  return { id: u.id, name: `${u.firstName} ${u.lastName}`.trim() };
};

const get = (url: string, token: string | undefined = admin) => t.request({ method: 'GET', url: `${API}${url}`, token });
const production = async (jobId: number): Promise<ProductionReply> => {
  const res = await get(`/jobs/${jobId}/production`);
  expect(res.statusCode, res.body).toBe(200);
  return productionReply.strict().parse(res.json());
};

let seq = 0;
const stamp = Date.now().toString(36);
const createJob = (newTickets: JobSaveInput['newTickets'], foremanId: number | null = null): Promise<JobListItem> =>
  t.createJob(admin, demoId, {
    job_number: `PROD-${stamp}-${++seq}`,
    selected_utility_id: ngrid,
    foreman_id: foremanId,
    newTickets,
    newUnits: ['PRD-A', 'PRD-B', 'PRD-C', 'PRD-D', 'PRD-E'].map((code) => ({ code, description: `Unit ${code}`, uom: 'EA' })),
  });
const ticketsOf = async (jobId: number): Promise<Ticket[]> => (await get(`/jobs/tickets/${jobId}`)).json();
async function complete(ticket: Ticket) {
  const res = await t.request({ method: 'PUT', url: `${API}/tickets/`, token: admin, body: { ticket: { id: ticket.id, version: ticket.version, status: 'Complete' } } });
  expect(res.statusCode, res.body).toBe(200);
}
const unitId = async (code: string) => ((await get(`/units?search=${code}&utility_id=${ngrid}`)).json() as { id: number; code: string }[]).find((u) => u.code === code)!.id;
const setPrice = async (code: string, price: string | null) =>
  expect((await t.request({ method: 'PUT', url: `${API}/units/${await unitId(code)}`, token: office, body: { unit: { unit_price: price } } })).statusCode).toBe(200);

let priced: JobListItem, unpriced: JobListItem, empty: JobListItem;

beforeAll(async () => {
  [admin, office, foreman, wforeman, lineman, apprentice, otherAdmin] = await t.loginAs('admin', 'office', 'foreman', 'wforeman', 'lineman', 'apprentice', 'other');
  demoId = (await db.select().from(companies).where(eq(companies.name, 'Demo Line Co')))[0].id;
  ngrid = (await db.select().from(utilities).where(and(eq(utilities.companyId, demoId), eq(utilities.code, 'NGRID'))))[0].id;
  foremanUser = await userByEmail(SEEDED_USERS.foreman);
  wforemanUser = await userByEmail(SEEDED_USERS.wforeman);

  // T1 (complete, working foreman, billed): A 2, B 0.1
  // T2 (pending):                          A 3 − 1, B 0.2, C 4
  // T3 (complete):                         C 1
  // T4 (complete, not billed):             A 1
  priced = await createJob(
    [
      { pole: { pole_name: 'PR-1', line_name: 'L' }, tasks: [{ code: 'PRD-A', init_qty: 2 }, { code: 'PRD-B', init_qty: 0.1 }] },
      { pole: { pole_name: 'PR-2', line_name: 'L' }, tasks: [{ code: 'PRD-A', init_qty: 3, additional_qty: -1 }, { code: 'PRD-B', init_qty: 0.2 }, { code: 'PRD-C', init_qty: 4 }] },
      { pole: { pole_name: 'PR-3', line_name: 'L' }, tasks: [{ code: 'PRD-C', init_qty: 1 }] },
      { pole: { pole_name: 'PR-4', line_name: 'L' }, tasks: [{ code: 'PRD-A', init_qty: 1 }] },
    ].map((x) => ({ ...x, work_orders: [] })),
    foremanUser.id,
  );
  await setPrice('PRD-A', '10.00');
  await setPrice('PRD-B', '2.50');
  await setPrice('PRD-C', null);
  const list = await ticketsOf(priced.id);
  const byPole = (name: string) => list.find((x) => x.pole_name === name)!;
  for (const name of ['PR-1', 'PR-3', 'PR-4']) await complete(byPole(name));
  await db.update(tickets).set({ assignedTo: wforemanUser.id }).where(eq(tickets.id, byPole('PR-1').id));
  // T1 on an invoice (made here as the invoice module will: lines frozen, ticket marked billed).
  const [invoice] = await db.insert(invoices).values({ companyId: demoId, jobId: priced.id, number: `INV-T${stamp}`, currency: 'USD', total: '20.25' }).returning();
  await db.insert(invoiceLines).values([
    { companyId: demoId, invoiceId: invoice.id, ticketId: byPole('PR-1').id, code: 'PRD-A', quantity: 2, unitPrice: '10.00', amount: '20.00' },
    { companyId: demoId, invoiceId: invoice.id, ticketId: byPole('PR-1').id, code: 'PRD-B', quantity: 0.1, unitPrice: '2.50', amount: '0.25' },
  ]);
  await db.insert(billedTickets).values({ ticketId: byPole('PR-1').id, companyId: demoId, invoiceId: invoice.id });
  await db.update(tickets).set({ billedAt: new Date(), invoiceNumber: invoice.number }).where(eq(tickets.id, byPole('PR-1').id));

  // Only the unpriced C: % by quantity. 2 done of 2 + 3 = 5 → 40 %.
  unpriced = await createJob([
    { pole: { pole_name: 'UP-1', line_name: 'L' }, work_orders: [], tasks: [{ code: 'PRD-C', init_qty: 2 }] },
    { pole: { pole_name: 'UP-2', line_name: 'L' }, work_orders: [], tasks: [{ code: 'PRD-C', init_qty: 3 }] },
  ]);
  await complete((await ticketsOf(unpriced.id)).find((x) => x.pole_name === 'UP-1')!);
  empty = await createJob([]);
});

describe('GET /jobs/{id}/production', () => {
  it('requires authentication', async () => {
    expect((await t.request({ method: 'GET', url: `${API}/jobs/${priced.id}/production` })).statusCode).toBe(401);
  });

  it('answers the units of the job by code, with exact amounts and an unpriced unit flagged by a null price', async () => {
    const reply = await production(priced.id);
    expect(reply.units).toEqual([
      // actual 2 + (3 − 1) + 1 = 5; done 2 + 1 = 3
      { code: 'PRD-A', description: 'Unit PRD-A', uom: 'EA', unit_price: '10.00', bid_qty: 6, actual_qty: 5, completed_qty: 3, remaining_qty: 2, bid_amount: '60.00', completed_amount: '30.00', remaining_amount: '20.00' },
      // 0.1 + 0.2 = 0.3 exactly
      { code: 'PRD-B', description: 'Unit PRD-B', uom: 'EA', unit_price: '2.50', bid_qty: 0.3, actual_qty: 0.3, completed_qty: 0.1, remaining_qty: 0.2, bid_amount: '0.75', completed_amount: '0.25', remaining_amount: '0.50' },
      { code: 'PRD-C', description: 'Unit PRD-C', uom: 'EA', unit_price: null, bid_qty: 5, actual_qty: 5, completed_qty: 1, remaining_qty: 4, bid_amount: '0.00', completed_amount: '0.00', remaining_amount: '0.00' },
    ]);
    // 30.25 of 50.75 = 59.60… %; billed = the invoice's lines; unbilled = T4's 1 × 10.00
    expect(reply.totals).toEqual({
      bid_amount: '60.75',
      completed_amount: '30.25',
      remaining_amount: '20.50',
      billed_amount: '20.25',
      unbilled_completed_amount: '10.00',
      percent_complete: 59.6,
    });
  });

  it("totals per foreman: the ticket's working foreman, else the job's foreman", async () => {
    const { by_foreman } = await production(priced.id);
    expect(by_foreman).toHaveLength(2);
    expect(by_foreman).toEqual(
      expect.arrayContaining([
        // T1: 2 × 10.00 + 0.1 × 2.50, all done
        { foreman_id: wforemanUser.id, name: wforemanUser.name, actual_amount: '20.25', completed_amount: '20.25', remaining_amount: '0.00', percent_complete: 100, not_evidenced: 1 },
        // T2–T4: A 3 (1 done) = 30.00, B 0.2 = 0.50, C unpriced; 10.00 of 30.50 = 32.8 %
        { foreman_id: foremanUser.id, name: foremanUser.name, actual_amount: '30.50', completed_amount: '10.00', remaining_amount: '20.50', percent_complete: 32.8, not_evidenced: 2 },
      ]),
    );
  });

  it("groups tickets with no foreman at all under Unassigned; a job without tasks is all zeros", async () => {
    const { by_foreman, totals } = await production(unpriced.id);
    expect(by_foreman).toEqual([{ foreman_id: null, name: 'Unassigned', actual_amount: '0.00', completed_amount: '0.00', remaining_amount: '0.00', percent_complete: 40, not_evidenced: 1 }]);
    expect(totals.percent_complete).toBe(40);
    expect(await production(empty.id)).toEqual({
      units: [],
      totals: { bid_amount: '0.00', completed_amount: '0.00', remaining_amount: '0.00', billed_amount: '0.00', unbilled_completed_amount: '0.00', percent_complete: 0 },
      by_foreman: [],
      evidence: { complete: 0, evidenced: 0, not_evidenced: 0, photos_required: 1 },
    });
  });

  it('is read by roles 1–3 and refused to roles 4–6', async () => {
    for (const token of [admin, office, foreman]) expect((await get(`/jobs/${priced.id}/production`, token)).statusCode).toBe(200);
    for (const token of [wforeman, lineman, apprentice]) expect((await get(`/jobs/${priced.id}/production`, token)).statusCode).toBe(403);
  });

  it("answers 404 for another company's job or one that does not exist, 400 for a bad id", async () => {
    const res = await get(`/jobs/${priced.id}/production`, otherAdmin);
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('PRD-A');
    expect((await get('/jobs/2000000000/production')).statusCode).toBe(404);
    expect((await get('/jobs/abc/production')).statusCode).toBe(400);
  });
});

describe('GET /jobs percent_complete', () => {
  const listed = async (token = admin) => {
    const res = await get('/jobs', token);
    expect(res.statusCode).toBe(200);
    return res.json() as JobListRow[];
  };

  it("is computeProduction's percentage, for a job with prices and for one without", async () => {
    const rows = await listed();
    for (const job of [priced, unpriced, empty]) {
      const reply = await production(job.id);
      expect(rows.find((r) => r.id === job.id)!.percent_complete, job.job_number).toBe(reply.totals.percent_complete);
    }
    expect(rows.find((r) => r.id === priced.id)!.percent_complete).toBe(59.6);
    expect(rows.find((r) => r.id === unpriced.id)!.percent_complete).toBe(40);
    expect(rows.find((r) => r.id === empty.id)!.percent_complete).toBe(0);
  });

  it('agrees with computeProduction on awkward figures: 0.1 + 0.2, half-cent amounts, a negative change', async () => {
    // 3 × 0.1 @ 0.05 = 0.015 → 0.02 each rounded per unit, not per task; 1/3 done by quantity
    const job = await createJob([
      { pole: { pole_name: 'AW-1', line_name: 'L' }, work_orders: [], tasks: [{ code: 'PRD-D', init_qty: 0.1 }, { code: 'PRD-E', init_qty: 7, additional_qty: -4 }] },
      { pole: { pole_name: 'AW-2', line_name: 'L' }, work_orders: [], tasks: [{ code: 'PRD-D', init_qty: 0.2 }, { code: 'PRD-E', init_qty: 0.3 }] },
    ]);
    await setPrice('PRD-D', '0.05');
    await setPrice('PRD-E', '0.33');
    await complete((await ticketsOf(job.id)).find((x) => x.pole_name === 'AW-1')!);
    const reply = await production(job.id);
    const expected = computeProduction([
      { code: 'PRD-D', description: '', uom: '', unit_price: '0.05', init_qty: 0.1, additional_qty: 0, complete: true, billed: false },
      { code: 'PRD-D', description: '', uom: '', unit_price: '0.05', init_qty: 0.2, additional_qty: 0, complete: false, billed: false },
      { code: 'PRD-E', description: '', uom: '', unit_price: '0.33', init_qty: 7, additional_qty: -4, complete: true, billed: false },
      { code: 'PRD-E', description: '', uom: '', unit_price: '0.33', init_qty: 0.3, additional_qty: 0, complete: false, billed: false },
    ]).totals.percent_complete;
    expect(reply.totals.percent_complete).toBe(expected);
    expect((await listed()).find((r) => r.id === job.id)!.percent_complete).toBe(expected);
  });

  it('is in every role\'s list (a percentage, not a price)', async () => {
    for (const token of [lineman, apprentice]) expect((await listed(token)).find((r) => r.id === priced.id)!.percent_complete).toBe(59.6);
    expect((await listed(otherAdmin)).find((r) => r.id === priced.id)).toBeUndefined();
  });
});
