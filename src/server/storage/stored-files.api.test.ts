import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Ticket } from '../../shared/tickets.schemas';
import { images, tickets } from '../db/schema/index';
import { createTestApp, type TestApp } from '../test/harness';
import { deleteUnreferencedFiles } from './stored-files';

/**
 * A stored object is deleted only when no record points at it any more: two records may carry
 * the same url (the same dig-safe PDF on two tickets, the same photo on two tickets), and
 * clearing it on one must leave the object the other still shows.
 */

let t: TestApp;
let admin: string;
let company: number;
let ngrid: number;
let j1: number;

beforeAll(async () => {
  t = await createTestApp();
  [admin] = await t.loginAs('admin');
  const demo = await t.demo();
  ({ company, ngrid } = demo);
  j1 = demo.job['J-1001'];
});

const api = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, body?: unknown, token = admin) =>
  t.request({ method, url: `/api/v1${url}`, token, body });

let seq = 0;
async function newTicket(): Promise<Ticket> {
  seq += 1;
  const res = await api('POST', '/poles/', { pole_name: `SF-${seq}`, line_name: 'L', utility: ngrid, job_id: j1 });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().ticket;
}
const fresh = async (id: number): Promise<Ticket> => (await api('GET', `/tickets/${id}`)).json();
async function save(ticket: Ticket, changes: Partial<Ticket> | Record<string, unknown>): Promise<Ticket> {
  const res = await api('PUT', '/tickets/', { ticket: { ...(await fresh(ticket.id)), ...changes } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().ticket;
}
const exists = async (key: string) => (await t.ctx.storage.head(key)) !== null;
const keyOf = (url: string) => t.ctx.storage.keyFromUrl(url)!;

describe('stored files shared by two records', () => {
  it('a dig-safe document on two tickets: clearing it on one keeps the object; clearing the second removes it', async () => {
    const doc = await t.storeFile(company, 'dig_file', 'shared-digsafe.pdf', { body: Buffer.from('%PDF-1.4 shared') });
    const a = await save(await newTicket(), { dig_safe_url: doc.url });
    const b = await save(await newTicket(), { dig_safe_url: doc.url });
    expect(a.dig_safe_url).toBe(doc.url);
    expect(b.dig_safe_url).toBe(doc.url);

    await save(a, { dig_safe_url: null });
    expect(await exists(doc.key)).toBe(true);
    expect((await fresh(b.id)).dig_safe_url).toBe(doc.url);
    const read = await t.request({ method: 'GET', url: doc.url, token: admin });
    expect(read.statusCode).toBe(200);
    expect(read.body).toBe('%PDF-1.4 shared');

    await save(b, { dig_safe_url: null });
    expect(await exists(doc.key)).toBe(false);
  });

  it('a document on a ticket and a permit: deleting the ticket keeps what the other ticket’s permit shows', async () => {
    const doc = await t.storeFile(company, 'dig_file', 'shared-permit.pdf');
    const a = await save(await newTicket(), { nra_url: doc.url });
    const b = await save(await newTicket(), { permits: [{ permit_url: doc.url, permit_name: 'p.pdf' }] });
    expect(b.permits[0].permit_url).toBe(doc.url);
    expect((await api('DELETE', `/tickets/${a.id}`)).statusCode).toBe(200);
    expect(await exists(doc.key)).toBe(true);
    await save(b, { permits: [] });
    expect(await exists(doc.key)).toBe(false);
  });

  it('a merge drops the secondary’s document only when no other ticket shows it', async () => {
    const mine = await t.storeFile(company, 'dig_file', 'primary-doc.pdf');
    const shared = await t.storeFile(company, 'dig_file', 'secondary-doc.pdf');
    const primary = await save(await newTicket(), { dig_safe_url: mine.url });
    const secondary = await save(await newTicket(), { dig_safe_url: shared.url });
    const bystander = await save(await newTicket(), { dig_safe_url: shared.url });
    const res = await api('PUT', `/tickets/merge/${primary.id}`, { secondary_ticket: secondary.id });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().ticket.dig_safe_url).toBe(mine.url);
    expect(await exists(shared.key)).toBe(true);
    expect((await fresh(bystander.id)).dig_safe_url).toBe(shared.url);
  });

  it('the same photo on two tickets: deleting one image keeps the original and thumbnail the other shows', async () => {
    const photo = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#3366aa' } }).jpeg().toBuffer();
    const { key, url } = await t.storeFile(company, 'media', 'shared.jpg', { body: photo });
    const [a, b] = [await newTicket(), await newTicket()];
    const complete = async (ticketId: number) => {
      const res = await api('POST', '/media_upload/s3-upload-complete', { ticketId, url, isVideo: 'false' });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { id: number; image: { url: string; thumbnailurl: string } };
    };
    const imgA = await complete(a.id);
    const imgB = await complete(b.id);
    expect(imgB.image.url).toBe(imgA.image.url);
    const thumbKey = keyOf(imgA.image.thumbnailurl);

    expect((await api('DELETE', `/tickets/images/${imgA.id}`)).statusCode).toBe(200);
    expect(await exists(key)).toBe(true);
    expect(await exists(keyOf(imgB.image.thumbnailurl))).toBe(true);
    expect((await fresh(b.id)).images.map((i) => i.url)).toEqual([url]);
    expect((await t.request({ method: 'GET', url: imgB.image.thumbnailurl, token: admin })).statusCode).toBe(200);

    expect((await api('DELETE', `/tickets/images/${imgB.id}`)).statusCode).toBe(200);
    expect(await exists(key)).toBe(false);
    expect(await exists(thumbKey)).toBe(false);
  });

  it('a photo refused for one ticket (limit reached) is not deleted while another ticket shows it', async () => {
    const photo = await sharp({ create: { width: 20, height: 20, channels: 3, background: '#00aa00' } }).jpeg().toBuffer();
    const { key, url } = await t.storeFile(company, 'media', 'kept.jpg', { body: photo });
    const shown = await newTicket();
    expect((await api('POST', '/media_upload/s3-upload-complete', { ticketId: shown.id, url })).statusCode).toBe(200);
    const full = await newTicket();
    const fill = Array.from({ length: 10 }, (_, i) => ({ companyId: company, ticketId: full.id, url: `/files/x${i}`, thumbnailUrl: `/files/y${i}` }));
    await t.ctx.db.insert(images).values(fill);
    const res = await api('POST', '/media_upload/s3-upload-complete', { ticketId: full.id, url });
    expect(res.statusCode).toBe(400);
    expect(await exists(key)).toBe(true);
  });

  it('deleting a job keeps a file a ticket of another job still shows', async () => {
    const doc = await t.storeFile(company, 'dig_file', 'cross-job.pdf');
    const other = await save(await newTicket(), { dig_safe_url: doc.url });
    const packet = await t.storeFile(company, 'work_packet', 'p.pdf');
    const made = await api('PUT', '/jobs/', {
      job: { job_number: `SF-JOB-${Date.now()}`, job_type: 0, selected_utility_id: ngrid, work_packet_url: packet.url, work_packet_name: 'p.pdf', due_date: '2030-01-01' },
    });
    expect(made.statusCode, made.body).toBe(200);
    const jobId = made.json().job.id as number;
    const pole = await api('POST', '/poles/', { pole_name: 'SF-J', line_name: 'L', utility: ngrid, job_id: jobId });
    const onJob = pole.json().ticket as Ticket;
    await save(onJob, { dig_safe_url: doc.url });
    expect((await api('DELETE', `/jobs/${jobId}`)).statusCode).toBe(200);
    expect(await t.ctx.db.select().from(tickets).where(eq(tickets.id, onJob.id))).toEqual([]);
    expect(await exists(doc.key)).toBe(true);
    expect(await exists(packet.key)).toBe(false);
    expect((await fresh(other.id)).dig_safe_url).toBe(doc.url);
  });

  it('deleteUnreferencedFiles removes only this company’s unreferenced objects and skips foreign urls', async () => {
    const mine = await t.storeFile(company, 'dig_file', 'alone.pdf');
    const theirs = await t.storeFile(company + 1, 'dig_file', 'theirs.pdf');
    const removed = await deleteUnreferencedFiles(t.ctx, company, [mine.url, `${mine.url}?again`, theirs.url, null, 'https://x.example/y']);
    expect(removed).toBe(1);
    expect(await exists(mine.key)).toBe(false);
    expect(await exists(theirs.key)).toBe(true);
  });
});
