import { execFileSync } from 'node:child_process';
import ExcelJS from 'exceljs';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { invoicePreviewReply, invoiceReply, type Invoice } from '../../../shared/invoices.schemas';
import type { JobListItem } from '../../../shared/jobs.schemas';
import { MSG } from '../../../shared/messages';
import type { Ticket } from '../../../shared/tickets.schemas';
import { invoices, units } from '../../db/schema/index';
import { createTestApp } from '../../test/harness';

/**
 * What an invoice's files print and in which order (docs/product/billing.md §4): any script in the
 * PDF (its font embedded), CJK shown as a visible marker with a note, never '?'; poles in natural
 * order, line then pole, in the preview, the reply, the PDF and the XLSX; a bill-to block; one
 * invoice date (the company's calendar day) in the reply, the PDF and the XLSX, which holds it as
 * a real date. Real app, real database, files read back by pdftotext, pdffonts and exceljs.
 */
const t = await createTestApp();
const API = '/api/v1';
const db = t.ctx.db;
const tok: Record<string, string> = {};
let demoId: number;
let ngrid: number;

const api = (method: 'GET' | 'POST' | 'PUT', url: string, token: string | undefined, body?: unknown) => t.request({ method, url: `${API}${url}`, token, body });

// The words the "any script" test looks for: Polish, Czech, Russian, Greek, and Chinese.
const LINE_PL = 'Łine';
const WO_CZ = 'WO-Ž1';
const RUSSIAN = 'Траверса';
const GREEK = 'Στύλος';
const CHINESE = '電柱';

let job: JobListItem;
let made: Invoice;

beforeAll(async () => {
  [tok.admin, tok.foreman] = await t.loginAs('admin', 'foreman');
  ({ company: demoId, ngrid } = await t.demo());
  const tasks = [{ code: 'FILE-A', init_qty: 1 }];
  // Made in text order ('10' < '130' < '20'), two lines: the invoice must read line L-2 before
  // L-10, and 10 < 20 < 130 within each.
  const poles = ['130', '20', '10'];
  job = await t.createJob(tok.admin, demoId, {
    job_number: 'FILES-1',
    selected_utility_id: ngrid,
    newTickets: [
      ...poles.map((p) => ({ pole: { pole_name: p, line_name: 'L-10' }, work_orders: ['WO-10'], tasks })),
      ...poles.map((p) => ({ pole: { pole_name: p, line_name: 'L-2' }, work_orders: ['WO-2'], tasks })),
      { pole: { pole_name: `${CHINESE}-5`, line_name: LINE_PL }, work_orders: [WO_CZ], tasks: [{ code: 'FILE-B', init_qty: 2 }] },
    ],
    newUnits: [
      { code: 'FILE-A', description: `${RUSSIAN} ${GREEK}`, uom: 'EA' },
      { code: 'FILE-B', description: 'Crossarm', uom: 'EA' },
    ],
  });
  await db.update(units).set({ unitPrice: '10.00' }).where(and(eq(units.companyId, demoId), eq(units.code, 'FILE-A')));
  const list = (await api('GET', `/jobs/tickets/${job.id}`, tok.admin)).json() as Ticket[];
  for (const tk of list) {
    const res = await api('PUT', '/tickets/', tok.admin, { ticket: { id: tk.id, version: tk.version, status: 'Complete' } });
    expect(res.statusCode, res.body).toBe(200);
  }
  const res = await api('POST', `/jobs/${job.id}/invoices`, tok.admin, {});
  expect(res.statusCode, res.body).toBe(201);
  made = res.json().invoice;
  // 03:30 UTC on Nov 26 is still Nov 25 in the company's zone (America/New_York): the day the
  // invoice carries everywhere, whatever the reader's browser or server zone.
  await db.update(invoices).set({ createdAt: new Date('2026-11-26T03:30:00Z') }).where(eq(invoices.id, made.id));
  made = invoiceReply.strict().parse((await api('GET', `/invoices/${made.id}`, tok.admin)).json()).invoice;
});

const ORDER = ['L-2 10', 'L-2 20', 'L-2 130', 'L-10 10', 'L-10 20', 'L-10 130', `${LINE_PL} ${CHINESE}-5`];
const placeOf = (l: { line_name: string; pole_name: string }) => `${l.line_name} ${l.pole_name}`;

const pdfText = (pdf: Buffer) => execFileSync('pdftotext', ['-layout', '-', '-'], { input: pdf, encoding: 'utf8' });

describe('invoice order, date and bill-to', () => {
  it('the reply lists lines line then pole in natural order (L-2 before L-10, 10 < 20 < 130)', () => {
    expect(made.lines.map(placeOf)).toEqual(ORDER);
  });

  it('the preview lists them in the same order', async () => {
    const other = await t.createJob(tok.admin, demoId, {
      job_number: 'FILES-2',
      selected_utility_id: ngrid,
      newTickets: ['130', '20', '10'].map((p) => ({ pole: { pole_name: p, line_name: 'L-1' }, work_orders: [], tasks: [{ code: 'FILE-A', init_qty: 1 }] })),
    });
    for (const tk of (await api('GET', `/jobs/tickets/${other.id}`, tok.admin)).json() as Ticket[]) {
      await api('PUT', '/tickets/', tok.admin, { ticket: { id: tk.id, version: tk.version, status: 'Complete' } });
    }
    const res = await api('POST', `/jobs/${other.id}/invoices/preview`, tok.admin, {});
    expect(res.statusCode, res.body).toBe(200);
    const { invoice } = invoicePreviewReply.strict().parse(res.json());
    expect(invoice.lines.map((l) => l.pole_name)).toEqual(['10', '20', '130']);
    expect(invoice.bill_to).toMatchObject({ utility: 'NGRID', job_number: 'FILES-2' });
  });

  it("carries one invoice date, the company's calendar day, and a bill-to block", () => {
    expect(made.invoice_date).toBe('2026-11-25');
    expect(made.bill_to).toEqual({ utility: 'NGRID', address: null, job_number: 'FILES-1', work_orders: ['WO-2', 'WO-10', WO_CZ] });
  });

  it('XLSX: lines in natural order, the date a real Excel date, the bill-to block', async () => {
    const res = await api('GET', `/invoices/${made.id}/xlsx`, tok.foreman);
    expect(res.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    const label = (name: string) => {
      for (let r = 1; r <= 20; r++) if (sheet.getCell(r, 1).value === name) return sheet.getCell(r, 2);
      throw new Error(`no ${name} row`);
    };
    const date = label('Date');
    expect(date.value).toBeInstanceOf(Date);
    expect((date.value as Date).toISOString()).toBe('2026-11-25T00:00:00.000Z');
    expect(date.numFmt).toBe('mm/dd/yyyy');
    expect(label('Bill to').value).toBe('NGRID');
    expect(label('Job').value).toBe('FILES-1');
    expect(label('Work orders').value).toBe(`WO-2, WO-10, ${WO_CZ}`);
    let header = 0;
    for (let r = 1; r <= 20 && !header; r++) if (sheet.getCell(r, 1).value === 'Pole') header = r;
    const rows = ORDER.map((_, i) => sheet.getRow(header + 1 + i));
    expect(rows.map((r) => `${r.getCell(2).value} ${r.getCell(1).value}`)).toEqual(ORDER);
    // The XLSX keeps every character as written, CJK included.
    expect(rows[6].getCell(3).value).toBe(WO_CZ);
  });

  it('PDF: any script prints (Polish, Czech, Russian, Greek), its font embedded; CJK a visible marker with a note, never ?', async () => {
    const res = await api('GET', `/invoices/${made.id}/pdf`, tok.foreman);
    expect(res.statusCode).toBe(200);
    const text = pdfText(res.rawPayload);
    for (const word of [LINE_PL, WO_CZ, RUSSIAN, GREEK]) expect(text).toContain(word);
    expect(text).not.toMatch(/\?/);
    expect(text).toContain('\uFFFD\uFFFD-5');
    expect(text.replace(/\s+/g, ' ')).toContain(MSG.pdfUndrawable);
    // Every font of the PDF embedded (pdffonts: the "emb" column says yes).
    const fonts = execFileSync('pdffonts', ['-'], { input: res.rawPayload, encoding: 'utf8' }).trim().split('\n').slice(2);
    expect(fonts.length).toBeGreaterThan(0);
    for (const f of fonts) expect(f, f).toMatch(/DejaVuSans\S* +TrueType|CID TrueType/);
    for (const f of fonts) expect(f.split(/\s+/).slice(-5)[0], f).toBe('yes');
  });

  it('PDF: the bill-to block, the invoice date and the lines in natural order', async () => {
    const text = pdfText((await api('GET', `/invoices/${made.id}/pdf`, tok.admin)).rawPayload);
    expect(text).toContain('Bill to');
    expect(text).toContain('NGRID');
    expect(text).toContain('11/25/2026');
    expect(text).not.toContain('11/26/2026');
    const rows = text.split('\n').filter((l) => /^\s*(10|20|130|\uFFFD)\S*\s+(L-2|L-10|Łine)\b/.test(l));
    expect(rows.map((l) => l.trim().split(/\s+/).slice(0, 2).reverse().join(' '))).toEqual(ORDER.map((o) => o.replace(CHINESE, '\uFFFD\uFFFD')));
  });
});
