import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../../shared/messages';
import type { Ticket } from '../../../shared/tickets.schemas';
import { jobs } from '../../db/schema/index';
import { createTestApp, type TestApp } from '../../test/harness';
import { fixture } from '../../test/files';

/**
 * docs/product/sessions-and-safety.md §10 "file kinds": an upload is checked by its first bytes when it is
 * attached to a record, whatever its name and the type the browser claimed. A packet or document
 * must be a PDF or a photo, a ticket photo an image, a workbook a zip with xl/workbook.xml or a
 * CSV; anything else is a 415 naming the kind expected, and nothing is saved.
 */
let t: TestApp;
let admin: string;
let company: number;
let ngrid: number;
let j1: number;

const HTML = Buffer.from('<!DOCTYPE html><html><body><script>alert(1)</script></body></html>');
const DOCUMENT = 'a PDF or a photo (JPEG, PNG, GIF, WebP, AVIF)';

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('admin@example.com');
  const demo = await t.demo();
  ({ company, ngrid } = demo);
  j1 = demo.job['J-1001'];
});

const saveJob = (packetUrl: string, job_number: string) =>
  t.request({
    method: 'PUT',
    url: '/api/v1/jobs/',
    token: admin,
    body: { job: { job_number, job_type: 0, due_date: '12/31/2027', selected_utility_id: ngrid, work_packet_url: packetUrl, work_packet_name: 'packet.pdf' } },
  });

describe('a work packet', () => {
  it('of HTML bytes, named and typed as a PDF, is refused with 415 naming the kind expected; no job is made', async () => {
    const html = await t.storeFile(company, 'work_packet', 'packet.pdf', { body: HTML, type: 'application/pdf' });
    const res = await saveJob(html.url, 'KIND-1');
    expect(res.statusCode).toBe(415);
    expect(res.json().error).toBe(`The work packet must be ${DOCUMENT}, but this file is a web page or other markup (HTML, XML or SVG). Upload ${DOCUMENT} instead.`);
    expect(await t.ctx.db.select().from(jobs).where(eq(jobs.jobNumber, 'KIND-1'))).toHaveLength(0);
  });

  it('that is a real PDF, or a photo of the paper, is saved', async () => {
    const pdf = await t.storeFile(company, 'work_packet', 'packet.pdf', { body: Buffer.from('%PDF-1.7\n%\xe2\xe3\n1 0 obj') });
    expect((await saveJob(pdf.url, 'KIND-2')).statusCode).toBe(200);
    const jpeg = await t.storeFile(company, 'work_packet', 'packet.jpg', { body: Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]), type: 'image/jpeg' });
    expect((await saveJob(jpeg.url, 'KIND-3')).statusCode).toBe(200);
  });
});

describe('a ticket document and a permit', () => {
  it('of the wrong kind answer 415, and the ticket is unchanged', async () => {
    const ticket = (await t.request({ url: `/api/v1/jobs/tickets/${j1}`, token: admin })).json()[0] as Ticket;
    const zip = await t.storeFile(company, 'dig_file', 'digsafe.pdf', { body: fixture('good.xlsx'), type: 'application/pdf' });
    const dig = await t.request({ method: 'PUT', url: '/api/v1/tickets/', token: admin, body: { ticket: { ...ticket, dig_safe_url: zip.url } } });
    expect(dig.statusCode).toBe(415);
    expect(dig.json().error).toMatch(/^The dig-safe document must be a PDF or a photo .*, but this file is a zip archive/);
    const html = await t.storeFile(company, 'permit', 'permit.pdf', { body: HTML, type: 'application/pdf' });
    const permit = await t.request({ method: 'PUT', url: '/api/v1/tickets/', token: admin, body: { ticket: { ...ticket, permits: [{ permit_url: html.url }] } } });
    expect(permit.statusCode).toBe(415);
    const after = (await t.request({ url: `/api/v1/jobs/tickets/${j1}`, token: admin })).json()[0] as Ticket;
    expect(after.version).toBe(ticket.version);
  });
});

describe('a ticket photo', () => {
  it('that is a PDF answers 415 naming the photo kinds', async () => {
    const ticket = (await t.request({ url: `/api/v1/jobs/tickets/${j1}`, token: admin })).json()[0] as Ticket;
    const pdf = await t.storeFile(company, 'media', 'photo.jpg', { body: Buffer.from('%PDF-1.4 not a photo'), type: 'image/jpeg' });
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/media_upload/s3-upload-complete',
      token: admin,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ ticketId: String(ticket.id), url: pdf.url, thumbUrl: '', isVideo: 'false' }).toString(),
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().error).toBe('The photo must be a photo (JPEG, PNG, GIF, WebP, AVIF), but this file is a PDF. Upload a photo (JPEG, PNG, GIF, WebP, AVIF) instead.');
  });
});

describe('a workbook', () => {
  const columns = async (body: Buffer, name = 'tickets.xlsx') => {
    const { url } = await t.storeFile(company, 'excel', name, { body });
    return t.request({ url: `/api/v1/jobs/excel/getColumns?url=${encodeURIComponent(url)}`, token: admin });
  };
  const WORKBOOK = 'an Excel workbook (.xlsx) or a CSV file';

  it('that is a PDF, a web page or a zip without xl/workbook.xml answers 415 naming the kinds expected', async () => {
    for (const [body, found] of [
      [Buffer.from('%PDF-1.4 x'), 'a PDF'],
      [HTML, 'a web page or other markup (HTML, XML or SVG)'],
      [fixture('not-a-workbook.xlsx'), 'a zip archive without a workbook in it'],
    ] as const) {
      const res = await columns(body);
      expect(res.statusCode, found).toBe(415);
      expect(res.json().error).toBe(`The spreadsheet must be ${WORKBOOK}, but this file is ${found}. Upload ${WORKBOOK} instead.`);
    }
  });

  it('keeps the messages naming .xls and .ods (422), and still reads a workbook and a CSV', async () => {
    const xls = await columns(fixture('legacy.xls'), 'legacy.xls');
    expect({ status: xls.statusCode, error: xls.json().error }).toEqual({ status: 422, error: MSG.excelLegacyXls });
    expect((await columns(fixture('good.xlsx'))).statusCode).toBe(200);
  });
});
