import { execFileSync } from 'node:child_process';
import JSZip from 'jszip';
import sharp from 'sharp';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Invoice } from '../../../shared/invoices.schemas';
import type { JobListItem } from '../../../shared/jobs.schemas';
import type { Ticket } from '../../../shared/tickets.schemas';
import { tickets } from '../../db/schema/index';
import { createTestApp } from '../../test/harness';

/**
 * The evidence pack of an invoice (docs/product/billing.md §7): GET /invoices/{id}/evidence.pdf and
 * /evidence.zip through the app on a real database (PGlite, and PostgreSQL with
 * TEST_DATABASE_URL), photos really stored and recorded through the upload route. The PDF read
 * back by pdftotext, the ZIP by JSZip.
 */
const t = await createTestApp();
const API = '/api/v1';
const db = t.ctx.db;
const tok: Record<string, string> = {};
let demoId: number;

const api = (method: 'GET' | 'POST' | 'PUT', url: string, token: string | undefined, body?: unknown) => t.request({ method, url: `${API}${url}`, token, body });

let job: JobListItem;
let made: Invoice;
/** The bytes of each photo as uploaded, per pole, in upload order (taken one minute apart). */
const photos: Record<string, Buffer[]> = { '10': [], '20': [], 'Łine-7': [] };
/** When each ticket was completed (set in SQL), and how the pack prints it in America/New_York. */
const COMPLETED: Record<string, [string, string]> = {
  '10': ['2026-11-20T15:04:00Z', '11/20/2026 10:04'],
  '20': ['2026-11-21T16:30:00Z', '11/21/2026 11:30'],
  'Łine-7': ['2026-11-22T03:15:00Z', '11/21/2026 22:15'],
};

async function addPhoto(ticketId: number, pole: string, i: number) {
  const body = await sharp({ create: { width: 320, height: 240, channels: 3, background: { r: 40 * i, g: 120, b: pole === '10' ? 200 : 60 } } })
    .jpeg({ quality: 90 })
    .toBuffer();
  const file = await t.storeFile(demoId, 'media', `${pole}-${i}.jpg`, { body });
  const res = await t.request({
    method: 'POST',
    url: `${API}/media_upload/s3-upload-complete`,
    token: tok.admin,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ ticketId: String(ticketId), url: file.url, takenAt: new Date(Date.UTC(2026, 10, 20, 14, i)).toISOString() }).toString(),
  });
  expect(res.statusCode, res.body).toBe(200);
  photos[pole].push(body);
}

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
  job = await t.createJob(tok.admin, demoId, {
    job_number: 'EVID-1',
    selected_utility_id: demo.ngrid,
    newTickets: [
      { pole: { pole_name: '20', line_name: 'L-1' }, work_orders: ['WO-20'], tasks: [{ code: 'EV-A', init_qty: 2 }] },
      { pole: { pole_name: '10', line_name: 'L-1' }, work_orders: ['WO-10', 'WO-11'], tasks: [{ code: 'EV-A', init_qty: 1, additional_qty: 0.5 }, { code: 'EV-B', init_qty: 3 }] },
      { pole: { pole_name: 'Łine-7', line_name: 'Траса' }, work_orders: ['WO-Ž1'], tasks: [{ code: 'EV-B', init_qty: 1 }] },
      // Not complete: not on the invoice, so not in the pack.
      { pole: { pole_name: '30', line_name: 'L-1' }, work_orders: [], tasks: [{ code: 'EV-A', init_qty: 1 }] },
    ],
    newUnits: [
      { code: 'EV-A', description: 'Install crossarm', uom: 'EA' },
      { code: 'EV-B', description: 'String wire', uom: 'FT' },
    ],
  });
  const list = (await api('GET', `/jobs/tickets/${job.id}`, tok.admin)).json() as Ticket[];
  const byPole = (p: string) => list.find((x) => x.pole_name === p)!;
  for (let i = 1; i <= 5; i++) await addPhoto(byPole('10').id, '10', i);
  await addPhoto(byPole('20').id, '20', 1);
  for (const pole of Object.keys(COMPLETED)) {
    const tk = byPole(pole);
    const res = await api('PUT', '/tickets/', tok.admin, { ticket: { id: tk.id, version: tk.version, status: 'Complete' } });
    expect(res.statusCode, res.body).toBe(200);
    await db.update(tickets).set({ actualCompletionDate: new Date(COMPLETED[pole][0]) }).where(eq(tickets.id, tk.id));
  }
  const res = await api('POST', `/jobs/${job.id}/invoices`, tok.admin, {});
  expect(res.statusCode, res.body).toBe(201);
  made = res.json().invoice;
});

const pdfText = (pdf: Buffer) => execFileSync('pdftotext', ['-layout', '-', '-'], { input: pdf, encoding: 'utf8' });

describe('GET /invoices/{id}/evidence.pdf and evidence.zip: who may', () => {
  it('roles 4–6 get 403, another company 404, no sign-in 401', async () => {
    for (const kind of ['evidence.pdf', 'evidence.zip']) {
      for (const role of ['wforeman', 'lineman', 'apprentice']) expect((await api('GET', `/invoices/${made.id}/${kind}`, tok[role])).statusCode, `${role} ${kind}`).toBe(403);
      const other = await api('GET', `/invoices/${made.id}/${kind}`, tok.other);
      expect(other.statusCode, kind).toBe(404);
      expect(other.body).not.toContain(made.number);
      expect((await api('GET', `/invoices/${made.id}/${kind}`, undefined)).statusCode).toBe(401);
      expect((await api('GET', `/invoices/999999/${kind}`, tok.admin)).statusCode).toBe(404);
    }
  });

  it('roles 1–3 download both, with their media types and names', async () => {
    for (const role of ['admin', 'office', 'foreman']) {
      const pdf = await api('GET', `/invoices/${made.id}/evidence.pdf`, tok[role]);
      expect(pdf.statusCode, role).toBe(200);
      expect(pdf.headers['content-type']).toBe('application/pdf');
      expect(pdf.headers['content-disposition']).toBe(`attachment; filename="EVID-1 ${made.number} evidence.pdf"`);
      expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
      const zip = await api('GET', `/invoices/${made.id}/evidence.zip`, tok[role]);
      expect(zip.statusCode, role).toBe(200);
      expect(zip.headers['content-type']).toBe('application/zip');
      expect(zip.headers['content-disposition']).toBe(`attachment; filename="EVID-1 ${made.number} evidence.zip"`);
    }
  });

  it('the OpenAPI document gives both routes their real media types', async () => {
    const doc = (await t.request({ method: 'GET', url: '/api/docs/json' })).json();
    expect(Object.keys(doc.paths['/api/v1/invoices/{id}/evidence.pdf'].get.responses['200'].content)).toEqual(['application/pdf']);
    expect(Object.keys(doc.paths['/api/v1/invoices/{id}/evidence.zip'].get.responses['200'].content)).toEqual(['application/zip']);
  });
});

describe('the evidence PDF', () => {
  let text: string;
  beforeAll(async () => {
    text = pdfText((await api('GET', `/invoices/${made.id}/evidence.pdf`, tok.foreman)).rawPayload);
  });

  it('names the invoice, the company and the utility billed', () => {
    expect(text).toContain(`Evidence for ${made.number}`);
    expect(text).toContain('Demo Line Co');
    expect(text).toContain('Bill to NGRID');
    expect(text).toContain('3 tickets');
  });

  it('names every invoiced ticket (line then pole, naturally) with its work orders, units billed and completion date', () => {
    const heads = [...text.matchAll(/Pole (\S+) · Line (\S+)/g)].map((m) => `${m[2]} ${m[1]}`);
    expect(heads).toEqual(['L-1 10', 'L-1 20', 'Траса Łine-7']);
    expect(text).not.toContain('Pole 30');
    for (const [, printed] of Object.values(COMPLETED)) expect(text).toContain(`Completed ${printed}`);
    expect(text).toContain('Work orders: WO-10, WO-11');
    expect(text).toContain('Work orders: WO-Ž1');
    expect(text).toContain('EV-A — Install crossarm: 1.5 EA');
    expect(text).toContain('EV-B — String wire: 3 FT');
  });

  it('shows up to 4 photos per ticket with the time taken, says how many more are in the ZIP, and when there are none', () => {
    expect(text).toContain('1 more photo in the evidence ZIP.');
    expect(text).toContain('Taken 11/20/2026 09:01');
    expect(text).toContain('Taken 11/20/2026 09:04');
    expect(text).not.toContain('Taken 11/20/2026 09:05');
    expect(text).toContain('No photos.');
    expect(text).not.toContain('could not be read');
  });
});

/** Each entry's compression method, from the ZIP's central directory (0 stored, 8 deflated). */
function methodsOf(bytes: Buffer): Record<string, number> {
  const end = bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const out: Record<string, number> = {};
  let at = bytes.readUInt32LE(end + 16);
  for (let i = 0; i < bytes.readUInt16LE(end + 10); i++) {
    const nameLength = bytes.readUInt16LE(at + 28);
    out[bytes.toString('utf8', at + 46, at + 46 + nameLength)] = bytes.readUInt16LE(at + 10);
    at += 46 + nameLength + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32);
  }
  return out;
}

describe('the evidence ZIP', () => {
  let bytes: Buffer;
  let zip: JSZip;
  beforeAll(async () => {
    bytes = (await api('GET', `/invoices/${made.id}/evidence.zip`, tok.office)).rawPayload;
    // Every entry's CRC-32 checked against its bytes, as an unzipper does.
    zip = await JSZip.loadAsync(bytes, { checkCRC32: true });
  });

  it('stores every entry as it is, the PDF too: photos and the PDF do not shrink, deflating them only cost time (decision 055)', () => {
    const methods = methodsOf(bytes);
    expect(Object.keys(methods)).toHaveLength(8);
    expect(Object.entries(methods).filter(([, m]) => m !== 0)).toEqual([]);
  });

  it('holds the evidence PDF, every photo of the invoiced tickets byte for byte, and index.csv', async () => {
    const names = Object.keys(zip.files).sort();
    expect(names).toEqual(
      [`EVID-1 ${made.number} evidence.pdf`, '10_L-1_1.jpg', '10_L-1_2.jpg', '10_L-1_3.jpg', '10_L-1_4.jpg', '10_L-1_5.jpg', '20_L-1_1.jpg', 'index.csv'].sort(),
    );
    for (const [i, bytes] of photos['10'].entries()) expect(Buffer.compare(await zip.file(`10_L-1_${i + 1}.jpg`)!.async('nodebuffer'), bytes), `10_L-1_${i + 1}`).toBe(0);
    expect(Buffer.compare(await zip.file('20_L-1_1.jpg')!.async('nodebuffer'), photos['20'][0])).toBe(0);
    const pdf = await zip.file(`EVID-1 ${made.number} evidence.pdf`)!.async('nodebuffer');
    expect(pdfText(pdf)).toContain(`Completed ${COMPLETED['Łine-7'][1]}`);
  });

  it('index.csv: one row per photo with its file, ticket, time and completion record', async () => {
    const csv = (await zip.file('index.csv')!.async('string')).replace(/^\uFEFF/, '');
    const rows = csv.trim().split('\r\n');
    expect(rows[0]).toBe('file,ticket_id,pole,line,work_orders,photo,taken_at,uploaded_at,distance_m,flags,completed_at,completed_by_name');
    expect(rows).toHaveLength(7);
    // Taken (EXIF) before the job was created, without a position: both checks say so; the completion
    // record names who marked it complete (docs/product/records.md §6–§7).
    expect(rows[1]).toMatch(/^10_L-1_1\.jpg,\d+,10,L-1,"WO-10, WO-11",1,2026-11-20 09:01:00,[^,]+,,before_job no_position,2026-11-20 10:04:00,Avery Admin$/);
    expect(rows[6]).toMatch(/^20_L-1_1\.jpg,\d+,20,L-1,WO-20,1,/);
  });
});
