import { beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { IDEMPOTENCY_KEY_HEADER } from '../../../shared/constants';
import { invoiceCreateReply, invoicePreviewReply } from '../../../shared/invoices.schemas';
import { jobListRowSchema, jobSchema } from '../../../shared/jobs.schemas';
import { MSG } from '../../../shared/messages';
import { productionReply } from '../../../shared/production.schemas';
import { ticketSchema, type Ticket, type TicketImage } from '../../../shared/tickets.schemas';
import { workReply } from '../../../shared/work.schemas';
import { createTestApp } from '../../test/harness';

/**
 * Evidence behind every billed unit (docs/product/records.md §6–§9, decision 047): the completion
 * record, the photo checks (computed by the database from every path), the company's settings,
 * the evidenced rule where it shows, and the invoice's require_evidence.
 */
const t = await createTestApp();
const [admin, office, foreman, wforeman, lineman, apprentice] = await t.loginAs('admin', 'office', 'foreman', 'wforeman', 'lineman', 'apprentice');
const other = await t.login('admin@other.example.com');
let company: number, ngrid: number;
let jpeg: Buffer;

/** A pole in Springfield; 150 m north of it is 150 / 111,195 degrees of latitude. */
const POLE = { lat: 42.1, lon: -72.6 };
const NORTH_150M = POLE.lat + 150 / 111_195;

beforeAll(async () => {
  ({ company, ngrid } = await t.demo());
  jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 90, g: 140, b: 60 } } })
    .jpeg()
    .toBuffer();
});

const api = (method: 'GET' | 'PUT' | 'POST', url: string, token: string, body?: unknown, headers?: Record<string, string>) =>
  t.request({ method, url: `/api/v1${url}`, token, body, headers });

let seq = 0;
async function newJob() {
  return t.createJob(admin, company, { job_number: `EV-${Date.now()}-${++seq}`, selected_utility_id: ngrid });
}

async function newTicket(jobId: number, at: { lat: number; lon: number } | null = POLE): Promise<Ticket> {
  const res = await api('POST', '/poles/', admin, { pole_name: `EVP-${++seq}`, line_name: 'EVL', utility: ngrid, job_id: jobId, ...(at ? { geo_lat: at.lat, geo_lon: at.lon } : {}) });
  expect(res.statusCode, res.body).toBe(200);
  return ticketSchema.parse(res.json().ticket);
}

async function photo(ticketId: number, fields: { takenAt?: string; lat?: number; lon?: number } = {}): Promise<TicketImage> {
  const file = await t.storeFile(company, 'media', `ev-${ticketId}-${++seq}.jpg`, { body: jpeg });
  const form: Record<string, string> = { ticketId: String(ticketId), url: file.url, thumbUrl: '', isVideo: 'false' };
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) form[k] = String(v);
  const res = await t.request({
    method: 'POST',
    url: '/api/v1/media_upload/s3-upload-complete',
    token: lineman,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(form).toString(),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().image;
}

const now = () => new Date().toISOString();
const atPole = { takenAt: '', lat: POLE.lat, lon: POLE.lon };
const ticketOf = async (id: number, token = admin) => {
  const body = (await api('GET', `/tickets/${id}`, token)).json();
  return ticketSchema.parse(body.ticket ?? body);
};

async function save(token: string, ticket: Ticket, fields: Record<string, unknown>, headers?: Record<string, string>) {
  return api('PUT', '/tickets/', token, { ticket: { id: ticket.id, job_id: ticket.job_id, version: ticket.version, ...fields } }, headers);
}

async function markComplete(ticket: Ticket, token = wforeman, position: Record<string, number> = {}) {
  const res = await save(token, ticket, { status: 'Complete', ...position });
  expect(res.statusCode, res.body).toBe(200);
  return ticketSchema.parse(res.json().ticket);
}

const setCompany = (body: Record<string, unknown>, token = admin) => api('PUT', '/company', token, body);

describe('photo checks: distance_m and flags', () => {
  it('a photo at the pole, 150 m away, without a position, and taken before the job was created', async () => {
    const job = await newJob();
    const ticket = await newTicket(job.id);
    const at = await photo(ticket.id, { ...atPole, takenAt: now() });
    expect(at.distance_m).toBeLessThan(0.5);
    expect(at.flags).toEqual([]);
    const far = await photo(ticket.id, { takenAt: now(), lat: NORTH_150M, lon: POLE.lon });
    expect(far.distance_m).toBeGreaterThan(149);
    expect(far.distance_m).toBeLessThan(151);
    expect(far.flags).toEqual(['far_from_pole']);
    const nowhere = await photo(ticket.id, { takenAt: now() });
    expect(nowhere).toMatchObject({ distance_m: null, flags: ['no_position'] });
    const early = await photo(ticket.id, { takenAt: '2020-03-01T12:00:00Z', lat: POLE.lat, lon: POLE.lon });
    expect(early.flags).toEqual(['before_job']);
    const timeless = await photo(ticket.id, { lat: POLE.lat, lon: POLE.lon });
    expect(timeless.flags).toEqual(['no_time']);
    // The ticket read shows the same checks.
    const read = await ticketOf(ticket.id);
    expect(read.images.map((i) => i.flags)).toEqual([[], ['far_from_pole'], ['no_position'], ['before_job'], ['no_time']]);
  });

  it('a ticket without a place gives no distance and no far_from_pole', async () => {
    const job = await newJob();
    const ticket = await newTicket(job.id, null);
    expect(await photo(ticket.id, { takenAt: now(), lat: NORTH_150M, lon: POLE.lon })).toMatchObject({ distance_m: null, flags: [] });
  });

  it('moving the ticket or its pole rechecks its photos', async () => {
    const job = await newJob();
    const ticket = await newTicket(job.id);
    await photo(ticket.id, { takenAt: now(), lat: NORTH_150M, lon: POLE.lon });
    // The ticket's place moved onto the photo: no longer far.
    const moved = await save(foreman, ticket, { geo_lat: NORTH_150M, geo_lon: POLE.lon });
    expect(moved.statusCode, moved.body).toBe(200);
    let read = await ticketOf(ticket.id);
    expect(read.images[0].flags).toEqual([]);
    expect(read.images[0].distance_m).toBeLessThan(0.5);
    // Without its own coordinates the ticket is at its pole's: moving the pole rechecks.
    const cleared = await save(foreman, read, { geo_lat: null, geo_lon: null });
    expect(cleared.statusCode, cleared.body).toBe(200);
    read = await ticketOf(ticket.id);
    expect(read.images[0].flags).toEqual(['far_from_pole']);
    const pole = await api('PUT', '/poles/', admin, { pole: { ...read.pole!, geo_lat: NORTH_150M + 0.0001 } });
    expect(pole.statusCode, pole.body).toBe(200);
    read = await ticketOf(ticket.id);
    expect(read.images[0].flags).toEqual([]);
    expect(read.images[0].distance_m).toBeGreaterThan(10);
    expect(read.images[0].distance_m).toBeLessThan(12);
  });

  it("the company's radius rechecks far_from_pole", async () => {
    const job = await newJob();
    const ticket = await newTicket(job.id);
    await photo(ticket.id, { takenAt: now(), lat: NORTH_150M, lon: POLE.lon });
    try {
      expect((await setCompany({ evidence_radius_m: 200 })).json().company.evidence_radius_m).toBe(200);
      expect((await ticketOf(ticket.id)).images[0].flags).toEqual([]);
    } finally {
      await setCompany({ evidence_radius_m: 100 });
    }
    expect((await ticketOf(ticket.id)).images[0].flags).toEqual(['far_from_pole']);
  });
});

describe('company evidence settings', () => {
  it('reads the defaults; roles 2–6 may not change them (403) and another company is untouched', async () => {
    expect((await api('GET', '/company', lineman)).json().company).toMatchObject({ evidence_radius_m: 100, evidence_photos_required: 1 });
    for (const token of [office, foreman, wforeman, lineman, apprentice]) {
      expect((await setCompany({ evidence_photos_required: 3 }, token)).statusCode).toBe(403);
    }
    expect((await setCompany({ evidence_photos_required: 2 }, other)).statusCode).toBe(200);
    expect((await api('GET', '/company', admin)).json().company.evidence_photos_required).toBe(1);
    await setCompany({ evidence_photos_required: 1 }, other);
  });

  it('refuses values out of range with a 400 naming the setting', async () => {
    for (const [body, message] of [
      [{ evidence_radius_m: 0 }, MSG.evidenceRadiusInvalid],
      [{ evidence_radius_m: 12.5 }, MSG.evidenceRadiusInvalid],
      [{ evidence_radius_m: '100' }, MSG.evidenceRadiusInvalid],
      [{ evidence_photos_required: -1 }, MSG.evidencePhotosInvalid],
      [{ evidence_photos_required: 11 }, MSG.evidencePhotosInvalid],
    ] as const) {
      const res = await setCompany(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error).toContain(message);
    }
  });
});

describe('the completion record', () => {
  it('a save from the window stores who and where; reopening clears them and the history keeps them', async () => {
    const job = await newJob();
    const ticket = await newTicket(job.id);
    const done = await markComplete(ticket, foreman, { completed_lat: 42.100012, completed_lon: -72.600034, completed_accuracy_m: 12 });
    expect(done).toMatchObject({ status: 'Complete', completed_by_name: 'Frank Foreman', completed_lat: 42.100012, completed_lon: -72.600034, completed_accuracy_m: 12 });
    expect(done.completed_by).toEqual(expect.any(Number));
    expect(done.actual_completion_date).not.toBeNull();
    const reopened = await save(foreman, done, { status: 'Pending' });
    expect(reopened.statusCode).toBe(200);
    expect(reopened.json().ticket).toMatchObject({ status: 'Pending', completed_by: null, completed_by_name: null, completed_lat: null, completed_lon: null, completed_accuracy_m: null });
    const history = (await api('GET', `/tickets/${ticket.id}/history`, admin)).json();
    const completed = history.entries.filter((e: { field: string }) => e.field === 'completed');
    expect(completed.map((e: { old: unknown; new: unknown }) => [e.old, e.new])).toEqual([
      ['Frank Foreman at 42.100012, -72.600034 (12 m accuracy)', null],
      [null, 'Frank Foreman at 42.100012, -72.600034 (12 m accuracy)'],
    ]);
  });

  it('a queued phone save replayed with its Idempotency-Key keeps the position taken at the tap, once', async () => {
    const job = await newJob();
    const ticket = await newTicket(job.id);
    const headers = { [IDEMPOTENCY_KEY_HEADER]: `ev-${Date.now()}` };
    const body = { status: 'Complete', completed_lat: 42.1001, completed_lon: -72.6002, completed_accuracy_m: 8.5 };
    const first = await save(wforeman, ticket, body, headers);
    expect(first.statusCode, first.body).toBe(200);
    const replay = await save(wforeman, ticket, body, headers);
    expect(replay.statusCode, replay.body).toBe(200);
    expect(replay.json().ticket.version).toBe(first.json().ticket.version);
    const read = await ticketOf(ticket.id);
    expect(read).toMatchObject({ completed_lat: 42.1001, completed_lon: -72.6002, completed_accuracy_m: 8.5, completed_by_name: expect.any(String) });
  });

  it('without a position the record has who and no where; a later save does not move it', async () => {
    const job = await newJob();
    const ticket = await newTicket(job.id);
    const done = await markComplete(ticket);
    expect(done).toMatchObject({ completed_lat: null, completed_lon: null, completed_accuracy_m: null });
    expect(done.completed_by_name).not.toBeNull();
    const again = await save(foreman, done, { status: 'Complete', completed_lat: 1, completed_lon: 2, completed_accuracy_m: 3, description: 'x' });
    expect(again.json().ticket).toMatchObject({ completed_lat: null, completed_by: done.completed_by });
  });

  it('refuses half a position or one out of range with a 400 naming it; nothing is stored', async () => {
    const job = await newJob();
    const ticket = await newTicket(job.id);
    for (const [fields, message] of [
      [{ completed_lat: 42, completed_lon: -72 }, MSG.completedPositionPair],
      [{ completed_lat: 91, completed_lon: -72, completed_accuracy_m: 5 }, MSG.completedLatInvalid],
      [{ completed_lat: 42, completed_lon: -181, completed_accuracy_m: 5 }, MSG.completedLonInvalid],
      [{ completed_lat: 42, completed_lon: -72, completed_accuracy_m: -1 }, MSG.completedAccuracyInvalid],
    ] as const) {
      const res = await save(wforeman, ticket, { status: 'Complete', ...fields });
      expect(res.statusCode, JSON.stringify(fields)).toBe(400);
      expect(res.json().error).toContain(message);
    }
    expect((await ticketOf(ticket.id)).status).toBe('Pending');
  });

  it("another company's ticket answers 404", async () => {
    const job = await newJob();
    const ticket = await newTicket(job.id);
    expect((await save(other, ticket, { status: 'Complete', completed_lat: 1, completed_lon: 1, completed_accuracy_m: 1 })).statusCode).toBe(404);
    expect((await api('POST', `/jobs/${job.id}/invoices/preview`, other, { require_evidence: true })).statusCode).toBe(404);
  });
});

describe('evidenced tickets and the invoice check', () => {
  it('the rule with 0, 1 and 2 photos required: the job page, the jobs list, production, My Work', async () => {
    const job = await newJob();
    const one = await newTicket(job.id);
    await photo(one.id, { ...atPole, takenAt: now() });
    await photo(one.id, { takenAt: now(), lat: NORTH_150M, lon: POLE.lon }); // far: does not count
    await markComplete(one);
    const none = await newTicket(job.id);
    await markComplete(none);
    const listed = async () => jobListRowSchema.parse((await api('GET', '/jobs', admin)).json().find((j: { id: number }) => j.id === job.id)).unevidenced_count;
    const page = jobSchema.parse((await api('GET', `/jobs/${job.id}`, admin)).json());
    expect(page.tickets.find((r) => r.id === one.id)!.evidence_photo_count).toBe(1);
    expect(page.evidence_photos_required).toBe(1);
    expect(await listed()).toBe(1);
    const prod = productionReply.parse((await api('GET', `/jobs/${job.id}/production`, admin)).json());
    expect(prod.evidence).toEqual({ complete: 2, evidenced: 1, not_evidenced: 1, photos_required: 1 });
    const work = workReply.parse((await api('GET', '/work', admin)).json());
    expect(work.needs_photos.map((r) => r.id)).toContain(none.id);
    expect(work.needs_photos.map((r) => r.id)).not.toContain(one.id);
    try {
      await setCompany({ evidence_photos_required: 2 });
      expect(await listed()).toBe(2);
      expect(jobSchema.parse((await api('GET', `/jobs/${job.id}`, admin)).json()).evidence_photos_required).toBe(2);
      await setCompany({ evidence_photos_required: 0 });
      expect(await listed()).toBe(0);
      expect(productionReply.parse((await api('GET', `/jobs/${job.id}/production`, admin)).json()).evidence.not_evidenced).toBe(0);
      expect(workReply.parse((await api('GET', '/work', admin)).json()).needs_photos).toEqual([]);
    } finally {
      await setCompany({ evidence_photos_required: 1 });
    }
  });

  it('require_evidence leaves out exactly the unevidenced tickets and lists them; the preview shows each ticket\'s evidence', async () => {
    const job = await newJob();
    const good = await newTicket(job.id);
    await photo(good.id, { ...atPole, takenAt: now() });
    const goodDone = await markComplete(good, wforeman, { completed_lat: POLE.lat, completed_lon: POLE.lon, completed_accuracy_m: 5 });
    const bare = await newTicket(job.id);
    await markComplete(bare);
    const far = await newTicket(job.id);
    await photo(far.id, { takenAt: now(), lat: NORTH_150M, lon: POLE.lon });
    await markComplete(far);

    const preview = invoicePreviewReply.parse((await api('POST', `/jobs/${job.id}/invoices/preview`, office, {})).json()).invoice;
    expect(preview.ticket_ids).toEqual([good.id, bare.id, far.id]);
    expect(preview.skipped).toEqual([]);
    const ev = new Map(preview.evidence.map((e) => [e.ticket_id, e]));
    expect(ev.get(good.id)).toMatchObject({ evidenced: true, reason: null, photo_count: 1, evidence_photo_count: 1, completed_by_name: goodDone.completed_by_name, completed_accuracy_m: 5 });
    expect(ev.get(far.id)).toMatchObject({ evidenced: false, photo_count: 1, evidence_photo_count: 0 });
    expect(ev.get(far.id)!.photos[0].flags).toEqual(['far_from_pole']);
    expect(ev.get(bare.id)!.reason).toBe('No photo at the pole (1 photo at the pole required)');

    const res = await api('POST', `/jobs/${job.id}/invoices`, office, { require_evidence: true });
    expect(res.statusCode, res.body).toBe(201);
    const { invoice, skipped } = invoiceCreateReply.parse(res.json());
    expect(invoice.ticket_ids).toEqual([good.id]);
    expect(skipped).toEqual([
      { ticket_id: bare.id, reason: 'No photo at the pole (1 photo at the pole required)' },
      { ticket_id: far.id, reason: 'No photo at the pole (1 photo at the pole required)' },
    ]);
    // The left-out tickets stay unbilled; with nothing evidenced left, require_evidence bills nothing (409).
    const again = await api('POST', `/jobs/${job.id}/invoices`, office, { require_evidence: true });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe(MSG.invoiceNothingEvidenced);
  });

  it('quantities changed after completion are shown', async () => {
    const job = await newJob();
    const ticket = await newTicket(job.id);
    const unit = await firstUnit();
    const withTask = await save(foreman, ticket, { tasks: [{ task_id: unit, init_qty: 1, additional_qty: 0 }] });
    expect(withTask.statusCode, withTask.body).toBe(200);
    const done = await markComplete(ticketSchema.parse(withTask.json().ticket), foreman);
    const task = done.tasks[0];
    const changed = await save(foreman, done, { tasks: [{ ticket_task_id: task.ticket_task_id, task_id: task.task_id, init_qty: 1, additional_qty: 2 }] });
    expect(changed.statusCode, changed.body).toBe(200);
    const preview = invoicePreviewReply.parse((await api('POST', `/jobs/${job.id}/invoices/preview`, office, {})).json()).invoice;
    expect(preview.evidence.find((e) => e.ticket_id === ticket.id)!.qty_changed_after_completion).toBe(true);
  });
});

async function firstUnit(): Promise<number> {
  const res = await api('GET', `/units?utility_id=${ngrid}`, admin);
  if (res.statusCode === 200) return (Array.isArray(res.json()) ? res.json() : res.json().units)[0].id;
  throw new Error(`no units: ${res.statusCode} ${res.body}`);
}
