import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODE } from '../../../shared/error-codes';
import { MSG } from '../../../shared/messages';
import { images, tickets } from '../../db/schema/index';
import { makeStorageKey, parseStorageKey } from '../../storage/keys';
import { createTestApp, type TestApp } from '../../test/harness';
import { multipart } from '../../test/files';

let t: TestApp;
let admin: string;
let lineman: string;
let other: string;
let company: number;
let ngrid: number;
let j1: number;
let photo: Buffer;

beforeAll(async () => {
  t = await createTestApp();
  [admin, lineman, other] = await t.loginAs('admin', 'lineman', 'other');
  const demo = await t.demo();
  ({ company, ngrid } = demo);
  j1 = demo.job['J-1001'];
  // A 1600×1200 photo taken with the phone turned (EXIF orientation 6: shown rotated 90°).
  photo = await sharp({ create: { width: 1600, height: 1200, channels: 3, background: { r: 200, g: 80, b: 40 } } })
    .composite([{ input: Buffer.from('<svg width="1600" height="1200"><rect x="0" y="0" width="400" height="300" fill="blue"/></svg>'), top: 0, left: 0 }])
    .jpeg({ quality: 95 })
    .withMetadata({ orientation: 6 })
    .toBuffer();
});

async function newTicket(name: string): Promise<number> {
  const res = await t.request({ method: 'POST', url: '/api/v1/poles/', token: admin, body: { pole_name: name, line_name: 'IMG', utility: ngrid, job_id: j1 } });
  expect(res.statusCode).toBe(200);
  return res.json().ticket.id;
}

const form = (fields: Record<string, string | number>) =>
  new URLSearchParams(Object.entries(fields).map(([k, v]) => [k, String(v)])).toString();

function complete(fields: Record<string, string | number>, token: string | null = admin) {
  return t.request({
    method: 'POST',
    url: '/api/v1/media_upload/s3-upload-complete',
    token: token ?? undefined,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: form(fields),
  });
}

describe('POST /media_upload/s3-upload-complete', () => {
  it('requires authentication', async () => {
    expect((await complete({ ticketId: 1, url: 'x' }, null)).statusCode).toBe(401);
  });

  it('records the photo and stores a real, smaller, upright thumbnail beside it', async () => {
    const ticketId = await newTicket('I-1');
    const file = await t.storeFile(company, 'media', 'pole.jpg', { body: photo });
    const res = await complete({ ticketId, url: file.url, thumbUrl: 'https://client.example/thumb.jpg', isVideo: 'false' });
    expect(res.statusCode).toBe(200);
    const { id, image } = res.json();
    expect(image).toMatchObject({ id, url: file.url, pole_name: 'I-1', line_name: 'IMG' });
    expect(image.thumbnailurl).not.toBe('https://client.example/thumb.jpg');
    const thumbKey = t.ctx.storage.keyFromUrl(image.thumbnailurl)!;
    expect(parseStorageKey(thumbKey)).toMatchObject({ companyId: company, kind: 'thumbnail', id: parseStorageKey(file.key)!.id });
    const thumb = await t.ctx.storage.get(thumbKey);
    const meta = await sharp(thumb).metadata();
    // Turned upright by the EXIF orientation (portrait), at most 400 px on the long side.
    expect([meta.width, meta.height]).toEqual([300, 400]);
    expect(meta.format).toBe('jpeg');
    expect(thumb.length).toBeLessThan(photo.length);
    const [row] = await t.ctx.db.select().from(images).where(eq(images.id, id));
    expect(row).toMatchObject({ ticketId, url: file.url, thumbnailUrl: image.thumbnailurl });
    // The ticket shows it.
    const ticket = (await t.request({ method: 'GET', url: `/api/v1/tickets/${ticketId}`, token: admin })).json();
    expect(ticket.images.map((i: { id: number }) => i.id)).toEqual([id]);
  });

  it('accepts a multipart form body too, and the same upload reported twice is one image', async () => {
    const ticketId = await newTicket('I-2');
    const file = await t.storeFile(company, 'media', 'p.png', { body: await sharp(photo).png().toBuffer(), type: 'image/png' });
    const body = multipart({ ticketId: String(ticketId), url: file.url, thumbUrl: '', isVideo: 'false' });
    const send = () =>
      t.request({ method: 'POST', url: '/api/v1/media_upload/s3-upload-complete', token: lineman, headers: body.headers, payload: body.payload });
    const first = await send();
    expect(first.statusCode).toBe(200);
    const second = await send();
    expect(second.json().id).toBe(first.json().id);
    expect(await t.ctx.db.select().from(images).where(eq(images.ticketId, ticketId))).toHaveLength(1);
  });

  it('refuses a file that is not an image (415, by its first bytes) or a broken image (400), and removes it', async () => {
    const ticketId = await newTicket('I-3');
    const file = await t.storeFile(company, 'media', 'x.jpg', { body: Buffer.from('%PDF-1.4 not a photo') });
    const res = await complete({ ticketId, url: file.url });
    expect(res.statusCode).toBe(415);
    expect(res.json().error).toMatch(/^The photo must be a photo \(JPEG, PNG, GIF, WebP, AVIF\), but this file is a PDF/);
    expect(await t.ctx.storage.head(file.key)).toBeNull();
    // JPEG's first bytes, then nothing a decoder can read.
    const broken = await t.storeFile(company, 'media', 'b.jpg', { body: Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]) });
    const res2 = await complete({ ticketId, url: broken.url });
    expect(res2.statusCode).toBe(400);
    expect(res2.json().error).toBe(MSG.imageNotAnImage);
    expect(await t.ctx.storage.head(broken.key)).toBeNull();
    expect(await t.ctx.db.select().from(images).where(eq(images.ticketId, ticketId))).toEqual([]);
  });

  it('refuses another company’s file, a foreign link, a missing upload and videos', async () => {
    const ticketId = await newTicket('I-4');
    const foreign = await t.storeFile(company + 1, 'media', 'f.jpg', { body: photo });
    expect((await complete({ ticketId, url: foreign.url })).json().error).toBe(MSG.imageNotOurs);
    expect((await complete({ ticketId, url: 'https://elsewhere.example/p.jpg' })).json().error).toBe(MSG.imageNotOurs);
    const doc = await t.storeFile(company, 'permit', 'p.jpg', { body: photo, type: 'image/jpeg' });
    expect((await complete({ ticketId, url: doc.url })).json().error).toBe(MSG.imageNotOurs);
    const never = t.ctx.storage.urlFor(makeStorageKey(company, 'media', 'never.jpg'));
    expect((await complete({ ticketId, url: never })).json().error).toBe(MSG.imageNotUploaded);
    const file = await t.storeFile(company, 'media', 'pole.jpg', { body: photo });
    expect((await complete({ ticketId, url: file.url, isVideo: 'true' })).json().error).toBe(MSG.imageVideo);
    expect((await complete({ ticketId: 'abc', url: file.url })).statusCode).toBe(400);
  });

  it('answers 404 for another company’s ticket', async () => {
    const ticketId = await newTicket('I-5');
    const file = await t.storeFile(company + 1, 'media', 'o.jpg', { body: photo });
    expect((await complete({ ticketId, url: file.url }, other)).statusCode).toBe(404);
  });

  it('refuses the 11th image of a ticket with the SPEC message', async () => {
    const ticketId = await newTicket('I-6');
    const small = await sharp(photo).resize(200).jpeg().toBuffer();
    for (let i = 0; i < 10; i++) {
      const f = await t.storeFile(company, 'media', `s${i}.jpg`, { body: small });
      expect((await complete({ ticketId, url: f.url })).statusCode).toBe(200);
    }
    const eleventh = await t.storeFile(company, 'media', 's10.jpg', { body: small });
    const res = await complete({ ticketId, url: eleventh.url });
    expect(res.statusCode).toBe(400);
    // The code tells a phone to keep the refused photo (save it, or swap it for one of the ten).
    expect(res.json()).toMatchObject({ error: MSG.tooManyImages, code: ERROR_CODE.ticketPhotosFull });
    expect(await t.ctx.db.select().from(images).where(eq(images.ticketId, ticketId))).toHaveLength(10);
    expect(await t.ctx.storage.head(eleventh.key)).toBeNull();
  });

  it('keeps the limit when 12 uploads complete at the same time', async () => {
    const ticketId = await newTicket('I-7');
    const small = await sharp(photo).resize(120).jpeg().toBuffer();
    const files = await Promise.all(Array.from({ length: 12 }, (_, i) => t.storeFile(company, 'media', `c${i}.jpg`, { body: small })));
    const results = await Promise.all(files.map((f) => complete({ ticketId, url: f.url })));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(10);
    expect(results.filter((r) => r.statusCode === 400).every((r) => r.json().error === MSG.tooManyImages && r.json().code === ERROR_CODE.ticketPhotosFull)).toBe(true);
    expect(await t.ctx.db.select().from(images).where(eq(images.ticketId, ticketId))).toHaveLength(10);
  });
});

describe('DELETE /tickets/images/{id}', () => {
  it('requires authentication', async () => {
    expect((await t.request({ method: 'DELETE', url: '/api/v1/tickets/images/1' })).statusCode).toBe(401);
  });

  it('a lineman may delete an image: the row, the photo and the thumbnail go', async () => {
    const ticketId = await newTicket('I-8');
    const file = await t.storeFile(company, 'media', 'pole.jpg', { body: photo });
    const { id, image } = (await complete({ ticketId, url: file.url })).json();
    const thumbKey = t.ctx.storage.keyFromUrl(image.thumbnailurl)!;
    expect((await t.request({ method: 'DELETE', url: `/api/v1/tickets/images/${id}`, token: other })).statusCode).toBe(404);
    const res = await t.request({ method: 'DELETE', url: `/api/v1/tickets/images/${id}`, token: lineman });
    expect(res.statusCode).toBe(200);
    expect(await t.ctx.db.select().from(images).where(eq(images.id, id))).toEqual([]);
    expect(await t.ctx.storage.head(file.key)).toBeNull();
    expect(await t.ctx.storage.head(thumbKey)).toBeNull();
    expect((await t.request({ method: 'DELETE', url: `/api/v1/tickets/images/${id}`, token: admin })).statusCode).toBe(404);
  });

  it('deleting the ticket deletes its images’ files', async () => {
    const ticketId = await newTicket('I-9');
    const file = await t.storeFile(company, 'media', 'pole.jpg', { body: photo });
    const { image } = (await complete({ ticketId, url: file.url })).json();
    expect((await t.request({ method: 'DELETE', url: `/api/v1/tickets/${ticketId}`, token: admin })).statusCode).toBe(200);
    expect(await t.ctx.storage.head(file.key)).toBeNull();
    expect(await t.ctx.storage.head(t.ctx.storage.keyFromUrl(image.thumbnailurl)!)).toBeNull();
    expect(await t.ctx.db.select().from(tickets).where(eq(tickets.id, ticketId))).toEqual([]);
  });
});
