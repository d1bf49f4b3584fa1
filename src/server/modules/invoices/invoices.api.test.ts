import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_KEY_HEADER } from '../../../shared/constants';
import { ERROR_CODE } from '../../../shared/error-codes';
import { invoicePreviewReply, invoiceReply, invoiceCreateReply, invoiceListReply, type Invoice } from '../../../shared/invoices.schemas';
import type { JobListItem, JobSaveInput } from '../../../shared/jobs.schemas';
import { MSG } from '../../../shared/messages';
import { jobSchema } from '../../../shared/jobs.schemas';
import { ticketSchema, type Ticket } from '../../../shared/tickets.schemas';
import { billedTickets, companies, invoiceLines, invoices, tickets, units } from '../../db/schema/index';
import { createTestApp } from '../../test/harness';

/**
 * Invoices and the billed-ticket lock (docs/product/billing.md §5), through the app on a real database (PGlite,
 * and PostgreSQL with TEST_DATABASE_URL): every route, roles, tenancy, bad input, the frozen
 * lines and exact total, the files read back by exceljs, openpyxl and pdftotext, the lock on every
 * route that changes a ticket's tasks or status, and the unlock.
 */
const t = await createTestApp();
const API = '/api/v1';
const db = t.ctx.db;

const tok: Record<string, string> = {};
let demoId: number;
let ngrid: number;

beforeAll(async () => {
  [tok.admin, tok.office, tok.foreman, tok.wforeman, tok.lineman, tok.apprentice, tok.other] = await t.loginAs(
    'admin',
    'office',
    'foreman',
    'wforeman',
    'lineman',
    'apprentice',
    'other',
  );
  const demo = await t.demo();
  demoId = demo.company;
  ngrid = demo.ngrid;
});

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const api = (method: Method, url: string, token: string | undefined, body?: unknown, headers?: Record<string, string>) =>
  t.request({ method, url: `${API}${url}`, token, body, headers });

let seq = 0;
/** A job of this test: tickets as drafts, units INV-A (12.50), INV-B (0.10), INV-C (no price). */
async function createJob(newTickets: JobSaveInput['newTickets']): Promise<JobListItem> {
  seq += 1;
  const job = await t.createJob(tok.admin, demoId, {
    job_number: `INV-JOB-${seq}`,
    selected_utility_id: ngrid,
    newTickets,
    newUnits: [
      { code: 'INV-A', description: 'Install crossarm', uom: 'EA' },
      { code: 'INV-B', description: 'String wire', uom: 'FT' },
      { code: 'INV-C', description: 'Unpriced unit', uom: 'EA' },
    ],
  });
  // Prices are set in SQL: the unit-price API belongs to another part of this feature.
  await db.update(units).set({ unitPrice: '12.50' }).where(and(eq(units.companyId, demoId), eq(units.code, 'INV-A')));
  await db.update(units).set({ unitPrice: '0.10' }).where(and(eq(units.companyId, demoId), eq(units.code, 'INV-B')));
  return job;
}

const ticketsOf = async (jobId: number): Promise<Ticket[]> => {
  const res = await api('GET', `/jobs/tickets/${jobId}`, tok.admin);
  expect(res.statusCode).toBe(200);
  return (res.json() as unknown[]).map((x) => ticketSchema.parse(x));
};
const byPole = (list: Ticket[], name: string) => list.find((x) => x.pole_name === name)!;
const getTicket = async (id: number) => ticketSchema.parse((await api('GET', `/tickets/${id}`, tok.admin)).json());

async function complete(ticket: Ticket, token = tok.admin) {
  const res = await api('PUT', '/tickets/', token, { ticket: { id: ticket.id, version: ticket.version, status: 'Complete' } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().ticket as Ticket;
}

const counter = async () => (await db.select({ n: companies.lastInvoiceNumber }).from(companies).where(eq(companies.id, demoId)))[0].n;

/** Two complete tickets (P-1: 2 + 1 INV-A and 3 INV-B; P-2: 0.1 + 0.2 INV-B and 1 INV-C) and one pending. */
async function jobWithWork() {
  const job = await createJob([
    {
      pole: { pole_name: 'P-1', line_name: 'L-1' },
      work_orders: ['WO-1', 'WO-2'],
      tasks: [
        { code: 'INV-A', init_qty: 2, additional_qty: 1 },
        { code: 'INV-B', init_qty: 3 },
      ],
    },
    {
      pole: { pole_name: 'P-2', line_name: 'L-1' },
      work_orders: [],
      tasks: [
        { code: 'INV-B', init_qty: 0.1, additional_qty: 0.2 },
        { code: 'INV-C', init_qty: 1 },
      ],
    },
    { pole: { pole_name: 'P-3', line_name: 'L-2' }, work_orders: ['WO-3'], tasks: [{ code: 'INV-A', init_qty: 5 }] },
  ]);
  const list = await ticketsOf(job.id);
  await complete(byPole(list, 'P-1'));
  await complete(byPole(list, 'P-2'));
  return { job, tickets: await ticketsOf(job.id) };
}

describe('POST /jobs/{id}/invoices', () => {
  it('requires authentication', async () => {
    const res = await api('POST', '/jobs/1/invoices', undefined, {});
    expect(res.statusCode).toBe(401);
  });

  it('roles 3–6 may not invoice (403), and nothing is written', async () => {
    const { job } = await jobWithWork();
    const before = await counter();
    for (const role of ['foreman', 'wforeman', 'lineman', 'apprentice']) {
      const res = await api('POST', `/jobs/${job.id}/invoices`, tok[role], {});
      expect(res.statusCode, role).toBe(403);
      const preview = await api('POST', `/jobs/${job.id}/invoices/preview`, tok[role], {});
      expect(preview.statusCode, role).toBe(403);
    }
    expect(await counter()).toBe(before);
  });

  it("another company's job answers 404", async () => {
    const { job } = await jobWithWork();
    const res = await api('POST', `/jobs/${job.id}/invoices`, tok.other, {});
    expect(res.statusCode).toBe(404);
    expect((await api('POST', `/jobs/${job.id}/invoices/preview`, tok.other, {})).statusCode).toBe(404);
    expect((await db.select().from(invoices).where(eq(invoices.jobId, job.id))).length).toBe(0);
  });

  it('bills every Complete, unbilled ticket: one frozen line per task, exact amounts and total, a company-unique number', async () => {
    const { job, tickets: list } = await jobWithWork();
    const before = await counter();
    const res = await api('POST', `/jobs/${job.id}/invoices`, tok.office, {});
    expect(res.statusCode, res.body).toBe(201);
    const { invoice } = invoiceCreateReply.strict().parse(res.json());
    expect(invoice.number).toBe(`INV-${String(before + 1).padStart(6, '0')}`);
    expect(invoice.job_number).toBe(job.job_number);
    expect(invoice.currency).toBe('USD');
    expect(invoice.ticket_ids).toEqual([byPole(list, 'P-1').id, byPole(list, 'P-2').id].sort((a, b) => a - b));
    expect(invoice.ticket_count).toBe(2);
    expect(invoice.created_by_name).toBeTruthy();
    const p1 = byPole(list, 'P-1').id;
    const p2 = byPole(list, 'P-2').id;
    expect(invoice.lines).toEqual([
      { ticket_id: p1, pole_name: 'P-1', line_name: 'L-1', work_order: 'WO-1, WO-2', code: 'INV-A', description: 'Install crossarm', uom: 'EA', quantity: 3, unit_price: '12.50', amount: '37.50' },
      { ticket_id: p1, pole_name: 'P-1', line_name: 'L-1', work_order: 'WO-1, WO-2', code: 'INV-B', description: 'String wire', uom: 'FT', quantity: 3, unit_price: '0.10', amount: '0.30' },
      // 0.1 + 0.2 is 0.3 on an invoice, and 0.3 × 0.10 rounds to 0.03.
      { ticket_id: p2, pole_name: 'P-2', line_name: 'L-1', work_order: '', code: 'INV-B', description: 'String wire', uom: 'FT', quantity: 0.3, unit_price: '0.10', amount: '0.03' },
      // No price: the line is there, counted 0.
      { ticket_id: p2, pole_name: 'P-2', line_name: 'L-1', work_order: '', code: 'INV-C', description: 'Unpriced unit', uom: 'EA', quantity: 1, unit_price: null, amount: '0.00' },
    ]);
    expect(invoice.total).toBe('37.83');
    expect(invoice.line_count).toBe(4);

    // Stored: the invoice, its lines, the billed tickets; the counter moved by one.
    expect(await counter()).toBe(before + 1);
    const stored = await db.select().from(invoices).where(eq(invoices.id, invoice.id));
    expect(stored[0]).toMatchObject({ number: invoice.number, companyId: demoId, jobId: job.id, total: '37.83' });
    expect((await db.select().from(invoiceLines).where(eq(invoiceLines.invoiceId, invoice.id))).length).toBe(4);
    expect((await db.select().from(billedTickets).where(eq(billedTickets.invoiceId, invoice.id))).map((r) => r.ticketId).sort()).toEqual(invoice.ticket_ids);

    // The tickets say so, in the ticket reply and the job page's rows (its cache sees the change).
    const p1Ticket = await getTicket(p1);
    expect(p1Ticket.invoice_number).toBe(invoice.number);
    expect(p1Ticket.billed_at).not.toBeNull();
    expect(p1Ticket.unlocked_at).toBeNull();
    expect((await getTicket(byPole(list, 'P-3').id)).invoice_number).toBeNull();
    const page = jobSchema.parse((await api('GET', `/jobs/${job.id}`, tok.lineman)).json());
    const rows = Object.fromEntries(page.tickets.map((r) => [r.pole_name, r]));
    expect(rows['P-1'].invoice_number).toBe(invoice.number);
    expect(rows['P-2'].billed_at).not.toBeNull();
    expect(rows['P-3'].invoice_number).toBeNull();
  });

  it('the job page reply read before an invoice is not served after it (cached reply, new fingerprint)', async () => {
    const { job } = await jobWithWork();
    const first = await api('GET', `/jobs/${job.id}`, tok.admin);
    expect(first.json().tickets.every((r: Ticket) => r.invoice_number === null)).toBe(true);
    const etag = first.headers.etag as string;
    expect((await api('POST', `/jobs/${job.id}/invoices`, tok.admin, {})).statusCode).toBe(201);
    const again = await api('GET', `/jobs/${job.id}`, tok.admin, undefined, { 'if-none-match': etag });
    expect(again.statusCode).toBe(200);
    expect(again.json().tickets.filter((r: Ticket) => r.invoice_number !== null)).toHaveLength(2);
  });

  it('nothing left to bill answers 409 with a clear message and writes nothing', async () => {
    const { job } = await jobWithWork();
    expect((await api('POST', `/jobs/${job.id}/invoices`, tok.admin, {})).statusCode).toBe(201);
    const before = await counter();
    const res = await api('POST', `/jobs/${job.id}/invoices`, tok.admin, {});
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ error: MSG.invoiceNothingToBill, code: ERROR_CODE.nothingToInvoice });
    expect(await counter()).toBe(before);
    const preview = await api('POST', `/jobs/${job.id}/invoices/preview`, tok.admin, {});
    expect(preview.statusCode).toBe(409);
  });

  it('through_date bills the tickets completed on or before that day in the company time zone', async () => {
    const { job, tickets: list } = await jobWithWork();
    // The company is in America/New_York: 03:00 UTC on March 2 is still March 1 there.
    await db.update(tickets).set({ actualCompletionDate: new Date('2027-03-02T03:00:00Z') }).where(eq(tickets.id, byPole(list, 'P-1').id));
    await db.update(tickets).set({ actualCompletionDate: new Date('2027-03-02T06:00:00Z') }).where(eq(tickets.id, byPole(list, 'P-2').id));
    const none = await api('POST', `/jobs/${job.id}/invoices/preview`, tok.admin, { through_date: '2027-02-28' });
    expect(none.statusCode).toBe(409);
    const preview = await api('POST', `/jobs/${job.id}/invoices/preview`, tok.admin, { through_date: '03/01/2027' });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(invoicePreviewReply.parse(preview.json()).invoice.ticket_ids).toEqual([byPole(list, 'P-1').id]);
    const res = await api('POST', `/jobs/${job.id}/invoices`, tok.admin, { through_date: '2027-03-01' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().invoice).toMatchObject({ ticket_ids: [byPole(list, 'P-1').id], through_date: '2027-03-01', total: '37.80' });
    // The next day's ticket is still to bill.
    const rest = await api('POST', `/jobs/${job.id}/invoices`, tok.admin, { through_date: '2027-03-02' });
    expect(rest.statusCode).toBe(201);
    expect(rest.json().invoice.ticket_ids).toEqual([byPole(list, 'P-2').id]);
  });

  it('ticket_ids: exactly those; another job\'s or a pending ticket is refused naming them, writing nothing', async () => {
    const { job, tickets: list } = await jobWithWork();
    const other = await jobWithWork();
    const before = await counter();
    let res = await api('POST', `/jobs/${job.id}/invoices`, tok.admin, { ticket_ids: [byPole(list, 'P-1').id, byPole(other.tickets, 'P-1').id] });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe(MSG.invoiceTicketsNotInJob(String(byPole(other.tickets, 'P-1').id)));
    res = await api('POST', `/jobs/${job.id}/invoices`, tok.admin, { ticket_ids: [byPole(list, 'P-1').id, byPole(list, 'P-3').id] });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe(MSG.invoiceTicketsNotComplete('P-3 / L-2'));
    expect(await counter()).toBe(before);

    res = await api('POST', `/jobs/${job.id}/invoices`, tok.admin, { ticket_ids: [byPole(list, 'P-2').id] });
    expect(res.statusCode).toBe(201);
    const number = res.json().invoice.number;
    expect(res.json().invoice.ticket_ids).toEqual([byPole(list, 'P-2').id]);
    // P-2 again: already billed, named with its invoice.
    res = await api('POST', `/jobs/${job.id}/invoices`, tok.admin, { ticket_ids: [byPole(list, 'P-1').id, byPole(list, 'P-2').id] });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: ERROR_CODE.alreadyBilled, error: MSG.invoiceTicketsAlreadyBilled(`P-2 / L-1 (${number})`) });
    // The default takes what is left: P-1.
    res = await api('POST', `/jobs/${job.id}/invoices`, tok.admin, {});
    expect(res.json().invoice.ticket_ids).toEqual([byPole(list, 'P-1').id]);
  });

  it('bad input answers 400 and writes nothing', async () => {
    const { job } = await jobWithWork();
    const before = await counter();
    for (const body of [
      { ticket_ids: 'all' },
      { ticket_ids: [] },
      { ticket_ids: [-1] },
      { through_date: '2027-02-30' },
      { through_date: 'yesterday' },
      { ticket_ids: [1], through_date: '2027-01-01' },
      { preview: 'yes', extra: 1 },
    ]) {
      const res = await api('POST', `/jobs/${job.id}/invoices`, tok.admin, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error).toBeTruthy();
    }
    expect((await api('POST', '/jobs/abc/invoices', tok.admin, {})).statusCode).toBe(400);
    expect(await counter()).toBe(before);
  });

  it('a POST without a body bills like {}', async () => {
    const { job } = await jobWithWork();
    const res = await t.request({ method: 'POST', url: `${API}/jobs/${job.id}/invoices`, token: tok.admin });
    expect(res.statusCode, res.body).toBe(201);
  });

  it('preview answers the same invoice and writes nothing', async () => {
    const { job } = await jobWithWork();
    const before = await counter();
    const res = await api('POST', `/jobs/${job.id}/invoices/preview`, tok.office, {});
    expect(res.statusCode, res.body).toBe(200);
    const { invoice: preview } = invoicePreviewReply.strict().parse(res.json());
    expect(preview).toMatchObject({ id: null, number: null, total: '37.83', line_count: 4, ticket_count: 2 });
    expect(await counter()).toBe(before);
    expect((await db.select().from(invoices).where(eq(invoices.jobId, job.id))).length).toBe(0);
    expect((await ticketsOf(job.id)).every((x) => x.billed_at === null)).toBe(true);
    // Confirming with the previewed tickets makes exactly that invoice.
    const made = await api('POST', `/jobs/${job.id}/invoices`, tok.office, { ticket_ids: preview.ticket_ids });
    expect(made.statusCode).toBe(201);
    expect(made.json().invoice.lines).toEqual(preview.lines);
    expect(made.json().invoice.total).toBe(preview.total);
  });

  it('an Idempotency-Key replay answers the same invoice and makes no second one', async () => {
    const { job } = await jobWithWork();
    const headers = { [IDEMPOTENCY_KEY_HEADER]: `inv-${job.id}` };
    const a = await api('POST', `/jobs/${job.id}/invoices`, tok.admin, {}, headers);
    const b = await api('POST', `/jobs/${job.id}/invoices`, tok.admin, {}, headers);
    expect(a.statusCode).toBe(201);
    expect(b.statusCode).toBe(201);
    expect(b.json().invoice.number).toBe(a.json().invoice.number);
    expect((await db.select().from(invoices).where(eq(invoices.jobId, job.id))).length).toBe(1);
  });

  it('two invoices of the same job at once: one invoice, each ticket billed once, the other a clear 409', async () => {
    const { job, tickets: list } = await jobWithWork();
    const ids = [byPole(list, 'P-1').id, byPole(list, 'P-2').id];
    const replies = await Promise.all([
      api('POST', `/jobs/${job.id}/invoices`, tok.admin, {}),
      api('POST', `/jobs/${job.id}/invoices`, tok.office, {}),
      api('POST', `/jobs/${job.id}/invoices`, tok.admin, { ticket_ids: ids }),
      api('POST', `/jobs/${job.id}/invoices`, tok.office, { ticket_ids: ids }),
    ]);
    const statuses = replies.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([201, 409, 409, 409]);
    for (const r of replies.filter((x) => x.statusCode === 409)) {
      expect([ERROR_CODE.alreadyBilled, ERROR_CODE.nothingToInvoice]).toContain(r.json().code);
      expect(r.json().error).toBeTruthy();
    }
    expect((await db.select().from(invoices).where(eq(invoices.jobId, job.id))).length).toBe(1);
    const billed = await db.select().from(billedTickets).where(inArray(billedTickets.ticketId, ids));
    expect(billed).toHaveLength(2);
    const lines = await db.select({ ticketId: invoiceLines.ticketId, n: sql<number>`count(*)::int` }).from(invoiceLines).where(inArray(invoiceLines.ticketId, ids)).groupBy(invoiceLines.ticketId);
    expect(lines.map((l) => l.n).sort()).toEqual([2, 2]);
  });

  it('the database itself refuses a ticket on a second invoice (billed_tickets key)', async () => {
    const { job } = await jobWithWork();
    const made = (await api('POST', `/jobs/${job.id}/invoices`, tok.admin, {})).json().invoice as Invoice;
    await expect(db.insert(billedTickets).values({ ticketId: made.ticket_ids[0], companyId: demoId, invoiceId: made.id })).rejects.toThrow();
  });
});

describe('GET /jobs/{id}/invoices and GET /invoices/{id}', () => {
  let job: JobListItem;
  let made: Invoice;
  beforeAll(async () => {
    ({ job } = await jobWithWork());
    made = (await api('POST', `/jobs/${job.id}/invoices`, tok.admin, {})).json().invoice;
  });

  it('requires authentication', async () => {
    expect((await api('GET', `/jobs/${job.id}/invoices`, undefined)).statusCode).toBe(401);
    expect((await api('GET', `/invoices/${made.id}`, undefined)).statusCode).toBe(401);
  });

  it('roles 1–3 read the list (no lines) and one invoice with its lines', async () => {
    for (const role of ['admin', 'office', 'foreman']) {
      const list = await api('GET', `/jobs/${job.id}/invoices`, tok[role]);
      expect(list.statusCode, role).toBe(200);
      const { invoices: items } = invoiceListReply.strict().parse(list.json());
      expect(items).toHaveLength(1);
      expect(items[0]).toMatchObject({ id: made.id, number: made.number, total: made.total, line_count: 4, ticket_count: 2 });
      expect(items[0]).not.toHaveProperty('lines');
      const one = await api('GET', `/invoices/${made.id}`, tok[role]);
      expect(one.statusCode).toBe(200);
      expect(invoiceReply.strict().parse(one.json()).invoice).toEqual(made);
    }
  });

  it('roles 4–6 get 403; another company 404; a missing invoice 404', async () => {
    for (const role of ['wforeman', 'lineman', 'apprentice']) {
      for (const url of [`/jobs/${job.id}/invoices`, `/invoices/${made.id}`, `/invoices/${made.id}/xlsx`, `/invoices/${made.id}/pdf`]) {
        expect((await api('GET', url, tok[role])).statusCode, `${role} ${url}`).toBe(403);
      }
    }
    for (const url of [`/jobs/${job.id}/invoices`, `/invoices/${made.id}`, `/invoices/${made.id}/xlsx`, `/invoices/${made.id}/pdf`]) {
      const res = await api('GET', url, tok.other);
      expect(res.statusCode, url).toBe(404);
      expect(res.body).not.toContain(made.number);
    }
    expect((await api('GET', '/invoices/999999', tok.admin)).statusCode).toBe(404);
    expect((await api('GET', '/invoices/0', tok.admin)).statusCode).toBe(400);
  });

  it('the invoice stays as made: later price and task changes do not change its lines', async () => {
    await db.update(units).set({ unitPrice: '99.00' }).where(and(eq(units.companyId, demoId), eq(units.code, 'INV-A')));
    const again = (await api('GET', `/invoices/${made.id}`, tok.admin)).json().invoice;
    expect(again.lines).toEqual(made.lines);
    expect(again.total).toBe(made.total);
    await db.update(units).set({ unitPrice: '12.50' }).where(and(eq(units.companyId, demoId), eq(units.code, 'INV-A')));
  });

  it('XLSX: a download whose figures are numbers in a currency format and whose total equals the invoice total (exceljs)', async () => {
    const res = await api('GET', `/invoices/${made.id}/xlsx`, tok.foreman);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="${job.job_number} ${made.number}.xlsx"`);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    // The block above the lines: label in column A, value in B, down to the header row.
    const header: Record<string, unknown> = {};
    let h = 1;
    for (; h <= 20 && sheet.getCell(h, 1).value !== 'Pole'; h++) if (sheet.getCell(h, 1).value) header[String(sheet.getCell(h, 1).value)] = sheet.getCell(h, 2).value;
    expect(header).toMatchObject({ Company: 'Demo Line Co', Job: job.job_number, Invoice: made.number, Currency: 'USD', 'Bill to': 'NGRID', 'Work orders': 'WO-1, WO-2' });
    expect(header.Date).toBeInstanceOf(Date);
    expect(sheet.getRow(h).values).toEqual([undefined, 'Pole', 'Line', 'Work Order', 'Code', 'Description', 'UOM', 'Quantity', 'Unit Price', 'Amount']);
    const lineRows = [1, 2, 3, 4].map((i) => sheet.getRow(h + i));
    expect(lineRows.map((r) => r.getCell(4).value)).toEqual(made.lines.map((l) => l.code));
    for (const [i, row] of lineRows.entries()) {
      expect(typeof row.getCell(7).value).toBe('number');
      expect(row.getCell(7).value).toBe(made.lines[i].quantity);
      expect(row.getCell(9).value).toBe(Number(made.lines[i].amount));
      expect(row.getCell(9).numFmt).toContain('$');
    }
    expect(lineRows[3].getCell(8).value).toBeNull(); // no price
    const total = sheet.getRow(h + 5).getCell(9);
    expect(total.formula).toBe(`SUM(I${h + 1}:I${h + 4})`);
    expect(total.result).toBe(Number(made.total));
    expect(total.numFmt).toContain('$');
  });

  it('XLSX: openpyxl reads numbers as numbers and the cached total', async () => {
    const res = await api('GET', `/invoices/${made.id}/xlsx`, tok.admin);
    const dir = mkdtempSync(path.join(tmpdir(), 'inv-xlsx-'));
    try {
      const file = path.join(dir, 'invoice.xlsx');
      writeFileSync(file, res.rawPayload);
      const script = [
        'import json, sys, openpyxl',
        'ws = openpyxl.load_workbook(sys.argv[1], data_only=True).active',
        'h = next(r for r in range(1, 21) if ws.cell(r, 1).value == "Pole")',
        'rows = [[c.value for c in r] for r in ws.iter_rows(min_row=h + 1, max_row=ws.max_row)]',
        'print(json.dumps({"rows": rows, "types": [[type(c.value).__name__ for c in r] for r in ws.iter_rows(min_row=h + 1, max_row=h + 4)], "fmt": ws.cell(h + 1, 9).number_format, "date": type(ws.cell(3, 2).value).__name__}))',
      ].join('\n');
      const out = JSON.parse(execFileSync('/usr/bin/python3', ['-c', script, file], { encoding: 'utf8' })) as {
        rows: unknown[][];
        types: string[][];
        fmt: string;
        date: string;
      };
      expect(out.date).toBe('datetime');
      for (const types of out.types) {
        expect(['int', 'float']).toContain(types[6]);
        expect(['int', 'float']).toContain(types[8]);
      }
      expect(out.fmt).toContain('$');
      const totalRow = out.rows[out.rows.length - 1];
      expect(totalRow[7]).toBe('Total');
      expect(totalRow[8]).toBeCloseTo(Number(made.total), 9);
      expect(String(totalRow[8])).toBe(String(Number(made.total)));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('PDF: a printable download with the company, job, number, every line and the total (pdftotext)', async () => {
    const res = await api('GET', `/invoices/${made.id}/pdf`, tok.foreman);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="${job.job_number} ${made.number}.pdf"`);
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const text = execFileSync('pdftotext', ['-layout', '-', '-'], { input: res.rawPayload, encoding: 'utf8' });
    expect(text).toContain('Demo Line Co');
    expect(text).toContain(made.number);
    expect(text).toContain(job.job_number);
    for (const l of made.lines) expect(text).toContain(l.code);
    expect(text).toContain('$37.83');
    expect(text).toContain('$12.50');
  });
});

describe('the billed-ticket lock', () => {
  let job: JobListItem;
  let list: Ticket[];
  let number: string;
  let unitB: number;
  beforeAll(async () => {
    ({ job, tickets: list } = await jobWithWork());
    number = (await api('POST', `/jobs/${job.id}/invoices`, tok.admin, {})).json().invoice.number;
    list = await ticketsOf(job.id);
    unitB = (await db.select().from(units).where(and(eq(units.companyId, demoId), eq(units.code, 'INV-B'))))[0].id;
  });
  const locked = (res: { statusCode: number; json(): { error: string; code?: string } }) => {
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ error: MSG.ticketBilledLocked(number), code: ERROR_CODE.ticketBilled });
  };

  it('PUT /tickets/: changing tasks (quantity, add, remove) or status answers 409 naming the invoice, for every role that may edit', async () => {
    const p1 = byPole(list, 'P-1');
    const tasks = p1.tasks.map((k) => ({ ticket_task_id: k.ticket_task_id, task_id: k.task_id, init_qty: k.init_qty, additional_qty: k.additional_qty }));
    for (const token of [tok.admin, tok.office, tok.foreman, tok.wforeman]) {
      locked(await api('PUT', '/tickets/', token, { ticket: { id: p1.id, version: p1.version, tasks: [{ ...tasks[0], additional_qty: 5 }, tasks[1]] } }));
      locked(await api('PUT', '/tickets/', token, { ticket: { id: p1.id, version: p1.version, tasks: [...tasks, { task_id: unitB, init_qty: 1, additional_qty: 0 }] } }));
      locked(await api('PUT', '/tickets/', token, { ticket: { id: p1.id, version: p1.version, tasks: [tasks[0]] } }));
      locked(await api('PUT', '/tickets/', token, { ticket: { id: p1.id, version: p1.version, status: 'Pending' } }));
    }
    const now = await getTicket(p1.id);
    expect(now.version).toBe(p1.version);
    expect(now.status).toBe('Complete');
    expect(now.tasks).toEqual(p1.tasks);
  });

  it('notes, photos-side fields and the rest stay editable; sending the tasks and status unchanged is not a change', async () => {
    const p1 = await getTicket(byPole(list, 'P-1').id);
    let res = await api('PUT', '/tickets/', tok.lineman, { ticket: { id: p1.id, version: p1.version, notes: [{ note_text: 'billed, still noted' }] } });
    expect(res.statusCode, res.body).toBe(200);
    const v = res.json().ticket as Ticket;
    res = await api('PUT', '/tickets/', tok.wforeman, { ticket: { ...v, description: 'edited after billing' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().ticket).toMatchObject({ description: 'edited after billing', invoice_number: number, status: 'Complete' });
  });

  it('merge involving a locked ticket, deleting it, and deleting its job answer 409', async () => {
    const p1 = byPole(list, 'P-1');
    const p3 = byPole(list, 'P-3');
    locked(await api('PUT', `/tickets/merge/${p1.id}`, tok.admin, { secondary_ticket: p3.id }));
    locked(await api('PUT', `/tickets/merge/${p3.id}`, tok.admin, { secondary_ticket: p1.id }));
    locked(await api('DELETE', `/tickets/${p1.id}`, tok.admin));
    expect((await getTicket(p3.id)).tasks).toHaveLength(1);
    const res = await api('DELETE', `/jobs/${job.id}`, tok.admin);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ error: MSG.jobHasInvoices, code: ERROR_CODE.jobHasInvoices });
    expect((await api('GET', `/jobs/${job.id}`, tok.admin)).statusCode).toBe(200);
  });

  it('a job save whose new tickets add tasks to a locked ticket answers 409 and imports nothing', async () => {
    const current = (await api('GET', `/jobs/${job.id}`, tok.admin)).json();
    const { tickets: _rows, company_time_zone: _tz, ...header } = current;
    const body = {
      ...Object.fromEntries(Object.entries(header).filter(([, v]) => v !== null)),
      newTickets: [
        { pole: { pole_name: 'P-1', line_name: 'L-1' }, work_orders: [], tasks: [{ code: 'INV-C', init_qty: 4 }] },
        { pole: { pole_name: 'P-NEW', line_name: 'L-9' }, work_orders: [], tasks: [{ code: 'INV-C', init_qty: 1 }] },
      ],
    };
    const res = await api('PUT', '/jobs/', tok.admin, { job: body });
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().code).toBe(ERROR_CODE.ticketBilled);
    expect(res.json().error).toContain('P-1 / L-1');
    expect((await ticketsOf(job.id)).map((x) => x.pole_name).sort()).toEqual(['P-1', 'P-2', 'P-3']);
  });
});

describe('POST /tickets/{id}/unlock', () => {
  let job: JobListItem;
  let list: Ticket[];
  let number: string;
  beforeAll(async () => {
    ({ job, tickets: list } = await jobWithWork());
    number = (await api('POST', `/jobs/${job.id}/invoices`, tok.admin, {})).json().invoice.number;
    list = await ticketsOf(job.id);
  });

  it('requires authentication; roles 3–6 get 403', async () => {
    const id = byPole(list, 'P-1').id;
    expect((await api('POST', `/tickets/${id}/unlock`, undefined, { reason: 'x' })).statusCode).toBe(401);
    for (const role of ['foreman', 'wforeman', 'lineman', 'apprentice']) {
      expect((await api('POST', `/tickets/${id}/unlock`, tok[role], { reason: 'fix qty' })).statusCode, role).toBe(403);
    }
    expect((await getTicket(id)).unlocked_at).toBeNull();
  });

  it('a missing or blank reason answers 400; another company 404; a ticket not billed 409', async () => {
    const id = byPole(list, 'P-1').id;
    for (const body of [{}, { reason: '' }, { reason: '   ' }, { reason: 'x'.repeat(501) }]) {
      const res = await api('POST', `/tickets/${id}/unlock`, tok.admin, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error).toBeTruthy();
    }
    expect((await api('POST', `/tickets/${id}/unlock`, tok.admin, { reason: '  ' })).json().error).toBe(MSG.unlockReasonRequired);
    expect((await api('POST', `/tickets/${id}/unlock`, tok.other, { reason: 'not mine' })).statusCode).toBe(404);
    const pending = await api('POST', `/tickets/${byPole(list, 'P-3').id}/unlock`, tok.admin, { reason: 'why not' });
    expect(pending.statusCode).toBe(409);
    expect(pending.json().error).toBe(MSG.unlockNotBilled);
    expect((await getTicket(id)).unlocked_at).toBeNull();
  });

  it('stores who, when and why; then tasks and status change again, the ticket stays billed and never goes on a second invoice', async () => {
    const p1 = byPole(list, 'P-1');
    const res = await api('POST', `/tickets/${p1.id}/unlock`, tok.office, { reason: '  Utility recount: 4 crossarms  ' });
    expect(res.statusCode, res.body).toBe(200);
    const unlocked = ticketSchema.parse(res.json().ticket);
    expect(unlocked).toMatchObject({ unlock_reason: 'Utility recount: 4 crossarms', invoice_number: number, unlocked_by_name: expect.stringMatching(/\S/) });
    expect(unlocked.unlocked_at).not.toBeNull();
    expect(unlocked.version).toBe(p1.version + 1);
    const page = jobSchema.parse((await api('GET', `/jobs/${job.id}`, tok.admin)).json());
    expect(page.tickets.find((r) => r.id === p1.id)).toMatchObject({ unlock_reason: 'Utility recount: 4 crossarms', invoice_number: number });

    const tasks = unlocked.tasks.map((k) => ({ ticket_task_id: k.ticket_task_id, task_id: k.task_id, init_qty: k.init_qty, additional_qty: k.additional_qty }));
    let saved = await api('PUT', '/tickets/', tok.wforeman, { ticket: { id: p1.id, version: unlocked.version, tasks: [{ ...tasks[0], additional_qty: 2 }, tasks[1]] } });
    expect(saved.statusCode, saved.body).toBe(200);
    saved = await api('PUT', '/tickets/', tok.admin, { ticket: { id: p1.id, version: saved.json().ticket.version, status: 'Pending' } });
    expect(saved.statusCode, saved.body).toBe(200);
    saved = await api('PUT', '/tickets/', tok.admin, { ticket: { id: p1.id, version: saved.json().ticket.version, status: 'Complete' } });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().ticket).toMatchObject({ invoice_number: number, status: 'Complete' });

    // Still billed: never on a second invoice, by default or by id.
    expect((await api('POST', `/jobs/${job.id}/invoices`, tok.admin, {})).json().code).toBe(ERROR_CODE.nothingToInvoice);
    const again = await api('POST', `/jobs/${job.id}/invoices`, tok.admin, { ticket_ids: [p1.id] });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe(ERROR_CODE.alreadyBilled);
    // The invoice's lines are frozen: 3 crossarms as billed.
    const inv = (await api('GET', `/jobs/${job.id}/invoices`, tok.admin)).json().invoices[0];
    const lines = (await api('GET', `/invoices/${inv.id}`, tok.admin)).json().invoice.lines;
    expect(lines[0]).toMatchObject({ code: 'INV-A', quantity: 3 });
  });

  it('an unlocked billed ticket merges only into a billed one (else its work would be billed twice); it may be deleted', async () => {
    const p2 = byPole(list, 'P-2');
    const p3 = byPole(list, 'P-3');
    await api('POST', `/tickets/${p2.id}/unlock`, tok.admin, { reason: 'split' });
    const res = await api('PUT', `/tickets/merge/${p3.id}`, tok.admin, { secondary_ticket: p2.id });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe(MSG.ticketBilledMerge(number));
    const del = await api('DELETE', `/tickets/${p2.id}`, tok.admin);
    expect(del.statusCode).toBe(200);
    // The invoice keeps its lines of the deleted ticket.
    const inv = (await api('GET', `/jobs/${job.id}/invoices`, tok.admin)).json().invoices[0];
    const lines = (await api('GET', `/invoices/${inv.id}`, tok.admin)).json().invoice.lines as Invoice['lines'];
    expect(lines.filter((l) => l.pole_name === 'P-2')).toHaveLength(2);
    expect(lines.filter((l) => l.pole_name === 'P-2').every((l) => l.ticket_id === null)).toBe(true);
  });
});
